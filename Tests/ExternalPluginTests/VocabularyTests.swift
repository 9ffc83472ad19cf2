import EventLog
import Foundation
import Testing

@testable import ResponderBusExternal

/// The protocol's event lists and the Python kit's are the log format's, not restatements of it.
@Suite("the protocol and the Python kit speak the log format's vocabulary")
struct VocabularyTests {
    /// The Python kit's source.
    static let kit: String = {
        let path = Scripts.kit + "/responder_bus_plugin.py"
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }()

    /// The double-quoted words of `text`.
    static func quoted(_ text: Substring) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test("a plugin may ask for exactly the events a log may hold; the model events are among them")
    func protocolLists() {
        #expect(Set(PluginProtocol.eventNames.keys) == LogEvent.knownNames)
        #expect(PluginProtocol.modelEvents.isSubset(of: LogEvent.knownNames))
        #expect(PluginProtocol.eventNames.allSatisfy { $0.key == $0.value.rawValue })
    }

    @Test("the kit's KEYBOARD_EVENTS are the format's six keyboard events, in order")
    func kitKeyboardEvents() throws {
        let start = try #require(Self.kit.range(of: "KEYBOARD_EVENTS = ("))
        let end = try #require(Self.kit[start.upperBound...].firstIndex(of: ")"))
        #expect(Self.quoted(Self.kit[start.upperBound..<end]) == LogEvent.KeyboardEvent.allCases.map(\.rawValue))
    }

    @Test("the kit's screen model handles every event that changes the model, and no name the format lacks")
    func kitModelEvents() throws {
        // The model's update: `if name == "scene"` … `elif name in KEYBOARD_EVENTS`.
        let start = try #require(Self.kit.range(of: "if name == \"scene\""))
        let end = try #require(Self.kit[start.lowerBound...].range(of: "elif name in KEYBOARD_EVENTS"))
        // The names compared with: `name == "X"`, `name in ("A", "B")`.
        var handled = Set<String>()
        for line in Self.kit[start.lowerBound..<end.lowerBound].split(separator: "\n") {
            if let equals = line.range(of: "name == \"") {
                handled.insert(String(line[equals.upperBound...].prefix { $0 != "\"" }))
            } else if let among = line.range(of: "name in (") {
                handled.formUnion(Self.quoted(line[among.upperBound...].prefix { $0 != ")" }))
            }
        }
        handled.formUnion(LogEvent.KeyboardEvent.allCases.map(\.rawValue))
        #expect(handled.isSubset(of: LogEvent.knownNames), "\(handled.subtracting(LogEvent.knownNames))")
        #expect(PluginProtocol.modelEvents.isSubset(of: handled), "not handled: \(PluginProtocol.modelEvents.subtracting(handled))")
    }
}
