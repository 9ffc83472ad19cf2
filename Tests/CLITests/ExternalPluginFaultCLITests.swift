import Foundation
import Testing

/// What a user sees of a plugin that hangs, raises or talks on the wrong stream (issue 30, items 8
/// and 9).
@Suite("Out-of-process plugins that hang, raise or print: what the command says and does", .serialized)
struct ExternalPluginFaultCLITests {
    private func script(_ body: String, name: String = "Faulty") throws -> String {
        let source = """
            import os, sys, time
            sys.path.insert(0, \(String(reflecting: ExternalPluginCLITests.pythonKit)))
            from responder_bus_plugin import Plugin, run
            class P(Plugin):
                name = \(String(reflecting: name))
                events = ["keyboardWillShow"]
                def on_event(self, event, context):
            \(body.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n"))
            sys.exit(run(P()))

            """
        return try CLI.temporaryFile(source, name: "faulty.py")
    }

    @Test("SIGINT and SIGTERM end a --realtime replay within about a second while a plugin hangs")
    func signalWhilePluginHangs() throws {
        for signal in [SIGINT, SIGTERM] {
            let marker = try CLI.temporaryFile("", name: "hanging")
            try FileManager.default.removeItem(atPath: marker)
            let hang = try script("open(\(String(reflecting: marker)), 'w').close()\ntime.sleep(600)")
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = [
                "replay", CLI.example, "--realtime", "--speed", "1000", "--no-project-file", "--plugin-command", "python3 \(hang)",
                "--plugin-timeout", "600000",
            ]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            let appeared = ContinuousClock.now + .seconds(20)
            while !FileManager.default.fileExists(atPath: marker), ContinuousClock.now < appeared { usleep(20_000) }
            #expect(FileManager.default.fileExists(atPath: marker), "the plugin never hung")
            usleep(200_000)
            let sent = ContinuousClock.now
            kill(process.processIdentifier, signal)
            while process.isRunning, ContinuousClock.now - sent < .seconds(10) { usleep(10_000) }
            let took = ContinuousClock.now - sent
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(took < .milliseconds(1500), "signal \(signal): the run took \(took) to end")
            #expect(process.terminationStatus == 0, "signal \(signal)")
            #expect(output.contains(" events, "), "the summary, as the log's end would: \(output)")
        }
    }

    /// Runs `check-plugin` (with `options`) on a plugin whose `on_event` is `body`, expecting it to
    /// fail, and expects its output to contain every one of `said`.
    private func expectCheckPlugin(
        _ body: String, options: [String] = [], says said: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let plugin = try script(body)
        let check = try CLI.run(["check-plugin", "--no-project-file"] + options + ["--", "python3", plugin])
        #expect(check.status == 1, sourceLocation: sourceLocation)
        for text in said { #expect(check.stdout.contains(text), "\(check.stdout)", sourceLocation: sourceLocation) }
    }

    @Test("check-plugin shows a Python plugin's traceback")
    func traceback() throws {
        try expectCheckPlugin(
            "1 / 0", says: ["exited with status 1", "ZeroDivisionError: division by zero", "Traceback (most recent call last)"])
    }

    @Test("check-plugin names --plugin-timeout when a plugin is too slow")
    func timeoutNamesOption() throws {
        try expectCheckPlugin(
            "time.sleep(0.5)", options: ["--plugin-timeout", "100"],
            says: ["did not answer keyboardWillShow within 0.1 seconds", "(the time limit is --plugin-timeout MILLISECONDS"])
    }

    @Test("a plugin that prints to standard output is told that it belongs to the protocol, and logs go to standard error")
    func printToStandardOutput() throws {
        try expectCheckPlugin(
            "print('looking at', event['event'])",
            says: ["wrote something that is not the protocol", "standard output carries the protocol; write logs to standard error"])
    }
}
