/// A plugin that observes any events by name, including events that plugins define themselves.
///
/// ```swift
/// final class FrameWatcher: EventObserving {
///     var observedEvents: Set<AnyEventName>? { [EventName.setFrame.erased, EventName.screen.erased] }
///     func observe(_ event: AnyEvent, context: PluginContext) throws {
///         if let change = event.as(.setFrame) { print(change.payload.view, "moved") }
///     }
/// }
/// ```
///
/// ## Implementation requirements
///
/// The requirements of ``ResponderPlugin`` apply. ``observedEvents`` is read once, when the plugin
/// is registered. Observing every name (`nil`) boxes each event into an ``AnyEvent``; name the
/// events you need when you can. Events this plugin derives come back to it too: guard against
/// reacting to your own output (``EventOrigin/derivingPlugin``).
public protocol EventObserving: ResponderPlugin {
    /// The names to deliver, or `nil` for every event on the bus.
    var observedEvents: Set<AnyEventName>? { get }

    /// Called with each event whose name is observed.
    func observe(_ event: AnyEvent, context: PluginContext) throws
}

extension EventObserving {
    /// Every event.
    public var observedEvents: Set<AnyEventName>? { nil }

    /// Does nothing.
    public func observe(_ event: AnyEvent, context: PluginContext) throws {}
}
