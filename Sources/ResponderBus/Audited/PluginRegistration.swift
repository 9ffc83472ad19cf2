/// Whether one registration of a plugin is still in place; shared by the plugin's contexts.
///
/// Part of the audited layer: ``isActive`` and ``busIsAlive`` are read on every post a plugin
/// makes (``PluginContext/post(_:_:style:coalescing:)``, inlined into the plugin's module), so
/// their storage opts out of the run-time exclusivity checks, behind accessors (an inlinable
/// getter over the unchecked stored property, so that the plugin's module reads the flag directly).
///
/// ## Invariant
///
/// Loop-confined like the bus: read by contexts on the loop, cleared by the bus on the loop when
/// the plugin is unregistered and in the bus's `deinit`, and never passed `inout`. The benchmark
/// case "replay 1000000 events, 3 plugins → /dev/null" covers the reads.
@usableFromInline
final class PluginRegistration {
    /// Whether the plugin is still registered.
    @usableFromInline var isActive: Bool {
        @inlinable get { _isActive }
        set { _isActive = newValue }
    }
    @usableFromInline @exclusivity(unchecked) var _isActive = true
    /// Whether the bus is still alive; cleared (with ``isActive``) as the bus goes away.
    @usableFromInline var busIsAlive: Bool {
        @inlinable get { _busIsAlive }
        set { _busIsAlive = newValue }
    }
    @usableFromInline @exclusivity(unchecked) var _busIsAlive = true
    /// Whether a ``TurnSettling`` plugin runs before this one; kept up to date by the bus whenever
    /// the pipeline changes, so that asking costs nothing per event.
    var turnsAreSettled = false
    /// Set while the diagnostic reporting this plugin's own throw is delivered: the plugin does not
    /// receive it.
    var isMuted = false
    /// How often the plugin threw during the current outermost post (see
    /// ``Bus/pluginFailureLimit``); reset when that post returns.
    var failures = 0

    /// Whether the plugin's callbacks are called for the event being delivered: not while its own
    /// failure is reported, and not once it has been suspended for throwing too often.
    var isCallable: Bool { !isMuted && failures < Bus.pluginFailureLimit }

    init() {}
}
