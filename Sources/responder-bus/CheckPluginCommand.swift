import ArgumentParser
import ResponderBus
import ResponderBusExternal
import ResponderBusReport
import ResponderBusTesting

/// `responder-bus check-plugin -- COMMAND ARGS…`: the plugin conformance checks, run against an
/// out-of-process plugin.
struct CheckPluginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-plugin",
        abstract: "Run the plugin conformance checks against a plugin that runs out of process.",
        discussion: """
            Starts the command (after --, never through a shell) for each replay of the bundled corpus of real sessions, \
            with the built-in plugins before it, and checks that the plugin has a name, is deterministic, derives nothing \
            from events it did not ask for, survives being removed and added mid-session, never fails (a crash, a hang, \
            a broken protocol, an event the bus cannot take) and derives everything under its own name. \
            Exit 0 when every check passes, 1 when one fails, 78 when the plugin cannot be started.
            """)

    @Option(
        name: .customLong("plugin-timeout"),
        help: ArgumentHelp("How long, in milliseconds, the plugin may take to answer one event.", valueName: "ms"))
    var pluginTimeout = 200

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The plugin's program and its arguments, after --.", valueName: "command"))
    var command: [String] = []

    func validate() throws {
        let words = command.first == "--" ? Array(command.dropFirst()) : command
        guard !words.isEmpty else { throw ValidationError("give the plugin's command after --, as in check-plugin -- python3 my_plugin.py") }
        do throws(PluginCommands.ValidationFailure) {
            try PluginCommands.validate([], timeoutMilliseconds: pluginTimeout)
        } catch {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        let words = command.first == "--" ? Array(command.dropFirst()) : command
        let configuration = ExternalPlugin.Configuration(command: words, timeout: .milliseconds(pluginTimeout))
        let suite: PluginConformance
        do {
            suite = try PluginConformance.external(configuration, companions: { BuiltinPlugins.names.map(BuiltinPlugins.make) })
        } catch {
            complain("cannot check '\(words.joined(separator: " "))': \(error.message)")
            throw Exit.pluginError
        }
        let failures = suite.failures()
        let output = Output()
        output.line(
            "checking '\(words.joined(separator: " "))' against \(suite.corpus.count) real sessions, after \(BuiltinPlugins.names.joined(separator: " → "))"
        )
        // A replay that could not run at all counts against "no errors".
        func listed(_ failure: PluginConformance.Failure) -> String { failure.check == "replay" ? "no errors" : failure.check }
        let names = Set(PluginConformance.checks.map(\.name))
        let checks = PluginConformance.checks + Set(failures.map(listed)).subtracting(names).sorted().map { ($0, "(another check)") }
        for (check, what) in checks {
            let failed = failures.filter { listed($0) == check }
            output.line("\(failed.isEmpty ? "✓" : "✗") \(check): \(what)")
            for failure in failed.prefix(5) { output.line("    \(TerminalText.escaped(failure.message))") }
            if failed.count > 5 { output.line("    … and \(failed.count - 5) more") }
        }
        output.line(failures.isEmpty ? "all checks passed" : "\(failures.count) check failure\(failures.count == 1 ? "" : "s")")
        output.flush()
        if let error = output.error { throw error.reported() }
        if !failures.isEmpty { throw Exit.checkFailed }
    }
}
