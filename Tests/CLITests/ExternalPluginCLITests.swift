import Foundation
import Testing

@Suite("replay --plugin-command: plugins out of process")
struct ExternalPluginCLITests {
    static let avoidanceProcess = CLI.binary.deletingLastPathComponent().appendingPathComponent("keyboard-avoidance-process").path
    static let pythonKit = CLI.repository.appendingPathComponent("PluginKits/python").path

    @Test("the built-in avoidance run out of process derives exactly what it derives in-process, on virtual time and on libuv")
    func sameResultsBothLoops() throws {
        for log in [CLI.example, CLI.repository.appendingPathComponent("Sources/responder-bus/Examples/imported-textview-375x667.jsonl").path] {
            let base = ["replay", log, "--format", "jsonl", "--disable", "TextViewOrdering"]
            let inProcess = try CLI.run(base)
            let external = ["--disable", "KeyboardAvoidance", "--plugin-command", Self.avoidanceProcess]
            let virtual = try CLI.run(base + external)
            let libuv = try CLI.run(base + external + ["--realtime", "--speed", "1000000"])
            #expect(inProcess.status == 0)
            #expect(virtual.status == 0, "\(virtual.stderr)")
            #expect(libuv.status == 0, "\(libuv.stderr)")
            #expect(inProcess.stdout.contains(#""by":"KeyboardAvoidance""#))
            // The decisions are the same; the summaries differ in the plugins out of process.
            func decisions(_ run: CLI.Run) -> [Substring] { run.stdout.split(separator: "\n").dropLast() }
            #expect(decisions(virtual) == decisions(inProcess))
            #expect(decisions(libuv) == decisions(inProcess))
            #expect(virtual.stdout.contains(#"{"commandPlugins":["KeyboardAvoidance"],"#))
            #expect(inProcess.stdout.contains(#"{"commandPlugins":[],"#))
        }
    }

    /// A Python plugin named `Crashy`, asking for `keyboardWillShow`, whose `on_event` is `body`.
    static func script(_ body: String) throws -> String {
        let source = """
            import os, signal, sys
            sys.path.insert(0, \(String(reflecting: Self.pythonKit)))
            from responder_bus_plugin import Plugin, run
            class P(Plugin):
                name = "Crashy"
                events = ["keyboardWillShow"]
                def on_event(self, event, context):
                    \(body)
            sys.exit(run(P()))

            """
        return try CLI.temporaryFile(source, name: "crashy.py")
    }

    @Test("a failing plugin: reported and the replay completes by default; --plugin-failure stop ends with 70")
    func failureModes() throws {
        let crashy = try Self.script("os.kill(os.getpid(), signal.SIGKILL)")
        let goOn = try CLI.run(["replay", CLI.example, "--format", "jsonl", "--plugin-command", "python3 \(crashy)"])
        #expect(goOn.status == 0, "\(goOn.stderr)")
        #expect(goOn.stdout.contains("plugin 'Crashy' was killed by signal 9 (SIGKILL); restarting it in 0.1 seconds (restart 1 of 3)"))
        #expect(goOn.stdout.contains(#""by":"KeyboardAvoidance""#), "the other plugins went on")
        let stop = try CLI.run(["replay", CLI.example, "--plugin-command", "python3 \(crashy)", "--plugin-failure", "stop"])
        #expect(stop.status == 70)
        #expect(stop.stderr.contains("plugin 'Crashy' was killed by signal 9 (SIGKILL); stopping (--plugin-failure stop)"))
    }

    @Test("a plugin stopping the replay under the stop policy: test --update leaves the log whole and fails the session; render exits 70")
    func stopPolicyWritesNothing() throws {
        let crashy = try Self.script("os.kill(os.getpid(), signal.SIGKILL)")
        let original = try String(contentsOfFile: CLI.example, encoding: .utf8)
        // A session whose decisions differ (one viewShift edited), so --update would rewrite it.
        let edited = original.replacingOccurrences(of: #""originY":-23"#, with: #""originY":-24"#)
        #expect(edited != original)
        let session = try CLI.temporaryFile(edited, name: "session.jsonl")
        let run = try CLI.run([
            "test", session, "--update", "--no-project-file", "--plugin-command", "python3 \(crashy)", "--plugin-failure", "stop",
        ])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("FAIL  "), "\(run.stdout)")
        #expect(run.stdout.contains("the replay stopped there (plugin failure policy stop)"), "\(run.stdout)")
        #expect(try String(contentsOfFile: session, encoding: .utf8) == edited, "the log was rewritten from a cut-short replay")

        let render = try CLI.run(["render", CLI.example, "--at", "5", "--plugin-command", "python3 \(crashy)", "--plugin-failure", "stop"])
        #expect(render.status == 70, "\(render.stderr)")
        #expect(render.stdout.isEmpty)
    }

    @Test("a failed run (a plugin's stop, a strict stop) leaves the previous recording and report as they were")
    func failedRunKeepsPreviousFiles() throws {
        let crashy = try Self.script("os.kill(os.getpid(), signal.SIGKILL)")
        let record = try CLI.temporaryFile("previous\n", name: "rec.jsonl")
        let report = URL(fileURLWithPath: record).deletingLastPathComponent().appendingPathComponent("rep.html").path
        let stop = try CLI.run([
            "replay", CLI.example, "--no-project-file", "--plugin-command", "python3 \(crashy)", "--plugin-failure", "stop", "--record", record,
            "--report", report,
        ])
        #expect(stop.status == 70, "\(stop.stderr)")
        #expect(try String(contentsOfFile: record, encoding: .utf8) == "previous\n")
        #expect(!FileManager.default.fileExists(atPath: report))
        #expect(stop.stderr.contains("not written, since the run failed"), "\(stop.stderr)")

        let bad = try CLI.temporaryFile(try String(contentsOfFile: CLI.example, encoding: .utf8) + "{not a record\n", name: "bad.jsonl")
        let strict = try CLI.run(["replay", bad, "--strict", "--record", record])
        #expect(strict.status == 65, "\(strict.stderr)")
        #expect(try String(contentsOfFile: record, encoding: .utf8) == "previous\n")
        let folder = URL(fileURLWithPath: record).deletingLastPathComponent().path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.hasSuffix(".tmp") })
    }

    @Test("a Python plugin's decisions appear in the timeline, its standard error as info diagnostics")
    func pythonPlugin() throws {
        let chatty = try Self.script(#"sys.stderr.write("saw %s\n" % event["event"]); context.diagnose("warning", "checked", views=["name"])"#)
        let run = try CLI.run(["replay", CLI.example, "--plugin-command", "python3 \(chatty)"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("→ Crashy: diagnostic warning: checked [views: 'name']"))
        #expect(run.stdout.contains("→ Crashy: diagnostic info: saw keyboardWillShow"))
        #expect(run.stdout.contains("plugins: TextViewOrdering → FieldAdvancing → KeyboardAvoidance → Crashy"))
    }

    @Test("new-plugin --language python writes a plugin whose own test passes, that replays, passes check-plugin and runs under test")
    func pythonScaffold() throws {
        let folder = try PluginCLITests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try CLI.run(["new-plugin", "FocusPy", "--language", "python", "--path", folder, "--responder-bus", CLI.repository.path])
        #expect(made.status == 0, "\(made.stderr)")
        let package = folder + "/FocusPy"
        for file in ["FocusPy.py", "responder_bus_plugin.py", "test_FocusPy.py", "README.md"] {
            #expect(FileManager.default.fileExists(atPath: package + "/" + file), "\(file)")
        }
        let unittest = try shell("python3 -m unittest", in: package)
        #expect(unittest.status == 0, "\(unittest.output)")
        #expect(unittest.output.contains("Ran 4 tests"))

        let command = "python3 \(package)/FocusPy.py"
        let replay = try CLI.run(["replay", CLI.example, "--plugin-command", command])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("→ FocusPy: diagnostic info: the keyboard showed for 'name'"))
        let check = try CLI.run(["check-plugin", "--", "python3", package + "/FocusPy.py"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("✓ determinism"))
        #expect(check.stdout.hasSuffix("all checks passed\n"))

        let copy = folder + "/again.jsonl"
        try FileManager.default.copyItem(atPath: CLI.example, toPath: copy)
        let suite = try CLI.run(["test", CLI.example, copy, "--plugin-command", command, "--jobs", "2"])
        #expect(suite.status == 0, "\(suite.stdout)\(suite.stderr)")
        #expect(suite.stdout.contains("2 sessions: 2 passed"))
    }

    @Test("check-plugin fails a plugin that derives what it may not, and cannot check one that does not start")
    func checkPluginFailures() throws {
        let cheater = try Self.script(#"context.post("didBeginEditing", view="name")"#)
        let check = try CLI.run(["check-plugin", "--", "python3", cheater])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("✗ no errors"))
        #expect(check.stdout.contains("derived 'didBeginEditing', which is not an event plugins derive"))
        let missing = try CLI.run(["check-plugin", "--", "no-such-plugin-program-xyz"])
        #expect(missing.status == 78)
        #expect(missing.stderr.contains("cannot check 'no-such-plugin-program-xyz'"))
        let nothing = try CLI.run(["check-plugin"])
        #expect(nothing.status == 64)
    }

    @Test("the README's example Python plugin warns when the keyboard covers the focused field")
    func readmeExample() throws {
        let example = CLI.repository.appendingPathComponent("PluginKits/python/examples/covered_field.py").path
        let run = try CLI.run(["replay", CLI.example, "--disable", "KeyboardAvoidance", "--plugin-command", "python3 \(example)"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("→ CoveredField: diagnostic warning: the keyboard covers email by 203 points [views: 'email']"))
        // With avoidance on, nothing is left covered.
        let avoided = try CLI.run(["replay", CLI.example, "--plugin-command", "python3 \(example)"])
        #expect(avoided.status == 0)
        #expect(!avoided.stdout.contains("→ CoveredField: diagnostic"))
        #expect(avoided.stdout.contains("plugins: TextViewOrdering → FieldAdvancing → KeyboardAvoidance → CoveredField"))
    }

    @Test("an external plugin's decisions are recorded, verified, checked and reported like any plugin's")
    func recordVerifyReport() throws {
        let example = CLI.repository.appendingPathComponent("PluginKits/python/examples/covered_field.py").path
        let folder = try PluginCLITests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plugin = ["--disable", "KeyboardAvoidance", "--plugin-command", "python3 \(example)"]
        let first = try CLI.run(
            ["replay", CLI.example, "--record", folder + "/rec.jsonl", "--report", folder + "/r.html", "--check"] + plugin)
        #expect(first.status == 1, "--check: avoidance is off, so fields are left covered")
        let recorded = try String(contentsOfFile: folder + "/rec.jsonl", encoding: .utf8)
        #expect(recorded.contains(#""by":"CoveredField""#))
        #expect(try String(contentsOfFile: folder + "/r.html", encoding: .utf8).contains("CoveredField"))
        let verify = try CLI.run(["replay", folder + "/rec.jsonl", "--verify", "--verify-diagnostics"] + plugin)
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stderr.contains("verify: 6 derived events match the log"))
    }

    @Test("bad commands: unbalanced quotes are a usage error, a missing program a plugin error, --help lists the options")
    func badCommands() throws {
        let quote = try CLI.run(["replay", CLI.example, "--plugin-command", "python3 'oops"])
        #expect(quote.status == 64)
        #expect(quote.stderr.contains("unterminated single quote"))
        let missing = try CLI.run(["replay", CLI.example, "--plugin-command", "no-such-plugin-program-xyz --flag"])
        #expect(missing.status == 78)
        #expect(missing.stderr.contains("cannot use plugin command 'no-such-plugin-program-xyz --flag': cannot start"))
        let suite = try CLI.run(["test", CLI.example, "--plugin-command", "no-such-plugin-program-xyz"])
        #expect(suite.status == 78, "said once, before any session")
        #expect(suite.stderr.contains("cannot use plugin command 'no-such-plugin-program-xyz': cannot start"))
        #expect(!suite.stdout.contains("fail"))
        let timeout = try CLI.run(["replay", CLI.example, "--plugin-timeout", "0"])
        #expect(timeout.status == 64)
        let help = try CLI.run(["replay", "--help"])
        for option in ["--plugin-command", "--plugin-timeout", "--plugin-failure"] {
            #expect(help.stdout.contains(option), "\(option) in --help")
        }
    }
}
