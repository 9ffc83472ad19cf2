/// A plugin that handles the Return key.
///
/// ## Implementation requirements
///
/// The requirements of ``ResponderPlugin`` apply. Every plugin conforming to this protocol sees
/// every Return, in pipeline order; there is no "handled" flag, so a plugin that acts on Return
/// (moving the focus, performing the form's action) should be the only one that does.
public protocol ReturnKeyHandling: ResponderPlugin {
    /// Return was pressed in a field.
    func returnKey(_ event: Event<ReturnKeyInfo>, context: PluginContext) throws
}

extension ReturnKeyHandling {
    /// Does nothing.
    public func returnKey(_ event: Event<ReturnKeyInfo>, context: PluginContext) throws {}
}
