import Foundation
import Testing

/// Outputs a run must not destroy or litter: a read-only file, and the temporary file of a run
/// ended by a signal.
@Suite("outputs: a read-only file is refused, a signal leaves no temporary file")
struct OutputSignalsCLITests {
    /// The names in `folder`, hidden ones too.
    static func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test("--record and --report onto a read-only file: refused with 73, the file as it was", arguments: ["--record", "--report"])
    func readOnlyIsRefused(option: String) throws {
        let path = try CLI.temporaryFile("previous\n", name: "kept.out")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let run = try CLI.run(["replay", CLI.example, option, path])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(
            run.stderr == "responder-bus: cannot create '\(path)': it is read-only (mode 444); make it writable (chmod u+w) or choose another file\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous\n")
        #expect(try Self.names(in: URL(fileURLWithPath: path).deletingLastPathComponent().path) == ["kept.out"])
    }

    @Test("SIGINT or SIGTERM during a fast replay --record: the process ends by the signal, no temporary file is left", arguments: [SIGINT, SIGTERM])
    func signalLeavesNoTemporary(signal: Int32) throws {
        let folder = URL(fileURLWithPath: try CLI.temporaryFile("previous\n", name: "rec.jsonl")).deletingLastPathComponent()
        let target = folder.appendingPathComponent("rec.jsonl").path
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["replay", "-", "--record", target, "--format", "jsonl"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The start of a log, then nothing more for now: the replay waits for more, mid-recording.
        let example = try String(contentsOfFile: CLI.example, encoding: .utf8).split(separator: "\n").prefix(5).joined(separator: "\n")
        input.fileHandleForWriting.write(Data((example + "\n").utf8))
        var waited = 0
        while try Self.names(in: folder.path).count < 2 && waited < 500 {
            usleep(20_000)
            waited += 1
        }
        #expect(
            try Self.names(in: folder.path).contains { $0.hasPrefix(".rec.jsonl.") && $0.hasSuffix(".tmp") },
            "the temporary file is there while recording")
        kill(process.processIdentifier, signal)
        // Within a second or so; a process the signal did not end is killed, and the test fails.
        var ticks = 0
        while process.isRunning && ticks < 500 {
            usleep(20_000)
            ticks += 1
        }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try input.fileHandleForWriting.close()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == signal)
        #expect(try Self.names(in: folder.path) == ["rec.jsonl"])
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "previous\n")
    }
}
