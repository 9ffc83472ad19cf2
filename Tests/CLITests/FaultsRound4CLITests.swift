import Foundation
import ResponderBusPlatform
import Testing

/// Issue 46's faults, from outside: each fails on the code before its fix.
@Suite("Faults, round 4: plugin files that hang or that others can change, Unicode twins, a false warning", .serialized)
struct FaultsRound4CLITests {
    /// A folder of the test's own.
    private func folder() throws -> String {
        URL(fileURLWithPath: try CLI.temporaryFile("")).deletingLastPathComponent().path
    }

    @Test(
        "--plugin and check-plugin (a library or a module) given a named pipe (FIFO) refuse it at once with 78, never wait for a writer",
        // A build without the WebAssembly trait refuses every module alike: only the library then.
        arguments: CLI.loadsWebAssembly ? ["libPipe.so", "pipe.wasm"] : ["libPipe.so"])
    func pipePlugins(name: String) throws {
        let path = try folder() + "/" + name
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        // `timeout` ends a hang with 124: the test says so rather than waiting forever.
        let replay = try CLI.shell("timeout 20 \(CLI.quoted(CLI.binary.path)) replay \(CLI.quoted(CLI.example)) --plugin \(CLI.quoted(path))")
        #expect(replay.status == 78, "\(replay.status): \(replay.stderr)")
        #expect(replay.stderr.contains("not a regular file"), "\(replay.stderr)")
        let check = try CLI.shell("timeout 20 \(CLI.quoted(CLI.binary.path)) check-plugin \(CLI.quoted(path))")
        #expect(check.status == 78, "\(check.status): \(check.stderr)")
        #expect(check.stderr.contains("not a regular file"), "\(check.stderr)")
    }

    @Test("test DIR holding café.jsonl in NFC and in NFD runs both: two sessions, two JUnit cases, and the failing one fails the suite")
    func unicodeTwins() throws {
        let folder = try folder() + "/twins"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let example = try String(contentsOfFile: CLI.example, encoding: .utf8)
        // Two names that `String` calls equal, as bytes: "caf" + é, and "caf" + e + combining acute.
        let nfc: [UInt8] = Array("caf".utf8) + [0xC3, 0xA9] + Array(".jsonl".utf8)
        let nfd: [UInt8] = Array("caf".utf8) + [0x65, 0xCC, 0x81] + Array(".jsonl".utf8)
        func write(_ name: [UInt8], _ text: String) throws {
            // The name's bytes as they are: Foundation's file APIs would normalize them.
            let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]
            let file = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { fopen($0.baseAddress!, "wb") } }
            let handle = try #require(file)
            defer { fclose(handle) }
            let bytes = Array(text.utf8)
            #expect(fwrite(bytes, 1, bytes.count, handle) == bytes.count)
        }
        try write(nfc, example)
        // The twin's recorded decision is edited: it fails verification.
        try write(nfd, example.replacingOccurrences(of: #""originY":-129,"#, with: #""originY":-130,"#))
        let junit = folder + "/../twins.xml"
        let run = try CLI.run(["test", folder, "--junit", junit])
        #expect(run.status == 1, "the twin that fails fails the suite: \(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("2 sessions: 1 passed, 1 failed"), "\(run.stdout)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 2, "\(xml)")
    }

    @Test("a project file's pluginCommands script writable by others is refused with 78, as a library would be")
    func writableCommandScript() throws {
        let folder = try folder() + "/shared-script"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let log = folder + "/session.jsonl"
        try FileManager.default.copyItem(atPath: CLI.example, toPath: log)
        try "print('never run')\n".write(toFile: folder + "/gap.py", atomically: false, encoding: .utf8)
        #expect(chmod(folder + "/gap.py", 0o666) == 0)
        try #"{"pluginCommands": ["python3 gap.py"]}"#.write(toFile: folder + "/.responder-bus.json", atomically: false, encoding: .utf8)
        let run = try CLI.run(["replay", log])
        #expect(run.status == 78, "\(run.stderr)")
        #expect(run.stderr.contains("refusing to run 'gap.py': it is writable by anyone (mode 666)"), "\(run.stderr)")
        #expect(chmod(folder + "/gap.py", 0o644) == 0)
        let fixed = try CLI.run(["replay", log, "--format", "jsonl"])
        #expect(fixed.stderr.contains("refusing") == false, "\(fixed.stderr)")
    }

    @Test("a real-time replay that meets a gap of 10⁶ s in the log says it waits, rather than sleeping without a word")
    func longWaitIsSaid() throws {
        let log = try CLI.temporaryFile(
            """
            {"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812}}
            {"t":0,"event":"scene","root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[]}}
            {"t":1000000,"event":"keyboardWillShow","end":[0,521,375,291]}

            """)
        let run = try LiveRun(["replay", log, "--realtime"])
        #expect(run.wait(upTo: 5) { $0.stderr.contains("waiting") }, "\(run.stderr)")
        #expect(run.stop() == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains("waiting 1000000 s for t=1000000 s of the log at --speed 1 (a gap in the log?); Ctrl-C ends the replay"),
            "\(run.stderr)")
    }

    @Test("Return on the only field, then its end and the keyboard's going 10 ms later: no 'the keyboard went away … never found a field' warning")
    func noFalseHeldFrameWarning() throws {
        let log = """
            {"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812}}
            {"t":0,"event":"scene","root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[{"id":"email","kind":"textField","tag":1,"frame":[20,600,335,44]}]}}
            {"t":1,"event":"didBeginEditing","view":"email"}
            {"t":1,"event":"keyboardWillShow","begin":[0,812,375,291],"end":[0,521,375,291],"duration":0.25,"curve":7}
            {"t":2,"event":"returnKey","view":"email"}
            {"t":2.01,"event":"didEndEditing","view":"email"}
            {"t":2.01,"event":"keyboardWillHide","begin":[0,521,375,291],"end":[0,812,375,291],"duration":0.25,"curve":7}

            """
        let run = try CLI.run(["replay", try CLI.temporaryFile(log), "--format", "jsonl"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""event":"resign""#), "FieldAdvancing resigns the only field: \(run.stdout)")
        #expect(!run.stdout.contains("never found a field"), "\(run.stdout)")
        #expect(!run.stdout.contains("has been held since"), "\(run.stdout)")
    }
}
