import EventLog
import FieldAdvancing
import KeyboardAvoidance
import ResponderBus
import TextViewOrdering

// libFuzzer target for `LogReader`: whatever the bytes, reading the header and every item must not
// crash, and every record read must survive a write/read round trip unchanged.
//
// Properties checked (a violation traps, so libFuzzer saves the input as a crash):
// 1. `LogReader(bytes:)`, `readHeader()` and `next()` until `nil` never crash, and a record's
//    location is the line the reader is on (after the header's).
// 2. A header that was read, written with `LogWriter.line(for:)` and read again, is equal.
// 3. Every record that was read, written with `LogWriter.line(for:)` and read again under the same
//    header (the one read, or a default one when the input's header was rejected), is equal and is
//    the only item of that log.
// 4. The same bytes read with a small `maxLineLength` (the line-too-long paths) never crash.
// 5. Whatever the reader accepts replays without a crash through everything after it: the screen
//    model, the three built-in plugins (in the CLI's order), the coverage check and the recorder
//    (every record written as a log line), on the virtual-time loop until it is quiet.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// The executable's entry point: SwiftPM links `main` to `<Module>_main`.
@_cdecl("FuzzLogReader_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return withUnsafeMutablePointer(to: &arguments) { LLVMFuzzerRunDriver(&count, $0) { data, size in fuzzOne(data, size) } }
}

/// `FUZZ_VERBOSE=1 FuzzLogReader FILE…` prints what was read, to look into an input.
let verbose = getenv("FUZZ_VERBOSE") != nil

/// The header used for the round trip when the input's own header was rejected.
let fallbackHeader = LogHeader(screen: Size(width: 375, height: 812))

/// libFuzzer's callback, handed to `LLVMFuzzerRunDriver` above. Also exported under its C name:
/// `-sanitize=fuzzer` still links libFuzzer's `FuzzerMain.o` (whose `main` loses to SwiftPM's
/// `--defsym main=<Module>_main`), and it refers to `LLVMFuzzerTestOneInput`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))

    let reader = LogReader(bytes: bytes)
    var header = fallbackHeader
    do {
        header = try reader.readHeader()
        if verbose { print("header: \(LogWriter.line(for: header))") }
        checkHeaderRoundTrip(header)
    } catch {
        let message = error.description
        if verbose { print("header problem: \(message)") }
    }
    let headerLine = LogWriter.line(for: header)
    while let item = reader.next() {
        switch item {
        case .record(let record, let location):
            precondition(
                location.line >= 2 && location.line == reader.lineNumber, "a record's line \(location.line) is not the reader's \(reader.lineNumber)")
            if verbose { print("line \(location.line): \(LogWriter.line(for: record))") }
            checkRecordRoundTrip(record, headerLine: headerLine)
        case .problem(let problem):
            let message = problem.description
            if verbose { print("problem: \(message)") }
        }
    }

    replayThroughEverything(bytes)

    let short = LogReader(bytes: bytes, maxLineLength: 64)
    _ = try? short.readHeader()
    while let item = short.next() {
        if case .problem(let problem) = item { _ = problem.description }
    }
    return 0
}

func checkHeaderRoundTrip(_ header: LogHeader) {
    let line = LogWriter.line(for: header)
    let again = LogReader(bytes: Array((line + "\n").utf8))
    let reread: LogHeader
    do {
        reread = try again.readHeader()
    } catch {
        fatalError("round trip: the header written as \(line) does not read back: \(error)")
    }
    guard reread == header else {
        fatalError("round trip: the header \(header) was written as \(line) and read back as \(reread)")
    }
    if let item = again.next() { fatalError("round trip: a header-only log has an item after the header: \(item)") }
}

func checkRecordRoundTrip(_ record: LogRecord, headerLine: String) {
    let line = LogWriter.line(for: record)
    let again = LogReader(bytes: Array((headerLine + "\n" + line + "\n").utf8))
    do {
        _ = try again.readHeader()
    } catch {
        fatalError("round trip: the header written as \(headerLine) does not read back: \(error)")
    }
    // A record that was read with warnings (a view kind the reader does not know) reads back with
    // the same warnings, then itself.
    var item = again.next()
    while case .problem(let warning)? = item, warning.isWarning { item = again.next() }
    switch item {
    case .record(let reread, _)?:
        guard reread == record else {
            fatalError("round trip: the record \(record) was written as \(line) and read back as \(reread)")
        }
    case .problem(let problem)?:
        fatalError("round trip: the record \(record) was written as \(line), which does not read back: \(problem)")
    case nil:
        fatalError("round trip: the record \(record) was written as \(line), which reads back as nothing")
    }
    if let item = again.next() { fatalError("round trip: the record written as \(line) reads back as more than one item: \(item)") }
}

/// Property 5: the bytes replayed as `responder-bus replay --check --record` would, leniently.
func replayThroughEverything(_ bytes: [UInt8]) {
    let reader = LogReader(bytes: bytes)
    guard let header = try? reader.readHeader() else { return }
    let loop = VirtualTimeLoop()
    let bus = Bus(loop: loop, screen: Screen(size: header.screen, safeArea: header.safeArea ?? .zero))
    do {
        try bus.register(TextViewOrdering())
        try bus.register(FieldAdvancing())
        try bus.register(KeyboardAvoidance())
    } catch {
        fatalError("the built-in plugins do not register: \(error)")
    }
    let replayer = Replayer(bus: bus)
    replayer.apply(header)
    let check = CoverageCheck(bus: bus)
    let recorder = LogRecorder(bus: bus, selection: .all, clock: { [unowned replayer] in replayer.logTime }) { record in
        _ = LogWriter.line(for: record)
    }
    _ = replayer.replay(reader, on: loop, strict: false, readAhead: false)
    // Timers the plugins left (animation ends, settle windows) run too, boundedly.
    loop.runUntilQuiet(limit: 10_000)
    for violation in check.violations { _ = violation.description }
    recorder.stop()
    check.stop()
}
