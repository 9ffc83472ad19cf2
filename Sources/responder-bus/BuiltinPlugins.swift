import ArgumentParser
import EventLog
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

    /// Every built-in plugin except the disabled ones, in pipeline order.
    static func make(disabling disabled: Set<String>) -> [any ResponderPlugin] {
        names.filter { !disabled.contains($0) }.map(make)
    }

    /// Registers every built-in plugin except the disabled ones.
    static func register(on bus: Bus, disabling disabled: Set<String>) throws {
        for plugin in make(disabling: disabled) {
            try bus.register(plugin)
        }
    }

    /// Rejects `--disable` names that are no built-in plugin (exit 64).
    static func validate(disabling disabled: [String]) throws {
        for name in disabled where !names.contains(name) {
            throw ValidationError("--disable \(name): no such plugin; the built-in plugins are \(names.joined(separator: ", "))")
        }
    }

    /// Opens a log and reads its header, exiting 66 when it cannot be read and 65 when the header
    /// is bad, with the reason on standard error.
    static func openLog(_ path: String) throws -> (LogReader, LogHeader) {
        let reader: LogReader
        do {
            reader = try LogReader(path: path)
        } catch {
            complain(error.message)
            throw Exit.noInput
        }
        do {
            return (reader, try reader.readHeader())
        } catch {
            complain("\(path): \(error)")
            throw Exit.dataError
        }
    }
}
