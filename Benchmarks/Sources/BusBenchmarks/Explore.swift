import EventLog
import FieldAdvancing
import Foundation
import KeyboardAvoidance
import ResponderBus
import ResponderBusExplore
import TextViewOrdering

/// `responder-bus explore`'s checking, in this process: generated sessions through the built-ins,
/// each run twice and checked against the six properties. Against the goal (3,000 sessions
/// a second on this 2-core machine) on one thread and on two, and against the same sessions
/// replayed once with no checking (what the properties and the second run cost).
func runExplore(_ results: Results) {
    let g = "11 explore"
    let count = 20_000
    let builtins: @Sendable () -> [any ResponderPlugin] = { [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance()] }
    func rate(workers: Int) -> Double {
        var best = 0.0
        for _ in 0..<3 {
            let report = try! Explorer(seed: 2026, workers: workers).explore(count: count) { PluginTarget(builtins) }
            precondition(report.findings.isEmpty, "the built-ins broke a property: \(report.summary)")
            best = max(best, report.sessionsPerSecond)
        }
        return best
    }
    // The same sessions, generated and replayed once each, nothing watched.
    let generator = SessionGenerator()
    let sessions = (0..<count).map { generator.session(seed: SeededRandom.sessionSeed(2026, index: $0)) }
    var replayOnly = 0.0
    for _ in 0..<3 {
        let target = PluginTarget(builtins)
        let start = DispatchTime.now().uptimeNanoseconds
        for session in sessions { _ = try! target.run(header: session.header, records: session.records()) { _ in } }
        replayOnly = max(replayOnly, Double(count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
    }
    let one = rate(workers: 1)
    let two = rate(workers: 2)
    results.add(
        Row(
            group: g, name: "explore the built-ins, 1 thread", value: one, unit: "sessions/s", baselineName: "the goal, 3,000 sessions/s",
            baselineValue: 3000, ratio: one / 3000, goal: "≥1×", met: one >= 3000))
    results.add(
        Row(
            group: g, name: "explore the built-ins, 2 threads", value: two, unit: "sessions/s", baselineName: "the goal, 3,000 sessions/s",
            baselineValue: 3000, ratio: two / 3000, goal: "≥1×", met: two >= 3000))
    results.add(
        Row(
            group: g, name: "explore, 1 thread: checked twice", value: one, unit: "sessions/s",
            baselineName: "the same sessions replayed once, unchecked", baselineValue: replayOnly, ratio: one / replayOnly))
}
