import ResponderBus

/// Replays a log through a bus: its external events are posted at their recorded times; its
/// recorded derived events are handed back for comparison, never posted.
///
/// Events with the same `t` are posted from one loop callback, so that they share a loop turn, as
/// they shared a UIKit run-loop turn when they were recorded. Records naming a view the scene does
/// not have are rejected like unreadable lines (``LogReadError/Code/unknownView``), and so is
/// `didBeginEditing` on a view that is not a text input (``LogReadError/Code/notATextInput``). By default a
/// rejected line is counted and skipped; with `strict`, the replay stops at the first one.
public final class Replayer {
    /// What a replay went through.
    public struct Summary: Sendable {
        /// External events posted.
        public var externalEvents = 0
        /// Derived records found in the log.
        public var recordedDerived = 0
        /// Lines rejected (unreadable, or naming unknown views).
        public var rejectedLines = 0
        /// Lines read with a warning (a view kind this reader does not know: the view was kept as a
        /// plain view).
        public var warnings = 0
        /// The problem the replay stopped at: the first rejected line of a strict replay, or one
        /// that ended the read (``LogReadError/endsReading``) in any replay.
        public var stoppedAt: LogReadError?

        /// Nothing counted yet.
        public init() {}
    }

    /// The bus events are posted on.
    public let bus: Bus
    /// Called with each rejected line.
    public var onProblem: (LogReadError) -> Void = { _ in }
    /// Called with each derived record found in the log.
    public var onRecordedDerived: (LogRecord, RecordLocation) -> Void = { _, _ in }
    /// Called just before each external record is posted.
    public var willPost: (LogRecord, RecordLocation) -> Void = { _, _ in } {
        didSet { callsWillPost = true }
    }
    /// Whether ``willPost`` was set: unset, the per-record call is skipped.
    private var callsWillPost = false
    /// Called now and then with the bytes read so far and the total, when known.
    public var onProgress: (Int, Int?) -> Void = { _, _ in }

    /// How many events of one `t` are posted in one callback at most (a log with a million events at
    /// `t = 0` must not be held in memory).
    public var maxTurnSize = 10_000

    // The callbacks and settings above are read when a replay starts: set them before one, not
    // during it.

    /// What the last replay counted.
    private var summary = Summary()
    /// Set by ``stop()``: no further turn is posted.
    public private(set) var stopRequested = false

    /// Stops the replay after the turn being posted (from a plugin's callback, say, when an
    /// external plugin fails with `--plugin-failure stop`): no later record is posted, and the
    /// replay returns (or completes) with what it has counted. Loop-confined.
    public func stop() {
        stopRequested = true
    }
    /// The real-time replay under way, if any (its summary changes as it goes).
    private var live: LiveRun?

    /// Creates a replayer for a bus.
    public init(bus: Bus) {
        self.bus = bus
        time = ReplayTime(loop: bus.loop)
    }

    /// Applies the header's screen to the bus's model. Loop-confined.
    public func apply(_ header: LogHeader) {
        bus.screen.apply(ScreenChange(size: header.screen, safeArea: header.safeArea))
    }

    // MARK: As fast as possible

    /// Replays the rest of `reader` on a virtual-time loop, as fast as the machine allows, then lets
    /// the loop run until nothing is scheduled (timers such as a settle window fire at their virtual
    /// times).
    ///
    /// With `readAhead` (the default), an input that ends (a file, bytes in memory; not a pipe, not
    /// a followed file) is read and parsed on a second thread a few thousand lines ahead, so that
    /// parsing overlaps with delivery; what is posted, reported and recorded is the same, in the
    /// same order. `reader` must not be used by anyone else until this returns.
    public func replay(_ reader: LogReader, on loop: VirtualTimeLoop, strict: Bool = false, readAhead: Bool = true) -> Summary {
        replay(reader, on: loop, strict: strict, readAhead: readAhead, helper: nil)
    }

    /// ``replay(_:on:strict:readAhead:)``, reading ahead on `helper` (which the caller's output
    /// may share) rather than on a thread of its own.
    package func replay(_ reader: LogReader, on loop: VirtualTimeLoop, strict: Bool, readAhead: Bool, helper: HelperThread?) -> Summary {
        precondition(bus.loop === loop, "replay on the bus's own loop")
        begin()
        // Read a few thousand lines ahead, on a second thread when the input ends; a pipe or a
        // followed file is read one record at a time, so what arrives is posted at once.
        let ends = reader.totalBytes != nil && !reader.follows
        let source = ReadAhead(reader, threaded: readAhead && ends, batchSize: ends ? 256 : 1, helper: helper)
        var run = makeRun(source, strict: strict)
        // A strict stop leaves the reader thread ahead of the replay: stop it before returning.
        defer { run.finish() }
        while !stopRequested, let t = run.nextExternalTime() {
            let nanoseconds = Duration.saturatingNanoseconds(t)
            let due = Duration.nanoseconds(nanoseconds)
            time.turn = (due, nanoseconds)
            time.anchor = nil
            // The turn's events are posted from one callback, as a timer due at `t` would be.
            loop.runTurn(at: due) { run.postTurn(at: t) }
        }
        if !run.stopped && !stopRequested { loop.runUntilQuiet(limit: 1_000_000) }
        run.finish()
        summary = run.summary
        onProgress(reader.bytesConsumed, reader.totalBytes)
        return summary
    }

    // MARK: Real time

    /// Replays the rest of `reader` on `loop` in real time: each turn fires on a timer at its
    /// recorded time divided by `speed`. Loop-confined: call it on the loop; `completion` is called
    /// on the loop, one second (divided by `speed`) after the last event, so that timers the plugins
    /// set have run.
    ///
    /// With `waitForMore` (following a growing file), reaching the current end of the input is not
    /// the end: the replayer hands `waitForMore` a closure to call when more has been appended, and
    /// posts what arrives as soon as it arrives. `completion` is then never called; stop the replay
    /// from outside (an interrupt) and read ``currentSummary``.
    public func replayInRealTime(
        _ reader: LogReader, on loop: any BusLoop, speed: Double = 1, strict: Bool = false,
        waitForMore: ((@escaping () -> Void) -> Void)? = nil, completion: @escaping (Summary) -> Void
    ) {
        begin()
        let start = loop.now
        let speed = speed > 0 && speed.isFinite ? speed : 1
        let following = waitForMore != nil
        // One record at a time, on the loop's thread: a followed file's records are posted as they
        // arrive, and nothing is read ahead of its time.
        let live = LiveRun(makeRun(ReadAhead(reader, threaded: false, batchSize: 1), strict: strict))
        self.live = live

        func step() {
            onProgress(reader.bytesConsumed, reader.totalBytes)
            guard !stopRequested, let t = live.advance({ $0.nextExternalTime() }) else {
                if following && !live.stopped && !stopRequested {
                    waitForMore?(step)
                } else {
                    loop.schedule(after: .saturating(seconds: 1 / speed)) { [self] in
                        summary = live.summary
                        if self.live === live { self.live = nil }
                        completion(summary)
                    }
                }
                return
            }
            // Following a live file, events are posted as they arrive; otherwise at their time.
            // Capped, so that a slow speed cannot push a time past the loop's clock (a log's times
            // are at most `LogLimits.maximumSeconds`; so is the wait here).
            let due = following ? loop.now : start + .saturating(seconds: min(t / speed, LogLimits.maximumSeconds))
            loop.schedule(after: due - loop.now) { [self] in
                if stopRequested { return step() }
                time.beginTurn(at: t, speed: speed)
                live.advance { $0.postTurn(at: t) }
                // The next turn is scheduled from this one's end-of-turn work, so that it fires in
                // a turn of its own even when it is already due: libuv 1.44 runs a due timer
                // started from a timer in the same pass, and the two turns' events would share a
                // turn (one `turnSettled`, one decision) that they do not share in the log.
                loop.runAtEndOfTurn { [self] in
                    time.endTurnUncounted()
                    step()
                }
            }
        }
        step()
    }

    /// The replay's progress so far: while a real-time replay runs (one stopped from outside, such
    /// as `--follow`), what it has counted; otherwise the last replay's summary.
    public var currentSummary: Summary { live?.summary ?? summary }

    /// What ``logTime`` is computed from, in an object of its own (see ``logClock``).
    private let time: ReplayTime

    /// The time in the log's own clock, in seconds. Use it to time what the plugins derive.
    ///
    /// On the virtual-time loop it is the loop's clock. In a real-time replay it is the last posted
    /// turn's `t` during that turn (its end-of-turn work included), so that decisions are timed as
    /// exactly as in a fast replay; later (a plugin's timer), that `t` plus the loop time since,
    /// times the speed. The turn's end is the loop's (`BusLoop.turnsEnded`); on a loop that does
    /// not count its turns, it is when the replayer's own end-of-turn work runs.
    public var logTime: Double { time.seconds }

    /// ``logTime`` as a closure for a recorder's clock (`LogRecorder`), holding the replay's time
    /// rather than the replayer: no cycle through the bus, and no `unowned` reference, which is
    /// checked and counted (atomically) at each use, for every derived record.
    public var logClock: () -> Double {
        let time = time
        return { time.seconds }
    }

    // MARK: Runs

    private func begin() {
        summary = Summary()
        live = nil
        time.reset()
    }

    private func makeRun(_ source: ReadAhead, strict: Bool) -> TurnCursor {
        TurnCursor(
            bus: bus, source: source, strict: strict, maxTurnSize: max(1, maxTurnSize), onProblem: onProblem,
            onRecordedDerived: onRecordedDerived, willPost: callsWillPost ? willPost : nil, onProgress: onProgress)
    }

    /// A real-time replay's run, shared by the loop callbacks that take it turn by turn.
    private final class LiveRun {
        private var run: TurnCursor
        /// What the run has counted so far.
        var summary: Summary { run.summary }
        /// Whether a strict run stopped.
        var stopped: Bool { run.stopped }

        init(_ run: TurnCursor) { self.run = run }

        /// Moves the run on with `body`, on a copy put back afterwards: the plugins and callbacks it
        /// calls may read ``summary`` (an interrupt's handler does) without overlapping an access.
        func advance<T>(_ body: (inout TurnCursor) -> T) -> T {
            var taken = run
            defer { run = taken }
            return body(&taken)
        }
    }
}

/// What ``Replayer/logTime`` is computed from: the replay's turn and, in real time, its anchor.
/// Loop-confined, as the replayer is.
private final class ReplayTime {
    let loop: any BusLoop
    /// ``loop`` when it is a ``VirtualTimeLoop``: its clock is read directly, without the
    /// existential's retain and release.
    let virtualLoop: VirtualTimeLoop?
    /// The real-time replay's last turn: its `t`, the loop time it was posted at, and the speed.
    var anchor: (t: Double, at: Duration, speed: Double)?
    /// The virtual-time replay's current turn: the loop's time and the same in whole nanoseconds,
    /// which give its seconds cheaply (reading a `Duration`'s seconds costs a 128-bit division, and
    /// every derived record is timed).
    var turn: (time: Duration, nanoseconds: Int64)?
    /// Which turn of a real-time replay is the posted one, its end-of-turn work included: the
    /// loop's `BusLoop.turnsEnded` when the turn was posted, or, on a loop that does not count
    /// its turns, whether the replayer's own end-of-turn work is still to run.
    private var posted: PostedTurn = .none

    private enum PostedTurn {
        case none
        case counted(UInt64)
        case uncounted
    }

    init(loop: any BusLoop) {
        self.loop = loop
        virtualLoop = loop as? VirtualTimeLoop
    }

    private var now: Duration { virtualLoop?.now ?? loop.now }

    /// Forgets the last replay's times.
    func reset() {
        anchor = nil
        turn = nil
        posted = .none
    }

    /// A real-time replay posts the turn of `t`, now.
    func beginTurn(at t: Double, speed: Double) {
        anchor = (t, loop.now, speed)
        posted = loop.turnsEnded.map(PostedTurn.counted) ?? .uncounted
    }

    /// The replayer's end-of-turn work for the posted turn has run: on a loop that does not count
    /// its turns, the turn is taken to be over.
    func endTurnUncounted() {
        if case .uncounted = posted { posted = .none }
    }

    /// Whether the posted turn of a real-time replay is still running.
    private var inPostedTurn: Bool {
        switch posted {
        case .none: false
        case .counted(let count): loop.turnsEnded == count
        case .uncounted: true
        }
    }

    /// The time in the log's own clock, in seconds (see ``Replayer/logTime``).
    var seconds: Double {
        guard let anchor else {
            let now = now
            if let turn, turn.time == now { return Duration.seconds(nanoseconds: turn.nanoseconds) }
            return now.seconds
        }
        if inPostedTurn { return anchor.t }
        return anchor.t + (now - anchor.at).seconds * anchor.speed
    }
}
