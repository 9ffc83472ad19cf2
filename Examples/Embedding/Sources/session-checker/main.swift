import ResponderBusSessions

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// session-checker PATH… [--junit FILE] [--jobs N]: replays recorded sessions as a test suite and
// prints, writes and exits with what `responder-bus test` would.
var paths = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
    guard let index = paths.firstIndex(of: name), index + 1 < paths.count else { return nil }
    defer { paths.removeSubrange(index...index + 1) }
    return paths[index + 1]
}
let junit = option("--junit")
let jobs = option("--jobs").flatMap { Int($0) } ?? 1

do {
    let sessions = try SessionList.collect(paths)  // files, folders (their *.jsonl), or -
    let suite = SessionSuite()  // each folder's pipeline: its .responder-bus.json, else the built-ins
    try suite.prepare(sessions)
    let run = suite.run(sessions, jobs: jobs) { result in print(SessionSuite.line(for: result)) }
    print(run.summary)
    if let junit { try run.writeJUnit(to: junit) }
    exit(run.exitCode)
} catch {
    _ = "session-checker: \(error)\n".withCString { write(2, $0, strlen($0)) }
    exit(66)
}
