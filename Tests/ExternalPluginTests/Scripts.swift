import EventLog
import Foundation
import ResponderBus
import ResponderBusExternal
import ResponderBusPlatform

/// Small plugins written for a test, in Python with the repository's author module (or raw, for
/// plugins that do not even get the handshake right), in a folder of their own.
enum Scripts {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let kit = repository.appendingPathComponent("PluginKits/python").path

    /// A plugin whose `on_event` is `body` (Python, indented by the caller's four spaces).
    static func plugin(
        name: String = "Scripted", events: [String], position: String? = nil, onEvent body: String, prelude: String = "",
        onTurnEnd: String? = nil
    ) throws -> [String] {
        let turnEnd =
            onTurnEnd.map {
                "    def on_turn_end(self, context):\n" + $0.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n")
            } ?? ""
        let eventsList = events.map { "\"\($0)\"" }.joined(separator: ", ")
        let source = """
            import os, signal, sys, time
            sys.path.insert(0, \(String(reflecting: kit)))
            from responder_bus_plugin import Plugin, run
            \(prelude)
            class P(Plugin):
                name = \(String(reflecting: name))
                events = [\(eventsList)]
                position = \(position.map { String(reflecting: $0) } ?? "None")
                def on_event(self, event, context):
            \(body.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }.joined(separator: "\n"))
            \(turnEnd)

            sys.exit(run(P()))

            """
        return try raw(source)
    }

    /// Python lines for `on_event` that exit with `status` the first time `condition` holds, and
    /// never again across restarts (a marker file remembers).
    static func exitOnce(status: Int, when condition: String = "True") -> String {
        let marker = String(reflecting: root.appendingPathComponent("crashed-\(UUID().uuidString)").path)
        return """
            if (\(condition)) and not os.path.exists(\(marker)):
                open(\(marker), "w").close()
                sys.exit(\(status))
            """
    }

    /// Where the scripts and their markers go: one folder per test process, removed when it exits.
    static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rb-external-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit {
            try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent("rb-external-tests-\(getpid())"))
        }
        // Resolved, as the host prints the paths it resolves (macOS's /var is /private/var).
        return URL(fileURLWithPath: SystemFiles.resolvedPath(url.path))
    }()

    /// A script with exactly this source.
    static func raw(_ source: String) throws -> [String] {
        let folder = root.appendingPathComponent("plugin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("plugin.py")
        try source.write(to: url, atomically: true, encoding: .utf8)
        return ["python3", url.path]
    }

    /// A session: a field that begins editing, then `keyboardWillShow` at t = 1, 2, … `shows`.
    static func session(shows: Int = 6) -> String {
        var lines = [
            #"{"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812}}"#,
            #"{"event":"scene","t":0,"root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[{"id":"name","kind":"textField","frame":[20,600,335,44]},{"id":"email","kind":"textField","frame":[20,660,335,44]}]}}"#,
            #"{"event":"didBeginEditing","t":0.5,"view":"name"}"#,
        ]
        for t in 1...shows {
            lines.append(#"{"event":"keyboardWillShow","t":\#(t),"begin":[0,812,375,0],"end":[0,521,375,291],"duration":0.25,"curve":7}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static let header = LogHeader(screen: Size(width: 375, height: 812))

    /// What a replay of `log` on virtual time derived (diagnostics included), with the external
    /// plugins `configurations` registered where they ask, after the observer `before` makes (kept
    /// for the replay).
    static func replay(
        _ log: String, _ configurations: [ExternalPlugin.Configuration], before: ((Bus) throws -> ObservationToken?)? = nil,
        inspect: (([ExternalPlugin]) -> Void)? = nil
    ) throws -> [LogRecord] {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop, screen: Screen(size: header.screen))
        let token = try before?(bus) ?? nil
        defer { token?.cancel() }
        var plugins: [ExternalPlugin] = []
        for configuration in configurations {
            let plugin = try ExternalPlugin(configuration, header: header)
            try bus.register(plugin, at: plugin.preferredPosition)
            plugins.append(plugin)
        }
        var derived: [LogRecord] = []
        let recorder = LogRecorder(bus: bus, selection: .derived) { derived.append($0) }
        let replayer = Replayer(bus: bus)
        for plugin in plugins { plugin.onStop = { _ in replayer.stop() } }
        _ = replayer.replay(LogReader(bytes: Array(log.utf8)), on: loop)
        recorder.stop()
        inspect?(plugins)
        for plugin in plugins { plugin.shutDown() }
        return derived
    }
}

extension LogRecord {
    /// The diagnostic's message, if this is one.
    var message: String? {
        if case .diagnostic(let diagnostic) = event { return diagnostic.message }
        return nil
    }
    /// The diagnostic's level, if this is one.
    var level: Diagnostic.Level? {
        if case .diagnostic(let diagnostic) = event { return diagnostic.level }
        return nil
    }
}
