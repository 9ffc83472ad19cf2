import Foundation
import Testing

/// The pipeline options `replay`, `test`, `render` and `check-plugin` share, and the project file
/// (`.responder-bus.json`) they read from the log's folder.
@Suite("Pipeline options and project files: replay, test, render, check-plugin")
struct PipelineOptionsCLITests {
    /// A new folder with a copy of the example as `session.jsonl` and, when given, a project file
    /// holding `project`; the log's path.
    static func session(project: String? = nil) throws -> String {
        let folder = TestFolders.root.appendingPathComponent("pipeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let project { try project.write(to: folder.appendingPathComponent(".responder-bus.json"), atomically: true, encoding: .utf8) }
        let log = folder.appendingPathComponent("session.jsonl").path
        try FileManager.default.copyItem(atPath: CLI.example, toPath: log)
        return log
    }

    /// The project file next to `log`.
    static func projectFile(of log: String) -> String {
        URL(fileURLWithPath: log).deletingLastPathComponent().appendingPathComponent(".responder-bus.json").path
    }

    /// The `plugins` of the summary record `replay --format jsonl` ends with.
    static func summaryPlugins(_ run: CLI.Run) throws -> [String] {
        let last = try #require(run.stdout.split(separator: "\n").last, "\(run.stdout)\(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(summary["event"] as? String == "summary")
        return try #require(summary["plugins"] as? [String])
    }

    /// What `render` says of the root at 1.009 s, when the keyboard first shows for 'name'.
    static func rootAt1009(_ arguments: [String]) throws -> String {
        let run = try CLI.run(["render"] + arguments + ["--at", "1.009"])
        #expect(run.status == 0, "\(run.stderr)")
        guard let range = run.stdout.range(of: #"root at y -?[0-9]+, [a-z0-9 ]+"#, options: .regularExpression) else {
            Issue.record("no root in \(run.stdout.prefix(2000))")
            return ""
        }
        return String(run.stdout[range])
    }

    @Test("render takes --disable and --keyboard-distance: the root's shift in the SVG follows them")
    func renderOptions() throws {
        #expect(try Self.rootAt1009([CLI.example]) == "root at y -23, moved 23 pt up")
        #expect(try Self.rootAt1009([CLI.example, "--keyboard-distance", "40"]) == "root at y -43, moved 43 pt up")
        #expect(try Self.rootAt1009([CLI.example, "--keyboard-distance", "0"]) == "root at y -3, moved 3 pt up")
        #expect(try Self.rootAt1009([CLI.example, "--disable", "KeyboardAvoidance"]) == "root at y 0, not moved")
        let bad = try CLI.run(["render", CLI.example, "--at", "1", "--keyboard-distance=-5"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--keyboard-distance must be a number of points from 0 to 10000"), "\(bad.stderr)")
    }

    @Test("render of a log picks up its folder's project file; --project-file names another, --no-project-file reads none, options win")
    func renderProjectFile() throws {
        let log = try Self.session(project: #"{"keyboardAvoidance": {"keyboardDistance": 40}}"#)
        #expect(try Self.rootAt1009([log]) == "root at y -43, moved 43 pt up")
        #expect(try Self.rootAt1009([log, "--no-project-file"]) == "root at y -23, moved 23 pt up")
        #expect(try Self.rootAt1009([log, "--keyboard-distance", "30"]) == "root at y -33, moved 33 pt up")
        #expect(try Self.rootAt1009([CLI.example, "--project-file", Self.projectFile(of: log)]) == "root at y -43, moved 43 pt up")

        let still = try Self.session(project: #"{"disable": ["KeyboardAvoidance"]}"#)
        #expect(try Self.rootAt1009([still]) == "root at y 0, not moved")
        let covered = try CLI.run(["render", still, "--at", "3.26"])
        #expect(covered.stdout.contains("COVERED: &#39;bio&#39; is 90 pt under the keyboard"))
        let both = try CLI.run(["render", still, "--at", "1", "--project-file", Self.projectFile(of: still), "--no-project-file"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--project-file and --no-project-file cannot go together"), "\(both.stderr)")
    }

    @Test("replay runs the pipeline of the project file in the log's folder; --no-project-file ignores it; --disable replaces its list")
    func replayProjectFile() throws {
        let log = try Self.session(project: #"{"disable": ["FieldAdvancing"]}"#)
        let withFile = try CLI.run(["replay", log, "--format", "jsonl"])
        #expect(withFile.status == 0, "\(withFile.stderr)")
        #expect(try Self.summaryPlugins(withFile) == ["TextViewOrdering", "KeyboardAvoidance"])
        #expect(!withFile.stdout.contains(#""by":"FieldAdvancing""#))
        #expect(withFile.stderr.isEmpty, "\(withFile.stderr)")

        let ignored = try CLI.run(["replay", log, "--format", "jsonl", "--no-project-file"])
        #expect(ignored.status == 0, "\(ignored.stderr)")
        #expect(try Self.summaryPlugins(ignored) == ["TextViewOrdering", "FieldAdvancing", "KeyboardAvoidance"])

        let replaced = try CLI.run(["replay", log, "--format", "jsonl", "--disable", "TextViewOrdering"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try Self.summaryPlugins(replaced) == ["FieldAdvancing", "KeyboardAvoidance"])

        // The file's pipeline is checked like the options' (--verify against the example's decisions).
        let verify = try CLI.run(["replay", log, "--verify"])
        #expect(verify.status == 1, "FieldAdvancing's recorded focus change is not derived: \(verify.stdout)")
        #expect(try CLI.run(["replay", log, "--verify", "--no-project-file"]).status == 0)
    }

    @Test("a project file in a parent folder applies to the logs below it")
    func parentFolder() throws {
        let log = try Self.session(project: #"{"disable": ["KeyboardAvoidance"]}"#)
        let below = URL(fileURLWithPath: log).deletingLastPathComponent().appendingPathComponent("day1/run2")
        try FileManager.default.createDirectory(at: below, withIntermediateDirectories: true)
        let nested = below.appendingPathComponent("s.jsonl").path
        try FileManager.default.copyItem(atPath: CLI.example, toPath: nested)
        let run = try CLI.run(["replay", nested, "--format", "jsonl"])
        #expect(try Self.summaryPlugins(run) == ["TextViewOrdering", "FieldAdvancing"])
    }

    @Test(
        "a project file that cannot be used: exit 78, naming its path, line and key; nothing replayed",
        arguments: [
            ("{\n  \"disable\": [\"FieldAdvancing\"],\n  \"keyboardAvoidance\": {\"keyboardDistance\": 20,}\n}\n", ":3:", "trailing comma"),
            (
                "{\n  \"disable\": [\"FieldAdvancing\"],\n  \"keyboardAvoidance\": {\"keyboardDistance\": \"x\"}\n}\n", ":3:",
                "key 'keyboardAvoidance.keyboardDistance'"
            ),
            ("{\n  \"fieldAdvancing\": {\"order\": \"alphabetical\"}\n}\n", ":2:", "key 'fieldAdvancing.order'"),
        ])
    func badProjectFile(_ text: String, _ line: String, _ key: String) throws {
        let log = try Self.session(project: text)
        let path = Self.projectFile(of: log)
        for command in [["replay", log], ["replay", log, "--format", "jsonl"], ["render", log, "--at", "1"], ["test", log]] {
            let run = try CLI.run(command)
            #expect(run.status == 78, "\(command): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(command): \(run.stdout)")
            #expect(run.stderr.contains(path + line), "\(command): \(run.stderr)")
            #expect(run.stderr.contains(key), "\(command): \(run.stderr)")
        }
        #expect(try CLI.run(["replay", log, "--no-project-file"]).status == 0)
    }

    @Test("an unknown key in a project file: a warning on standard error naming it, and the replay runs with the rest")
    func unknownKey() throws {
        let log = try Self.session(project: "{\n  \"colour\": \"blue\",\n  \"disable\": [\"FieldAdvancing\"]\n}\n")
        let run = try CLI.run(["replay", log, "--format", "jsonl"])
        #expect(run.status == 0, "\(run.stderr)")
        let warning = "responder-bus: warning: \(Self.projectFile(of: log)):2: unknown key 'colour' (ignored); the keys are disable, "
        #expect(run.stderr.hasPrefix(warning), "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "unknown key").count == 2, "said once: \(run.stderr)")
        #expect(try Self.summaryPlugins(run) == ["TextViewOrdering", "KeyboardAvoidance"])
    }

    @Test("a typo in a project file fails test (78) with what it meant, a plugin's key at the top level too; replay warns and runs")
    func typoFailsTest() throws {
        let log = try Self.session(project: "{\n  \"keyboardDistance\": 40,\n  \"keyboardAvoidance\": {\"keyboardDistanse\": 30}\n}\n")
        let folder = URL(fileURLWithPath: log).deletingLastPathComponent().path
        let test = try CLI.run(["test", folder])
        #expect(test.status == 78, "\(test.stdout)\(test.stderr)")
        #expect(test.stderr.contains("unknown key 'keyboardDistance'; did you mean 'keyboardAvoidance.keyboardDistance'?"), "\(test.stderr)")
        #expect(test.stderr.contains("unknown key 'keyboardAvoidance.keyboardDistanse'; did you mean 'keyboardDistance'?"), "\(test.stderr)")
        #expect(!test.stdout.contains("pass "), "no session judged with the defaults: \(test.stdout)")
        let replay = try CLI.run(["replay", log, "--format", "jsonl"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stderr.contains("warning: ") && replay.stderr.contains("(ignored); did you mean 'keyboardAvoidance.keyboardDistance'?"))
    }

    @Test("test judges each folder's sessions with that folder's own pipeline, in one run")
    func testPerFolder() throws {
        let root = TestFolders.root.appendingPathComponent("pipelines-\(UUID().uuidString)")
        let checkout = root.appendingPathComponent("checkout")
        let signUp = root.appendingPathComponent("sign-up")
        let noAdvancing = #"{"disable": ["FieldAdvancing"]}"#
        let wideGap = #"{"keyboardAvoidance": {"keyboardDistance": 40}}"#
        for (folder, project) in [(checkout, noAdvancing), (signUp, wideGap)] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent(".responder-bus.json")
            try project.write(to: file, atomically: true, encoding: .utf8)
            // Recorded with that folder's pipeline: the decisions it makes are the session's.
            let record = try CLI.run(["replay", CLI.example, "--project-file", file.path, "--record", folder.appendingPathComponent("s.jsonl").path])
            #expect(record.status == 0, "\(record.stderr)")
        }
        let recorded = try String(contentsOf: signUp.appendingPathComponent("s.jsonl"), encoding: .utf8)
        #expect(recorded.contains(#""originY":-43"#))

        let run = try CLI.run(["test", checkout.path, signUp.path, "--jobs", "2"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("2 sessions: 2 passed"), "\(run.stdout)")

        // Neither passes with the other's pipeline, nor with none.
        let unfiled = try CLI.run(["test", checkout.path, signUp.path, "--no-project-file"])
        #expect(unfiled.status == 1)
        #expect(unfiled.stdout.contains("2 sessions: 0 passed, 2 failed"), "\(unfiled.stdout)")
        try wideGap.write(to: checkout.appendingPathComponent(".responder-bus.json"), atomically: true, encoding: .utf8)
        try noAdvancing.write(to: signUp.appendingPathComponent(".responder-bus.json"), atomically: true, encoding: .utf8)
        let swapped = try CLI.run(["test", checkout.path, signUp.path, "--jobs", "2"])
        #expect(swapped.status == 1)
        let lines = swapped.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("FAIL  ") && $0.contains(": verify: ") }.count == 2, "\(swapped.stdout)")
        #expect(swapped.stdout.contains("2 sessions: 0 passed, 2 failed"), "\(swapped.stdout)")
    }

    /// A Python plugin that asks for keyboard shows and does nothing.
    static func quietPlugin() throws -> String {
        try CLI.temporaryFile(
            """
            import sys
            sys.path.insert(0, \(String(reflecting: ExternalPluginCLITests.pythonKit)))
            from responder_bus_plugin import Plugin, run
            class Quiet(Plugin):
                name = "Quiet"
                events = ["keyboardWillShow"]
                def on_event(self, event, context):
                    pass
            sys.exit(run(Quiet()))

            """, name: "quiet.py")
    }

    @Test("check-plugin takes the pipeline options before --: its plugin runs after the built-ins less --disable")
    func checkPlugin() throws {
        let help = try CLI.run(["check-plugin", "--help"])
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.contains("--disable"))
        #expect(help.stdout.contains("--keyboard-distance"))

        let plugin = try Self.quietPlugin()
        let check = try CLI.run(["check-plugin", "--disable", "FieldAdvancing", "--", "python3", plugin])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let first = try #require(check.stdout.split(separator: "\n").first)
        #expect(first.hasPrefix("checking 'python3 \(plugin)' against "), "\(first)")
        #expect(first.hasSuffix(" real sessions, after TextViewOrdering → KeyboardAvoidance"), "\(first)")
        #expect(check.stdout.hasSuffix("all checks passed\n"))

        // Another plugin out of process runs before it, as a companion.
        let companion = try CLI.temporaryFile(
            try String(contentsOfFile: plugin, encoding: .utf8).replacingOccurrences(of: #"name = "Quiet""#, with: #"name = "Companion""#),
            name: "companion.py")
        let withCommand = try CLI.run(["check-plugin", "--plugin-command", "python3 \(companion)", "--", "python3", plugin])
        #expect(withCommand.status == 0, "\(withCommand.stdout)\(withCommand.stderr)")
        #expect(withCommand.stdout.contains("after TextViewOrdering → FieldAdvancing → KeyboardAvoidance → Companion\n"), "\(withCommand.stdout)")
        let notStarting = try CLI.run(["check-plugin", "--plugin-command", "no-such-program-here", "--", "python3", plugin])
        #expect(notStarting.status == 78, "\(notStarting.stderr)")
        #expect(notStarting.stderr.contains("cannot use plugin command 'no-such-program-here'"), "\(notStarting.stderr)")
        let badDisable = try CLI.run(["check-plugin", "--disable", "Nope", "--", "python3", plugin])
        #expect(badDisable.status == 64)
        #expect(badDisable.stderr.contains("--disable Nope"), "\(badDisable.stderr)")
    }

    @Test(
        "--plugin with a position and no library is a usage error",
        arguments: [
            (["replay", CLI.example], "--plugin @first: no library before '@first'"),
            (["render", CLI.example, "--at", "1"], "--plugin @first: no library before '@first'"),
            (["test", CLI.example], "--plugin @first: no library before '@first'"),
        ])
    func pluginWithoutPath(_ command: [String], _ message: String) throws {
        let run = try CLI.run(command + ["--plugin", "@first"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        let after = try CLI.run(command + ["--plugin", "@after:KeyboardAvoidance"])
        #expect(after.status == 64, "\(after.stderr)")
        #expect(after.stderr.contains("no library before '@after:KeyboardAvoidance'"), "\(after.stderr)")
    }
}

@Suite("a pipeline that cannot be placed is said once, before any session")
struct PipelinePlacementCLITests {
    @Test("test with a plugin command whose handshake names an unknown anchor: one error, exit 78, no session run")
    func commandPositionCheckedOnce() throws {
        let plugin = try ExternalPluginCLITests.script("pass")
        let source = try String(contentsOfFile: plugin, encoding: .utf8).replacingOccurrences(
            of: #"name = "Crashy""#, with: #"name = "Placed"; position = "after:NoSuchPlugin""#)
        try source.write(toFile: plugin, atomically: true, encoding: .utf8)
        let folder = TestFolders.root.appendingPathComponent("placement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["a", "b", "c"] {
            try FileManager.default.copyItem(atPath: CLI.example, toPath: folder.appendingPathComponent("\(name).jsonl").path)
        }
        let run = try CLI.run(["test", folder.path, "--plugin-command", "python3 \(plugin)"])
        #expect(run.status == 78, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.isEmpty, "no session ran: \(run.stdout)")
        #expect(run.stderr.split(separator: "\n").count == 1, "said once: \(run.stderr)")
        #expect(run.stderr.contains("no plugin named 'NoSuchPlugin' is registered"), "\(run.stderr)")
        #expect(run.stderr.contains("cannot use plugin command 'python3 \(plugin)': "), "\(run.stderr)")
    }
}
