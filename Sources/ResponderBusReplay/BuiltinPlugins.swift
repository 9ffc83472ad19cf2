import FieldAdvancing
import KeyboardAvoidance
import ResponderBus
import ResponderBusProject
import TextViewOrdering

/// The built-in plugins a replay runs, in pipeline order: text-view ordering first, so that
/// avoidance after it decides once per turn.
public enum BuiltinPlugins {
    /// The built-in plugins' names, in pipeline order.
    public static var names: [String] { ProjectFile.builtinPluginNames }

    /// A new instance of the built-in plugin `name` (one of ``names``), with `settings`.
    ///
    /// - Parameters:
    ///   - name: one of ``names``.
    ///   - settings: the built-ins' settings; those not set keep each plugin's default.
    /// - Returns: the plugin, or `nil` when `name` is no built-in plugin.
    public static func make(_ name: String, settings: BuiltinSettings = BuiltinSettings()) -> (any ResponderPlugin)? {
        switch name {
        case "TextViewOrdering":
            TextViewOrdering(
                settleWindow: settings.settleWindow, heldFrameTimeout: settings.heldFrameTimeout ?? .seconds(1))
        case "FieldAdvancing":
            FieldAdvancing(order: settings.fieldOrder ?? .tag, textViewReturnAdvances: settings.textViewReturnAdvances ?? false)
        case "KeyboardAvoidance":
            KeyboardAvoidance(
                timing: settings.avoidanceTiming ?? .automatic, honorsOtherAppsKeyboards: settings.honorsOtherAppsKeyboards ?? false,
                defaultGap: settings.keyboardDistance ?? AvoidanceRule.defaultGap)
        default: nil
        }
    }

    /// New instances of every built-in plugin except the disabled ones, in pipeline order.
    ///
    /// - Parameters:
    ///   - disabled: names of built-in plugins to leave out.
    ///   - settings: the built-ins' settings.
    public static func make(disabling disabled: Set<String> = [], settings: BuiltinSettings = BuiltinSettings()) -> [any ResponderPlugin] {
        names.filter { !disabled.contains($0) }.compactMap { make($0, settings: settings) }
    }
}

/// The settings of the built-in plugins, as `--keyboard-distance`, `--field-order` and the other
/// pipeline options and a project file give them. A setting left `nil` keeps the plugin's default.
public struct BuiltinSettings: Hashable, Sendable {
    /// KeyboardAvoidance: the gap kept between a field and the keyboard, in points, for views that
    /// set none (IQKeyboardManager's `keyboardDistanceFromTextField`; 20 by default).
    public var keyboardDistance: Double?
    /// KeyboardAvoidance: when it decides.
    public var avoidanceTiming: KeyboardAvoidance.Timing?
    /// KeyboardAvoidance: whether it moves for another app's keyboard (iPad multitasking).
    public var honorsOtherAppsKeyboards: Bool?
    /// FieldAdvancing: how the next field is found.
    public var fieldOrder: FieldOrder?
    /// FieldAdvancing: whether Return in a text view advances too.
    public var textViewReturnAdvances: Bool?
    /// TextViewOrdering: collapse keyboard frames that arrive within this window (`nil`: settle at
    /// the end of every loop turn).
    public var settleWindow: Duration?
    /// TextViewOrdering: how long a keyboard frame may wait for its field before a diagnostic.
    public var heldFrameTimeout: Duration?

    /// Settings that keep every default.
    public init() {}

    /// Whether every setting keeps its default.
    public var isDefault: Bool { self == BuiltinSettings() }

    /// These settings, with the ones `other` sets taking their place.
    ///
    /// - Parameter other: settings that win where they are set (command-line options over a
    ///   project file's).
    public func overridden(by other: BuiltinSettings) -> BuiltinSettings {
        var result = self
        result.keyboardDistance = other.keyboardDistance ?? keyboardDistance
        result.avoidanceTiming = other.avoidanceTiming ?? avoidanceTiming
        result.honorsOtherAppsKeyboards = other.honorsOtherAppsKeyboards ?? honorsOtherAppsKeyboards
        result.fieldOrder = other.fieldOrder ?? fieldOrder
        result.textViewReturnAdvances = other.textViewReturnAdvances ?? textViewReturnAdvances
        result.settleWindow = other.settleWindow ?? settleWindow
        result.heldFrameTimeout = other.heldFrameTimeout ?? heldFrameTimeout
        return result
    }
}
