import Foundation
import ResponderBusPlatform
import Testing

/// Issue 48's first "done when": the chat input bar rule, written from the guide in each of the
/// four kinds of plugin in at most 30 lines, passes `--check` and `test` on a chat session, and
/// the four derive the same records, byte for byte.
@Suite("The chat input bar rule in four kinds: the same decisions, --check and test pass", .serialized)
struct ChatInputBarKindsCLITests {
    static let session = CLI.repository.appendingPathComponent("PluginKits/sessions/chat-input-bar.jsonl").path

    /// Lines of a source file that are code: not blank, not a comment.
    static func codeLines(_ path: String) throws -> Int {
        let text = try String(contentsOf: CLI.repository.appendingPathComponent(path), encoding: .utf8)
        var inDocstring = false
        var count = 0
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("\"\"\"") {
                if !(line.count > 3 && line.hasSuffix("\"\"\"")) { inDocstring.toggle() }
                continue
            }
            if inDocstring || line.isEmpty || line.hasPrefix("//") || line.hasPrefix("/*") || line.hasPrefix("*") || line.hasPrefix("#") {
                if !line.hasPrefix("#include") { continue }
            }
            count += 1
        }
        return count
    }

    @Test("each kind's rule is at most 30 lines of code")
    func short() throws {
        for path in [
            "Plugins/ChatInputBar/ChatInputBar.swift", "PluginKits/python/examples/chat_input_bar.py",
            "PluginKits/c-wasm/examples/chat_input_bar.c", "PluginKits/swift-wasm/examples/ChatInputBar.swift",
        ] {
            let lines = try Self.codeLines(path)
            #expect(lines <= 30 && lines > 8, "\(path): \(lines) lines of code")
        }
    }

    @Test(
        "a library built from the guide's step 10, a Python command, a C module and an Embedded Swift module: one set of records, --check and test pass"
    )
    func fourKinds() throws {
        let folder = try PluginCLITests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The library, from the guide alone.
        let package = try PluginCLITests.newPlugin("ChatInputBarRule", in: folder)
        let source = try PluginCLITests.guideListing(step: "### 10. ", renaming: "ChatInputBar", to: "ChatInputBarRule")
        try source.replacingOccurrences(of: "\"ChatInputBarRule\"", with: "\"ChatInputBar\"")
            .write(toFile: package + "/Sources/ChatInputBarRule/ChatInputBarRule.swift", atomically: true, encoding: .utf8)
        let build = try shell("swift build --product ChatInputBarRule", in: package)
        try #require(build.status == 0, "swift build failed:\n\(build.output.suffix(3000))")
        // The WebAssembly modules, with the kits' own tools.
        let cModule = folder + "/chat_input_bar.wasm"
        let cBuild = try CLI.run(
            [
                "--target=wasm32", "-nostdlib", "-fno-builtin", "-O2", "-Wl,--no-entry", "-I", WasmBuild.cKit, "-o", cModule,
                CLI.repository.appendingPathComponent("PluginKits/c-wasm/examples/chat_input_bar.c").path,
            ], executable: WasmBuild.clang)
        try #require(cBuild.status == 0, "\(cBuild.stderr)")
        let swiftModule = folder + "/ChatInputBar.wasm"
        let kit = CLI.repository.appendingPathComponent("PluginKits/swift-wasm").path
        let swiftBuild = try CLI.shell("sh '\(kit)/build.sh' '\(kit)/examples/ChatInputBar.swift' '\(swiftModule)'")
        try #require(swiftBuild.status == 0, "\(swiftBuild.stderr)")

        let kinds: [(String, [String])] = [
            ("library", ["--plugin", package + "/.build/debug/" + LoadedImages.libraryFile("ChatInputBarRule")]),
            ("python", ["--plugin-command", "python3 '\(CLI.repository.path)/PluginKits/python/examples/chat_input_bar.py'"]),
            ("c", ["--plugin", cModule]),
            ("swift-wasm", ["--plugin", swiftModule]),
        ]
        var outputs: [String: String] = [:]
        for (kind, plugin) in kinds {
            let replay = try CLI.run(["replay", Self.session, "--check", "--format", "jsonl"] + plugin)
            #expect(replay.status == 0, "\(kind): \(replay.stderr)")
            // The derived records; the summary after them says which kind each plugin was.
            outputs[kind] = replay.stdout.split(separator: "\n").filter { !$0.contains(#""event":"summary""#) }.joined(separator: "\n")
            #expect(replay.stdout.contains(#""by":"ChatInputBar","event":"viewSettings","followsKeyboard":true"#), "\(kind): \(replay.stdout)")
            #expect(replay.stdout.components(separatedBy: #""event":"viewMove""#).count - 1 == 3, "\(kind): \(replay.stdout)")
            #expect(!replay.stdout.contains(#""event":"viewShift""#), "\(kind): the screen stays")
        }
        #expect(outputs.count == 4 && Set(outputs.values).count == 1, "\(outputs)")

        // `test`: recorded with one kind, every kind passes; without a rule the session fails.
        let sessions = folder + "/sessions"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        let record = try CLI.run(["replay", Self.session, "--record", sessions + "/chat.jsonl", "--format", "jsonl"] + kinds[1].1)
        #expect(record.status == 0, "\(record.stderr)")
        for (kind, plugin) in kinds {
            let test = try CLI.run(["test", sessions] + plugin)
            #expect(test.status == 0, "\(kind): \(test.stdout)\(test.stderr)")
        }
        let without = try CLI.run(["test", sessions])
        #expect(without.status == 1, "\(without.stdout)")
    }
}
