import EventLog
import Foundation
import ResponderBus
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

    @Test("the host's hello sends the vocabulary's keyboard events and hides; the kit's own lists are what a host that sends none means")
    func helloKeyboardLists() throws {
        #expect(PluginProtocol.keyboardEvents == EventName<KeyboardInfo>.allKeyboardEvents.map(\.rawValue))
        #expect(PluginProtocol.keyboardHides == EventName<KeyboardInfo>.allKeyboardEvents.filter(\.isHide).map(\.rawValue))
        let hello =
            try JSONSerialization.jsonObject(
                with: Data(PluginProtocol.hostHello(header: LogHeader(screen: Size(width: 375, height: 812)), settings: [:]))) as? [String: Any]
        #expect(hello?["keyboardEvents"] as? [String] == PluginProtocol.keyboardEvents)
        #expect(hello?["keyboardHides"] as? [String] == PluginProtocol.keyboardHides)
        // The kit's fallbacks: the lists of hosts from before the hello carried them (version 1.0),
        // never changed, each a keyboard event of today's vocabulary.
        let start = try #require(Self.kit.range(of: "DEFAULT_KEYBOARD_EVENTS = ("))
        let end = try #require(Self.kit[start.upperBound...].firstIndex(of: ")"))
        let fallback = Self.quoted(Self.kit[start.upperBound..<end])
        #expect(
            fallback == [
                "keyboardWillShow", "keyboardDidShow", "keyboardWillHide", "keyboardDidHide", "keyboardWillChangeFrame", "keyboardDidChangeFrame",
            ])
        #expect(Set(fallback).isSubset(of: PluginProtocol.keyboardEvents))
        #expect(PluginServer.firstKeyboardEvents == fallback)
    }

    @Test("the kit's keyboard model follows the lists the host's hello sends: an event it adds is modelled, a hide it names hides")
    func kitFollowsHello() throws {
        let script = """
            import io, sys
            sys.path.insert(0, sys.argv[1])
            import responder_bus_plugin as kit
            class Probe(kit.Plugin):
                name = "Probe"
                def on_start(self, screen, settings):
                    self.screen = screen
            probe = Probe()
            kit.run(probe, stdin=sys.stdin, stdout=io.StringIO())
            frame = probe.screen.keyboard.frame
            print(",".join(kit.KEYBOARD_EVENTS), frame.as_list() if frame else None)
            """
        func run(_ lines: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", script, Scripts.kit]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            try input.fileHandleForWriting.close()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let header = #"{"format":"responder-bus-log","screen":{"height":812,"width":375},"version":1}"#
        let hello =
            #"{"header":\#(header),"keyboardEvents":["keyboardWillShow","keyboardDidUndock"],"keyboardHides":["keyboardDidUndock"],"protocol":"responder-bus-plugin","settings":{},"type":"hello","version":1}"#
        let shown = #"{"deliver":false,"end":[0,521,375,291],"event":"keyboardWillShow","t":1}"#
        let undocked = #"{"deliver":false,"end":[0,400,375,291],"event":"keyboardDidUndock","t":2}"#
        #expect(try run([hello, shown]) == "keyboardWillShow,keyboardDidUndock [0.0, 521.0, 375.0, 291.0]")
        // The added event is a hide here: after it the keyboard is hidden, whatever frame it carries.
        #expect(try run([hello, shown, undocked]) == "keyboardWillShow,keyboardDidUndock None")
        // A hello without the lists: the kit's own six.
        let plain = #"{"header":\#(header),"protocol":"responder-bus-plugin","settings":{},"type":"hello","version":1}"#
        #expect(try run([plain, shown]).hasPrefix("keyboardWillShow,keyboardDidShow,keyboardWillHide,keyboardDidHide,"))
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
        handled.formUnion(PluginProtocol.keyboardEvents)
        #expect(handled.isSubset(of: LogEvent.knownNames), "\(handled.subtracting(LogEvent.knownNames))")
        #expect(PluginProtocol.modelEvents.isSubset(of: handled), "not handled: \(PluginProtocol.modelEvents.subtracting(handled))")
    }
}
