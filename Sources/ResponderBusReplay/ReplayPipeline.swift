import EventLog
import ResponderBus
import ResponderBusExternal

#if WebAssembly
    import ResponderBusWasm
#endif

/// A plugin the pipeline loaded once and makes anew for each replay: a library's factory, or a
/// WebAssembly module.
enum LoadedPlugin: Sendable {
    case library(PluginFactory)
    #if WebAssembly
        case module(WasmPluginModule)
    #endif

    /// Where it was loaded from.
    var path: String {
        switch self {
        case .library(let factory): factory.path
        #if WebAssembly
            case .module(let module): module.path
        #endif
        }
    }

    /// Loads the library or module at `reference`'s path (a module: a path ending in `.wasm`).
    static func load(_ reference: PluginReference, sandbox: WasmSandbox) throws(PipelineError) -> LoadedPlugin {
        if reference.path.hasSuffix(".wasm") {
            #if WebAssembly
                do throws(WasmPluginError) {
                    return .module(try WasmPluginModule(contentsOf: reference.path, sandbox: sandbox))
                } catch {
                    throw .plugin(error.message)
                }
            #else
                throw .plugin(
                    "cannot load WebAssembly plugin '\(reference.path)': this program was built without WebAssembly plugins; build it with the package's WebAssembly trait (on by default: `swift build` in the ResponderBus checkout, without --disable-default-traits; a dependent package leaves it on unless it gives `traits: []`)"
                )
            #endif
        }
        do throws(PluginLoadError) {
            return .library(try PluginLibrary.load(reference.path))
        } catch {
            throw .plugin(error.message)
        }
    }

    /// A new plugin.
    func make() throws(PipelineError) -> any ResponderPlugin {
        switch self {
        case .library(let factory):
            do throws(PluginLoadError) {
                return try factory.make()
            } catch {
                throw .plugin(error.message)
            }
        #if WebAssembly
            case .module(let module):
                do throws(WasmPluginError) {
                    return try module.makePlugin()
                } catch {
                    throw .plugin(error.message)
                }
        #endif
        }
    }
}

/// A pipeline ready to run: its description checked, its libraries loaded, and where every
/// plugin goes checked once, before any replay.
///
/// Made once, it replays any number of logs, each on a bus of its own with fresh plugin
/// instances (see ``ReplaySession``); it can be shared between threads (`responder-bus test`
/// replays sessions on several at once).
public final class ReplayPipeline: Sendable {
    /// Whether this build loads WebAssembly plugins (`--plugin X.wasm`): the package's
    /// `WebAssembly` trait, on by default.
    public static var loadsWebAssembly: Bool {
        #if WebAssembly
            true
        #else
            false
        #endif
    }

    /// What it runs.
    public let description: PipelineDescription
    /// The loaded libraries and modules, in the description's order.
    private let libraries: [(loaded: LoadedPlugin, position: PluginPosition?)]

    /// Checks `description`, loads its libraries, and checks that every plugin but the commands
    /// can be placed (an `@after:` anchor that names no plugin is said here, once).
    ///
    /// - Parameter description: what to run.
    /// - Throws: ``PipelineError``: a usage error for a bad description, a plugin error for a
    ///   library that cannot be loaded or a plugin that cannot be placed.
    public init(_ description: PipelineDescription) throws(PipelineError) {
        try description.validate()
        self.description = description
        var libraries: [(loaded: LoadedPlugin, position: PluginPosition?)] = []
        for reference in description.libraries {
            libraries.append((try LoadedPlugin.load(reference, sandbox: description.wasmSandbox), reference.position))
        }
        self.libraries = libraries
        // Placed once on a bus of its own: a position that cannot be honoured fails here, not in
        // every replay.
        let bus = Bus(loop: VirtualTimeLoop())
        _ = try registerInProcess(on: bus)
    }

    /// The names of the plugins that would run, without the commands (whose names come from their
    /// handshakes), in pipeline order.
    public var inProcessPluginNames: [String] {
        let bus = Bus(loop: VirtualTimeLoop())
        return ((try? registerInProcess(on: bus)) != nil) ? bus.pluginNames : []
    }

    /// Registers the built-ins, the in-process plugins and the libraries' and modules' plugins on
    /// `bus`, and returns the names of those not built in (libraries', modules' and in-process
    /// plugins'), and the plugins whose faults are contained (the modules').
    private func registerInProcess(on bus: Bus) throws(PipelineError) -> (added: [String], contained: [any ContainedPlugin]) {
        for plugin in BuiltinPlugins.make(disabling: description.disabled, settings: description.settings) {
            do {
                try bus.register(plugin)
            } catch {
                throw .plugin("cannot use built-in plugin '\(plugin.name)': \(error.message)")
            }
        }
        var added: [String] = []
        var contained: [any ContainedPlugin] = []
        for maker in description.plugins {
            let plugin: any ResponderPlugin
            do {
                plugin = try maker.make()
            } catch {
                throw .plugin("cannot make a plugin: \(error)")
            }
            do {
                try bus.register(plugin, at: maker.position)
            } catch {
                throw .plugin("cannot use plugin '\(plugin.name)': \(error.message)")
            }
            added.append(plugin.name)
            if let plugin = plugin as? any ContainedPlugin { contained.append(plugin) }
        }
        for (loaded, position) in libraries {
            let plugin = try loaded.make()
            do {
                try bus.register(plugin, at: position)
            } catch {
                throw .plugin("cannot use plugin '\(plugin.name)' (\(loaded.path)): \(error.message)")
            }
            added.append(plugin.name)
            if let plugin = plugin as? any ContainedPlugin { contained.append(plugin) }
        }
        return (added, contained)
    }

    /// A maker of the plugin that `reference` names — a library's (`lib<Name>.so`) or a
    /// WebAssembly module's (`.wasm`, within `sandbox`) — loaded once, each plugin made anew: what
    /// `check-plugin` checks.
    ///
    /// - Parameters:
    ///   - reference: the library or module, and where it goes.
    ///   - sandbox: the limits of a WebAssembly plugin.
    /// - Throws: ``PipelineError`` (a plugin error) when it cannot be loaded.
    public static func maker(for reference: PluginReference, sandbox: WasmSandbox = WasmSandbox()) throws(PipelineError) -> PluginMaker {
        let loaded = try LoadedPlugin.load(reference, sandbox: sandbox)
        return PluginMaker(at: reference.position) { try loaded.make() }
    }

    /// A pipeline that runs no plugin at all: for a caller that registers its own on the session's
    /// bus (the kit's `PluginHarness`).
    public static let empty: ReplayPipeline = {
        do {
            return try ReplayPipeline(PipelineDescription(disabled: Set(BuiltinPlugins.names)))
        } catch {
            preconditionFailure("an empty pipeline cannot fail: \(error)")
        }
    }()

    /// New instances of the pipeline's in-process plugins (the built-ins not disabled, the
    /// in-process ones, the libraries'), in the order they take in the pipeline: what a plugin
    /// checked on its own runs with (`check-plugin`'s companions).
    ///
    /// - Throws: ``PipelineError`` when a plugin cannot be made.
    public func makeInProcessPlugins() throws(PipelineError) -> [any ResponderPlugin] {
        let order = inProcessPluginNames
        var plugins = BuiltinPlugins.make(disabling: description.disabled, settings: description.settings)
        for maker in description.plugins {
            do {
                plugins.append(try maker.make())
            } catch {
                throw .plugin("cannot make a plugin: \(error)")
            }
        }
        for (loaded, _) in libraries {
            plugins.append(try loaded.make())
        }
        // In pipeline order; a name the order lacks keeps its place at the end.
        return plugins.enumerated().sorted {
            let a = order.firstIndex(of: $0.element.name) ?? order.count + $0.offset
            let b = order.firstIndex(of: $1.element.name) ?? order.count + $1.offset
            return a < b
        }.map(\.element)
    }

    /// New instances of every plugin of the pipeline, out-of-process ones too (a process of each
    /// command is started, for a log with `header`), in pipeline order with the commands last:
    /// the plugins a plugin checked on its own runs with (`check-plugin`'s companions). The
    /// processes end when their plugins are released, or with `ExternalPlugin.shutDown()`.
    ///
    /// - Parameter header: the screen the commands' handshakes name (a plugin is brought to the
    ///   bus's own screen when it is registered).
    /// - Throws: ``PipelineError`` when a plugin cannot be made or a command cannot be started.
    public func makeCompanions(header: LogHeader = LogHeader(screen: Size(width: 375, height: 812))) throws(PipelineError)
        -> [any ResponderPlugin]
    {
        var plugins = try makeInProcessPlugins()
        for configuration in description.commands {
            do throws(ExternalPluginError) {
                plugins.append(try ExternalPlugin(configuration, header: header))
            } catch {
                throw .plugin("cannot use plugin command '\(configuration.command.joined(separator: " "))': \(error.message)")
            }
        }
        return plugins
    }

    /// Starts each command once, places it in the pipeline where its handshake asks, and ends it
    /// again: whether it can be used at all — it starts, and its position names a plugin that is
    /// there — before a run that starts it for every session.
    ///
    /// - Throws: ``PipelineError`` (a plugin error) naming the command that cannot be used.
    public func probeCommands() throws(PipelineError) {
        guard !description.commands.isEmpty else { return }
        let header = LogHeader(screen: Size(width: 375, height: 812))
        let bus = Bus(loop: VirtualTimeLoop(), screen: Screen(size: header.screen, safeArea: .zero))
        for plugin in try install(on: bus, header: header).external { plugin.shutDown() }
    }

    /// The plugins of one replay, registered on its bus.
    struct Installed {
        /// The plugins not built in (in-process, libraries' and modules'), by name.
        var added: [String]
        /// The out-of-process plugins started for this replay.
        var external: [ExternalPlugin]
        /// The plugins whose faults are contained: the modules' and the out-of-process ones.
        var contained: [any ContainedPlugin]
    }

    /// Registers every plugin of the pipeline on `bus` (fresh instances) and starts the commands'
    /// processes for a log with `header`. Loop-confined. On a failure, the processes already
    /// started are ended.
    func install(on bus: Bus, header: LogHeader) throws(PipelineError) -> Installed {
        let inProcess = try registerInProcess(on: bus)
        var installed = Installed(added: inProcess.added, external: [], contained: inProcess.contained)
        for configuration in description.commands {
            let command = configuration.command.joined(separator: " ")
            do {
                let plugin = try ExternalPlugin(configuration, header: header)
                installed.external.append(plugin)
                installed.contained.append(plugin)
                try bus.register(plugin, at: plugin.preferredPosition)
            } catch {
                for plugin in installed.external { plugin.shutDown() }
                let message = (error as? ExternalPluginError)?.message ?? (error as? PluginRegistrationError)?.message ?? "\(error)"
                throw .plugin("cannot use plugin command '\(command)': \(message)")
            }
        }
        return installed
    }
}
