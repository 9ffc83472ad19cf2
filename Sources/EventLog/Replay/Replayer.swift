import DequeModule
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
        /// The problem a strict replay stopped at.
        public var stoppedAt: LogReadError?

        /// Nothing counted yet.
        public init() {}
    }

    /// The bus events are posted on.
    public let bus: Bus
    /// Called with each rejected line.
    @exclusivity(unchecked) public var onProblem: (LogReadError) -> Void = { _ in }
    /// Called with each derived record found in the log.
    @exclusivity(unchecked) public var onRecordedDerived: (LogRecord, RecordLocation) -> Void = { _, _ in }
    /// Called just before each external record is posted.
    @exclusivity(unchecked) public var willPost: (LogRecord, RecordLocation) -> Void = { _, _ in } {
        didSet { callsWillPost = true }
    }
    /// Whether ``willPost`` was set: unset, the per-record call (and the retain of its context) is
    /// skipped.
    @exclusivity(unchecked) private var callsWillPost = false
    /// Called now and then with the bytes read so far and the total, when known.
    @exclusivity(unchecked) public var onProgress: (Int, Int?) -> Void = { _, _ in }

    /// How many events of one `t` are posted in one callback at most (a log with a million events at
    /// `t = 0` must not be held in memory). Set it before a replay, not during one.
    @exclusivity(unchecked) public var maxTurnSize = 10_000

    // Loop-confined, touched for every record and never accessed overlappingly: no run-time
    // exclusivity checks. `stopped` mirrors `summary.stoppedAt != nil` without copying the error.
    @exclusivity(unchecked) private var summary = Summary()
    @exclusivity(unchecked) private var strict = false
    @exclusivity(unchecked) private var stopped = false

    /// `bus.screen`, reached for every record without a retain and a release (`bus` holds it).
    private let screen: Unmanaged<Screen>

    /// Creates a replayer for a bus.
    public init(bus: Bus) {
        self.bus = bus
        screen = Unmanaged.passUnretained(bus.screen)
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
    /// a followed file) is read and parsed on a second thread a few hundred lines ahead, so that
    /// parsing overlaps with delivery; what is posted, reported and recorded is the same, in the
    /// same order. `reader` must not be used by anyone else until this returns.
    public func replay(_ reader: LogReader, on loop: VirtualTimeLoop, strict: Bool = false, readAhead: Bool = true) -> Summary {
        precondition(bus.loop === loop, "replay on the bus's own loop")
        start(strict: strict)
        // Records are posted as they are read, each turn (the records sharing one `t`) from one
        // callback of the loop; the next turn's first record is looked at where it lies in its
        // batch, not copied out. What the reader rejects inside a turn is reported there, in line
        // order.
        itemsRead = 0
        // Read a few hundred lines ahead, on a second thread when the input ends; a pipe or a
        // followed file is read one record at a time, so what arrives is posted at once.
        let ends = reader.totalBytes != nil && !reader.follows
        items = ReadAhead(reader, threaded: readAhead && ends, batchSize: ends ? 256 : 1)
        defer {
            // A strict stop leaves the reader thread ahead of the replay: stop it before returning.
            items?.finish()
            items = nil
            batch = nil
        }
        while let t = nextExternalTime() {
            loop.advance(to: .saturating(seconds: t))
            logTimeAnchor = nil
            // The turn's events are posted from one callback, as a timer due now would be; nothing
            // else is due after advance(to:), so running the callback here is the same thing. The
            // first record of the next turn stays where it was read until its turn comes.
            loop.runAsTurn { [self] in
                postNextExternal()
                var count = 1
                while count < maxTurnSize, nextExternalTime() == t {
                    postNextExternal()
                    count += 1
                }
            }
        }
        if summary.stoppedAt == nil { loop.runUntilQuiet(limit: 1_000_000) }
        items?.finish()
        onProgress(reader.bytesConsumed, reader.totalBytes)
        return summary
    }

    @exclusivity(unchecked) private var itemsRead = 0
    /// Where a virtual replay takes its items from, and the batch it is taking them from.
    @exclusivity(unchecked) private var items: ReadAhead?
    @exclusivity(unchecked) private var batch: ReadAhead.Batch? {
        didSet { current = batch.map(Unmanaged.passUnretained) }
    }
    /// ``batch``, for the per-record path: reached without a retain and a release each time
    /// (``batch`` holds it).
    @exclusivity(unchecked) private var current: Unmanaged<ReadAhead.Batch>?

    /// Moves on to the next external record, reporting problems and handing recorded derived records
    /// to ``onRecordedDerived`` on the way, and returns its `t`; `nil` at the end or once stopped.
    /// The record itself stays in its batch (``postNextExternal()`` takes it).
    private func nextExternalTime() -> Double? {
        while !stopped {
            guard let current, current._withUnsafeGuaranteedRef(\.hasItem) else {
                batch = items?.next()
                if batch == nil { return nil }
                continue
            }
            let kind = current._withUnsafeGuaranteedRef(\.nextKind)
            if kind == .external { return current._withUnsafeGuaranteedRef(\.nextTime) }
            itemsRead += 1
            if itemsRead & 0x3FFF == 0 {
                onProgress(current._withUnsafeGuaranteedRef(\.bytesConsumed), items?.reader.totalBytes)
            }
            switch current._withUnsafeGuaranteedRef({ $0.take() }) {
            case .problem(let error):
                reject(error)
            case .record(let record, let location):
                summary.recordedDerived += 1
                onRecordedDerived(record, location)
            }
        }
        return nil
    }

    /// Posts the external record ``nextExternalTime()`` found.
    private func postNextExternal() {
        guard let current else { return }
        itemsRead += 1
        if itemsRead & 0x3FFF == 0 { onProgress(current._withUnsafeGuaranteedRef(\.bytesConsumed), items?.reader.totalBytes) }
        let view = current._withUnsafeGuaranteedRef(\.nextView)
        if case .record(let record, let location) = current._withUnsafeGuaranteedRef({ $0.take() }) {
            post(record, at: location, naming: view)
        }
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
        start(strict: strict)
        let start = loop.now
        let speed = speed > 0 && speed.isFinite ? speed : 1
        let following = waitForMore != nil
        var turns = TurnReader(reader: reader, following: following)

        func step() {
            onProgress(reader.bytesConsumed, reader.totalBytes)
            var items: [TurnItem] = []
            switch turns.next(self, into: &items) {
            case .end:
                loop.schedule(after: .saturating(seconds: 1 / speed)) { [self] in completion(summary) }
            case .waiting:
                waitForMore?(step)
            case .turn(let t):
                // Following a live file, events are posted as they arrive; otherwise at their time.
                // Capped, so that a slow speed cannot push a time past the loop's clock (a log's
                // times are at most `LogLimits.maximumSeconds`; so is the wait here).
                let due = following ? loop.now : start + .saturating(seconds: min(t / speed, LogLimits.maximumSeconds))
                loop.schedule(after: due - loop.now) { [self] in
                    logTimeAnchor = (t, loop.now, speed)
                    postingTurn = true
                    post(items)
                    // What the plugins decide at the end of this turn is timed at the turn's t.
                    loop.runAtEndOfTurn { [self] in postingTurn = false }
                    step()
                }
            }
        }
        step()
    }

    /// The replay's progress so far (for a replay stopped from outside, such as `--follow`).
    public var currentSummary: Summary { summary }

    @exclusivity(unchecked) private var logTimeAnchor: (t: Double, at: Duration, speed: Double)?
    @exclusivity(unchecked) private var postingTurn = false

    /// The time in the log's own clock, in seconds. Use it to time what the plugins derive.
    ///
    /// On the virtual-time loop it is the loop's clock. In a real-time replay it is the last posted
    /// turn's `t` during that turn (its end-of-turn work included), so that decisions are timed as
    /// exactly as in a fast replay; later (a plugin's timer), that `t` plus the loop time since,
    /// times the speed.
    public var logTime: Double {
        guard let anchor = logTimeAnchor else { return bus.loop.now.seconds }
        if postingTurn { return anchor.t }
        return anchor.t + (bus.loop.now - anchor.at).seconds * anchor.speed
    }

    // MARK: Reading turns

    private func start(strict: Bool) {
        summary = Summary()
        stopped = false
        self.strict = strict
        logTimeAnchor = nil
        postingTurn = false
    }

    /// What reading the next turn gave.
    private enum Step {
        /// External records sharing one `t` (and rejected lines among them, in line order), in the
        /// buffer given to `TurnReader.next`.
        case turn(t: Double)
        /// Following a file: nothing more for now.
        case waiting
        /// The end of the input, or a strict replay stopped.
        case end
    }

    /// Groups the reader's records into turns, with one record of look-ahead. Recorded derived
    /// records are handed to ``onRecordedDerived`` as they are read.
    private struct TurnReader {
        let reader: LogReader
        let following: Bool
        var peeked: (LogRecord, RecordLocation)?
        var items = 0

        init(reader: LogReader, following: Bool) {
            self.reader = reader
            self.following = following
        }

        mutating func next(_ replayer: Replayer, into turn: inout [TurnItem]) -> Step {
            turn.removeAll(keepingCapacity: true)
            var turnT: Double?
            if let (record, location) = peeked {
                turn.append(.record(record, location))
                turnT = record.t
                peeked = nil
            }
            while !replayer.stopped, let item = reader.next() {
                items += 1
                if items & 0x3FFF == 0 { replayer.onProgress(reader.bytesConsumed, reader.totalBytes) }
                switch item {
                case .problem(let error):
                    // Reported in line order, with the turn it sits in.
                    if turn.isEmpty { replayer.reject(error) } else { turn.append(.problem(error)) }
                case .record(let record, let location):
                    if record.origin != .external {
                        replayer.summary.recordedDerived += 1
                        replayer.onRecordedDerived(record, location)
                        continue
                    }
                    if let t = turnT, record.t != t || turn.count >= replayer.maxTurnSize {
                        peeked = (record, location)
                        return .turn(t: t)
                    }
                    turnT = record.t
                    turn.append(.record(record, location))
                }
            }
            if let t = turnT { return .turn(t: t) }
            for case .problem(let error) in turn { replayer.reject(error) }
            return following && !replayer.stopped ? .waiting : .end
        }
    }

    // MARK: Posting

    /// One entry of a turn: a record to post, or a rejected line to report in its place.
    private enum TurnItem {
        case record(LogRecord, RecordLocation)
        case problem(LogReadError)
    }

    private func post(_ items: [TurnItem]) {
        for item in items {
            if stopped { return }
            switch item {
            case .record(let record, let location): post(record, at: location)
            case .problem(let error): reject(error)
            }
        }
    }

    private func post(_ record: LogRecord, at location: RecordLocation) {
        // Only a record that names a view has a view column: the others need no look-up.
        post(record, at: location, naming: location.viewColumn == nil ? nil : record.event.viewID)
    }

    /// Posts a record, which names `view` (found beforehand), unless the scene has no such view.
    private func post(_ record: LogRecord, at location: RecordLocation, naming view: ViewID?) {
        if stopped { return }
        if let view, !screen._withUnsafeGuaranteedRef({ $0.hasView(view) }) {
            reject(
                LogReadError(
                    .unknownView, line: location.line, column: location.viewColumn ?? 0,
                    "'\(record.event.name)' names view '\(view)', which the scene does not have; skipped"))
            return
        }
        if case .didBeginEditing(let info) = record.event, let node = bus.screen.view(info.view), !node.kind.isTextInput {
            reject(
                LogReadError(
                    .notATextInput, line: location.line, column: location.viewColumn ?? 0,
                    "'didBeginEditing' names view '\(info.view)', a \(node.kind.rawValue), which cannot edit text (only a textField or textView can); skipped"
                ))
            return
        }
        if callsWillPost { willPost(record, location) }
        summary.externalEvents += 1
        record.event.post(on: bus, origin: record.origin)
    }

    private func reject(_ error: LogReadError) {
        summary.rejectedLines += 1
        onProblem(error)
        if strict {
            summary.stoppedAt = error
            stopped = true
        }
    }
}
