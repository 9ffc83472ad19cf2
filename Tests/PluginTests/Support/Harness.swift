import FieldAdvancing
import KeyboardAvoidance
import ResponderBus
import ResponderBusTesting
import TextViewOrdering

/// The built-in plugins' tests drive them on the testing kit's ``PluginBench``, as a third-party
/// plugin's tests do; this only picks which built-ins go in, in their pipeline order.
typealias Harness = PluginBench

extension PluginBench {
    /// Which built-in plugins to register, in pipeline order.
    struct Plugins: OptionSet {
        let rawValue: Int
        static let ordering = Plugins(rawValue: 1)
        static let advancing = Plugins(rawValue: 2)
        static let avoidance = Plugins(rawValue: 4)
        static let all: Plugins = [.ordering, .advancing, .avoidance]
    }

    convenience init(
        device: Device, plugins: Plugins = .all, avoidance: KeyboardAvoidance = KeyboardAvoidance(),
        ordering: TextViewOrdering = TextViewOrdering(), advancing: FieldAdvancing = FieldAdvancing()
    ) {
        var list: [any ResponderPlugin] = []
        if plugins.contains(.ordering) { list.append(ordering) }
        if plugins.contains(.advancing) { list.append(advancing) }
        if plugins.contains(.avoidance) { list.append(avoidance) }
        // Three distinct built-in names: registration cannot fail.
        try! self.init(device: device, plugins: list)
    }
}
