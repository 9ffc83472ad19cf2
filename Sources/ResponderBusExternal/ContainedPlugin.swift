import ResponderBus

/// A plugin whose faults the host contains rather than suffers: an out-of-process plugin
/// (``ExternalPlugin``) or a WebAssembly module (`WasmPlugin`, in ResponderBusWasm). A fault —
/// a crash, a hang, a trap, a broken protocol — is reported as an error diagnostic and handled by
/// the plugin's failure policy (``ExternalPlugin/FailureMode``): restarted, disabled, or the
/// session stopped.
///
/// A replay (`ReplaySession`) collects the faults of every contained plugin in its result, so that
/// `responder-bus test` fails a session whose plugin failed, whatever kind of plugin it is.
public protocol ContainedPlugin: ResponderPlugin {
    /// Every fault so far, in order.
    var faults: [ExternalPlugin.Fault] { get }
    /// Called on the loop with each fault, after its diagnostic was posted.
    var onFault: ((ExternalPlugin.Fault) -> Void)? { get set }
    /// Called once, on the loop, when a fault stops a plugin whose failure mode is
    /// ``ExternalPlugin/FailureMode/stop``, with the fault's description.
    var onStop: ((String) -> Void)? { get set }
    /// Whether the plugin has been disabled for the rest of the session.
    var isDisabled: Bool { get }
    /// Ends the plugin: what it holds outside the bus (a process, an instance) is released, and it
    /// takes no more events.
    ///
    /// - Parameter grace: how long an orderly end may take before it is forced.
    func shutDown(grace: Duration)
}

extension ExternalPlugin: ContainedPlugin {}
