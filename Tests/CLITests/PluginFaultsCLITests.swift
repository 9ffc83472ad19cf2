import Foundation
import ResponderBusPlatform
import Testing

/// Out-of-process plugins that crash are said, counted and judged, never passed over in silence.
@Suite("plugin faults: said on standard error, counted in the summary, failing test sessions")
struct PluginFaultsCLITests {
    /// A plugin that says something on standard error and exits on every event it is sent.
    static func crashing() throws -> String {
        try ExternalPluginCLITests.script("print('ValueError: no frame for you', file=sys.stderr); sys.stderr.flush(); sys.exit(3)")
    }

    /// What the plugin did, as a fault says it: with its last words on standard error.
    static let exited = "exited with status 3; its standard error ended: ValueError: no frame for you; "

    @Test("replay: each restart and the disabling on standard error, counted in both summaries, the plugin listed")
    func replaySaysFaults() throws {
        let plugin = "python3 \(try Self.crashing())"
        // Four showings: three restarts, then disabled.
        let log = CLI.example
        let jsonl = try CLI.run(["replay", log, "--format", "jsonl", "--plugin-command", plugin])
        #expect(jsonl.status == 0, "\(jsonl.stderr)")
        let said = jsonl.stderr.split(separator: "\n").filter { $0.hasPrefix("responder-bus: plugin 'Crashy'") }
        #expect(
            said == [
                "responder-bus: plugin 'Crashy' \(Self.exited)restarting it in 0.1 seconds (restart 1 of 3)",
                "responder-bus: plugin 'Crashy' \(Self.exited)restarting it in 0.2 seconds (restart 2 of 3)",
                "responder-bus: plugin 'Crashy' \(Self.exited)restarting it in 0.4 seconds (restart 3 of 3)",
            ], "\(jsonl.stderr)")
        let summary = try #require(jsonl.stdout.split(separator: "\n").last)
        #expect(summary.hasPrefix(#"{"commandPlugins":["Crashy"],"conflicts":0,"derived":"#), "\(summary)")
        #expect(summary.contains(#""disabledPlugins":[],"#))
        #expect(summary.contains(#""pluginFaults":3,"#))

        let text = try CLI.run(["replay", log, "--plugin-command", plugin])
        #expect(text.stdout.contains("→ Crashy (command; failed 3 times, restarted)\n"), "\(text.stdout)")
    }

    @Test("replay: a plugin disabled after its restarts is listed as disabled")
    func replaySaysDisabled() throws {
        let plugin = "python3 \(try Self.crashing())"
        let shows = (1...5).map { #"{"event":"keyboardWillShow","t":\#($0),"begin":[0,812,375,0],"end":[0,521,375,291],"duration":0.25,"curve":7}"# }
        let log = try CLI.temporaryFile(
            ([#"{"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812}}"#] + shows).joined(separator: "\n") + "\n")
        let run = try CLI.run(["replay", log, "--format", "jsonl", "--plugin-command", plugin])
        #expect(run.status == 0)
        #expect(
            run.stderr.contains(
                "responder-bus: plugin 'Crashy' \(Self.exited)it failed 4 times, so it is disabled for the rest of the session\n"))
        #expect(run.stdout.contains(#""disabledPlugins":["Crashy"],"#))
        #expect(run.stdout.contains(#""pluginFaults":4,"#))
    }

    @Test(
        "test: a session whose plugin crashed fails, quoting the fault and its last words, in stdout and JUnit; --allow-plugin-failures lets it pass")
    func testFailsSessions() throws {
        let plugin = "python3 \(try Self.crashing())"
        let folder = TestFolders.root.appendingPathComponent("crashing-\(UUID().uuidString)/sessions")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.example, toPath: folder.appendingPathComponent("a.jsonl").path)
        let junit = folder.deletingLastPathComponent().appendingPathComponent("junit.xml").path
        let failing = try CLI.run(["test", folder.path, "--plugin-command", plugin, "--junit", junit])
        #expect(failing.status == 1, "\(failing.stdout)\(failing.stderr)")
        let line = try #require(failing.stdout.split(separator: "\n").first)
        #expect(
            line.hasPrefix(
                "FAIL  sessions/a.jsonl: plugin: plugin 'Crashy' \(Self.exited)restarting it in 0.1 seconds (restart 1 of 3); 3 faults in all, the last: "
            ))
        #expect(line.hasSuffix("restarting it in 0.4 seconds (restart 3 of 3) (--allow-plugin-failures lets such sessions pass)"), "\(line)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("ValueError: no frame for you"))

        let allowed = try CLI.run(["test", folder.path, "--plugin-command", plugin, "--allow-plugin-failures"])
        #expect(allowed.status == 0, "\(allowed.stdout)")
        #expect(allowed.stdout.contains("; 3 plugin faults allowed)"), "\(allowed.stdout)")
    }

    @Test("test: a plugin that hangs fails its session with the timeout and its last line on standard error")
    func testQuotesHangingPlugin() throws {
        let hanging = try ExternalPluginCLITests.script("print('stuck in a loop', file=sys.stderr); sys.stderr.flush(); import time; time.sleep(5)")
        let folder = TestFolders.root.appendingPathComponent("hanging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.example, toPath: folder.appendingPathComponent("a.jsonl").path)
        let run = try CLI.run(["test", folder.path, "--plugin-command", "python3 \(hanging)", "--plugin-timeout", "100"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let line = try #require(run.stdout.split(separator: "\n").first)
        #expect(line.contains(": plugin: plugin 'Crashy' did not answer"), "\(line)")
        #expect(line.hasSuffix("; its last line on standard error: stuck in a loop (--allow-plugin-failures lets such sessions pass)"), "\(line)")
    }

    /// Whether process `pid` is running (a zombie, or gone, is not): `kill(pid, 0)`, and the
    /// process's state from the system (the platform layer: Linux's `/proc`, Darwin's `sysctl`).
    static func isRunning(_ pid: Int32) -> Bool {
        SystemProcess.isRunning(pid)
    }

    @Test(
        "Ctrl-C or SIGTERM during test, a plugin hung: the run ends by the signal and the plugin's process group with it",
        arguments: [SIGINT, SIGTERM])
    func signalEndsHungPluginGroup(signal: Int32) throws {
        let folder = TestFolders.root.appendingPathComponent("hung-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.example, toPath: folder.appendingPathComponent("a.jsonl").path)
        let pids = folder.appendingPathComponent("pids").path
        // On an event: start a child, note both ids, then hang.
        let hung = try ExternalPluginCLITests.script(
            "import subprocess, time; child = subprocess.Popen(['sleep', '300']); open(\(String(reflecting: pids)), 'w').write('%d %d' % (os.getpid(), child.pid)); time.sleep(300)"
        )
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["test", folder.path, "--plugin-command", "python3 \(hung)", "--plugin-timeout", "600000"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var waited = 0
        while (try? String(contentsOfFile: pids, encoding: .utf8))?.contains(" ") != true && waited < 500 {
            usleep(20_000)
            waited += 1
        }
        let ids = try String(contentsOfFile: pids, encoding: .utf8).split(separator: " ").compactMap { Int32($0) }
        try #require(ids.count == 2 && ids.allSatisfy(Self.isRunning))
        kill(process.processIdentifier, signal)
        waited = 0
        while process.isRunning && waited < 250 {
            usleep(20_000)
            waited += 1
        }
        #expect(
            !process.isRunning,
            "the run, and with it what it started (Foundation sees a process end when its descendants let go of its pipes), ended within 5 seconds")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal)
        waited = 0
        while ids.contains(where: Self.isRunning) && waited < 100 {
            usleep(20_000)
            waited += 1
        }
        #expect(!ids.contains(where: Self.isRunning), "the plugin and its child ended with the run")
        for id in ids where Self.isRunning(id) { kill(id, SIGKILL) }
    }
}
