import ConsoleImport
import Foundation
import ResponderBusReplay

// import-report CONSOLE [--scene DUMP] [--focus VIEW] [-o report.html] [--frame-at T --svg frame.svg]:
// imports a console paste, replays its records from memory (no log file) and writes the report.
let arguments = CommandLine.arguments
func option(_ name: String) -> String? { arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } }
func fail(_ message: String, _ code: Int32) -> Never {
    FileHandle.standardError.write(Data("import-report: \(message)\n".utf8))
    exit(code)
}
func read(_ path: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read '\(path)'", 66) }
    return [UInt8](data)
}
guard arguments.count > 1 else { fail("usage: import-report CONSOLE [--scene DUMP] [--focus VIEW] [-o FILE] [--frame-at T --svg FILE]", 64) }
let name = URL(fileURLWithPath: arguments[1]).lastPathComponent
let options = ConsoleImporter.Options(sceneText: option("--scene").map(read), focus: option("--focus"))
let imported = ConsoleImporter(options: options).importDump(read(arguments[1]))
for problem in imported.problems { FileHandle.standardError.write(Data("\(name): \(problem)\n".utf8)) }
guard imported.focusNotFound == nil else { fail("\(name): --focus names no text input", 64) }
guard !imported.isEmpty else { fail("\(name): nothing importable", 65) }
do {
    let session = try ReplaySession(pipeline: ReplayPipeline(PipelineDescription()), header: imported.header, options: .report)
    let result = session.finish(session.replay(records: imported.records))  // from memory: no log file is written
    let output = option("-o") ?? "report.html"
    try session.reportDocument(logName: name)!.html().write(toFile: output, atomically: true, encoding: .utf8)
    if let at = option("--frame-at").flatMap(Double.init), let svg = option("--svg") {
        try session.report!.frame(at: at).svg(logName: name).write(toFile: svg, atomically: true, encoding: .utf8)
    }
    print("\(name): \(imported.records.count) records replayed, \(result.derived) derived; wrote \(output)")
} catch { fail("\(error)", 1) }
