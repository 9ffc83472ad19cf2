/// A plugin that observes the keyboard events (``EventName/allKeyboardEvents``).
///
/// Implement only the callbacks you need; the others default to doing nothing. Every callback
/// receives the event (its ``KeyboardInfo`` payload may lack any field: real devices omit them) and
/// the plugin's ``PluginContext``. A plugin that treats them alike implements
/// ``keyboardEvent(_:context:)`` alone: the callbacks' defaults forward to it, and a keyboard
/// event with no callback of its own is delivered to it.
///
/// ```swift
/// final class KeyboardLogger: KeyboardObserving {
///     func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
///         print("keyboard to", event.payload.end ?? .null)
///     }
/// }
/// ```
///
/// ## Implementation requirements
///
/// The requirements of ``ResponderPlugin`` apply. Callbacks are called in pipeline order, after
/// the screen model has applied the event. Do not assume a `will` is followed by its `did`, or a
/// `show` by a `hide`: real sequences repeat shows, skip hides and send hides with non-zero frames.
public protocol KeyboardObserving: ResponderPlugin {
    /// The keyboard is about to appear.
    func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) throws
    /// The keyboard has appeared.
    func keyboardDidShow(_ event: Event<KeyboardInfo>, context: PluginContext) throws
    /// The keyboard is about to go away (also: an iPad keyboard undocks or floats).
    func keyboardWillHide(_ event: Event<KeyboardInfo>, context: PluginContext) throws
    /// The keyboard has gone away.
    func keyboardDidHide(_ event: Event<KeyboardInfo>, context: PluginContext) throws
    /// The keyboard's frame is about to change: every keyboard change posts this.
    func keyboardWillChangeFrame(_ event: Event<KeyboardInfo>, context: PluginContext) throws
    /// The keyboard's frame has changed.
    func keyboardDidChangeFrame(_ event: Event<KeyboardInfo>, context: PluginContext) throws
    /// Any keyboard event, for plugins that treat them alike (``Event/name`` tells which): called by
    /// the default implementations of the callbacks above, and for a keyboard event that has no
    /// callback of its own.
    func keyboardEvent(_ event: Event<KeyboardInfo>, context: PluginContext) throws
}

extension KeyboardObserving {
    /// Forwards to ``keyboardEvent(_:context:)``.
    public func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) throws {
        try keyboardEvent(event, context: context)
    }
    /// Forwards to ``keyboardEvent(_:context:)``.
    public func keyboardDidShow(_ event: Event<KeyboardInfo>, context: PluginContext) throws {
        try keyboardEvent(event, context: context)
    }
    /// Forwards to ``keyboardEvent(_:context:)``.
    public func keyboardWillHide(_ event: Event<KeyboardInfo>, context: PluginContext) throws {
        try keyboardEvent(event, context: context)
    }
    /// Forwards to ``keyboardEvent(_:context:)``.
    public func keyboardDidHide(_ event: Event<KeyboardInfo>, context: PluginContext) throws {
        try keyboardEvent(event, context: context)
    }
    /// Forwards to ``keyboardEvent(_:context:)``.
    public func keyboardWillChangeFrame(_ event: Event<KeyboardInfo>, context: PluginContext) throws {
        try keyboardEvent(event, context: context)
    }
    /// Forwards to ``keyboardEvent(_:context:)``.
    public func keyboardDidChangeFrame(_ event: Event<KeyboardInfo>, context: PluginContext) throws {
        try keyboardEvent(event, context: context)
    }
    /// Does nothing.
    public func keyboardEvent(_ event: Event<KeyboardInfo>, context: PluginContext) throws {}
}
