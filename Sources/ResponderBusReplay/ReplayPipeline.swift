import EventLog
import ResponderBus
import ResponderBusExternal

/// A pipeline ready to run: its description checked, its libraries loaded, and where every
/// plugin goes checked once, before any replay.
///
/// Made once, it replays any number of logs, each on a bus of its own with fresh plugin
/// instances (see ``ReplaySession``); it can be shared between threads (`responder-bus test`
/// replays sessions on several at once).
public final class ReplayPipeline: Sendable {
    /// What it runs.
    public let description: PipelineDescription
    /// The loaded libraries, in the description's order.
    private let libraries: [(factory: PluginFactory, position: PluginPosition?)]

    /// Checks `description`, loads its libraries, and checks that every plugin but the commands
    /// can be placed (an `@after:` anchor that names no plugin is said here, once).
    ///
    /// - Parameter description: what to run.
    /// - Throws: ``PipelineError``: a usage error for a bad description, a plugin error for a
    ///   library that cannot be loaded or a plugin that cannot be placed.
    public init(_ description: PipelineDescription) throws(PipelineError) {
        try description.validate()
        self.description = description
        var libraries: [(factory: PluginFactory, position: PluginPosition?)] = []
        for reference in description.libraries {
            do throws(PluginLoadError) {
                libraries.append((try PluginLibrary.load(reference.path), reference.position))
            } catch {
                throw .plugin(error.message)
            }
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

    /// Registers the built-ins, the in-process plugins and the libraries' plugins on `bus`, and
    /// returns the names of those not built in (libraries' and in-process plugins').
    private func registerInProcess(on bus: Bus) throws(PipelineError) -> [String] {
        for plugin in BuiltinPlugins.make(disabling: description.disabled, settings: description.settings) {
            do {
                try bus.register(plugin)
            } catch {
                throw .plugin("cannot use built-in plugin '\(plugin.name)': \(error.message)")
            }
        }
        var added: [String] = []
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
        }
        for (factory, position) in libraries {
            let plugin: any ResponderPlugin
            do throws(PluginLoadError) {
                plugin = try factory.make()
            } catch {
                throw .plugin(error.message)
            }
            do {
                try bus.register(plugin, at: position)
            } catch {
                throw .plugin("cannot use plugin '\(plugin.name)' (\(factory.path)): \(error.message)")
            }
            added.append(plugin.name)
        }
        return added
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
        for (factory, _) in libraries {
            do throws(PluginLoadError) {
                plugins.append(try factory.make())
            } catch {
                throw .plugin(error.message)
            }
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
        /// The plugins not built in (in-process and libraries'), by name.
        var added: [String]
        /// The out-of-process plugins started for this replay.
        var external: [ExternalPlugin]
    }

    /// Registers every plugin of the pipeline on `bus` (fresh instances) and starts the commands'
    /// processes for a log with `header`. Loop-confined. On a failure, the processes already
    /// started are ended.
    func install(on bus: Bus, header: LogHeader) throws(PipelineError) -> Installed {
        var installed = Installed(added: try registerInProcess(on: bus), external: [])
        for configuration in description.commands {
            let command = configuration.command.joined(separator: " ")
            do {
                let plugin = try ExternalPlugin(configuration, header: header)
                installed.external.append(plugin)
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
