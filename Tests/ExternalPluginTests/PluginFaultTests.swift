import EventLog
import Foundation
import ResponderBus
import ResponderBusPlatform
import Testing

@testable import ResponderBusExternal

/// Faults of issue 30 (round 3): floods of standard error, a plugin whose children keep its pipes,
/// the children an ended plugin leaves behind.
@Suite("External plugins: standard error floods, exits behind open pipes, leftover children", .serialized)
struct PluginFaultTests {
    typealias Configuration = ExternalPlugin.Configuration

    /// Whether process `pid` still runs (a zombie waiting for whichever process adopted it counts as
    /// gone).
    static func alive(_ pid: Int32) -> Bool {
        SystemProcess.isRunning(pid)
    }

    /// Waits up to `seconds` for `pid` to be gone; whether it is.
    static func gone(_ pid: Int32, within seconds: Double = 5) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while alive(pid), ContinuousClock.now < deadline { usleep(10_000) }
        return !alive(pid)
    }

    @Test("a flood of standard-error lines is bounded per delivery, said once, and never crowds out the restarts")
    func standardErrorFlood() throws {
        // 200,000 lines (about 3 MB) on every event, then an exit: four faults in six events.
        let command = try Scripts.plugin(
            events: ["keyboardWillShow"],
            onEvent: """
                sys.stderr.write("noise line\\n" * 200000); sys.stderr.flush()
                sys.exit(3)
                """)
        let derived = try Scripts.replay(Scripts.session(shows: 6), [Configuration(command: command, restartBackoff: .milliseconds(1))])
        let messages = derived.compactMap(\.message)
        #expect(!messages.contains { $0.contains("cascaded") }, "\(messages.filter { $0.contains("cascaded") })")
        let errors = derived.filter { $0.level == .error }.compactMap(\.message)
        #expect(errors.count == 4, "\(errors)")
        #expect(errors.last?.contains("so it is disabled for the rest of the session") == true)
        let noise = messages.filter { $0 == "noise line" }.count
        #expect(noise <= 4 * 100, "\(noise) lines forwarded")
        let dropped = messages.filter { $0.hasPrefix("plugin 'Scripted' wrote ") && $0.hasSuffix(" more lines to standard error; dropped") }
        #expect(dropped.count == 4, "\(dropped)")
    }

    @Test("a plugin deriving 2,000 records for one event is stopped at the 1,001st, named: a fault, none of them posted, not a cascade")
    func decisionFlood() throws {
        let command = try Scripts.plugin(
            events: ["keyboardWillShow"],
            onEvent: """
                for _ in range(2000): context.post("action", name="go")
                """)
        let derived = try Scripts.replay(Scripts.session(shows: 2), [Configuration(command: command, restartBackoff: .milliseconds(1))])
        let messages = derived.compactMap(\.message)
        #expect(!messages.contains { $0.contains("cascaded") }, "\(messages.filter { $0.contains("cascaded") })")
        let errors = derived.filter { $0.level == .error }.compactMap(\.message)
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.allSatisfy { $0.hasPrefix("plugin 'Scripted' derived more than 1000 records for one delivery") }, "\(errors)")
        #expect(!derived.contains { if case .action = $0.event { true } else { false } }, "an answer past the budget posts nothing")
    }

    @Test("a single 50 MB standard-error line is cut, says so, and costs the host far less than its size")
    func hugeStandardErrorLine() throws {
        let command = try Scripts.plugin(
            events: ["keyboardWillShow"], onEvent: #"sys.stderr.write("x" * 50000000 + "\n"); sys.stderr.flush()"#)
        let before = Self.peakMemory()
        let derived = try Scripts.replay(Scripts.session(shows: 1), [Configuration(command: command, timeout: .seconds(10))])
        let grown = Self.peakMemory() - before
        let infos = derived.filter { $0.level == .info }.compactMap(\.message)
        #expect(infos.count == 1, "\(infos.map(\.count))")
        let line = try #require(infos.first)
        #expect(line.utf8.count < 65536 + 200)
        #expect(line.hasPrefix("xxxx"))
        #expect(line.hasSuffix("… (a line of 50000000 bytes, cut at 65536)"), "\(line.suffix(80))")
        #expect(!derived.contains { $0.level == .error }, "\(derived.filter { $0.level == .error }.compactMap(\.message))")
        #expect(grown < 40 << 20, "the peak grew by \(grown >> 20) MiB")
    }

    /// The process's peak resident memory so far, in bytes.
    static func peakMemory() -> Int {
        SystemProcess.peakResidentBytes()
    }

    @Test("a plugin that exits while a child it forked keeps its pipes open is reported with its exit status")
    func exitBehindOpenPipes() throws {
        let command = try Scripts.plugin(
            events: ["keyboardWillShow"],
            onEvent: """
                if os.fork() == 0:
                    time.sleep(30)
                    os._exit(0)
                sys.exit(3)
                """)
        let started = ContinuousClock.now
        let derived = try Scripts.replay(
            Scripts.session(shows: 1), [Configuration(command: command, timeout: .seconds(3), maximumRestarts: 0)])
        let errors = derived.filter { $0.level == .error }.compactMap(\.message)
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("plugin 'Scripted' exited with status 3; it failed 1 times") == true, "\(errors)")
        #expect(ContinuousClock.now - started < .seconds(3), "waited for the time limit")
    }

    @Test("the process group ends with the plugin: a leader that exited, a wrapper's background child")
    func groupEndsWithPlugin() throws {
        // The leader exits at once, leaving its child in the group.
        let exited = try PluginProcess(arguments: ["sh", "-c", "sleep 60 & echo $!"])
        let orphan = try #require(Int32(String(decoding: try exited.readLine(before: .now + .seconds(10)), as: UTF8.self)))
        usleep(200_000)
        exited.terminate(grace: .seconds(1))
        #expect(exited.exitDescription(or: "running") == "exited with status 0")
        #expect(Self.gone(orphan), "the exited plugin's child \(orphan) outlived it")

        // A wrapper script whose plugin ends on end of input, as asked; its background child too.
        let wrapper = try PluginProcess(arguments: ["sh", "-c", "sleep 60 & echo $!; exec cat"])
        let background = try #require(Int32(String(decoding: try wrapper.readLine(before: .now + .seconds(10)), as: UTF8.self)))
        wrapper.terminate(grace: .seconds(2))
        #expect(wrapper.exitDescription(or: "running") == "exited with status 0")
        #expect(Self.gone(background), "the wrapper's background child \(background) outlived it")
    }
}
