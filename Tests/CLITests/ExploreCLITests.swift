import Foundation
import Testing

@Suite("responder-bus explore")
struct ExploreCLITests {
    /// A plugin out of process that moves the root up when the keyboard shows and never back.
    static func neverRestores() throws -> String {
        let source = """
            import sys
            sys.path.insert(0, \(String(reflecting: ExternalPluginCLITests.pythonKit)))
            from responder_bus_plugin import Plugin, run
            class P(Plugin):
                name = "NeverRestores"
                events = ["keyboardWillShow"]
                def on_event(self, event, context):
                    context.post("viewShift", originY=-100)
            sys.exit(run(P()))

            """
        return try CLI.temporaryFile(source, name: "never_restores.py")
    }

    @Test("the built-ins keep every property: exit 0, a summary, nothing written")
    func builtinsPass() throws {
        let folder = try PluginCLITests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try CLI.run(["explore", "--no-project-file", "--seed", "4", "--count", "800", "--out", folder + "/findings"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("exploring with seed 4: TextViewOrdering → FieldAdvancing → KeyboardAvoidance; 800 sessions\n"), "\(run.stdout)")
        #expect(run.stdout.contains("checked 800 sessions in "), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("no property broken\n"), "\(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/findings"))
    }

    @Test("a broken plugin: the shrunk session, its report, a project file for test, and a line that reproduces it")
    func brokenPlugin() throws {
        let folder = try PluginCLITests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plugin = try Self.neverRestores()
        let pipeline = ["--no-project-file", "--disable", "KeyboardAvoidance", "--plugin-command", "python3 " + CLI.quoted(plugin)]
        let findings = folder + "/findings"
        let run = try CLI.run(["explore"] + pipeline + ["--seed", "8", "--count", "30", "--jobs", "2", "--property", "restored", "--out", findings])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("✗ restored: ") && $0.contains(" sessions; the first, session ") }, "\(run.stdout)")
        #expect(lines.contains { $0.contains("restored at t=") && $0.contains("the keyboard covers nothing, but the root's origin is -100, not 0") })
        let log = try String(contentsOfFile: findings + "/restored.jsonl", encoding: .utf8)
        #expect(log.split(separator: "\n").count <= 13, "a header and at most 12 events: \(log)")
        #expect(FileManager.default.fileExists(atPath: findings + "/restored.html"))
        let project = try String(contentsOfFile: findings + "/.responder-bus.json", encoding: .utf8)
        #expect(project.contains(#""disable": ["KeyboardAvoidance"]"#) && project.contains(#""checkProperties": true"#), "\(project)")
        #expect(project.contains(#""pluginCommands": ["python3 "#) && project.contains(#""restored.jsonl": "restored: "#), "\(project)")

        // The reproduction: the same pipeline, the session's own seed, one session.
        let reproduce = try #require(lines.first { $0.hasPrefix("    reproduce: responder-bus explore ") })
        // Its own folder beside this run's: running it leaves these findings as they are.
        #expect(reproduce.contains(" --count 1 --out ") && !reproduce.contains("--jobs") && !reproduce.contains("--property"), "\(reproduce)")
        let words = try #require(Self.words(of: String(reproduce.dropFirst("    reproduce: responder-bus ".count))))
        #expect(words.last?.hasPrefix(findings + "-") == true, "\(words)")
        let again = try CLI.run(words)
        #expect(again.status == 1, "\(again.stdout)\(again.stderr)")
        #expect(again.stdout.contains("✗ restored: 1 of 1 sessions; the first, session 0,"), "\(again.stdout)")

        // `test` runs the shrunk session through the written pipeline, checking the properties:
        // an expected failure until the plugin is fixed.
        let test = try CLI.run(["test", findings])
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.stdout.contains("xfail  findings/restored.jsonl: expected to fail (restored: "), "\(test.stdout)")
        #expect(test.stdout.contains("property: restored: the keyboard covers nothing"), "\(test.stdout)")
    }

    @Test("test --check-properties fails a recorded session whose screen is not put back")
    func testChecksProperties() throws {
        let plugin = try Self.neverRestores()
        let pipeline = ["--no-project-file", "--disable", "KeyboardAvoidance", "--plugin-command", "python3 " + CLI.quoted(plugin)]
        let plain = try CLI.run(["test", CLI.example] + pipeline)
        let checked = try CLI.run(["test", CLI.example, "--check-properties"] + pipeline)
        #expect(checked.status == 1, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout.contains("property: restored: the keyboard covers nothing, but the root's origin is -100"), "\(checked.stdout)")
        #expect(!plain.stdout.contains("property: "), "\(plain.stdout)")
    }

    @Test("bad usage (an unknown property or device, a count of 0) is 64; a findings folder that cannot be made is 73")
    func usage() throws {
        for arguments in [["--property", "nope"], ["--count", "0"], ["--device", "Nokia 3310"], ["--time", "0"], ["--max-steps", "0"]] {
            let run = try CLI.run(["explore", "--no-project-file"] + arguments)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
        }
        // A findings folder that cannot be made: 73, naming it, not the findings' 1.
        let blocker = try CLI.temporaryFile("a file, not a folder", name: "blocker")
        let blocked = try CLI.run([
            "explore", "--no-project-file", "--disable", "KeyboardAvoidance", "--seed", "1", "--count", "40", "--out", blocker + "/findings",
        ])
        #expect(blocked.status == 73, "\(blocked.stdout)\(blocked.stderr)")
        #expect(blocked.stderr.contains("cannot create \(blocker)"), "\(blocked.stderr)")
        let unknown = try CLI.run(["explore", "--property", "nope"])
        #expect(
            unknown.stderr.contains("unknown property 'nope'; the properties are coverage, restored, one-move, no-conflict, no-fault, deterministic"))
    }

    /// A command line split into words as a POSIX shell would (single quotes, and a backslash
    /// outside them).
    static func words(of line: String) -> [String]? {
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" && !quoted {
                escaped = true
                started = true
            } else if character == "'" {
                quoted.toggle()
                started = true
            } else if character == " " && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { words.append(current) }
        return quoted ? nil : words
    }
}
