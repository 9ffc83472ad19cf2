import ResponderBus

/// Says, each time the keyboard shows, which field it showed for — or that no field was focused
/// yet (a text view's keyboard comes before its didBeginEditing).
///
/// Replace this with your plugin: conform to the capability protocols you need
/// (`KeyboardObserving`, `EditingObserving`, `ReturnKeyObserving`, `EventObserving`,
/// `TurnSettledObserving` to decide once per turn, `TurnObserving` to look once a turn's
/// decisions are applied), implement only the callbacks you
/// use, read the screen and the keyboard through the context, and post what you decide through it.
public final class __PluginName__: KeyboardObserving {
    /// The plugin's name, as it appears in the `"by"` of what it derives.
    public let name = "__PluginName__"
    /// Where it goes in the pipeline when `--plugin` does not say (`nil`: last). A plugin that
    /// checks avoidance's decisions says `.after("KeyboardAvoidance")`; the tests below must then
    /// run it with the built-ins, as `PluginConformance(companions: builtIns)` and
    /// `PluginHarness.replay(…, companions: builtIns())` do, wherever they run it alone.
    public var preferredPosition: PluginPosition? { nil }

    /// Creates the plugin.
    public init() {}

    /// Reports the field the keyboard showed for.
    public func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
        let field = context.firstResponder.map { "'\($0.id)'" } ?? "no field yet"
        context.diagnose(.info, "the keyboard showed for \(field)")
    }
}
