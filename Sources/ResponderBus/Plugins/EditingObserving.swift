/// A plugin that observes text fields and text views beginning and ending editing.
///
/// Implement only the callbacks you need; the others default to doing nothing.
///
/// ## Implementation requirements
///
/// The requirements of ``ResponderPlugin`` apply. When a callback runs, the screen model has
/// already applied the event: in ``didBeginEditing(_:context:)`` the context's
/// ``PluginContext/firstResponder`` is the field that began. Remember UIKit's ordering quirk: a
/// text field reports `didBeginEditing` *before* the keyboard event, a text view *after* it.
public protocol EditingObserving: ResponderPlugin {
    /// A field became first responder.
    func didBeginEditing(_ event: Event<EditingInfo>, context: PluginContext) throws
    /// A field stopped being first responder.
    func didEndEditing(_ event: Event<EditingInfo>, context: PluginContext) throws
}

extension EditingObserving {
    /// Does nothing.
    public func didBeginEditing(_ event: Event<EditingInfo>, context: PluginContext) throws {}
    /// Does nothing.
    public func didEndEditing(_ event: Event<EditingInfo>, context: PluginContext) throws {}
}
