import ResponderBus

/// Keeps a bigger gap above the keyboard for password fields: every text input whose id ends in
/// `password` keeps ``gap`` points (40 by default), every other field keeps avoidance's.
///
/// The plugin guide's third worked example: a per-view policy given through the screen model. It
/// moves nothing itself. When a scene arrives it sets the gap of each password field with a derived
/// `viewSettings`, which the bus applies to the screen before `KeyboardAvoidance` (placed after it)
/// decides for that field, so avoidance moves the root once per focus change, to the right place.
public final class PasswordGap: EventObserving {
    /// The plugin's name: `"PasswordGap"`.
    public let name: String
    /// The gap, in points, kept between a password field and the keyboard.
    public let gap: Double

    /// Creates the plugin.
    public init(gap: Double = 40, name: String = "PasswordGap") {
        self.gap = gap
        self.name = name
    }

    /// Before `KeyboardAvoidance`: its settings are in the model when avoidance decides.
    public var preferredPosition: PluginPosition? { .before("KeyboardAvoidance") }

    /// Scenes only: the views a rule applies to arrive with them.
    public var observedEvents: Set<AnyEventName>? { [EventName.scene.erased] }

    /// Gives each password field of the new scene its gap, its other settings as they are (a
    /// `viewSettings` sets them all: another plugin may have taken the field out of avoidance).
    public func observe(_ event: AnyEvent, context: PluginContext) {
        for field in context.screen.textInputs where Self.isPassword(field.id) && field.keyboardDistance != gap {
            var settings = field.settings
            settings.keyboardDistance = gap
            context.post(.viewSettings, settings)
        }
    }

    /// Whether the rule applies to the view `id`: its id ends in `password`, in any case.
    public static func isPassword(_ id: ViewID) -> Bool {
        id.rawValue.lowercased().hasSuffix("password")
    }
}
