import Foundation
import Testing

/// Conflicts between plugins as failures (issue 48, item 4): check-plugin fails a "second mover",
/// `test` fails its sessions unless allowed, the summaries count conflicts, and multi-line messages
/// print on real lines.
@Suite("Conflicts between plugins: check-plugin, test and the summaries")
struct ConflictsCLITests {
    /// A Python plugin named `SecondMover` that moves the root to y -100 on every keyboard event it
    /// asks for, placed at `position` (else last), with `body` (Python) run first in `on_event`.
    static func secondMover(position: String? = nil, body: String = "pass") throws -> String {
        let source = """
            import os, sys
            sys.path.insert(0, \(String(reflecting: ExternalPluginCLITests.pythonKit)))
            from responder_bus_plugin import Plugin, run
            class P(Plugin):
                name = "SecondMover"
                position = \(position.map { String(reflecting: $0) } ?? "None")
                events = ["keyboardWillShow", "keyboardWillChangeFrame"]
                def on_event(self, event, context):
                    \(body)
                    context.post("viewShift", originY=-100)
            sys.exit(run(P()))

            """
        return try CLI.temporaryFile(source, name: "second_mover.py")
    }

    @Test("check-plugin fails a second mover out of process with the conflict, and says where a positioned plugin runs")
    func checkPluginFailsSecondMover() throws {
        let after = try Self.secondMover()
        let check = try CLI.run(["check-plugin", "--no-project-file", "--", "python3", after])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        let lines = check.stdout.split(separator: "\n")
        #expect(lines.first?.hasSuffix(" real sessions, after TextViewOrdering → FieldAdvancing → KeyboardAvoidance") == true, "\(check.stdout)")
        #expect(lines.contains { $0.hasPrefix("✗ no conflicts: ") }, "\(check.stdout)")
        #expect(
            lines.contains {
                $0.hasPrefix("    sign-up-session, t 1: 'SecondMover' and 'KeyboardAvoidance' fight over the root in one turn: ")
            }, "\(check.stdout)")
        #expect(lines.contains { $0.hasPrefix("✓ no errors") && !$0.contains("✗") })

        // Placed before avoidance by its handshake: the header says so, and it fights all the same.
        let before = try Self.secondMover(position: "before:KeyboardAvoidance")
        let placed = try CLI.run(["check-plugin", "--no-project-file", "--", "python3", before])
        #expect(placed.status == 1, "\(placed.stdout)\(placed.stderr)")
        let header = try #require(placed.stdout.split(separator: "\n").first)
        #expect(header.hasSuffix(" real sessions, after TextViewOrdering → FieldAdvancing, before KeyboardAvoidance"), "\(header)")
        #expect(placed.stdout.contains("✗ no conflicts: "), "\(placed.stdout)")
    }

    @Test("check-plugin prints a message of several lines on lines of its own, indented, with no escaped line break")
    func checkPluginMultiLineMessage() throws {
        // A diagnostic that differs between two processes fails determinism, quoting the message.
        let plugin = try Self.secondMover(body: #"context.diagnose("info", "first line\nprocess %d" % os.getpid())"#)
        let check = try CLI.run(["check-plugin", "--no-project-file", "--disable", "KeyboardAvoidance", "--", "python3", plugin])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("✗ determinism"), "\(check.stdout)")
        #expect(check.stdout.contains("first line\n    process "), "\(check.stdout)")
        #expect(!check.stdout.contains("\\u{A}") && !check.stdout.contains("\\n"), "\(check.stdout)")
        // Without avoidance the second mover has no one to fight.
        #expect(check.stdout.contains("✓ no conflicts"), "\(check.stdout)")
    }

    @Test(
        "test fails a session with a conflict, naming it; --allow-conflicts and the project file's allowConflicts let it pass; a misspelt key does not"
    )
    func testFailsUnlessAllowed() throws {
        let folder = try PluginCLITests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sessions = folder + "/sessions"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        let plugin = ["--plugin-command", "python3 " + CLI.quoted(try Self.secondMover())]
        let record = try CLI.run(["replay", CLI.example, "--record", sessions + "/fight.jsonl", "--format", "jsonl"] + plugin)
        #expect(record.status == 0, "\(record.stderr)")
        // The JSON summary counts the conflicts; the built-ins alone have none.
        let summary = try #require(record.stdout.split(separator: "\n").last)
        #expect(summary.contains(#""conflicts":6,"#), "\(summary)")
        #expect(summary.contains(#""warnings":0"#) && summary.contains(#""violations":0"#), "the other keys are kept: \(summary)")
        let plain = try CLI.run(["replay", CLI.example, "--format", "jsonl"])
        #expect(plain.stdout.contains(#""conflicts":0,"#), "\(plain.stdout)")
        let text = try CLI.run(["replay", CLI.example] + plugin)
        #expect(text.stdout.contains("; 6 conflicts between plugins\nplugins: "), "\(text.stdout)")

        let junit = folder + "/results.xml"
        let failed = try CLI.run(["test", sessions, "--junit", junit] + plugin)
        #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
        #expect(
            failed.stdout.contains(
                "FAIL  sessions/fight.jsonl: conflict: t 1: 'SecondMover' and 'KeyboardAvoidance' fight over the root in one turn: "),
            "\(failed.stdout)")
        #expect(failed.stdout.contains("; 6 conflicts between plugins in all (--allow-conflicts"), "\(failed.stdout)")
        // The others on lines of their own, after the verdict that names the first.
        #expect(failed.stdout.contains("\n      5 more conflicts between plugins:\n      t 1.004: "), "\(failed.stdout)")
        #expect(!failed.stdout.contains("\\u{A}"), "\(failed.stdout)")
        #expect(failed.stdout.contains("1 session: 0 passed, 1 failed, 0 unreadable; 6 conflicts between plugins (1 session failed on them);"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<failure type="conflict" message="t 1: &#39;SecondMover&#39; and &#39;KeyboardAvoidance&#39; fight"#), "\(xml)")
        #expect(xml.contains("\nconflict at t 1.004: "), "the others on lines of their own: \(xml)")

        let allowed = try CLI.run(["test", sessions, "--allow-conflicts", "--junit", junit] + plugin)
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
        #expect(allowed.stdout.contains("pass  sessions/fight.jsonl"), "\(allowed.stdout)")
        #expect(allowed.stdout.contains("6 conflicts between plugins, allowed:\n      t 1: "), "\(allowed.stdout)")
        #expect(allowed.stdout.contains("1 session: 1 passed, 0 failed, 0 unreadable; 6 conflicts between plugins;"), "\(allowed.stdout)")
        let allowedXML = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(!allowedXML.contains("<failure") && allowedXML.contains("<system-out>conflict at t 1: "), "\(allowedXML)")

        let project = sessions + "/.responder-bus.json"
        try #"{"allowConflicts": true}"#.write(toFile: project, atomically: true, encoding: .utf8)
        let byFile = try CLI.run(["test", sessions] + plugin)
        #expect(byFile.status == 0, "\(byFile.stdout)\(byFile.stderr)")
        try "{\n  \"allowConflict\": true\n}".write(toFile: project, atomically: true, encoding: .utf8)
        let typo = try CLI.run(["test", sessions] + plugin)
        // A typo fails the suite (78), naming what it meant, rather than running with the default.
        #expect(typo.status == 78, "\(typo.stdout)\(typo.stderr)")
        #expect(typo.stderr.contains("unknown key 'allowConflict'; did you mean 'allowConflicts'? the keys are "), "\(typo.stderr)")
        #expect(typo.stderr.contains("allowConflicts"), "\(typo.stderr)")
        try #"{"allowConflicts": "yes"}"#.write(toFile: project, atomically: true, encoding: .utf8)
        let wrong = try CLI.run(["test", sessions] + plugin)
        #expect(wrong.status == 78, "\(wrong.stdout)\(wrong.stderr)")
        #expect(wrong.stderr.contains(#"key 'allowConflicts': expected true or false, got "yes""#), "\(wrong.stderr)")
    }

    @Test("test --help and check-plugin --help say what conflicts do")
    func help() throws {
        let test = try CLI.run(["test", "--help"])
        #expect(test.stdout.contains("--allow-conflicts"), "\(test.stdout)")
        #expect(test.stdout.contains(#""allowConflicts": true"#), "\(test.stdout)")
        let check = try CLI.run(["check-plugin", "--help"])
        #expect(check.stdout.contains("does not fight"), "\(check.stdout)")
    }
}
