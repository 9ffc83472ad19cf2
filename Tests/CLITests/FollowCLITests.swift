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

        // Give the command a moment to replay the first part and start watching, then append; the
        // summary after the interrupt tells what was replayed.
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

/// A `responder-bus` run whose output is read while it runs.
final class LiveRun: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    init(_ arguments: [String], input: Pipe? = nil) throws {
        process.executableURL = CLI.binary
        process.arguments = arguments
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = input ?? FileHandle.nullDevice
        outPipe.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            lock.withLock { out.append(data) }
        }
        errPipe.fileHandleForReading.readabilityHandler = { [self] handle in
            let data = handle.availableData
            lock.withLock { err.append(data) }
        }
        try process.run()
    }

    var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }

    /// Waits until `condition` holds of the output so far, for at most `seconds`.
    @discardableResult
    func wait(upTo seconds: Double = 10, until condition: (LiveRun) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(self) { return true }
            usleep(20_000)
        }
        return condition(self)
    }

    /// Sends `signal` and waits for the end (at most 10 s, then kills it).
    func stop(with signal: Int32 = SIGINT) -> Int32 {
        // Only while it runs: the id of a process that ended may already be another's.
        if process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        usleep(100_000)  // the last output
        return process.terminationStatus
    }
}

@Suite("responder-bus replay --follow and --realtime, live", .serialized)
struct LiveReplayCLITests {
    static let lines =
        (try? String(contentsOfFile: CLI.example, encoding: .utf8))?.split(separator: "\n")
        .filter { !$0.contains(#""origin":"derived""#) }.map(String.init) ?? []

    static func append(_ lines: ArraySlice<String>, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((lines.joined(separator: "\n") + "\n").utf8))
        try handle.close()
    }

    @Test(
        "--follow shows each turn once a later record shows it whole, before it is stopped (output flushed every loop turn); the turn read last waits"
    )
    func flushedLive() throws {
        let path = try CLI.temporaryFile(Self.lines[0] + "\n")
        let run = try LiveRun(["replay", path, "--follow"])
        defer { _ = run.stop() }
        // Up to the first record at t 1.009: that turn may not be whole yet, and waits.
        try Self.append(Self.lines[1..<8], to: path)
        #expect(run.wait { $0.stdout.contains("didBeginEditing         'name'") }, "seen so far: \(run.stdout)")
        usleep(600_000)
        #expect(!run.stdout.contains("viewShift root to y -23"), "the turn at t 1.009 is held: \(run.stdout)")
        // Its second record and the next turn's: decided.
        try Self.append(Self.lines[8..<10], to: path)
        #expect(run.wait { $0.stdout.contains("KeyboardAvoidance: viewShift root to y -23") }, "seen so far: \(run.stdout)")
    }

    @Test("replay - from a pipe decides each turn once a later record arrives, while its writer is still writing, and ends with the pipe")
    func pipeDecidesAsItArrives() throws {
        let input = Pipe()
        let run = try LiveRun(["replay", "-"], input: input)
        defer { _ = run.stop() }
        let writer = input.fileHandleForWriting
        try writer.write(contentsOf: Data((Self.lines[0..<10].joined(separator: "\n") + "\n").utf8))
        // The writer has not finished (nor closed the pipe): the turn at t 1.009 is decided now,
        // since a record at t 1.26 followed it.
        #expect(run.wait { $0.stdout.contains("KeyboardAvoidance: viewShift root to y -23") }, "seen so far: \(run.stdout)")
        #expect(!run.stdout.contains("events,"), "no summary before the input ends")
        try writer.write(contentsOf: Data((Self.lines[10...].joined(separator: "\n") + "\n").utf8))
        try writer.close()
        run.process.waitUntilExit()
        usleep(100_000)
        #expect(run.process.terminationStatus == 0, "\(run.stderr)")
        #expect(run.stdout.contains("43 events, 10 derived"), "\(run.stdout)")
    }

    /// A console's keyboard notification, NSLog-stamped at `second`.
    static func consoleShow(_ name: String, second: Int, endY: Int) -> String {
        """
        2024-05-01 12:00:\(second < 10 ? "0" : "")\(second).000 App[1:2] \(name) userInfo: {
            UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, \(endY)}, {375, 291}}";
            UIKeyboardAnimationDurationUserInfoKey = "0.25";
        }

        """
    }

    @Test(
        "import --follow writes each event as it is found, flushed, holding back a userInfo not yet whole; a truncated console is read again, its times going on"
    )
    func importFollows() throws {
        let path = try CLI.temporaryFile("")
        let run = try LiveRun(["import", path, "--follow", "--screen", "375x812"])
        defer { _ = run.stop() }
        try Self.append(ArraySlice([Self.consoleShow("UIKeyboardWillShowNotification", second: 0, endY: 521)]), to: path)
        #expect(run.wait { $0.stdout.contains(#""event":"keyboardWillShow""#) }, "seen so far: \(run.stdout) \(run.stderr)")
        #expect(run.stdout.hasPrefix(#"{"format":"responder-bus-log","screen":{"height":812,"width":375}"#))
        // Half a userInfo: nothing yet; the rest: the event.
        let hide = Self.consoleShow("UIKeyboardWillHideNotification", second: 2, endY: 812).split(separator: "\n").map(String.init)
        try Self.append(hide[0..<2], to: path)
        usleep(600_000)
        #expect(!run.stdout.contains("keyboardWillHide"), "a userInfo cut at the end waits: \(run.stdout)")
        try Self.append(hide[2...], to: path)
        #expect(run.wait { $0.stdout.contains(#""event":"keyboardWillHide""#) }, "\(run.stdout)")
        #expect(run.stdout.contains(#""t":2"#))
        // Truncated and written anew: said, and its events come after those written.
        try Data(Self.consoleShow("UIKeyboardWillShowNotification", second: 0, endY: 400).utf8).write(to: URL(fileURLWithPath: path))
        #expect(run.wait { $0.stdout.contains(#""end":[0,400,375,291]"#) }, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("was truncated"), "\(run.stderr)")
        #expect(run.stop() == 0)
        let times = run.stdout.split(separator: "\n").compactMap { line -> Double? in
            guard let range = line.range(of: #""t":"#) else { return nil }
            return Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
        #expect(times == times.sorted(), "times never go back: \(times)")
    }

    @Test("--follow on a named pipe (FIFO) replays what its writer writes")
    func followsFIFO() throws {
        let folder = URL(fileURLWithPath: try CLI.temporaryFile("")).deletingLastPathComponent().path
        let path = folder + "/live-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).fifo"
        try #require(mkfifo(path, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        defer { unlink(path) }
        let run = try LiveRun(["replay", path, "--follow"])
        // Opening for writing waits for the reader: the follower opens it without waiting for a writer.
        let writer = try #require(FileHandle(forWritingAtPath: path))
        try writer.write(contentsOf: Data((Self.lines[0..<10].joined(separator: "\n") + "\n").utf8))
        #expect(run.wait { $0.stdout.contains("KeyboardAvoidance: viewShift root to y -23") }, "seen so far: \(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("didBeginEditing         'name'"))
        try writer.close()
        #expect(run.stop() == 0)
        #expect(!run.stderr.contains("truncated"), "\(run.stderr)")
    }

    @Test("--follow waits for a log that is not there yet, then for its header, and replays it")
    func waitsForHeader() throws {
        let folder = URL(fileURLWithPath: try CLI.temporaryFile("")).deletingLastPathComponent().path
        let path = folder + "/later.jsonl"
        let run = try LiveRun(["replay", path, "--follow", "--format", "jsonl"])
        #expect(run.wait { $0.stderr.contains("waiting for \(path) to be created") })
        #expect(FileManager.default.createFile(atPath: path, contents: Data(Self.lines[0].prefix(20).utf8)))
        #expect(run.wait { $0.stderr.contains("waiting for \(path) to have its header line") })
        try Self.append([String(Self.lines[0].dropFirst(20))] + Self.lines[1..<10], to: path)
        #expect(run.wait { $0.stdout.contains(#""originY":-23"#) }, "\(run.stderr)")
        #expect(run.stop() == 0)
        // Stopped, the turn read last (t 1.26) is decided too: every record read was replayed.
        #expect(run.stdout.contains(#""events":9"#), "\(run.stdout)")
    }

    @Test("--follow follows the name: a truncated, rotated or deleted log is said, and read again from its start with a new screen")
    func followsByName() throws {
        let path = try CLI.temporaryFile((Self.lines[0..<10]).joined(separator: "\n") + "\n")
        let run = try LiveRun(["replay", path, "--follow", "--format", "jsonl"])
        #expect(run.wait { $0.stdout.contains(#""originY":-23"#) })

        // Truncated and rewritten with a smaller screen: a new session on a new model.
        try Data().write(to: URL(fileURLWithPath: path))
        #expect(run.wait { $0.stderr.contains("was truncated: replaying it from its start, as a new session") }, "\(run.stderr)")
        let smaller = Self.lines[0].replacingOccurrences(of: #""height":812"#, with: #""height":700"#)
        try Self.append([smaller, Self.lines[1]], to: path)
        usleep(600_000)

        // Rotated: the old file moved aside, a new one at the name.
        try FileManager.default.moveItem(atPath: path, toPath: path + ".1")
        #expect(run.wait { $0.stderr.contains("was deleted: waiting for it to come back") })
        #expect(FileManager.default.createFile(atPath: path, contents: Data((Self.lines[0..<3].joined(separator: "\n") + "\n").utf8)))
        #expect(run.wait { $0.stderr.contains("was replaced by a new file (rotated?)") })
        usleep(600_000)

        #expect(run.stop() == 0)
        // 9 + 1 + 2 external events over three sessions (each ended session's last turn decided
        // when it ended); the last session's focus is on 'name'.
        #expect(run.stdout.contains(#""events":12"#), "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains(#""firstResponder":"name""#))
    }

    @Test("--realtime stopped with SIGINT prints its summary and leaves a complete recording")
    func realtimeInterrupted() throws {
        let folder = URL(fileURLWithPath: try CLI.temporaryFile("")).deletingLastPathComponent().path
        let recording = folder + "/realtime.jsonl"
        let run = try LiveRun(["replay", CLI.example, "--realtime", "--record", recording])
        #expect(run.wait { $0.stdout.contains("KeyboardAvoidance: viewShift root to y -23") }, "\(run.stdout)")
        #expect(run.stop() == 0)
        #expect(run.stdout.contains(" events, "), "\(run.stdout)")
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        #expect(text.split(separator: "\n").count > 5)
        #expect(text.contains(#""originY":-23"#))
    }
}
