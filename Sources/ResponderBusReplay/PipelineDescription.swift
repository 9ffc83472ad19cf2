import ResponderBus
import ResponderBusExternal

/// Why a pipeline cannot be used, with the exit code the CLI contract gives it.
public struct PipelineError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Sendable, Hashable {
        /// The description itself is wrong (an unknown built-in, a bad position or timeout): exit 64.
        case usage
        /// A plugin cannot be loaded, started or placed, or a project file cannot be used: exit 78.
        case plugin
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// What went wrong and what to do, in one line for a person.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: what kind of problem it is.
    ///   - message: what went wrong and what to do.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// A usage error (exit 64).
    static func usage(_ message: String) -> PipelineError { PipelineError(.usage, message) }
    /// A plugin that cannot be used (exit 78).
    static func plugin(_ message: String) -> PipelineError { PipelineError(.plugin, message) }

    /// The exit code of the CLI contract: 64 for ``Kind/usage``, 78 for ``Kind/plugin``.
    public var exitCode: Int32 { kind == .usage ? 64 : 78 }

    /// The message.
    public var description: String { message }
}

/// An in-process plugin an embedding program adds to a pipeline: made anew for each replay, since
/// a plugin instance belongs to one bus.
public struct PluginMaker: Sendable {
    /// Where it goes; `nil` leaves it to the plugin's `preferredPosition`, else last.
    public var position: PluginPosition?
    /// Makes a new instance.
    public let make: @Sendable () throws -> any ResponderPlugin

    /// A plugin made by `make`, placed at `position`.
    ///
    /// - Parameters:
    ///   - position: where it goes; `nil` leaves it to the plugin.
    ///   - make: makes a new instance, once per replay.
    public init(at position: PluginPosition? = nil, _ make: @escaping @Sendable () throws -> any ResponderPlugin) {
        self.position = position
        self.make = make
    }
}

/// What a replay runs: the built-in plugins with their settings, the ones turned off, plugin
/// libraries, out-of-process plugin commands and in-process plugins, each where it goes.
///
/// The plugins are registered in this order, each where its position (or its own
/// `preferredPosition`) puts it: the built-ins (``BuiltinPlugins/names``, less ``disabled``), then
/// ``plugins``, then ``libraries``, then ``commands`` (where each one's handshake asks). The CLI's
/// pipeline options (`--plugin`, `--plugin-command`, `--disable`, `--keyboard-distance`, …) and a
/// project file (`ProjectFile`, in ResponderBusProject) both describe one; ``overridden(by:)`` puts options over a file.
///
/// ```swift
/// var pipeline = PipelineDescription()
/// pipeline.disabled = ["FieldAdvancing"]
/// pipeline.settings.keyboardDistance = 40
/// pipeline.plugins = [PluginMaker(at: .after("KeyboardAvoidance")) { MyPlugin() }]
/// let prepared = try ReplayPipeline(pipeline)
/// ```
public struct PipelineDescription: Sendable {
    /// Built-in plugins turned off (names from ``BuiltinPlugins/names``).
    public var disabled: Set<String>
    /// The built-in plugins' settings.
    public var settings: BuiltinSettings
    /// Plugin libraries (`lib<Name>.so`) and WebAssembly plugins (a path ending in `.wasm`), loaded
    /// once and made anew for each replay. A program that
    /// loads them is linked with `--export-dynamic` (see `PluginLibrary` in ResponderBusExternal).
    public var libraries: [PluginReference]
    /// Out-of-process plugins: a process of each is started for each replay.
    public var commands: [ExternalPlugin.Configuration]
    /// In-process plugins of the embedding program.
    public var plugins: [PluginMaker]
    /// The limits the WebAssembly plugins among ``libraries`` (`.wasm` files) run within, and what
    /// their faults do. They load only in a program built with the package's `WebAssembly` trait.
    public var wasmSandbox: WasmSandbox
    /// Whether a conflict between plugins — two that set the root, a scroll view or the first
    /// responder to different values in one loop turn — is allowed: the bus names it either way,
    /// and `responder-bus test` (`SessionSuite`) fails a session with one unless it is allowed (a
    /// project file's `"allowConflicts": true`, `test --allow-conflicts`).
    public var allowsConflicts: Bool
    /// The sessions `responder-bus test` (`SessionSuite`) expects to fail, by absolute path, each
    /// with why: a project file's `"expectedFailures"` (`ProjectFile/resolvedExpectedFailures`).
    /// Empty by default.
    public var expectedFailures: [String: String] = [:]
    /// Whether `responder-bus test` (`SessionSuite`) checks the properties a replay of one session
    /// can check (a project file's `"checkProperties": true`, `test --check-properties`): the
    /// screen put back when the keyboard covers nothing, and one move per change. Off by default.
    public var checksProperties = false

    /// A description; the default runs the built-in plugins with their default settings.
    ///
    /// - Parameters:
    ///   - disabled: built-in plugins turned off.
    ///   - settings: the built-ins' settings.
    ///   - libraries: plugin libraries to load.
    ///   - commands: out-of-process plugins to start.
    ///   - plugins: in-process plugins.
    ///   - wasmSandbox: the limits of WebAssembly plugins.
    ///   - allowsConflicts: whether conflicts between plugins are allowed.
    public init(
        disabled: Set<String> = [], settings: BuiltinSettings = BuiltinSettings(), libraries: [PluginReference] = [],
        commands: [ExternalPlugin.Configuration] = [], plugins: [PluginMaker] = [], wasmSandbox: WasmSandbox = WasmSandbox(),
        allowsConflicts: Bool = false
    ) {
        self.allowsConflicts = allowsConflicts
        self.wasmSandbox = wasmSandbox
        self.disabled = disabled
        self.settings = settings
        self.libraries = libraries
        self.commands = commands
        self.plugins = plugins
    }

    /// Checks what can be checked without loading or starting anything: the disabled names are
    /// built-ins, each command has a program and a timeout from 1 ms to 10 minutes, the settings are
    /// in range.
    ///
    /// - Throws: ``PipelineError`` of kind ``PipelineError/Kind/usage``.
    public func validate() throws(PipelineError) {
        for name in disabled.sorted() where !BuiltinPlugins.names.contains(name) {
            throw .usage("--disable \(name): no such plugin; the built-in plugins are \(BuiltinPlugins.names.joined(separator: ", "))")
        }
        for command in commands {
            guard let program = command.command.first, !program.isEmpty else {
                throw .usage("--plugin-command: the command is empty; give a program, as in --plugin-command 'python3 my_plugin.py'")
            }
            guard command.timeout >= .milliseconds(1), command.timeout <= .seconds(600) else {
                throw .usage("--plugin-timeout must be between 1 and 600000 milliseconds, got \(command.timeout)")
            }
        }
        if let distance = settings.keyboardDistance, !(distance.isFinite && distance >= 0 && distance <= 10_000) {
            throw .usage("--keyboard-distance must be a number of points from 0 to 10000, got \(distance)")
        }
        if let fuel = wasmSandbox.fuelPerDelivery, fuel < 1_000 || fuel > 1_000_000_000_000 {
            throw .usage("--plugin-fuel must be 0 (no metering) or from 1000 to 1000000000000 units, got \(fuel)")
        }
        if wasmSandbox.memoryLimit < 64 << 10 || wasmSandbox.memoryLimit > 4 << 30 {
            throw .usage("--plugin-memory must be from 1 to 4096 MiB, got \(wasmSandbox.memoryLimit >> 20) MiB")
        }
        if let window = settings.settleWindow, window < .zero || window > .seconds(60) {
            throw .usage("--settle-window must be between 0 and 60000 milliseconds, got \(window)")
        }
        if let timeout = settings.heldFrameTimeout, timeout <= .zero || timeout > .seconds(600) {
            throw .usage("--held-frame-timeout must be between 1 and 600000 milliseconds, got \(timeout)")
        }
    }

    /// This description with `other`'s parts in place of its own where `other` gives them: a list
    /// that `other` gives (disabled plugins, libraries, commands, in-process plugins) replaces this
    /// one's, and each setting `other` sets (a WebAssembly limit: one that is not the default)
    /// replaces this one's; conflicts are allowed when either allows them. Command-line options over
    /// a project file.
    ///
    /// - Parameter other: the description that wins where it says something.
    public func overridden(by other: PipelineDescription) -> PipelineDescription {
        var result = self
        if !other.disabled.isEmpty { result.disabled = other.disabled }
        result.settings = settings.overridden(by: other.settings)
        if !other.libraries.isEmpty { result.libraries = other.libraries }
        if !other.commands.isEmpty { result.commands = other.commands }
        if !other.plugins.isEmpty { result.plugins = other.plugins }
        result.allowsConflicts = allowsConflicts || other.allowsConflicts
        result.checksProperties = checksProperties || other.checksProperties
        result.expectedFailures.merge(other.expectedFailures) { _, theirs in theirs }
        // Each limit the other sets (differs from the default) wins.
        let defaults = WasmSandbox()
        if other.wasmSandbox.fuelPerDelivery != defaults.fuelPerDelivery { result.wasmSandbox.fuelPerDelivery = other.wasmSandbox.fuelPerDelivery }
        if other.wasmSandbox.memoryLimit != defaults.memoryLimit { result.wasmSandbox.memoryLimit = other.wasmSandbox.memoryLimit }
        if other.wasmSandbox.failureMode != defaults.failureMode { result.wasmSandbox.failureMode = other.wasmSandbox.failureMode }
        if other.wasmSandbox.maximumRestarts != defaults.maximumRestarts { result.wasmSandbox.maximumRestarts = other.wasmSandbox.maximumRestarts }
        return result
    }
}
