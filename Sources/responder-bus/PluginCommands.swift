import ArgumentParser
import EventLog
import ResponderBus
import ResponderBusExternal

/// `--plugin-command` and `--plugin-timeout`, as `replay` and `test` take them.
struct PluginCommandOptions: ParsableArguments {
    @Option(
        name: .customLong("plugin-command"),
        help: ArgumentHelp(
            "Run a plugin in a process of its own, speaking the responder-bus-plugin protocol on its standard input and output (repeatable), as in --plugin-command 'python3 my_plugin.py'. Split into words like a shell would, never run through one. Any language; a plugin that crashes or hangs is reported and restarted, and cannot take the run down. It goes where its handshake asks, else last; `test` starts a process of it for each session.",
            valueName: "command"))
    var commands: [String] = []

    @Option(
        name: .customLong("plugin-timeout"),
        help: ArgumentHelp("How long, in milliseconds, a --plugin-command plugin may take to answer one event.", valueName: "ms"))
    var timeout = 200

    func validate() throws {
        do throws(PluginCommands.ValidationFailure) {
            try PluginCommands.validate(commands, timeoutMilliseconds: timeout)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// The configurations for the commands given (checked by `validate` to split into words).
    func configurations(failureMode: ExternalPlugin.FailureMode = .continue) -> [ExternalPlugin.Configuration] {
        commands.map { command in
            ExternalPlugin.Configuration(
                command: (try? ExternalPlugin.Configuration.words(of: command)) ?? [command],
                timeout: .milliseconds(timeout), failureMode: failureMode)
        }
    }
}

/// The `--plugin-command` plugins of `replay`, `test` and `check-plugin`: their options checked,
/// and the plugins started and registered for one session's bus.
enum PluginCommands {
    /// Rejects a command that does not split into words (exit 64).
    static func validate(_ commands: [String], timeoutMilliseconds: Int) throws(ValidationFailure) {
        guard (1...600_000).contains(timeoutMilliseconds) else {
            throw ValidationFailure("--plugin-timeout must be between 1 and 600000 milliseconds, got \(timeoutMilliseconds)")
        }
        for command in commands {
            do throws(ExternalPluginError) {
                _ = try ExternalPlugin.Configuration.words(of: command)
            } catch {
                throw ValidationFailure("--plugin-command: \(error.message)")
            }
        }
    }

    /// A usage error's message.
    struct ValidationFailure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// Starts each plugin and registers it on `bus` where its handshake asks; on a failure, the
    /// ones already started are shut down and the error names the command.
    static func start(_ configurations: [ExternalPlugin.Configuration], header: LogHeader, on bus: Bus) throws(StartFailure) -> [ExternalPlugin] {
        var started: [ExternalPlugin] = []
        for configuration in configurations {
            let command = configuration.command.joined(separator: " ")
            do {
                let plugin = try ExternalPlugin(configuration, header: header)
                started.append(plugin)
                try bus.register(plugin, at: plugin.preferredPosition)
            } catch {
                for plugin in started { plugin.shutDown() }
                let message = (error as? ExternalPluginError)?.message ?? (error as? PluginRegistrationError)?.message ?? "\(error)"
                throw StartFailure(message: "cannot use plugin command '\(command)': \(message)")
            }
        }
        return started
    }

    /// Starts each plugin once and ends it again: whether it can be used at all, before a run that
    /// starts it for every session.
    static func probe(_ configurations: [ExternalPlugin.Configuration]) throws(StartFailure) {
        for configuration in configurations {
            do throws(ExternalPluginError) {
                try ExternalPlugin(configuration, header: LogHeader(screen: Size(width: 375, height: 812))).shutDown()
            } catch {
                throw StartFailure(message: "cannot use plugin command '\(configuration.command.joined(separator: " "))': \(error.message)")
            }
        }
    }

    /// Why a plugin command could not be used.
    struct StartFailure: Error {
        let message: String
    }
}
