import EventLog
import ResponderBus
import ResponderBusExternal

extension PluginConformance {
    /// The checks, for a plugin that runs in a process of its own: each replay starts a fresh
    /// process of `configuration`'s command, and its faults — a crash, a hang, a broken protocol, a
    /// derived event the bus cannot take — fail the "no errors" check with the fault's diagnostic.
    ///
    /// ```swift
    /// @Test func conformance() throws {
    ///     try PluginConformance.external(ExternalPlugin.Configuration(command: ["python3", "my_plugin.py"])).check()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: how to run the plugin.
    ///   - corpus: the logs replayed; the whole ``LogCorpus`` by default.
    ///   - companions: the plugins it runs with, registered before it (none by default).
    /// - Throws: `ExternalPluginError` when the plugin cannot be started at all (the reason, before
    ///   any check runs).
    public static func external(
        _ configuration: ExternalPlugin.Configuration, corpus: [LogCorpus.Entry] = LogCorpus.all,
        companions: @escaping () -> [any ResponderPlugin] = { [] }
    ) throws(ExternalPluginError) -> PluginConformance {
        // The handshake's screen; the plugin is brought to the bus's own screen when registered.
        let header = LogHeader(screen: Size(width: 375, height: 812))
        let probe = try ExternalPlugin(configuration, header: header)
        let name = probe.name
        probe.shutDown()
        return PluginConformance(corpus: corpus, companions: companions) {
            do throws(ExternalPluginError) {
                return try ExternalPlugin(configuration, header: header)
            } catch {
                return NotStarted(name: name, reason: error.message)
            }
        }
    }
}

/// Stands in for an external plugin whose process could not be started for one replay: says so,
/// as an error diagnostic the "no errors" check reports.
private final class NotStarted: EventObserving {
    let name: String
    let reason: String
    init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }
    var observedEvents: Set<AnyEventName>? { [] }
    func didRegister(context: PluginContext) {
        context.post(.diagnostic, Diagnostic(level: .error, message: "could not be started: \(reason)", failure: .pluginProcessFailed))
    }
}
