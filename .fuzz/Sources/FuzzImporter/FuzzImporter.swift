import ConsoleImport
import EventLog
import ResponderBus

// libFuzzer target for `ConsoleImporter`: whatever the bytes (decoded leniently as UTF-8, as the
// CLI does with a dump), importing must not crash, and the log it makes must read back cleanly.
//
// Properties checked (a violation traps, so libFuzzer saves the input as a crash):
// 1. `ConsoleImporter().importDump(_:)` never crashes. When it imports nothing only because the
//    screen is unknown, the import is repeated with a given screen (`--screen 375x812`, as its
//    message suggests), so dumps with editing notifications alone are covered too.
// 2. A non-empty result written with `LogWriter.text(header:records:)` reads back with `LogReader`
//    without a single problem...
// 3. ...and gives back the same header and the same records.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `FUZZ_VERBOSE=1 FuzzImporter FILE…` prints the problems and the imported log, to look into an input.
let verbose = getenv("FUZZ_VERBOSE") != nil

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// The executable's entry point: SwiftPM links `main` to `<Module>_main`.
@_cdecl("FuzzImporter_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return withUnsafeMutablePointer(to: &arguments) { LLVMFuzzerRunDriver(&count, $0) { data, size in fuzzOne(data, size) } }
}

/// libFuzzer's callback, handed to `LLVMFuzzerRunDriver` above. Also exported under its C name:
/// `-sanitize=fuzzer` still links libFuzzer's `FuzzerMain.o` (whose `main` loses to SwiftPM's
/// `--defsym main=<Module>_main`), and it refers to `LLVMFuzzerTestOneInput`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)

    var result = ConsoleImporter().importDump(text)
    if result.isEmpty, result.problems.contains(where: { $0.kind == .screenUnknown }) {
        result = ConsoleImporter(options: .init(screen: Size(width: 375, height: 812))).importDump(text)
    }
    for problem in result.problems {
        let message = problem.description
        if verbose { print("problem: \(message)") }
    }
    guard !result.isEmpty else { return 0 }

    let log = LogWriter.text(header: result.header, records: result.records)
    if verbose { print(log, terminator: "") }
    let reader = LogReader(bytes: Array(log.utf8))
    let header: LogHeader
    do {
        header = try reader.readHeader()
    } catch {
        fatalError("the imported log's header does not read back: \(error)\n--- log ---\n\(log)")
    }
    var records: [LogRecord] = []
    records.reserveCapacity(result.records.count)
    while let item = reader.next() {
        switch item {
        case .record(let record, _): records.append(record)
        // A warning (a value read as written that looks wrong, such as a console's 5.25 s keyboard
        // animation) reads back: the record follows it.
        case .problem(let problem) where problem.isWarning: continue
        case .problem(let problem): fatalError("the imported log does not read back: \(problem)\n--- log ---\n\(log)")
        }
    }
    guard header == result.header else {
        fatalError("the imported header \(result.header) reads back as \(header)\n--- log ---\n\(log)")
    }
    guard records == result.records else {
        let index =
            zip(records, result.records).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(records.count, result.records.count)
        fatalError(
            "the imported records read back differently (first at record \(index); \(result.records.count) imported, \(records.count) read)\n--- log ---\n\(log)"
        )
    }
    return 0
}
