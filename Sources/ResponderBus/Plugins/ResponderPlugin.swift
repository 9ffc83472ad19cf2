/// The root of the plugin protocols: anything with a name that can sit in a bus's pipeline.
///
/// You do not conform to this protocol alone: conform to one or more capability protocols —
/// ``KeyboardObserving``, ``EditingObserving``, ``ReturnKeyObserving``, ``EventObserving``,
/// ``TurnSettledObserving``, ``TurnObserving`` — and
/// implement only the callbacks you need; protocol extensions supply do-nothing defaults for the
/// rest. ``Bus/register(_:at:)`` looks at which capabilities a plugin conforms to and routes it the
/// events each covers; a plugin that conforms to two gets both routes.
///
/// ## Implementation requirements
///
/// - ``name`` is stable and unique on a bus: it names the plugin in ``PluginPosition``, in
///   `--disable NAME`, and in the `"by"` field of every event it derives.
/// - Callbacks run on the bus's loop, one at a time, never re-entered: an event you post from a
///   callback is delivered after your callback returns.
/// - Callbacks may throw: the error is reported as a ``EventName/diagnostic`` event and the other
///   plugins still run. Do not trap.
/// - Read the screen through the ``PluginContext``; change it only by posting derived events
///   (``EventName/viewShift``, ``EventName/focusChange``, …), which the bus applies to the model.
/// - Plugins are classes (`AnyObject`) because the bus keeps them by identity; there is no base
///   class to inherit from.
/// - Set up in ``didRegister(context:)`` and tear down in ``willUnregister(context:)`` (timers,
///   state that depends on the screen) rather than lazily on the first event.
public protocol ResponderPlugin: AnyObject {
    /// The plugin's stable, unique name, such as `"KeyboardAvoidance"`.
    var name: String { get }

    /// Where the plugin wants to sit in the pipeline, when whoever registers it gives no position:
    /// ``Bus/register(_:at:)`` without one, the CLI's `--plugin` without `@POSITION`. A plugin that
    /// checks another's decisions says `.after("KeyboardAvoidance")`. `nil` (the default) means
    /// `.last`.
    var preferredPosition: PluginPosition? { get }

    /// Called once, on the bus's loop, when the plugin has joined the pipeline: the context is the
    /// one its callbacks will get (the screen as it is now, the clock, posting under its name).
    /// Events it posts from here are delivered like any derived event.
    func didRegister(context: PluginContext)

    /// Called once, on the bus's loop, just before the plugin leaves the pipeline
    /// (``Bus/unregister(named:)``): it may still post through the context here; from the moment
    /// this returns, nothing it posts is delivered. Not called when the bus itself goes away.
    func willUnregister(context: PluginContext)
}

extension ResponderPlugin {
    /// By default, the name of the conforming type.
    public var name: String { String(describing: type(of: self)) }

    /// `nil`: the end of the pipeline, unless the caller says otherwise.
    public var preferredPosition: PluginPosition? { nil }

    /// Does nothing.
    public func didRegister(context: PluginContext) {}

    /// Does nothing.
    public func willUnregister(context: PluginContext) {}
}
