import Foundation
import Testing

/// Runs a shell command line (for redirections the `Process` API cannot express: `>&-`, `trap`).
private func sh(_ script: String) throws -> CLI.Run {
    try #require(try runProcess("/bin/sh", ["-c", script], timeout: 120), "the command did not finish")
}

/// A log larger than the 64 KiB a first read holds whole.
private func largeLog() throws -> String {
    let lines = try String(contentsOfFile: CLI.example, encoding: .utf8).split(separator: "\n")
        .filter { !$0.contains(#""origin":"derived""#) }
    var text = String(lines[0]) + "\n"
    var offset = 0.0
    while text.utf8.count < 200_000 {
        for line in lines.dropFirst() {
            // Each copy of the session later than the one before it.
            let t =
                line.range(of: #""t":"#).map { range -> String in
                    let rest = line[range.upperBound...]
                    let number = rest.prefix { $0.isNumber || $0 == "." }
                    return line.replacingCharacters(
                        in: range.upperBound..<rest.index(rest.startIndex, offsetBy: number.count), with: "\((Double(number) ?? 0) + offset)")
                } ?? String(line)
            text += t + "\n"
        }
        offset += 100
    }
    return try CLI.temporaryFile(text)
}

@Suite("responder-bus outputs: failed writes are errors, files appear whole or not at all", .serialized)
struct OutputFaultsCLITests {
    static let dump = CLI.consoleDumps.appendingPathComponent("01-swift-iphone5-320x568-full-six-notification-set.txt").path

    @Test(
        "every way of writing to a full disk exits 74 naming the output and the error",
        arguments: [
            "replay EXAMPLE --format jsonl > /dev/full",
            "replay EXAMPLE > /dev/full",
            "replay EXAMPLE --record /dev/full > /dev/null",
            "replay EXAMPLE --report /dev/full > /dev/null",
            "import DUMP -o /dev/full",
            "import DUMP > /dev/full",
            "render EXAMPLE --at 1 -o /dev/full",
            "render EXAMPLE --at 1 > /dev/full",
        ])
    func fullDisk(_ command: String) throws {
        let line = command.replacingOccurrences(of: "EXAMPLE", with: CLI.example).replacingOccurrences(of: "DUMP", with: Self.dump)
        let run = try sh("'\(CLI.binary.path)' \(line)")
        #expect(run.status == 74, "\(run.stderr)")
        #expect(run.stderr.contains("cannot write"), "\(run.stderr)")
        #expect(run.stderr.contains("No space left on device"), "\(run.stderr)")
    }

    @Test("an output that cannot be created exits 73 before the replay", arguments: ["--record", "--report"])
    func cannotCreate(_ option: String) throws {
        let run = try CLI.run(["replay", CLI.example, option, "/nonexistent-folder/out.file"])
        #expect(run.status == 73)
        #expect(run.stderr.contains("cannot create '/nonexistent-folder/out.file': No such file or directory"))
        #expect(run.stdout.isEmpty)
    }

    @Test("a closed standard output exits 74 with EBADF")
    func closedStandardOutput() throws {
        let run = try sh("'\(CLI.binary.path)' replay '\(CLI.example)' --format jsonl >&-")
        #expect(run.status == 74)
        #expect(run.stderr.contains("cannot write standard output: Bad file descriptor"))
    }

    @Test("a reader that goes away: quiet with SIGPIPE's default, exit 74 with EPIPE when SIGPIPE is ignored")
    func brokenPipe() throws {
        let log = try largeLog()
        // The replay's own status: the pipeline's first command, written to a file by a subshell.
        let statusFile = URL(fileURLWithPath: log).deletingLastPathComponent().path + "/status"
        let ignored = try sh("trap '' PIPE; ('\(CLI.binary.path)' replay '\(log)'; echo $? > '\(statusFile)') | head -c 1 > /dev/null")
        #expect(ignored.stderr.contains("cannot write standard output: Broken pipe"), "\(ignored.stderr)")
        #expect(try String(contentsOfFile: statusFile, encoding: .utf8) == "74\n")
        let quiet = try sh("'\(CLI.binary.path)' replay '\(log)' | head -c 1 > /dev/null")
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    @Test("a failed run leaves the previous file as it was and no temporary file behind")
    func previousFileKept() throws {
        let folder = try CLI.temporaryFile("", name: "placeholder")
        let directory = URL(fileURLWithPath: folder).deletingLastPathComponent().path
        let recording = directory + "/kept.jsonl"
        try "previous\n".write(toFile: recording, atomically: true, encoding: .utf8)
        let run = try CLI.run(["replay", CLI.example, "--record", recording, "--report", "/nonexistent-folder/r.html"])
        #expect(run.status == 73)
        #expect(try String(contentsOfFile: recording, encoding: .utf8) == "previous\n")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".tmp") }
        #expect(left.isEmpty, "\(left)")

        // A successful run replaces it, with the mode a new file gets.
        let done = try CLI.run(["replay", CLI.example, "--record", recording])
        #expect(done.status == 0)
        #expect(try String(contentsOfFile: recording, encoding: .utf8).contains(#""format":"responder-bus-log""#))
        let mode = try FileManager.default.attributesOfItem(atPath: recording)[.posixPermissions] as? Int
        #expect(mode == 0o644)
    }

    @Test(
        "an output onto an input or another output is refused with 64 before anything is written; the input survives",
        arguments: [
            "replay LOG --record LOG",
            "replay LOG --report LOG",
            "replay LOG --record OUT --report OUT",
            "replay LINK --record LOG",
            "replay LOG --format jsonl >> LOG",
            "render LOG --at 1 -o LOG",
            "import LOG -o LOG",
        ])
    func outputOntoInput(_ command: String) throws {
        let log = try largeLog()
        let before = try Data(contentsOf: URL(fileURLWithPath: log))
        let folder = URL(fileURLWithPath: log).deletingLastPathComponent().path
        try? FileManager.default.createSymbolicLink(atPath: folder + "/link.jsonl", withDestinationPath: log)
        let line = command.replacingOccurrences(of: "LOG", with: "'\(log)'").replacingOccurrences(of: "OUT", with: "'\(folder)/out.file'")
            .replacingOccurrences(of: "LINK", with: "'\(folder)/link.jsonl'")
        let run = try sh("'\(CLI.binary.path)' \(line)")
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("is the same file as the"), "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.file"))
    }

    @Test("devices are not files to protect: --record and --report may both go to /dev/null")
    func devices() throws {
        let run = try CLI.run(["replay", CLI.example, "--record", "/dev/null", "--report", "/dev/null"])
        #expect(run.status == 0, "\(run.stderr)")
    }
}
