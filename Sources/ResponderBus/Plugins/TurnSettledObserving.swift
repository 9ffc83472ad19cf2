/// A plugin that observes ``EventName/turnSettled``, typed: the end of a loop turn in which the
/// keyboard or the responders changed, posted by a ``TurnSettling`` plugin earlier in the pipeline
/// (the text-view ordering plugin).
///
/// The same events reach an ``EventObserving`` plugin that names `turnSettled` in its
/// ``EventObserving/observedEvents``, boxed in an ``AnyEvent``; this protocol delivers them as
/// they are, without the box. Built-in avoidance and text-view ordering decide here, once per turn.
///
/// ```swift
/// final class SettledLogger: TurnSettledObserving {
///     let name = "SettledLogger"
///     func turnSettled(_ event: Event<TurnSettled>, context: PluginContext) {
///         print("settled on", event.payload.firstResponder?.rawValue ?? "no field")
///     }
/// }
/// ```
///
/// ## Implementation requirements
///
/// The requirements of ``ResponderPlugin`` apply. Every `turnSettled` on the bus is delivered, in
/// pipeline order, whichever plugin derived it (``EventOrigin/derivingPlugin`` says which). Do not
/// also name `turnSettled` in ``EventObserving/observedEvents``, or each one arrives twice.
public protocol TurnSettledObserving: ResponderPlugin {
    /// A turn settled.
    func turnSettled(_ event: Event<TurnSettled>, context: PluginContext) throws
}

extension TurnSettledObserving {
    /// Does nothing.
    public func turnSettled(_ event: Event<TurnSettled>, context: PluginContext) throws {}
}
