/// What a plugin reaches the world through: the screen model, the clock, and posting derived
/// events under its own name.
///
/// A context is handed to every callback. It is a cheap value; do not keep it beyond the bus's
/// life.
public struct PluginContext {
    /// The name of the plugin this context belongs to: the `"by"` of what it derives.
    public let pluginName: String
    // Not counted: plugins reach the bus several times per event, and a counted reference costs an
    // atomic retain and release each time. A context used after its bus has gone stops with a
    // precondition failure instead (the bus marks its registrations on the way out).
    @usableFromInline let _bus: Unretained<Bus>
    @usableFromInline let registration: PluginRegistration
    /// What the plugin posts is derived by it.
    @usableFromInline let origin: EventOrigin

    init(pluginName: String, bus: Bus, registration: PluginRegistration) {
        self.pluginName = pluginName
        origin = .derived(by: pluginName)
        self._bus = Unretained(bus)
        self.registration = registration
    }

    /// Calls `body` with the bus, which must still be alive, without counting a reference to it.
    @inlinable
    func withBus<Result>(_ body: (Bus) throws -> Result) rethrows -> Result {
        precondition(registration.busIsAlive, "a PluginContext was used after its bus was deallocated")
        return try _bus.with(body)
    }

    /// Whether the plugin is still registered. Once it is removed, what it posts through this
    /// context (from a timer it left behind, say) is dropped: removal takes effect at once.
    public var isRegistered: Bool { registration.isActive }

    /// The screen model, as it is after the event being delivered. Lent for the access (passed on
    /// or read through, it is not retained); keep no reference to it beyond the callback.
    @inlinable public var screen: Screen {
        _read {
            precondition(registration.busIsAlive, "a PluginContext was used after its bus was deallocated")
            yield _bus.object.screen
        }
    }

    /// The current first responder, if any (O(1)).
    @inlinable public var firstResponder: ViewNode? { withBus { $0.screen.firstResponder } }

    /// The keyboard, as the bus's model has it after the event being delivered: the same for every
    /// plugin (see ``KeyboardModel``). Keep no copy of your own.
    @inlinable public var keyboard: KeyboardModel { withBus { $0.screen.keyboard } }

    /// The loop's clock.
    public var now: Duration { withBus { $0.loop.now } }

    /// The loop, for timers (``BusLoop/schedule(after:_:)``) and end-of-turn work.
    public var loop: any BusLoop { withBus { $0.loop } }

    /// The names of the plugins on the bus, in pipeline order (this one included).
    public var pluginNames: [String] { withBus { $0.pluginNames } }

    /// Whether a ``TurnSettling`` plugin runs before this one in the pipeline, so that
    /// ``EventName/turnSettled`` arrives after every turn with responder activity.
    public var turnsAreSettled: Bool { registration.turnsAreSettled }

    /// Posts an event derived by this plugin (`origin` is `.derived(by: pluginName)`); nothing once
    /// the plugin has been removed.
    ///
    /// From a callback it is delivered after the current event, before the outermost post returns;
    /// with ``PostingStyle/asap`` at the end of the loop turn, when every event of the turn has been
    /// seen; with coalescing, the latest queued one wins.
    @inlinable
    public func post<Payload>(
        _ name: EventName<Payload>, _ payload: Payload, style: PostingStyle = .now, coalescing: Coalescing = .none
    ) {
        guard registration.isActive else { return }
        withBus { $0.post(name, payload, sender: nil, origin: origin, style: style, coalescing: coalescing) }
    }

    /// Posts a ``EventName/diagnostic`` derived by this plugin, naming the `views` it is about (a
    /// report outlines them) and key–value `metadata` for tools.
    public func diagnose(_ level: Diagnostic.Level, _ message: String, views: [ViewID] = [], metadata: [String: String] = [:]) {
        post(.diagnostic, Diagnostic(level: level, message: message, views: views, metadata: metadata))
    }
}
