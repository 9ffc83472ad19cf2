import Foundation
import Testing

@Suite("responder-bus replay --follow", .serialized)
struct FollowCLITests {
    @Test("--follow replays what is appended to the log as it arrives, until interrupted")
    func follow() throws {
        let lines = try String(contentsOfFile: CLI.example, encoding: .utf8).split(separator: "\n").filter { !$0.contains(#""origin":"derived""#) }
        let path = try CLI.temporaryFile(lines[0..<12].joined(separator: "\n") + "\n")
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["replay", path, "--follow", "--format", "jsonl"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // Give the command a moment to replay the first part and start watching, then append; stdout
        // is buffered until exit, so the summary after the interrupt tells what was replayed.
        usleep(500_000)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((lines[12..<22].joined(separator: "\n") + "\n").utf8))
        try handle.close()
        // The file watcher notices within a poll interval at most.
        usleep(1_000_000)
        process.interrupt()
        process.waitUntilExit()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0)
        let summary = try #require(output.split(separator: "\n").last)
        // 21 external events in the first 22 lines after the header; the focus ends on email.
        #expect(summary.contains(#""events":21"#), "\(summary)")
        #expect(summary.contains(#""firstResponder":"email""#))
        #expect(output.contains(#""originY":-223"#))
    }
}
