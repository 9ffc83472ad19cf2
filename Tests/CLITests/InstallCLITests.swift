import Foundation
import ResponderBus
import Testing

/// Issue 52: the command as other Swift tools are installed — one version, completion scripts,
/// and a binary that runs from anywhere with no checkout beside it.
@Suite("responder-bus installed: --version, completion scripts, a binary that runs anywhere")
struct InstallCLITests {
    @Test("--version prints the package's version, from ResponderBusVersion")
    func version() throws {
        let run = try CLI.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout == ResponderBusVersion.string + "\n")
        #expect(ResponderBusVersion.string.split(separator: ".").count == 3)
    }

    @Test("completion scripts for bash, zsh and fish name every subcommand", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) throws {
        let run = try CLI.run(["--generate-completion-script", shell])
        #expect(run.status == 0, "\(run.stderr)")
        for subcommand in ["replay", "test", "import", "new-session", "new-plugin", "check-plugin", "render"] {
            #expect(run.stdout.contains(subcommand), "\(shell) completion lacks \(subcommand)")
        }
    }

    @Test("the README's install lines, the binary copied as they copy it, run from a folder with no checkout beside it")
    func installedRunsAnywhere() throws {
        let readme = try String(contentsOf: CLI.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(
            readme.components(separatedBy: "## Install\n").dropFirst().first?.components(separatedBy: "```sh\n").dropFirst().first)
        let lines = block.components(separatedBy: "```")[0].split(separator: "\n").map(String.init)
        // The build line is README command 1's build, in release mode; the tests' own build stands in.
        #expect(lines.first == "swift build -c release --product responder-bus")
        let install = try #require(lines.first { $0.hasPrefix("install ") })
        let home = try CLI.temporaryFile("", name: "placeholder")
        let homeFolder = URL(fileURLWithPath: home).deletingLastPathComponent().appendingPathComponent("home").path
        let binFolder = CLI.binary.deletingLastPathComponent().path
        let command = install.replacingOccurrences(of: "$(swift build -c release --show-bin-path)", with: CLI.quoted(binFolder))
        let installed = try CLI.shell("HOME=\(CLI.quoted(homeFolder)) && export HOME && \(command)")
        #expect(installed.status == 0, "\(installed.stderr)")
        let binary = homeFolder + "/.local/bin/responder-bus"
        #expect(FileManager.default.isExecutableFile(atPath: binary))
        // A folder of its own: the session, nothing else.
        let work = URL(fileURLWithPath: home).deletingLastPathComponent().appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.example, toPath: work.appendingPathComponent("session.jsonl").path)
        let replay = try CLI.shell("cd \(CLI.quoted(work.path)) && \(CLI.quoted(binary)) replay session.jsonl --check --verify")
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("keyboardWillShow"))
        for line in lines where line.contains("--generate-completion-script") {
            let completion = try CLI.shell(
                "HOME=\(CLI.quoted(homeFolder)) && export HOME && PATH=\(CLI.quoted(homeFolder + "/.local/bin")):$PATH && \(line)")
            #expect(completion.status == 0, "\(line): \(completion.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: homeFolder + "/.local/share/bash-completion/completions/responder-bus"))
    }

    @Test(
        "new-plugin refuses a WebAssembly kind when this responder-bus cannot load one, naming the build that can",
        .enabled(if: !CLI.loadsWebAssembly, "this build loads WebAssembly plugins (the trait is on)"))
    func newPluginRefusesWasmWithoutTheTrait() throws {
        let folder = URL(fileURLWithPath: try CLI.temporaryFile("", name: "placeholder")).deletingLastPathComponent().path
        for language in ["c-wasm", "swift-wasm"] {
            let run = try CLI.shell("cd \(CLI.quoted(folder)) && \(CLI.quoted(CLI.binary.path)) new-plugin Probe --language \(language)")
            #expect(run.status == 64)
            #expect(run.stderr.contains("built without WebAssembly plugins"), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/Probe"))
        }
    }
}

extension CLI {
    /// Whether the command under test was built with the WebAssembly trait (the tests are built
    /// with the same traits).
    static var loadsWebAssembly: Bool {
        #if WebAssembly
            true
        #else
            false
        #endif
    }
}
