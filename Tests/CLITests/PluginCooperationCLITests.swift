import Foundation
import ResponderBusPlatform
import Testing

/// Plugins that cooperate (issue 32): the guide's per-field gap as a loaded library, out of process
/// and in `test`; a loaded library that wraps KeyboardAvoidance.
@Suite("Plugins that cooperate: a per-field gap through the model, loaded and out of process; a wrapped built-in", .serialized)
struct PluginCooperationCLITests {
    /// The bundled session's moves without the rule, for comparison: one per focus change.
    static var plainShifts: Int {
        // The built-in pipeline alone on the same session: the rule must not add or drop a move.
        let plain = (try? CLI.run(["replay", CLI.example]))?.stdout ?? ""
        return shifts(plain).count
    }

    /// The timeline's `viewShift` lines.
    static func shifts(_ stdout: String) -> [Substring] {
        stdout.split(separator: "\n").filter { $0.contains(": viewShift root to y ") }
    }

    /// Checks a replay of the bundled session with a password rule named `rule` in it.
    static func expectOneMovePerFocusChange(_ replay: CLI.Run, rule: String) {
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("→ \(rule): viewSettings 'password' gap 40"), "\(replay.stdout)")
        let shifts = shifts(replay.stdout)
        let plain = plainShifts
        #expect(plain > 0)
        #expect(shifts.count == plain, "\(shifts)")
        #expect(shifts.allSatisfy { $0.contains("→ KeyboardAvoidance: viewShift") }, "\(shifts)")
        #expect(replay.stdout.contains("    7.500    → KeyboardAvoidance: viewShift root to y -291 (0.25 s, curve 7)"), "\(replay.stdout)")
        #expect(!replay.stdout.contains("fight over"))
    }

    /// Records the bundled session through the options `plugin`, then runs `test` on it with them.
    static func expectTestPasses(with plugin: [String], in folder: String) throws {
        let sessions = folder + "/sessions"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        let record = try CLI.run(["replay", CLI.example, "--record", sessions + "/sign-up.jsonl", "--format", "jsonl"] + plugin)
        #expect(record.status == 0, "\(record.stderr)")
        let recorded = try String(contentsOfFile: sessions + "/sign-up.jsonl", encoding: .utf8)
        #expect(recorded.contains(#""event":"viewSettings","keyboardDistance":40"#), "\(recorded)")
        let test = try CLI.run(["test", sessions] + plugin)
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.stdout.contains("pass  sessions/sign-up.jsonl"), "\(test.stdout)")
        // Without the rule, avoidance's decisions differ from the recording: the rule is what passed.
        let without = try CLI.run(["test", sessions])
        #expect(without.status == 1, "\(without.stdout)")
    }

    @Test("the guide's password rule, written from step 9 alone into a new-plugin package: loaded, one move per focus change, in replay and test")
    func passwordGapLoaded() throws {
        let folder = try PluginCLITests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let package = try PluginCLITests.newPlugin("PasswordGapRule", in: folder)
        let source = try PluginCLITests.guideListing(step: "### 9. ", renaming: "PasswordGap", to: "PasswordGapRule")
        try source.write(toFile: package + "/Sources/PasswordGapRule/PasswordGapRule.swift", atomically: true, encoding: .utf8)
        let build = try shell("swift build --product PasswordGapRule", in: package)
        try #require(build.status == 0, "swift build failed:\n\(build.output.suffix(3000))")
        let plugin = ["--plugin", package + "/.build/debug/" + LoadedImages.libraryFile("PasswordGapRule")]

        let replay = try CLI.run(["replay", CLI.example] + plugin)
        #expect(
            replay.stdout.contains("plugins: TextViewOrdering → FieldAdvancing → PasswordGapRule (loaded) → KeyboardAvoidance"), "\(replay.stdout)")
        Self.expectOneMovePerFocusChange(replay, rule: "PasswordGapRule")
        try Self.expectTestPasses(with: plugin, in: folder)
    }

    @Test("the Python kit's password rule, out of process: the same decisions, in replay and test")
    func passwordGapOutOfProcess() throws {
        let folder = try PluginCLITests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = CLI.repository.appendingPathComponent("PluginKits/python/examples/password_gap.py").path
        let plugin = ["--plugin-command", "python3 " + CLI.quoted(script)]
        let replay = try CLI.run(["replay", CLI.example] + plugin)
        #expect(replay.stdout.contains("plugins: TextViewOrdering → FieldAdvancing → PasswordGap (command) → KeyboardAvoidance"), "\(replay.stdout)")
        Self.expectOneMovePerFocusChange(replay, rule: "PasswordGap")
        try Self.expectTestPasses(with: plugin, in: folder)
    }

    @Test(
        "new-plugin --wrapping KeyboardAvoidance: the package builds the built-in from source, its tests pass, and the library loads and decides as they say"
    )
    func wrappedKeyboardAvoidance() throws {
        let folder = try PluginCLITests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try CLI.run([
            "new-plugin", "PasswordAwareAvoidance", "--wrapping", "KeyboardAvoidance", "--path", folder, "--responder-bus", CLI.repository.path,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("--disable KeyboardAvoidance"))
        let package = folder + "/PasswordAwareAvoidance"
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: package + "/Builtin/KeyboardAvoidance")
        #expect(link == CLI.repository.path + "/Plugins/KeyboardAvoidance")
        let manifest = try String(contentsOfFile: package + "/Package.swift", encoding: .utf8)
        #expect(!manifest.contains(#".product(name: "KeyboardAvoidance""#), "the built-in's product would bring a second ResponderBus")

        let test = try shell("swift test", in: package)
        #expect(test.status == 0, "swift test failed:\n\(test.output.suffix(3000))")
        let build = try shell("swift build --product PasswordAwareAvoidance", in: package)
        try #require(build.status == 0, "swift build failed:\n\(build.output.suffix(3000))")
        let library = package + "/.build/debug/" + LoadedImages.libraryFile("PasswordAwareAvoidance")

        let replay = try CLI.run(["replay", CLI.example, "--plugin", library, "--disable", "KeyboardAvoidance"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("plugins: TextViewOrdering → FieldAdvancing → PasswordAwareAvoidance (loaded)"), "\(replay.stdout)")
        let shifts = Self.shifts(replay.stdout)
        #expect(shifts.count == Self.plainShifts, "\(shifts)")
        #expect(shifts.allSatisfy { $0.contains("→ PasswordAwareAvoidance: viewShift") }, "\(shifts)")
        // The built-in's moves, with the password field's 40 points.
        #expect(replay.stdout.contains("    7.500    → PasswordAwareAvoidance: viewShift root to y -291 (0.25 s, curve 7)"), "\(replay.stdout)")
        #expect(replay.stdout.contains("    1.009    → PasswordAwareAvoidance: viewShift root to y -23 (0.25 s, curve 7)"), "\(replay.stdout)")

        // Beside the built-in, the two fight over the root: named, not silent.
        let both = try CLI.run(["replay", CLI.example, "--plugin", library])
        #expect(both.status == 0, "\(both.stderr)")
        #expect(both.stdout.contains("fight over the root in one turn"), "\(both.stdout)")
        // And `test` fails the session, naming the conflict, unless conflicts are allowed.
        let sessions = folder + "/both"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        let record = try CLI.run(["replay", CLI.example, "--plugin", library, "--record", sessions + "/both.jsonl", "--format", "jsonl"])
        #expect(record.status == 0, "\(record.stderr)")
        let failed = try CLI.run(["test", sessions, "--plugin", library])
        #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
        #expect(failed.stdout.contains("FAIL  both/both.jsonl: conflict: t "), "\(failed.stdout)")
        let verdict = try CLI.run(["test", sessions, "--plugin", library, "--allow-conflicts"])
        #expect(verdict.status == 0, "\(verdict.stdout)\(verdict.stderr)")
        #expect(verdict.stdout.contains(" between plugins, allowed:"), "\(verdict.stdout)")
        #expect(verdict.stdout.contains("'PasswordAwareAvoidance' and 'KeyboardAvoidance' fight over the root in one turn"), "\(verdict.stdout)")
        // On lines of their own, not one line with escaped breaks.
        #expect(verdict.stdout.contains("between plugins, allowed:\n      t "), "\(verdict.stdout)")
        #expect(!verdict.stdout.contains("\\u{A}"), "\(verdict.stdout)")
    }
}
