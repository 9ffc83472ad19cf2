import Foundation
import ResponderBusPlatform
import Testing

/// Inputs that are not logs — endless devices, a folder on standard input, a file with a
/// byte-order mark — end with their name and an exit code, never a hang.
@Suite("responder-bus: inputs that are not logs are named, and every run ends")
struct ReadFaultsCLITests {
    @Test("replay /dev/zero ends at once, exit 66, naming the device", .timeLimit(.minutes(1)))
    func replayDevice() throws {
        let run = try CLI.run(["replay", "/dev/zero"])
        #expect(run.status == 66)
        #expect(run.stderr == "responder-bus: '/dev/zero' is a device, not a log file; name a .jsonl log\n")
    }

    @Test("replay - with a folder on standard input says so, exit 66")
    func replayFolderOnStandardInput() throws {
        let folder = TestFolders.root.appendingPathComponent("stdin-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let run = try CLI.shell("\(CLI.quoted(CLI.binary.path)) replay - < \(CLI.quoted(folder.path))")
        #expect(run.status == 66)
        #expect(run.stderr == "responder-bus: standard input is a directory, not a log file; name a .jsonl log inside it\n")
    }

    @Test("replay of a log that starts with a byte-order mark replays it")
    func replayByteOrderMark() throws {
        let example = try Data(contentsOf: URL(fileURLWithPath: CLI.example))
        let path = try CLI.temporaryFile("", name: "bom.jsonl")
        try (Data([0xEF, 0xBB, 0xBF]) + example).write(to: URL(fileURLWithPath: path))
        let run = try CLI.run(["replay", path, "--verify", "--strict"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("derived events match the log"))
    }

    @Test("replay of endless bytes on a pipe ends a gigabyte past the line limit, exit 65, lenient or strict", .timeLimit(.minutes(1)))
    func replayEndlessPipe() throws {
        let example = try String(contentsOfFile: CLI.example, encoding: .utf8)
        let header = String(example.prefix { $0 != "\n" })
        // The header, then bytes with no newline, for ever.
        let run = try CLI.shell("{ printf '%s\\n' \(CLI.quoted(header)); cat /dev/zero; } | \(CLI.quoted(CLI.binary.path)) replay -")
        #expect(run.status == 65)
        #expect(
            run.stderr.contains(
                "line 2, column 67108865: the line is longer than 67108864 bytes, and no newline came in the 1 GiB after; reading stopped here"),
            "\(run.stderr)")
    }

    @Test("a line over the 64 MiB limit in the middle of a log is named and skipped (exit 0, the rest replayed); --strict stops there with 65")
    func replayOverlongLine() throws {
        let lines = try String(contentsOfFile: CLI.example, encoding: .utf8).split(separator: "\n").map(String.init)
        let long = #"{"t":1,"event":"action","origin":"derived","by":"X","name":""# + String(repeating: "a", count: 65 << 20) + #""}"#
        let path = try CLI.temporaryFile((lines[0..<5] + [long] + lines[5...]).joined(separator: "\n") + "\n")
        let lenient = try CLI.run(["replay", path, "--format", "jsonl"])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stderr.contains("line 6, column 67108865: the line is longer than 67108864 bytes, the most a log's line may be; skipped"))
        #expect(lenient.stderr.contains("1 line skipped"), "\(lenient.stderr)")
        #expect(lenient.stdout.contains(#""events":43"#), "every event of the log after it too: \(lenient.stdout.suffix(300))")
        let strict = try CLI.run(["replay", path, "--strict"])
        #expect(strict.status == 65, "\(strict.stderr)")
    }

    @Test("test with a link to /dev/zero among its sessions finishes: the device is unreadable, the rest run, exit 1", .timeLimit(.minutes(1)))
    func corpusWithDevice() throws {
        let folder = TestFolders.root.appendingPathComponent("device-corpus-\(UUID().uuidString)/sessions")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.example, toPath: folder.appendingPathComponent("a.jsonl").path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("zero.jsonl").path, withDestinationPath: "/dev/zero")
        let junit = folder.deletingLastPathComponent().appendingPathComponent("junit.xml").path
        let run = try CLI.run(["test", folder.path, "--junit", junit])
        #expect(run.status == 1, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("pass  sessions/a.jsonl") == true, "\(run.stdout)")
        #expect(
            lines.contains("UNREADABLE  sessions/zero.jsonl: unreadable: '\(folder.path)/zero.jsonl' is a device, not a log file; name a .jsonl log"),
            "\(run.stdout)")
        #expect(lines.last?.hasPrefix("2 sessions: 1 passed, 0 failed, 1 unreadable;") == true, "\(run.stdout)")
        #expect(FileManager.default.fileExists(atPath: junit))
    }

    // APFS refuses a name that is not UTF-8 (EILSEQ): there no such session can exist.
    @Test(
        "a session whose file name is not UTF-8 (byte 0xFF) is found by test and opened by replay and test",
        .enabled(
            if: SystemFiles.acceptsNonUTF8Names(inFolder: TestFolders.root.path), "this file system refuses names that are not UTF-8 (APFS)")
    )
    func nameNotUTF8() throws {
        let folder = TestFolders.root.appendingPathComponent("bytes-\(UUID().uuidString)/sessions")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let binary = CLI.quoted(CLI.binary.path)
        let copy = try CLI.shell("cp \(CLI.quoted(CLI.example)) \(CLI.quoted(folder.path))/\"$(printf 'caf\\377.jsonl')\"")
        try #require(copy.status == 0, "\(copy.stderr)")
        let walked = try CLI.run(["test", folder.path])
        #expect(walked.status == 0, "\(walked.stdout)\(walked.stderr)")
        #expect(walked.stdout.hasPrefix("pass  sessions/caf\u{FFFD}.jsonl (43 events, 10 derived"), "\(walked.stdout)")
        #expect(walked.stdout.contains("\n1 session: 1 passed, 0 failed, 0 unreadable;"), "\(walked.stdout)")
        let named = try CLI.shell("cd \(CLI.quoted(folder.path)) && \(binary) test \"$(printf 'caf\\377.jsonl')\"")
        #expect(named.status == 0, "\(named.stdout)\(named.stderr)")
        let replayed = try CLI.shell("cd \(CLI.quoted(folder.path)) && \(binary) replay \"$(printf 'caf\\377.jsonl')\" --verify")
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stderr.contains("derived events match the log"), "\(replayed.stderr)")
    }
}
