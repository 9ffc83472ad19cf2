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
    /// Called when a real-time replay is about to wait ``longWait`` or more for its next turn or
    /// timer (a gap in the log, a slow speed), with the log time it waits for and the wait on the
    /// driver's clock, so that a long silence is said rather than looking like a hang.
    public var onLongWait: ((_ logTime: Double, _ wait: Duration) -> Void)?
    /// How long a wait ``onLongWait`` is told of: 10 seconds.
    public static let longWait: Duration = .seconds(10)

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
        live?.wake()
    }
    /// The live replay under way, if any (its summary changes as it goes).
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
            let due = Duration.saturating(seconds: t)
            time.turn = (due, t)
            // The turn's events are posted from one callback, as a timer due at `t` would be.
            loop.runTurn(at: due) { run.postTurn(at: t) }
        }
        if !run.stopped && !stopRequested { loop.runUntilQuiet(limit: 1_000_000) }
        run.finish()
        summary = run.summary
        onProgress(reader.bytesConsumed, reader.totalBytes)
        return summary
    }

    // MARK: Live

    /// Replays the rest of `reader` live, on the bus's virtual-time loop driven from `driver`: the
    /// same turns, timers and decisions as ``replay(_:on:strict:readAhead:)``, paced against
    /// `driver`'s clock. Call it on `driver`'s thread; `completion` is called there with what was
    /// counted, once the input has ended and the plugins' timers have run.
    ///
    /// The bus must run on a `VirtualTimeLoop` of its own (its clock is the log's: a plugin's
    /// timer fires at a log time), and `driver` is another loop, the libuv one in production:
    /// its clock only decides *when* each turn runs (see the replay article's live rule).
    ///
    /// - Without `waitForMore`, each turn runs at its recorded time divided by `speed` after the
    ///   start, and so does each timer of the plugins'. A turn whose time has passed runs at once:
    ///   a fast speed is not held to the driver's timer granularity.
    /// - With `waitForMore` (following a growing file), turns run as soon as the input lets them:
    ///   at the current end of the input the replayer hands `waitForMore` a closure to call when
    ///   more has been appended. The last turn read is held until a later `t` is read (it may not
    ///   be whole), or the input ends (``endInput()``), or `allowedLateness` has passed.
    ///
    /// - Parameters:
    ///   - reader: the log, its header read.
    ///   - driver: the loop that paces the replay (not the bus's).
    ///   - speed: without `waitForMore`, play this many times faster than recorded.
    ///   - strict: stop at the first rejected line.
    ///   - allowedLateness: following, how long (on `driver`'s clock) a held turn, or a timer past
    ///     what the input has shown, waits for the input at most; `nil` (the default) waits for
    ///     the input, so the decisions are the fast replay's exactly. A record that arrives after
    ///     the replay moved past its `t` is reported (``LogReadError/Code/lateRecord``) and posted
    ///     then, never reordered.
    ///   - waitForMore: following a growing file: called at the current end of the input with a
    ///     closure to call when more was appended.
    ///   - completion: called on `driver` with what was counted.
    public func replayInRealTime(
        _ reader: LogReader, on driver: any BusLoop, speed: Double = 1, strict: Bool = false, allowedLateness: Duration? = nil,
        waitForMore: ((@escaping () -> Void) -> Void)? = nil, completion: @escaping (Summary) -> Void
    ) {
        let speed = speed > 0 && speed.isFinite ? speed : 1
        let pacing: Pacing = waitForMore == nil ? .realTime(speed: speed) : .asInputArrives
        startLive(
            input: .reader(reader, follows: waitForMore != nil, waitForMore: waitForMore), driver: driver, pacing: pacing,
            strict: strict, allowedLateness: allowedLateness, reader: reader, completion: completion)
    }

    /// Starts a live replay of records a program pushes, on the bus's virtual-time loop driven from
    /// `driver`: push them through the returned feed (from any thread), then end the input with
    /// ``LiveFeed/finish()``. Call it on `driver`'s thread; `completion` is called there once the
    /// input has ended and the plugins' timers have run.
    ///
    /// Turns run as soon as the input lets them: the records pushed last are held until a record
    /// with a later `t` is pushed, or the feed is finished, or `allowedLateness` has passed (see
    /// ``replayInRealTime(_:on:speed:strict:allowedLateness:waitForMore:completion:)``). The same
    /// records give the same decisions as a fast replay of them, however they are split into
    /// pushes and whichever threads push them (one producer's records keep their order; records
    /// of one session pushed from several threads at once are in whatever order the feed takes
    /// them). A pushed record is checked as a line of a log is: an unknown view, a time going
    /// backwards or out of range is rejected (``onProblem``), at line *n* + 1 for the *n*-th record.
    ///
    /// - Parameters:
    ///   - driver: the loop the replay runs from (not the bus's).
    ///   - strict: stop at the first rejected record.
    ///   - allowedLateness: how long (on `driver`'s clock) held records, or a timer past what was
    ///     pushed, wait for more at most; `nil` (the default) waits for the input.
    ///   - completion: called on `driver` with what was counted.
    /// - Returns: the feed to push records into.
    public func replayLive(
        on driver: any BusLoop, strict: Bool = false, allowedLateness: Duration? = nil, completion: @escaping (Summary) -> Void
    ) -> LiveFeed {
        let feed = LiveFeed(driver: driver)
        startLive(
            input: .pushed(feed), driver: driver, pacing: .asInputArrives, strict: strict, allowedLateness: allowedLateness,
            reader: LogReader(header: LogHeader(screen: bus.screen.size), records: []), completion: completion)
        return feed
    }

    /// Ends the input of the live replay under way: what was read (or pushed) is replayed to its
    /// end, the held turn included, the plugins' timers run as in a fast replay, and the replay
    /// completes. Following a file, this is how it ends (an interrupt, say); the summary then equals
    /// a fast replay's of what was read. Loop-confined (`driver`'s thread); nothing happens when no
    /// live replay is under way.
    public func endInput() {
        live?.endInput()
    }

    private func startLive(
        input: LiveRun.Input, driver: any BusLoop, pacing: Pacing, strict: Bool, allowedLateness: Duration?, reader: LogReader,
        completion: @escaping (Summary) -> Void
    ) {
        guard let loop = bus.loop as? VirtualTimeLoop else {
            preconditionFailure("a live replay runs its bus on a VirtualTimeLoop (the log's clock); pass the libuv loop as the driver")
        }
        precondition(driver !== loop, "a live replay's driver is another loop than the bus's own VirtualTimeLoop")
        begin()
        let gate = TurnGate(maxTurnSize: max(1, maxTurnSize))
        let run = LiveRun(
            replayer: self, loop: loop, driver: driver, cursor: makeRun(ReadAhead(gate: gate, reader: reader), strict: strict), gate: gate,
            input: input, pacing: pacing, allowedLateness: allowedLateness, completion: completion)
        live = run
        if case .pushed(let feed) = input { feed.attach(run) }
        run.start()
    }

    /// A live run has completed with `summary`.
    func liveRunEnded(_ run: LiveRun, summary: Summary) {
        self.summary = summary
        if live === run { live = nil }
    }

    /// The replay's progress so far: while a live replay runs (one stopped from outside, such as
    /// `--follow`), what it has counted; otherwise the last replay's summary.
    public var currentSummary: Summary { live?.summary ?? summary }

    /// What ``logTime`` is computed from, in an object of its own (see ``logClock``).
    let time: ReplayTime

    /// The time in the log's own clock, in seconds. Use it to time what the plugins derive.
    ///
    /// It is the bus's virtual-time loop's clock, which is the log's in every mode: during a turn
    /// (its end-of-turn work included) it is the turn's `t` exactly as read from the log; at a
    /// plugin's timer, the timer's time.
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
}

/// What ``Replayer/logTime`` is computed from: the bus's loop and the turn being posted. Loop-confined,
/// as the replayer is.
final class ReplayTime {
    let loop: any BusLoop
    /// ``loop`` when it is a ``VirtualTimeLoop``: its clock is read directly, without the
    /// existential's retain and release.
    let virtualLoop: VirtualTimeLoop?
    /// The turn being posted, or about to be: the loop time it runs at and its `t` as read, which
    /// is what its decisions are timed (a time read from the log is written back as it was read;
    /// the loop's nanoseconds would round it).
    var turn: (time: Duration, t: Double)?

    init(loop: any BusLoop) {
        self.loop = loop
        virtualLoop = loop as? VirtualTimeLoop
    }

    /// Forgets the last replay's turn.
    func reset() {
        turn = nil
    }

    /// The time in the log's own clock, in seconds (see ``Replayer/logTime``).
    var seconds: Double {
        let now = virtualLoop?.now ?? loop.now
        if let turn, turn.time == now { return turn.t }
        return now.seconds
    }
}
