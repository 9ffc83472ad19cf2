import ResponderBus

extension Replayer {
    /// How a live replay's turns are paced against its driver's clock. Pacing decides only *when* a
    /// turn runs, never what it decides: the turns, the timers and the decisions are the fast
    /// replay's in every pacing.
    public enum Pacing: Sendable, Hashable {
        /// Each turn as soon as the input lets it run (following a file, records pushed).
        case asInputArrives
        /// Each turn, and each timer of the plugins', at its log time divided by `speed` after the
        /// start; one whose time has passed runs at once.
        case realTime(speed: Double)
    }
}

/// A live replay under way: the one turn engine of the fast replay (``TurnCursor`` posting each
/// turn through `VirtualTimeLoop.runTurn(at:_:)` on the bus's virtual-time loop, whose clock is the
/// log's), fed through a ``TurnGate`` (the watermark) and driven from another loop.
///
/// Each pass (``pump()``) reads what the input has now, runs every turn the gate let through (in
/// real time, each at its paced time: a timer on the driver wakes the pass when it is not yet),
/// runs the plugins' timers due before the held turn's time (the watermark: no record still to
/// come can be earlier), and then waits: for the input (a follower's `waitForMore`, a feed's
/// push), for a paced time, or for the allowed lateness. At the end of the input the timers run
/// as in a fast replay (`runUntilQuiet`), paced up to a second of log time after the last turn.
///
/// Loop-confined: the driver's thread, which also drives the bus's virtual-time loop.
final class LiveRun {
    /// Where the records come from.
    enum Input {
        /// A log read as it is written (`follows`) or read whole (a file, a pipe: read blocking).
        case reader(LogReader, follows: Bool, waitForMore: ((@escaping () -> Void) -> Void)?)
        /// Records a program pushes.
        case pushed(LiveFeed)
    }

    private weak var replayer: Replayer?
    private let loop: VirtualTimeLoop
    private let driver: any BusLoop
    private var cursor: TurnCursor
    private let gate: TurnGate
    private let input: Input
    private let pacing: Replayer.Pacing
    private let allowedLateness: Duration?
    private let completion: (Replayer.Summary) -> Void
    /// The driver's time at the start: log time 0, in real time.
    private var startedAt: Duration = .zero
    /// The last turn's `t`.
    private var lastTurn: Double?
    /// The driver's timer for the next paced time or the lateness, and what it is for.
    private var wakeTimer: ScheduledWork?
    private var wakeAt: Duration?
    private var lateTimer: ScheduledWork?
    /// Whether a follower's `waitForMore` has the resume closure.
    private var waitingForMore = false
    /// Set by ``endInput()``: the input has ended once what it has now is read.
    private var inputEnding = false
    private var pumping = false
    private var done = false
    /// Timer passes run after the last turn (the fast replay's `runUntilQuiet` counts the same).
    private var passesAfterEnd = 0
    /// The last external record read: its `t` and the driver's time it arrived at (lateness is
    /// counted from there).
    private var lastArrival: (t: Double, at: Duration)?
    /// How far the allowed lateness moved the replay on without the input: a record at or before
    /// it is late.
    private var forcedThrough: Double?
    /// The next pushed record's line (line 1 is the header) and the last pushed `t`.
    private var pushedLine = 2
    private var lastPushedT = 0.0

    /// How many timer passes the end of a replay runs at most (as the fast replay's).
    static let quietLimit = 1_000_000

    init(
        replayer: Replayer, loop: VirtualTimeLoop, driver: any BusLoop, cursor: TurnCursor, gate: TurnGate, input: Input,
        pacing: Replayer.Pacing, allowedLateness: Duration?, completion: @escaping (Replayer.Summary) -> Void
    ) {
        self.replayer = replayer
        self.loop = loop
        self.driver = driver
        self.cursor = cursor
        self.gate = gate
        self.input = input
        self.pacing = pacing
        self.allowedLateness = allowedLateness.map { max($0, .zero) }
        self.completion = completion
    }

    /// What the run has counted so far.
    var summary: Replayer.Summary { cursor.summary }

    func start() {
        startedAt = driver.now
        // Work the bus's loop is handed from other threads (a plugin's, through `execute`) runs on
        // the driver's thread, at the loop's time, between two passes.
        loop.setDriverWakeUp { [driver, loop] in
            driver.execute { loop.run() }
        }
        pump()
    }

    /// Ends the input once what it has now is read (see ``Replayer/endInput()``).
    func endInput() {
        inputEnding = true
        pump()
    }

    /// Runs a pass soon, from the driver (a stop asked from inside a turn, say).
    func wake() {
        guard !done, !pumping else { return }
        driver.runWhenIdle { [weak self] in self?.pump() }
    }

    // MARK: The pass

    /// Runs what can run now; then waits, as the type's discussion says.
    func pump() {
        guard !done, !pumping, let replayer else { return }
        pumping = true
        defer { pumping = false }
        lateTimer?.cancel()
        lateTimer = nil
        let began = driver.now
        var turns = 0
        while true {
            if replayer.stopRequested || cursor.stopped { return complete(replayer) }
            if let t = cursor.nextExternalTime() {
                let due = Duration.saturating(seconds: t)
                if case .realTime = pacing {
                    // A timer before the turn, at its own paced time.
                    if let deadline = loop.nextDeadline, deadline < due {
                        guard reached(deadline) else { return }
                        loop.advance(to: deadline)
                        continue
                    }
                    guard reached(due) else { return }
                }
                replayer.time.turn = (due, t)
                loop.runTurn(at: due) { advance { $0.postTurn(at: t) } }
                lastTurn = t
                turns += 1
                // Other work on the driver (other sessions, signals, output) gets a turn too.
                if turns & 63 == 0, driver.now - began > .milliseconds(5) {
                    driver.runWhenIdle { [weak self] in self?.pump() }
                    return
                }
                continue
            }
            if read() { continue }
            if gate.ended { return finishTimers(replayer) }
            // The input is open: the timers up to the held turn's time run (the watermark).
            if let held = gate.heldTime {
                let due = Duration.saturating(seconds: held)
                replayer.time.turn = (due, held)
                while let deadline = loop.nextDeadline, deadline <= due {
                    if case .realTime = pacing, !reached(deadline) { return }
                    loop.advance(to: deadline)
                }
            }
            waitForInput()
            armLateness()
            return
        }
    }

    /// The run's cursor, moved on by `body` on a copy put back afterwards: the plugins and callbacks
    /// it calls may read ``summary`` (an interrupt's handler does) without overlapping an access.
    private func advance<T>(_ body: (inout TurnCursor) -> T) -> T {
        var taken = cursor
        defer { cursor = taken }
        return body(&taken)
    }

    /// Whether the driver's clock has reached the paced time of log time `time`; if not, a timer
    /// wakes the pass then.
    private func reached(_ time: Duration) -> Bool {
        guard case .realTime(let speed) = pacing else { return true }
        let seconds = min(time.seconds / speed, LogLimits.maximumSeconds)
        let at = startedAt + .saturating(seconds: seconds)
        let now = driver.now
        if now >= at { return true }
        if wakeAt != at {
            wakeTimer?.cancel()
            wakeAt = at
            if at - now >= Replayer.longWait { replayer?.onLongWait?(time.seconds, at - now) }
            wakeTimer = driver.schedule(after: at - now) { [weak self] in
                self?.wakeAt = nil
                self?.pump()
            }
        }
        return false
    }

    /// After the last turn: the plugins' timers, as the fast replay's `runUntilQuiet` runs them
    /// (in real time, paced up to a second of log time after the last turn), then the end.
    private func finishTimers(_ replayer: Replayer) {
        if case .realTime = pacing, let lastTurn {
            let window = Duration.saturating(seconds: lastTurn) + .seconds(1)
            while passesAfterEnd < Self.quietLimit, let deadline = loop.nextDeadline, deadline <= window {
                guard reached(deadline) else { return }
                loop.advance(to: deadline)
                passesAfterEnd += 1
            }
        }
        loop.runUntilQuiet(limit: Self.quietLimit - passesAfterEnd)
        complete(replayer)
    }

    private func complete(_ replayer: Replayer) {
        guard !done else { return }
        done = true
        wakeTimer?.cancel()
        lateTimer?.cancel()
        cursor.finish()
        if case .reader(let reader, _, _) = input { replayer.onProgress(reader.bytesConsumed, reader.totalBytes) }
        let summary = cursor.summary
        replayer.liveRunEnded(self, summary: summary)
        completion(summary)
    }

    // MARK: Input

    /// Reads what the input has now into the gate, until it lets a turn through; whether it did,
    /// or the input ended.
    private func read() -> Bool {
        guard !gate.ended else { return false }
        switch input {
        case .reader(let reader, let follows, _):
            if waitingForMore && !inputEnding { return false }
            // Ended: what the file has now is all of it, an unfinished last line too (read as the
            // fast replay reads a file's last line).
            if inputEnding && reader.follows { reader.follows = false }
            while !gate.hasReleased && !gate.ended {
                // A followed file at its current end gives nothing for now; a pipe is waited for.
                guard let item = reader.next() else {
                    if !follows || inputEnding { gate.end() }
                    break
                }
                add(item)
            }
            gate.bytesConsumed = reader.bytesConsumed
        case .pushed(let feed):
            let (records, finished) = feed.take()
            for record in records { push(record) }
            if finished || inputEnding { gate.end() }
        }
        return gate.hasReleased || gate.ended
    }

    /// A pushed record, checked as the reader checks a line.
    private func push(_ record: LogRecord) {
        let line = pushedLine
        pushedLine += 1
        if record.t < lastPushedT {
            add(
                .problem(
                    LogReadError(
                        .invalidValue, line: line, column: 0, "t goes back from \(lastPushedT) to \(record.t); records must be in time order")))
            return
        }
        let item = LogReader.GivenRecords.item(record, line: line)
        if case .record = item {
            lastPushedT = record.t
            if let warning = LogReader.GivenRecords.warning(about: record, line: line) { add(.problem(warning)) }
        }
        add(item)
    }

    /// Adds an item of the input to the gate, saying first when it is late.
    private func add(_ item: consuming LogReader.Item) {
        if case .record(let record, let location) = item, record.origin == .external {
            lastArrival = (record.t, driver.now)
            if let forcedThrough, record.t <= forcedThrough {
                let lateness = allowedLateness.map { "\(Int(($0.seconds * 1000).rounded())) ms" } ?? "none"
                gate.add(
                    .problem(
                        LogReadError(
                            .lateRecord, line: location.line, column: 0,
                            "'\(record.event.name)' at t=\(record.t) s arrived after the replay had moved on to t=\(forcedThrough) s "
                                + "(allowed lateness \(lateness)); posted now, after what was decided up to there, not in its place")))
            }
        }
        gate.add(item)
    }

    /// Waits for the input: a follower's next append, a feed's next push.
    private func waitForInput() {
        guard case .reader(_, _, let waitForMore?) = input, !waitingForMore else { return }
        waitingForMore = true
        waitForMore { [weak self] in
            guard let self, waitingForMore else { return }
            waitingForMore = false
            pump()
        }
    }

    /// With an allowed lateness, a timer on the driver for when the held turn, or the next timer
    /// past what the input showed, has waited for it long enough.
    private func armLateness() {
        guard let allowedLateness, let lastArrival, !done else { return }
        let waiting: Double? =
            if let held = gate.heldTime { held } else { loop.nextDeadline.map(\.seconds) }
        guard let waiting else { return }
        let at = lastArrival.at + .saturating(seconds: max(0, waiting - lastArrival.t)) + allowedLateness
        lateTimer = driver.schedule(after: at - driver.now) { [weak self] in self?.lateTimerFired() }
    }

    /// The allowed lateness has passed for what waits: the held turn is taken to be whole, and the
    /// timers up to the log time the lateness allows run.
    private func lateTimerFired() {
        lateTimer = nil
        guard !done, let allowedLateness, let lastArrival, let replayer else { return }
        let allowed = lastArrival.t + (driver.now - lastArrival.at - allowedLateness).seconds
        // A microsecond of leeway: the timer was set for this very moment, and the two clocks round.
        if let held = gate.heldTime, held <= allowed + 1e-6 {
            gate.releaseHeld()
            forcedThrough = max(forcedThrough ?? held, held)
        } else if gate.heldTime == nil {
            let limit = Duration.saturating(seconds: allowed + 1e-6)
            while let deadline = loop.nextDeadline, deadline <= limit {
                replayer.time.turn = nil
                loop.advance(to: deadline)
                forcedThrough = max(forcedThrough ?? 0, deadline.seconds)
            }
        }
        pump()
    }
}

/// Records a program pushes into a live replay (``Replayer/replayLive(on:strict:allowedLateness:completion:)``,
/// or a `ReplaySession`'s): from the driver loop's thread or any other.
///
/// Each ``append(_:)`` hands records over in order; the replay takes them on its driver's thread,
/// soon. Records pushed by one thread keep their order. ``finish()`` ends the input: what was
/// pushed is replayed to its end and the replay completes.
public final class LiveFeed: Sendable {
    private struct Inbox {
        var records: [LogRecord] = []
        var finished = false
        var passScheduled = false
        /// The run the records go to: used on the driver's thread only (read there, under the lock).
        weak var run: LiveRun?
    }
    private let inbox = Locked(Inbox())
    private let driver: any BusLoop

    init(driver: any BusLoop) {
        self.driver = driver
    }

    /// Connects the run. On the driver's thread.
    func attach(_ run: LiveRun) {
        inbox.withLock { $0.run = run }
    }

    /// Pushes one record.
    ///
    /// - Returns: `false` when the feed was finished already: the record is not replayed.
    @discardableResult
    public func append(_ record: LogRecord) -> Bool {
        append(contentsOf: CollectionOfOne(record))
    }

    /// Pushes records, in order.
    ///
    /// - Returns: `false` when the feed was finished already: the records are not replayed.
    @discardableResult
    public func append(contentsOf records: some Sequence<LogRecord>) -> Bool {
        let schedule = inbox.withLock { inbox -> Bool? in
            guard !inbox.finished else { return nil }
            inbox.records.append(contentsOf: records)
            defer { inbox.passScheduled = true }
            return !inbox.passScheduled
        }
        guard let schedule else { return false }
        if schedule { scheduleDelivery() }
        return true
    }

    /// Ends the input: what was pushed is replayed to its end, the plugins' timers run, and the
    /// replay completes. Later pushes are refused. Idempotent.
    public func finish() {
        let schedule = inbox.withLock { inbox -> Bool in
            guard !inbox.finished else { return false }
            inbox.finished = true
            defer { inbox.passScheduled = true }
            return !inbox.passScheduled
        }
        if schedule { scheduleDelivery() }
    }

    /// Whether ``finish()`` was called.
    public var isFinished: Bool { inbox.withLock { $0.finished } }

    private func scheduleDelivery() {
        driver.execute { [self] in
            let run = inbox.withLock { inbox -> LiveRun? in
                inbox.passScheduled = false
                return inbox.run
            }
            run?.pump()
        }
    }

    /// What was pushed since the last take, and whether the feed is finished. On the driver's thread.
    func take() -> (records: [LogRecord], finished: Bool) {
        inbox.withLock { inbox in
            defer { inbox.records = [] }
            return (inbox.records, inbox.finished)
        }
    }
}
