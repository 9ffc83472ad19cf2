import EventLog
import Foundation
import ResponderBus
import ResponderBusExternal
import ResponderBusReplay
import Testing

/// A session's out-of-process plugin faults reach the embedder: as they happen, and in the result.
@Suite("ReplaySession: out-of-process plugin faults, as they happen and in the result")
struct PluginFaultTests {
    @Test("each fault is passed to the sinks' pluginFailed and listed in the result, with the plugin's last words")
    func faultsReachTheEmbedder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rb-faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // With the repository's Python kit: on every showing, a traceback's last line, then exit 3.
        let kit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PluginKits/python").path
        let script = folder.appendingPathComponent("plugin.py")
        try """
        import sys
        sys.path.insert(0, \(String(reflecting: kit)))
        from responder_bus_plugin import Plugin, run
        class Falls(Plugin):
            name = "Falls"
            events = ["keyboardWillShow"]
            def on_event(self, event, context):
                print("ZeroDivisionError: division by zero", file=sys.stderr, flush=True)
                sys.exit(3)
        sys.exit(run(Falls()))
        """.write(to: script, atomically: true, encoding: .utf8)
        let description = PipelineDescription(commands: [ExternalPlugin.Configuration(command: ["python3", script.path], maximumRestarts: 1)])
        let pipeline = try ReplayPipeline(description)
        var lines = [#"{"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812}}"#]
        for t in 1...3 {
            lines.append(#"{"event":"keyboardWillShow","t":\#(t),"begin":[0,812,375,0],"end":[0,521,375,291],"duration":0.25,"curve":7}"#)
        }
        let reader = LogReader(bytes: Array((lines.joined(separator: "\n") + "\n").utf8))
        let collector = Collector()
        let session = try ReplaySession(pipeline: pipeline, header: try reader.readHeader(), sinks: [collector])
        let result = session.finish(session.replay(reader))
        let told = collector.faults
        #expect(result.externalPlugins == ["Falls"])
        #expect(told == result.pluginFaults)
        #expect(result.pluginFaults.map(\.outcome) == [.restarting(in: .milliseconds(100), attempt: 1, of: 1), .disabled(afterFailures: 2)])
        #expect(result.pluginFaults.map(\.t) == [1, 2])
        #expect(
            result.pluginFaults.allSatisfy {
                $0.what == "exited with status 3; its standard error ended: ZeroDivisionError: division by zero"
                    && $0.lastErrorLines == ["ZeroDivisionError: division by zero"]
            })
        #expect(result.endedPlugins == ["Falls"])
    }
}
