import EventLog
import FieldAdvancing
import KeyboardAvoidance
import ResponderBus
import Testing
import TextViewOrdering

/// A loop whose turns are those of libuv 1.44, on a clock of its own: a turn runs every timer that
/// is due, those that the pass's own callbacks schedule and that are due already included (libuv
/// 1.44's `uv__run_timers` runs them in the same pass), then the end-of-turn work. Each timer
/// callback takes `callbackCost` of the loop's clock, so a real-time replay is always behind the
/// log: the next turn is due the moment it is scheduled. A live replay's driver: its turns decide
/// only when the replay's own turns run.
private final class LateTimerPassLoop: BusLoop, @unchecked Sendable {
    let counts: Bool
    let callbackCost: Duration
    private(set) var now: Duration = .zero
    private var timers: [(deadline: Duration, order: Int, handle: ScheduledWork, work: () -> Void)] = []
    private var scheduled = 0
    private var endOfTurn: [() -> Void] = []
    private var idle: [() -> Void] = []
    private var ended: UInt64 = 0
    /// The turns that ran two or more timers.
    private(set) var sharedTurns = 0

    init(countsTurns: Bool, callbackCost: Duration = .milliseconds(1)) {
        counts = countsTurns
        self.callbackCost = callbackCost
    }

    var inLoop: Bool { true }
    var turnsEnded: UInt64? { counts ? ended : nil }

    func execute(_ work: @escaping @Sendable () -> Void) { _ = schedule(after: .zero, work) }

    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
        let handle = ScheduledWork()
        scheduled += 1
        timers.append((now + max(delay, .zero), scheduled, handle, work))
        return handle
    }

    func runAtEndOfTurn(_ work: @escaping () -> Void) { endOfTurn.append(work) }
    func runWhenIdle(_ work: @escaping () -> Void) { idle.append(work) }

    /// The earliest timer that is due, the first scheduled among equals.
    private func nextDueTimer() -> Int? {
        timers.indices.filter { timers[$0].deadline <= now }.min { (timers[$0].deadline, timers[$0].order) < (timers[$1].deadline, timers[$1].order) }
    }

    /// Runs turns until nothing is left.
    func run() {
        while true {
            var fired = 0
            while let next = nextDueTimer() {
                let timer = timers.remove(at: next)
                timer.handle.fire(timer.work)
                now += callbackCost
                fired += 1
            }
            if fired > 1 { sharedTurns += 1 }
            while !endOfTurn.isEmpty { endOfTurn.removeFirst()() }
            ended &+= 1
            if !idle.isEmpty {
                let batch = idle
                idle.removeAll()
                for work in batch { work() }
                continue
            }
            guard let earliest = timers.map(\.deadline).min() else { return }
            now = max(now, earliest)
        }
    }
}

/// Says at the end of every turn which view is focused: a decision made in the turn's last
/// end-of-turn work, after the built-ins', which must be timed at the turn's `t` too.
private final class FocusNotes: TurnObserving {
    let name = "FocusNotes"

    func turnDidSettle(context: PluginContext) {
        context.diagnose(.info, "focused: \(context.screen.firstResponder?.id.rawValue ?? "none")")
    }
}

@Suite("A real-time replay driven by a loop behind the log: each recorded turn keeps a turn of its own")
struct RealTimeTurnsTests {
    /// The derived records of `log` replayed fast, or in real time driven from `driver`.
    private func derived(_ log: String, drivenBy driver: LateTimerPassLoop?) throws -> [String] {
        let bus = Bus(loop: VirtualTimeLoop())
        for plugin: any ResponderPlugin in [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance(), FocusNotes()] {
            try bus.register(plugin)
        }
        let replayer = Replayer(bus: bus)
        var lines: [String] = []
        let recorder = LogRecorder(bus: bus, selection: .derived, clock: replayer.logClock) { lines.append(LogWriter.line(for: $0)) }
        let reader = LogReader(bytes: Array(log.utf8))
        replayer.apply(try reader.readHeader())
        if let driver {
            var finished = false
            replayer.replayInRealTime(reader, on: driver, speed: 1_000) { _ in finished = true }
            driver.run()
            #expect(finished)
        } else {
            _ = replayer.replay(reader, on: bus.loop as! VirtualTimeLoop)
        }
        _ = recorder
        return lines
    }

    @Test(
        "driven by a loop that runs due timers scheduled in its timer pass in that pass, as libuv 1.44 does, and is always late, a real-time replay decides and times exactly as a fast one, the turn's last end-of-turn work included",
        arguments: [true, false]
    )
    func lateReplayKeepsTurnsApart(driverCountsTurns: Bool) throws {
        let log = ReplayerTests.session
        let fast = try derived(log, drivenBy: nil)
        #expect(fast.count(where: { $0.contains(#""by":"FocusNotes""#) }) == 6, "a note per turn, the scene's too: \(fast)")
        #expect(fast.count == 10, "four decisions: \(fast)")
        #expect(try derived(log, drivenBy: LateTimerPassLoop(countsTurns: driverCountsTurns)) == fast)
    }
}
