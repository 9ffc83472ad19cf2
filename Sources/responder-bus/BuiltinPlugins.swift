import FieldAdvancing
import KeyboardAvoidance
import ResponderBus
import TextViewOrdering

/// The plugins `replay` runs, in pipeline order: text-view ordering first, so that avoidance after
/// it decides once per turn.
enum BuiltinPlugins {
    static let names = ["TextViewOrdering", "FieldAdvancing", "KeyboardAvoidance"]

    static func make(_ name: String) -> any ResponderPlugin {
        switch name {
        case "TextViewOrdering": TextViewOrdering()
        case "FieldAdvancing": FieldAdvancing()
        default: KeyboardAvoidance()
        }
    }

    /// Registers every built-in plugin except the disabled ones.
    static func register(on bus: Bus, disabling disabled: Set<String>) throws {
        for name in names where !disabled.contains(name) {
            try bus.register(make(name))
        }
    }
}
