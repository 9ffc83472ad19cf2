import ArgumentParser
import EventLog
import FieldAdvancing
import KeyboardAvoidance
import ResponderBusExternal
import ResponderBusReplay

/// The pipeline options every subcommand that runs plugins takes (`replay`, `test`, `render`,
/// `check-plugin`): which plugins run, where, and with which settings. They override the nearest
/// project file (`.responder-bus.json`).
struct PipelineOptions: ParsableArguments {
    @Option(
        name: .customLong("plugin"),
        help: ArgumentHelp(
            "Load a plugin library (a \(LibraryNames.pattern) built from a `responder-bus new-plugin` package) or a WebAssembly plugin (a .wasm module, run sandboxed in process; needs a responder-bus built with the WebAssembly trait, on by default), after the built-in plugins (repeatable). It goes where the plugin's preferredPosition (a module: its handshake) says, else last; @first, @last, @before:NAME or @after:NAME after the path places it, as in \(LibraryNames.file("Warner"))@after:KeyboardAvoidance.",
            valueName: "path[@position]"))
    var pluginPaths: [String] = []

    @Option(
        name: .customLong("plugin-command"),
        help: ArgumentHelp(
            "Run a plugin in a process of its own, speaking the responder-bus-plugin protocol on its standard input and output (repeatable), as in --plugin-command 'python3 my_plugin.py'. Split into words like a shell would, never run through one. Any language; a plugin that crashes or hangs is reported and restarted, and cannot take the run down. It goes where its handshake asks, else last; a process of it is started for each session.",
            valueName: "command"))
    var commands: [String] = []

    @Option(
        name: .customLong("plugin-timeout"),
        help: ArgumentHelp("How long, in milliseconds, a --plugin-command plugin may take to answer one event (default 200).", valueName: "ms"))
    var timeout: Int?

    @Option(
        name: .customLong("plugin-failure"),
        help: ArgumentHelp(
            "What a --plugin-command or WebAssembly plugin's fault does: continue (report it, restart it up to three times, then go on without it) or stop (end with exit 70).",
            valueName: "continue|stop"))
    var failure: ExternalPlugin.FailureMode?

    @Option(
        name: .customLong("plugin-fuel"),
        help: ArgumentHelp(
            "WebAssembly plugins: the fuel (about one unit per WebAssembly instruction) one delivery may burn before the plugin is stopped as a fault (default 5000000; 0 turns metering off).",
            valueName: "units"))
    var fuel: UInt64?

    @Option(
        name: .customLong("plugin-memory"),
        help: ArgumentHelp(
            "WebAssembly plugins: the most memory a module may declare or grow to, in MiB (default 16). Whatever it is, one delivery posts at most 1000 decisions and hands the host at most 1 MiB of names, ids and actions (past either is the module's fault).",
            valueName: "MiB"))
    var memory: Int?

    @Option(name: .customLong("disable"), help: ArgumentHelp("Turn a built-in plugin off (repeatable).", valueName: "name"))
    var disabled: [String] = []

    @Option(help: ArgumentHelp("KeyboardAvoidance: the gap kept between a field and the keyboard (default 20).", valueName: "points"))
    var keyboardDistance: Double?

    @Option(help: ArgumentHelp("KeyboardAvoidance: when it decides.", valueName: "automatic|every-event|settled-turns"))
    var avoidanceTiming: AvoidanceTiming?

    @Flag(help: "KeyboardAvoidance: move for another app's keyboard too (iPad multitasking).")
    var honorOtherAppsKeyboards = false

    @Option(help: ArgumentHelp("FieldAdvancing: how Return finds the next field.", valueName: "tag|position"))
    var fieldOrder: FieldOrderOption?

    @Flag(help: "FieldAdvancing: Return in a text view advances too.")
    var textViewReturnAdvances = false

    @Option(help: ArgumentHelp("TextViewOrdering: collapse keyboard frames arriving within this window.", valueName: "ms"))
    var settleWindow: Int?

    @Option(help: ArgumentHelp("TextViewOrdering: how long a keyboard frame may wait for its field before a diagnostic.", valueName: "ms"))
    var heldFrameTimeout: Int?

    @Option(
        help: ArgumentHelp(
            "Read the pipeline from this project file instead of the nearest .responder-bus.json (the log's folder, then its parents).",
            valueName: "file"))
    var projectFile: String?

    @Flag(help: "Read no project file: only these options describe the pipeline.")
    var noProjectFile = false

    enum AvoidanceTiming: String, ExpressibleByArgument, CaseIterable {
        case automatic
        case everyEvent = "every-event"
        case settledTurns = "settled-turns"
    }

    enum FieldOrderOption: String, ExpressibleByArgument, CaseIterable {
        case tag, position
    }

    func validate() throws {
        if projectFile != nil && noProjectFile { throw ValidationError("--project-file and --no-project-file cannot go together") }
        do throws(PipelineError) {
            try commandLineDescription().validate()
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// What the options alone describe.
    func commandLineDescription() throws(PipelineError) -> PipelineDescription {
        var description = PipelineDescription(disabled: Set(disabled))
        for argument in pluginPaths { description.libraries.append(try PluginReference(parsing: argument)) }
        let timeout = self.timeout ?? 200
        guard (1...600_000).contains(timeout) else {
            throw PipelineError(.usage, "--plugin-timeout must be between 1 and 600000 milliseconds, got \(timeout)")
        }
        for command in commands {
            let words: [String]
            do throws(ExternalPluginError) {
                words = try ExternalPlugin.Configuration.words(of: command)
            } catch {
                throw PipelineError(.usage, "--plugin-command: \(error.message)")
            }
            description.commands.append(
                ExternalPlugin.Configuration(command: words, timeout: .milliseconds(timeout), failureMode: failure ?? .continue))
        }
        var settings = BuiltinSettings()
        settings.keyboardDistance = keyboardDistance
        settings.avoidanceTiming = avoidanceTiming.map {
            switch $0 {
            case .automatic: .automatic
            case .everyEvent: .everyEvent
            case .settledTurns: .settledTurns
            }
        }
        settings.honorsOtherAppsKeyboards = honorOtherAppsKeyboards ? true : nil
        settings.fieldOrder = fieldOrder.map { $0 == .tag ? FieldOrder.tag : .position }
        settings.textViewReturnAdvances = textViewReturnAdvances ? true : nil
        if let settleWindow {
            guard (0...60_000).contains(settleWindow) else {
                throw PipelineError(.usage, "--settle-window must be between 0 and 60000 milliseconds, got \(settleWindow)")
            }
            settings.settleWindow = .milliseconds(settleWindow)
        }
        if let heldFrameTimeout {
            guard (1...600_000).contains(heldFrameTimeout) else {
                throw PipelineError(.usage, "--held-frame-timeout must be between 1 and 600000 milliseconds, got \(heldFrameTimeout)")
            }
            settings.heldFrameTimeout = .milliseconds(heldFrameTimeout)
        }
        description.settings = settings
        if let fuel { description.wasmSandbox.fuelPerDelivery = fuel == 0 ? nil : fuel }
        if let memory {
            guard (1...4096).contains(memory) else { throw PipelineError(.usage, "--plugin-memory must be from 1 to 4096 MiB, got \(memory)") }
            description.wasmSandbox.memoryLimit = memory << 20
        }
        if let failure { description.wasmSandbox.failureMode = failure }
        // --plugin-timeout and --plugin-failure apply to a project file's commands too.
        return description
    }

    /// The resolver of these options: the nearest project file (or `--project-file`, or none
    /// with `--no-project-file`) with these options over it; its warnings said on standard error,
    /// or, with `unknownKeysFail` (`test`), its unknown keys an error.
    ///
    /// - Throws: the exit code (64), having said why, for a bad option.
    func resolver(unknownKeysFail: Bool = false) throws -> PipelineResolver {
        do throws(PipelineError) {
            let choice: PipelineResolver.Choice = noProjectFile ? .none : projectFile.map { .file($0) } ?? .nearest
            return PipelineResolver(
                overrides: try commandLineDescription(), choice: choice, commandTimeout: timeout.map { .milliseconds($0) },
                commandFailure: failure, warn: { complain("warning: \($0)") }, unknownKeysFail: unknownKeysFail)
        } catch {
            complain(error.message)
            throw ExitCode(error.exitCode)
        }
    }

    /// The pipeline made ready (libraries loaded, positions checked) for the log at `path`.
    ///
    /// - Throws: the exit code, having said why: 78 for a project file or plugin that cannot be
    ///   used, 64 for a bad option.
    func pipeline(forLog path: String) throws -> ReplayPipeline {
        try pipeline(forSessionsIn: PipelineResolver.folder(ofLog: path))
    }

    /// The pipeline made ready for sessions in `folder` (`nil`: standard input's, the current
    /// directory's).
    ///
    /// - Throws: the exit code, having said why.
    func pipeline(forSessionsIn folder: String?) throws -> ReplayPipeline {
        let resolver = try resolver()
        do throws(PipelineError) {
            return try resolver.pipeline(forSessionsIn: folder)
        } catch {
            complain(error.message)
            throw ExitCode(error.exitCode)
        }
    }
}

extension ExternalPlugin.FailureMode: ExpressibleByArgument {}
