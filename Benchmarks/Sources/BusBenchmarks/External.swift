import EventLog
import Foundation
import ResponderBus
import ResponderBusExternal

/// Group 6: plugins out of process (issue 19). The round trip of one delivery to an external Swift
/// plugin beside the same plugin in-process; a replay of the 1M-event log with one external plugin
/// that asks for the keyboard events (goal ≥100,000 events/s), and with one that asks for a rare
/// event only (what the events it did not ask for cost); a plugin process killed mid-replay.
func runExternal(_ results: Results, cli: String, log: String, smallLog: String) {
    let g = "6 external"
    let nullPlugin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("NullKeyboardProcess").path

    // Round trip: one keyboardWillShow posted, delivered, answered; each post timed on its own.
    final class InProcessNull: KeyboardObserving {
        let name = "NullKeyboard"
    }
    let header = LogHeader(screen: Size(width: 375, height: 812))
    var external = Double.infinity
    var inProcess = Double.infinity
    for _ in 0..<3 {
        let plugin = try! ExternalPlugin(ExternalPlugin.Configuration(command: [nullPlugin]), header: header)
        external = min(external, deliveryP50(plugin, posts: 20_000))
        plugin.shutDown()
        inProcess = min(inProcess, deliveryP50(InProcessNull(), posts: 20_000))
    }
    results.add(
        Row(
            group: g, name: "delivery round trip to an external Swift plugin, p50", value: external, unit: "µs",
            baselineName: "the same plugin in-process", baselineValue: inProcess, ratio: external / inProcess, goal: "≤50 µs",
            met: external <= 50))

    // Replays of the 1M-event log: no extra plugin; one that asks for the keyboard events; one that
    // asks for `action` only (the rest reach it as batched model updates). Best of two, in turns.
    let events = Double(lineCount(log) - 1)
    var plain = Double.infinity
    var keyboard = Double.infinity
    var actionOnly = Double.infinity
    for _ in 0..<2 {
        plain = min(plain, spawnTimed([cli, "replay", log, "--format", "jsonl"]).seconds)
        let k = spawnTimed([cli, "replay", log, "--format", "jsonl", "--plugin-command", nullPlugin])
        precondition(k.status == 0, "replay with the external plugin failed: \(k.status)")
        keyboard = min(keyboard, k.seconds)
        actionOnly = min(actionOnly, spawnTimed([cli, "replay", log, "--format", "jsonl", "--plugin-command", "\(nullPlugin) action"]).seconds)
    }
    results.add(
        Row(
            group: g, name: "replay 1M events, external plugin asking for the keyboard events", value: events / keyboard,
            unit: "events/s", baselineName: "the replay without it", baselineValue: events / plain, ratio: plain / keyboard,
            goal: "≥100,000 events/s", met: events / keyboard >= 100_000))
    results.add(
        Row(
            group: g, name: "replay 1M events, external plugin asking for action only", value: events / actionOnly,
            unit: "events/s", baselineName: "the replay without it", baselineValue: events / plain, ratio: plain / actionOnly))

    // Killed mid-replay: restarted, the replay completes, the built-ins decide exactly as without it.
    func replayOutput(killAfter: Double?) -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cli)
        process.arguments = ["replay", smallLog, "--format", "jsonl", "--plugin-command", nullPlugin]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rb-external-bench-\(getpid()).jsonl")
        precondition(FileManager.default.createFile(atPath: file.path, contents: nil), "cannot create \(file.path)")
        defer { try? FileManager.default.removeItem(at: file) }
        process.standardOutput = try! FileHandle(forWritingTo: file)
        try! process.run()
        if let killAfter {
            usleep(useconds_t(killAfter * 1e6))
            let pkill = Process()
            pkill.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
            // By process name (15 characters at most): the replay's own command line names the plugin's path.
            pkill.arguments = ["-KILL", "-x", String(URL(fileURLWithPath: nullPlugin).lastPathComponent.prefix(15))]
            try! pkill.run()
            pkill.waitUntilExit()
        }
        process.waitUntilExit()
        let output = (try? Data(contentsOf: file)) ?? Data()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
    let calm = replayOutput(killAfter: nil)
    let killed = replayOutput(killAfter: 0.3)
    func builtIns(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { !$0.contains("\"NullKeyboard\"") && !$0.contains("\"event\":\"summary\"") }
    }
    let restarted = killed.stdout.contains("was killed by signal 9 (SIGKILL); restarting it")
    let same = builtIns(calm.stdout) == builtIns(killed.stdout)
    results.add(
        Row(
            group: g, name: "plugin killed mid-replay (100k events): restarted, completed, built-ins' decisions identical",
            value: restarted && same && killed.status == 0 ? 1 : 0, unit: "yes=1", goal: "=1",
            met: restarted && same && killed.status == 0))
}

/// The median time, in µs, of one `keyboardWillShow` posted to a bus with `plugin` alone, each of
/// `posts` posts timed on its own (groups 6 and 7).
func deliveryP50(_ plugin: any ResponderPlugin, posts: Int) -> Double {
    let loop = VirtualTimeLoop()
    let bus = Bus(loop: loop, screen: Screen(size: Size(width: 375, height: 812)))
    try! bus.register(plugin)
    let info = KeyboardInfo(
        begin: Rect(x: 0, y: 812, width: 375, height: 0), end: Rect(x: 0, y: 521, width: 375, height: 291), duration: 0.25, curve: 7)
    var samples: [Double] = []
    samples.reserveCapacity(posts)
    for _ in 0..<posts {
        let start = ContinuousClock.now
        bus.post(.keyboardWillShow, info)
        let elapsed = ContinuousClock.now - start
        samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    samples.sort()
    return samples[samples.count / 2]
}

private func lineCount(_ path: String) -> Int {
    (try? Data(contentsOf: URL(fileURLWithPath: path)))?.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } ?? 0
}
