import EventLog
import Foundation
import ResponderBus
import Testing

@testable import ResponderBusExternal

/// Remembers the text inputs of the last scene it saw, and says them on each keyboardWillShow
/// ("lost" when it saw no scene): the Swift twin of ``CatchUpTests/pythonSceneMemory``.
final class SceneMemory: EventObserving {
    let name = "SceneMemory"
    var observedEvents: Set<AnyEventName>? { [EventName.scene.erased, EventName.keyboardWillShow.erased] }
    private var fields: [String]?

    func observe(_ event: AnyEvent, context: PluginContext) {
        if event.name == EventName.scene {
            let fields = context.screen.textInputs.map(\.id.rawValue)
            self.fields = fields
            context.diagnose(.info, "scene with \(fields.count) fields")
        } else {
            context.diagnose(.info, "fields: " + (fields?.joined(separator: ",") ?? "lost"))
        }
    }
}

/// After a restart (or joining a running session) every kind of plugin is shown the host's
/// catch-up, the events of it that it asked for included, and what it derives from them is
/// dropped: the rule of the article *Restarts and catch-up*, for the two out-of-process kits.
@Suite("restart and catch-up: the Python kit and ExternalPluginMain are shown the catch-up alike")
struct CatchUpTests {
    typealias Configuration = ExternalPlugin.Configuration

    /// ``SceneMemory`` in Python, its `on_event` body.
    static let pythonSceneMemory = """
        if event["event"] == "scene":
            self.fields = [view.id for view in context.screen.root.subtree() if view.is_text_input]
            context.diagnose("info", "scene with %d fields" % len(self.fields))
            return
        fields = getattr(self, "fields", None)
        context.diagnose("info", "fields: " + (",".join(fields) if fields is not None else "lost"))
        """

    @Test("a Python plugin restarted after a fault is shown the catch-up scene it asked for: its state built on the scene comes back")
    func pythonRestartSeesTheScene() throws {
        let command = try Scripts.plugin(
            events: ["scene", "keyboardWillShow"],
            onEvent: Scripts.exitOnce(status: 9, when: #"event["event"] == "keyboardWillShow" and event["t"] >= 2"#) + "\n"
                + Self.pythonSceneMemory)
        let derived = try Scripts.replay(Scripts.session(shows: 3), [Configuration(command: command, restartBackoff: .milliseconds(1))])
        // The scene at 0, the shows at 1 and 3 (it exited at 2); what it said on the catch-up's
        // scene ("scene with 2 fields" again) is not posted.
        #expect(
            derived.compactMap(\.message) == [
                "scene with 2 fields", "fields: name,email",
                "plugin 'Scripted' exited with status 9; restarting it in 0.001 seconds (restart 1 of 3)", "fields: name,email",
            ])
    }

    /// The host's side of a session joined late: its hello, the catch-up of a screen with the
    /// session's scene and a focused field, then one keyboardWillShow to answer.
    static func transcript() throws -> [UInt8] {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop, screen: Screen(size: Scripts.header.screen))
        let records = try Scripts.session(shows: 1).split(separator: "\n").dropFirst().map { line in
            try LogReader.record(line: Array(line.utf8))
        }
        for record in records.dropLast() { record.event.post(on: bus) }
        loop.run()
        var bytes = PluginProtocol.hostHello(header: Scripts.header, settings: [:])
        for event in PluginProtocol.modelSnapshot(of: bus.screen) {
            PluginProtocol.appendEventLine(LogRecord(t: 5, event: event), sequence: nil, to: &bytes)
        }
        #expect(PluginProtocol.modelSnapshot(of: bus.screen).map(\.name) == ["screen", "scene", "didBeginEditing"])
        let show = try #require(records.last)
        PluginProtocol.appendEventLine(LogRecord(t: 5, event: show.event), sequence: 1, to: &bytes)
        return bytes
    }

    /// The messages of the records a plugin answered with, and its `done` lines, after its hello.
    static func answers(_ output: Data) throws -> [String] {
        try String(decoding: output, as: UTF8.self).split(separator: "\n").dropFirst().map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if object["type"] as? String == "done" { return "done \(object["seq"] ?? "")" }
            return object["message"] as? String ?? String(line)
        }
    }

    @Test("the Python kit and ExternalPluginMain, given the same catch-up, each see its scene and post nothing from it")
    func sameTranscriptSameAnswers() throws {
        let input = try Self.transcript()
        // The Swift plugin, served by ExternalPluginMain's server over two pipes.
        let toServer = Pipe()
        let fromServer = Pipe()
        toServer.fileHandleForWriting.write(Data(input))
        try toServer.fileHandleForWriting.close()
        var server = PluginServer(
            plugin: SceneMemory(), input: toServer.fileHandleForReading.fileDescriptor,
            output: fromServer.fileHandleForWriting.fileDescriptor, turns: false)
        #expect(server.run() == 0)
        try fromServer.fileHandleForWriting.close()
        let swift = try Self.answers(fromServer.fileHandleForReading.readDataToEndOfFile())
        // The same plugin in Python.
        let command = try Scripts.plugin(name: "SceneMemory", events: ["scene", "keyboardWillShow"], onEvent: Self.pythonSceneMemory)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let toPython = Pipe()
        let fromPython = Pipe()
        process.standardInput = toPython
        process.standardOutput = fromPython
        try process.run()
        toPython.fileHandleForWriting.write(Data(input))
        try toPython.fileHandleForWriting.close()
        let output = fromPython.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let python = try Self.answers(output)
        #expect(swift == ["fields: name,email", "done 1"])
        #expect(python == swift)
    }
}
