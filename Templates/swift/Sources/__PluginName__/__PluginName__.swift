import ResponderBus

/// Says, each time the keyboard comes up, which field it came up for — or that no field was
/// focused yet (a text view's keyboard comes before its didBeginEditing). It watches the keyboard's
/// frame changes as well as its shows: a log imported from a console mostly carries
/// `keyboardWillChangeFrame` alone.
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

    /// Whether the keyboard was on the screen after the last keyboard event.
    private var keyboardWasUp = false

    /// Reports the field the keyboard came up for: every keyboard event comes here, the model
    /// already applied; the keyboard is up when it is shown with its top on the screen.
    public func keyboardEvent(_ event: Event<KeyboardInfo>, context: PluginContext) {
        let isUp = context.keyboard.frame.map { $0.size.height > 0 && $0.minY < context.screen.size.height } ?? false
        defer { keyboardWasUp = isUp }
        guard isUp, !keyboardWasUp else { return }
        let field = context.firstResponder.map { "'\($0.id)'" } ?? "no field yet"
        context.diagnose(.info, "the keyboard showed for \(field)")
    }
}
