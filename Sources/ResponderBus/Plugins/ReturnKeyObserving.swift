/// A plugin that observes the Return key.
///
/// ## Implementation requirements
///
/// The requirements of ``ResponderPlugin`` apply. Every plugin conforming to this protocol sees
/// every Return, in pipeline order: observing Return does not consume it (there is no "handled"
/// flag), so a plugin that acts on Return (moving the focus, performing the form's action) should
/// be the only one that does.
public protocol ReturnKeyObserving: ResponderPlugin {
    /// Return was pressed in a field.
    func returnKey(_ event: Event<ReturnKeyInfo>, context: PluginContext) throws
}

extension ReturnKeyObserving {
    /// Does nothing.
    public func returnKey(_ event: Event<ReturnKeyInfo>, context: PluginContext) throws {}
}
