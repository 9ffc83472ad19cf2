import ResponderBus

/// One replay under way: walks the log's items turn by turn, posts the external records, hands
/// rejected lines and recorded derived records over in line order, and counts. The one grouping of
/// records into turns, for the fast replay and the live ones (``LiveRun``) alike.
///
/// A turn is the external records that share one `t` (they shared a UIKit run-loop turn when they
/// were recorded). The run stops at each external record without taking it out of its batch, so
/// that the replay can read its `t` and decide when to post it.
///
/// A value: everything a record changes is a field of it, so that the per-record path makes no
/// run-time exclusivity check (the fast replay keeps it in a local variable). The callbacks are the
/// ``Replayer``'s, as they were when the replay started.
struct TurnCursor {
    let bus: Bus
    /// `bus.screen`, which the records' views are checked against.
    private let screen: Screen
    private let source: ReadAhead
    let strict: Bool
    let maxTurnSize: Int
    let onProblem: (LogReadError) -> Void
    let onRecordedDerived: (LogRecord, RecordLocation) -> Void
    let willPost: ((LogRecord, RecordLocation) -> Void)?
    let onProgress: (Int, Int?) -> Void

    private var batch: ReadAhead.Batch?
    private var itemsRead = 0
    /// What the run counted.
    private(set) var summary = Replayer.Summary()
    /// Whether a strict run stopped at a rejected line (`summary.stoppedAt != nil`, without copying
    /// the error).
    private(set) var stopped = false

    init(
        bus: Bus, source: ReadAhead, strict: Bool, maxTurnSize: Int, onProblem: @escaping (LogReadError) -> Void,
        onRecordedDerived: @escaping (LogRecord, RecordLocation) -> Void, willPost: ((LogRecord, RecordLocation) -> Void)?,
        onProgress: @escaping (Int, Int?) -> Void
    ) {
        self.bus = bus
        self.screen = bus.screen
        self.source = source
        self.strict = strict
        self.maxTurnSize = maxTurnSize
        self.onProblem = onProblem
        self.onRecordedDerived = onRecordedDerived
        self.willPost = willPost
        self.onProgress = onProgress
    }

    /// Moves on to the next external record, handing rejected lines and recorded derived records
    /// over on the way, and returns its `t`: `nil` at the end of what can be read for now, or once a
    /// strict run stopped. The record stays where it is until ``postTurn(at:)``.
    mutating func nextExternalTime() -> Double? {
        while !stopped {
            guard batch != nil, batch!.hasItem else {
                batch = source.next()
                if batch == nil { return nil }
                continue
            }
            if batch!.nextKind == .external { return batch!.nextTime }
            handOver()
        }
        return nil
    }

    /// Posts the external record ``nextExternalTime()`` stopped at, which has time `t`, and the ones
    /// after it with the same `t` (at most ``maxTurnSize`` in all): one turn. Rejected lines and
    /// recorded derived records among them are handed over in line order.
    mutating func postTurn(at t: Double) {
        var count = 0
        // Batch by batch, the batch in hand read through `batch!` (held once, not once per record).
        while !stopped, batch != nil {
            while batch!.hasItem {
                guard batch!.nextKind == .external else {
                    handOver()
                    if stopped { return }
                    continue
                }
                guard count < maxTurnSize, count == 0 || batch!.nextTime == t else { return }
                countItem()
                let view = batch!.takeView()
                let next = batch!.takeRecord()
                post(next.record, at: next.location, naming: view)
                count += 1
                if stopped { return }
            }
            // A live replay's gate let nothing more through: the turn in hand is whole (the gate
            // lets a turn through once a later `t` or the end was read). A pipe is waited for: its
            // next line may share the turn's `t`.
            guard source.hasBatchReady else {
                self.batch = nil
                return
            }
            self.batch = source.next()
        }
    }

    /// Takes the next item of the batch in hand, a rejected line or a recorded derived record, and
    /// hands it over.
    private mutating func handOver() {
        countItem()
        switch batch!.take() {
        case .problem(let error):
            reject(error)
        case .record(let record, let location):
            summary.recordedDerived += 1
            onRecordedDerived(record, location)
        }
    }

    /// Stops reading ahead (a strict stop leaves the reader thread ahead of the replay). Idempotent.
    mutating func finish() {
        source.finish()
        batch = nil
    }

    /// Counts an item of the batch in hand, and reports progress every 16,384 of them.
    private mutating func countItem() {
        itemsRead += 1
        if itemsRead & 0x3FFF == 0 { onProgress(batch!.bytesConsumed, source.reader.totalBytes) }
    }

    /// Posts a record, which names `view` (found by the reader), unless the scene has no such view
    /// or the record asks a view that is not a text input to edit.
    private mutating func post(_ record: LogRecord, at location: RecordLocation, naming view: ViewID?) {
        if let view, !screen.hasView(view) {
            reject(
                LogReadError(
                    .unknownView, line: location.line, column: location.viewColumn ?? 0,
                    "'\(record.event.name)' names view '\(view)', which the scene does not have; skipped"))
            return
        }
        if case .didBeginEditing(let info) = record.event, let kind = screen.kindOfView(info.view), !kind.isTextInput {
            reject(
                LogReadError(
                    .notATextInput, line: location.line, column: location.viewColumn ?? 0,
                    "'didBeginEditing' names view '\(info.view)', a \(kind.rawValue), which cannot edit text (only a textField or textView can); skipped"
                ))
            return
        }
        willPost?(record, location)
        summary.externalEvents += 1
        record.event.post(on: bus, origin: record.origin)
    }

    /// Counts a rejected line, reports it, and stops a strict run. A warning (the line was read all
    /// the same) is counted as such, and stops a strict run too.
    private mutating func reject(_ error: LogReadError) {
        if error.isWarning { summary.warnings += 1 } else { summary.rejectedLines += 1 }
        onProblem(error)
        if strict || error.endsReading {
            summary.stoppedAt = error
            stopped = true
        }
    }
}
