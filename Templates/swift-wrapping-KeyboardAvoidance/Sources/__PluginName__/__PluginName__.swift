import BuiltinKeyboardAvoidance
import ResponderBus

/// KeyboardAvoidance, wrapped: it decides exactly as the built-in does, under this plugin's
/// name, with a rule of yours around each call. Here, a field whose id ends in `password` keeps
/// 40 points above the keyboard, every other field 20.
///
/// Run it in place of the built-in: `responder-bus replay LOG --plugin __PluginLibrary__ --disable
/// KeyboardAvoidance`. (To change only the gap of some fields, a plugin placed before the
/// built-in that posts `viewSettings` needs no wrapping: see the plugin guide's step 9.)
public final class __PluginName__: KeyboardObserving, EditingObserving, EventObserving, TurnSettledObserving {
    /// The plugin's name, as it appears in the `"by"` of what it derives.
    public let name = "__PluginName__"
    private let avoidance = KeyboardAvoidance(name: "__PluginName__")

    /// Creates the plugin.
    public init() {}

    /// Where the built-in runs: after the plugins that settle turns and advance fields.
    public var preferredPosition: PluginPosition? { .after("FieldAdvancing") }

    /// The events besides keyboard and editing events avoidance decides on.
    public var observedEvents: Set<AnyEventName>? { avoidance.observedEvents }

    /// Chooses the gap for the focused field, before avoidance decides.
    private func chooseGap(_ context: PluginContext) {
        let isPassword = context.firstResponder?.id.rawValue.lowercased().hasSuffix("password") ?? false
        let gap: Double = isPassword ? 40 : 20
        // Set only when it changes: a new setting makes avoidance decide again.
        if avoidance.defaultGap != gap { avoidance.defaultGap = gap }
    }

    /// Forwards every keyboard event.
    public func keyboardEvent(_ event: Event<KeyboardInfo>, context: PluginContext) {
        chooseGap(context)
        avoidance.keyboardEvent(event, context: context)
    }

    /// Forwards `didBeginEditing`.
    public func didBeginEditing(_ event: Event<EditingInfo>, context: PluginContext) {
        chooseGap(context)
        avoidance.didBeginEditing(event, context: context)
    }

    /// Forwards `didEndEditing`.
    public func didEndEditing(_ event: Event<EditingInfo>, context: PluginContext) {
        chooseGap(context)
        avoidance.didEndEditing(event, context: context)
    }

    /// Forwards the other events avoidance observes.
    public func observe(_ event: AnyEvent, context: PluginContext) {
        chooseGap(context)
        avoidance.observe(event, context: context)
    }

    /// Forwards `turnSettled`.
    public func turnSettled(_ event: Event<TurnSettled>, context: PluginContext) {
        chooseGap(context)
        avoidance.turnSettled(event, context: context)
    }
}
