import ArgumentParser
import ResponderBus
import ResponderBusExplore
import ResponderBusExternal
import ResponderBusReplay
import ResponderBusReport
import ResponderBusTesting

/// `responder-bus check-plugin libX.so (.dylib) | X.wasm | -- COMMAND ARGS…`: the plugin conformance checks,
/// run against a plugin library, a WebAssembly module or an out-of-process plugin.
struct CheckPluginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-plugin",
        abstract: "Run the plugin conformance checks against a plugin library, a WebAssembly plugin or one that runs out of process.",
        discussion: """
            Makes a fresh plugin of the library (a \(LibraryNames.pattern) path, as --plugin loads it: the library is \
            loaded once), or a fresh instance of the WebAssembly module (a .wasm path; needs a responder-bus built with \
            the WebAssembly trait, on by default), or starts the command (after --, never through a shell), for each replay \
            of the bundled corpus of real sessions, \
            with the pipeline before it (the built-in plugins, less --disable, with their settings, and any --plugin \
            library, --plugin-command or project file), and checks that the plugin has a name, is deterministic, derives nothing \
            from events it did not ask for, survives being removed and added mid-session, never fails (a crash, a hang, \
            a broken protocol, an event the bus cannot take), derives everything under its own name and does not \
            fight the pipeline's plugins (no loop turn in which it and another set the root, a scroll view, a view's frame or the first \
            responder to different values: a conflict the bus names). The first line says where it runs: after the \
            pipeline, or where its handshake's position puts it. Then a short exploration (--explore sessions, 200 for a \
            library or module, 25 for a command; 0 skips it): generated sessions through the pipeline with the plugin, \
            checked against the properties `responder-bus explore` checks, the first that breaks each shrunk and shown \
            with the line that reproduces it. \
            Exit 0 when every check passes, 1 when one fails, 78 when the plugin cannot be loaded or started.

            Examples:
              responder-bus check-plugin .build/debug/\(LibraryNames.file("FocusReporter"))
              responder-bus check-plugin KeyboardNoise.wasm
              responder-bus check-plugin -- python3 my_plugin.py
              responder-bus check-plugin --disable FieldAdvancing -- ./my-field-advancer
            """)

    @OptionGroup(title: "Pipeline") var pipeline: PipelineOptions

    @Argument(
        help: ArgumentHelp(
            "A plugin library (\(LibraryNames.pattern), built from a new-plugin package) or a WebAssembly plugin (a .wasm module) to check.",
            valueName: "\(LibraryNames.file("X"))|module.wasm"))
    var module: String?

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The plugin's program and its arguments, after --.", valueName: "command"))
    var command: [String] = []

    @Option(
        help: ArgumentHelp(
            "How many generated sessions to explore after the checks (default 200 for a library or module, 25 for a command; 0 skips the exploration).",
            valueName: "sessions"))
    var explore: Int?

    @Option(help: "The exploration's seed (default 1: the same sessions every time).")
    var seed: UInt64 = 1

    func validate() throws {
        if let explore, !(0...1_000_000).contains(explore) { throw ValidationError("--explore must be from 0 to 1000000, got \(explore)") }
        if let module {
            guard command.isEmpty else { throw ValidationError("give a library, a .wasm module or a command after --, not one of each") }
            guard Self.pluginFileSuffixes.contains(where: module.hasSuffix) else {
                throw ValidationError(
                    "'\(module)' is neither a plugin library (\(LibraryNames.pattern)) nor a .wasm module; give one of those, or a command after --, as in check-plugin -- python3 my_plugin.py"
                )
            }
            return
        }
        guard !command.isEmpty else {
            throw ValidationError(
                "give a plugin library (\(LibraryNames.pattern)), a .wasm module or the plugin's command after --, as in check-plugin -- python3 my_plugin.py"
            )
        }
    }

    func run() throws {
        let pipeline = try pipeline.pipeline(forSessionsIn: ".")
        // Made once here to name them (and to fail with 78 when one cannot be started); each replay
        // of the checks makes its own.
        let companions: [String]
        do throws(PipelineError) {
            companions = try pipeline.makeCompanions().map(\.name)
        } catch {
            complain(error.message)
            throw ExitCode(error.exitCode)
        }
        let suite: PluginConformance
        let subject: String
        if let module {
            subject = module
            let maker: PluginMaker
            do throws(PipelineError) {
                maker = try ReplayPipeline.maker(for: PluginReference(path: module), sandbox: pipeline.description.wasmSandbox)
            } catch {
                complain("cannot check '\(module)': \(error.message)")
                throw Exit.pluginError
            }
            suite = PluginConformance(companions: { (try? pipeline.makeCompanions()) ?? [] }) {
                (try? maker.make()) ?? NotMade(path: module)
            }
        } else {
            subject = command.joined(separator: " ")
            let configuration = ExternalPlugin.Configuration(command: command, timeout: .milliseconds(self.pipeline.timeout ?? 200))
            do {
                suite = try PluginConformance.external(configuration, companions: { (try? pipeline.makeCompanions()) ?? [] })
            } catch {
                complain("cannot check '\(subject)': \(error.message)")
                throw Exit.pluginError
            }
        }
        let failures = suite.failures()
        let output = Output()
        output.line(
            TerminalText.escaped("checking '\(subject)' against \(suite.corpus.count) real sessions, \(Self.placement(of: suite, among: companions))")
        )
        // A replay that could not run at all counts against "no errors".
        func listed(_ failure: PluginConformance.Failure) -> String { failure.check == "replay" ? "no errors" : failure.check }
        let names = Set(PluginConformance.checks.map(\.name))
        let checks = PluginConformance.checks + Set(failures.map(listed)).subtracting(names).sorted().map { ($0, "(another check)") }
        for (check, what) in checks {
            let failed = failures.filter { listed($0) == check }
            output.line("\(failed.isEmpty ? "✓" : "✗") \(check): \(what)")
            for failure in failed.prefix(5) { output.line("    " + TerminalText.escapedLines(Self.hinted(failure.message), indent: "    ")) }
            if failed.count > 5 { output.line("    … and \(failed.count - 5) more") }
        }
        let broken = try exploration(of: pipeline, to: output)
        output.line(
            failures.isEmpty && broken == 0
                ? "all checks passed"
                : [
                    failures.isEmpty ? nil : "\(failures.count) check failure\(failures.count == 1 ? "" : "s")",
                    broken == 0 ? nil : "\(broken) propert\(broken == 1 ? "y" : "ies") broken in the exploration",
                ].compactMap { $0 }.joined(separator: "; "))
        output.flush()
        if let error = output.error { throw error.reported() }
        if !failures.isEmpty || broken > 0 { throw Exit.checkFailed }
    }

    /// The short exploration of the pipeline with the plugin: a line when every property held, else
    /// each finding with its shrunk session and the line that reproduces it. Returns how many
    /// properties broke.
    func exploration(of pipeline: ReplayPipeline, to output: Output) throws -> Int {
        let count = explore ?? (command.isEmpty ? 200 : 25)
        guard count > 0 else { return 0 }
        var description = pipeline.description
        let words: [String]
        if let module {
            description.libraries.append(PluginReference(path: module))
            words = ["--plugin", module]
        } else {
            description.commands.append(
                ExternalPlugin.Configuration(
                    command: command, timeout: .milliseconds(self.pipeline.timeout ?? 200), failureMode: self.pipeline.failure ?? .continue))
            words = ["--plugin-command", command.map(ExploreCommand.quoted).joined(separator: " ")]
        }
        let explored: ReplayPipeline
        let report: ExplorationReport
        do {
            explored = try ReplayPipeline(description)
            report = try Explorer(seed: seed).explore(count: count) { PipelineTarget(explored) }
        } catch let error as PipelineError {
            output.line("✗ explore: the pipeline with the plugin could not run: \(error.message)")
            return 1
        }
        guard !report.findings.isEmpty else {
            output.line("✓ explore: \(report.checked) generated sessions keep every property (seed \(seed))")
            return 0
        }
        for finding in report.findings {
            output.line(
                TerminalText.escapedLines(
                    "✗ explore: \(finding.failure) (\(finding.failingSessions) of \(report.checked) sessions)", indent: "    "))
            for line in finding.shrunk.description.split(separator: "\n") { output.line("    \(line)") }
            let reproduce = ExploreCommand.reproduction(of: ["explore"] + pipelineArguments() + words, seed: finding.seed)
            output.line("    reproduce, and write the shrunk log: \(reproduce)")
        }
        return report.findings.count
    }

    /// This command's pipeline options, as given: its arguments without the plugin, the command
    /// after `--` and the exploration's own options.
    private func pipelineArguments() -> [String] {
        let given = CommandLine.arguments.dropFirst(2).prefix { $0 != "--" }.filter { $0 != module }
        return ExploreCommand.without(["--explore", "--seed"], in: Array(given))
    }

    /// Where the checks run the plugin, as the header says it: `after A → B` (last, as a plugin
    /// without a position goes), `before C` (first), `after A → B, before C` (between).
    static func placement(of suite: PluginConformance, among companions: [String]) -> String {
        func list(_ names: [String]) -> String { names.joined(separator: " → ") }
        let placement: PluginConformance.Placement
        do throws(PluginRegistrationError) {
            placement = try suite.placement()
        } catch {
            return "with \(companions.isEmpty ? "no other plugin" : list(companions)) (it cannot be placed: \(error.message))"
        }
        switch (placement.after.isEmpty, placement.before.isEmpty) {
        case (true, true): return "after no other plugin"
        case (_, true): return "after \(list(placement.after))"
        case (true, _): return "before \(list(placement.before))"
        case (false, false): return "after \(list(placement.after)), before \(list(placement.before))"
        }
    }

    /// The endings of a plugin file `check-plugin` loads as `--plugin` does: a library's (`.dylib`
    /// on macOS) or a WebAssembly module's.
    static let pluginFileSuffixes = [".so", ".dylib", ".wasm"]

    /// Stands in for a module that could be loaded once and not instantiated again: says so, as an
    /// error diagnostic the "no errors" check reports.
    final class NotMade: EventObserving {
        let path: String
        init(path: String) { self.path = path }
        var name: String { "(\(path))" }
        var observedEvents: Set<AnyEventName>? { [] }
        func didRegister(context: PluginContext) {
            context.post(.diagnostic, Diagnostic(level: .error, message: "'\(path)' could not be instantiated again", failure: .pluginProcessFailed))
        }
    }

    /// A failure's message, with the option that changes the limit when the plugin was too slow
    /// for it.
    static func hinted(_ message: String) -> String {
        guard message.contains(" did not answer ") || message.contains(" did not read its input for ") else { return message }
        return message + " (the time limit is --plugin-timeout MILLISECONDS, 200 by default)"
    }
}
