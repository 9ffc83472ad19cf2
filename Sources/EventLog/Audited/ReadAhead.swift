import ResponderBus

/// Reads and parses a log on another thread, a few batches ahead of the replay that consumes it, so
/// that parsing overlaps with delivery on a second core: a thread of its own, or a ``HelperThread``
/// it shares with the replay's other background work (its output).
///
/// A virtual-time replay spends about a fifth of its time reading and parsing lines; the rest is
/// the bus, the plugins and the output, which must stay on the loop. The reader thread hands over
/// batches of items — records, and the rejected lines among them — in line order, through a
/// bounded `BatchChannel` (sixteen batches of ``batchSize`` items by default; a reader waiting for
/// room is woken once eight are taken), so memory stays flat in the log's size. The channel is
/// deep enough that the replay does not run dry while a sleeping reader wakes (the measurements
/// are in `Benchmarks/README.md`). The consumer takes each
/// record out of its batch's buffer by moving it: nothing is copied or retained twice, and no
/// ``LogReader/Item`` is made for a record the replay posts.
///
/// A thread only for inputs that end (a regular file or bytes in memory): a batch is handed over
/// when it is full, so a slow pipe or a followed file would see its records late. Those are read on
/// the caller's thread, one record a batch.
final class ReadAhead: @unchecked Sendable {
    /// How many items a batch holds at most.
    let batchSize: Int
    /// Touched only by the reading thread between `init` and ``finish()`` (or by the caller's
    /// thread, when no thread could be made).
    let reader: LogReader
    /// Where batches are read: on a thread of this read-ahead's own, on a helper thread that other
    /// background work shares, or on the caller's thread.
    private enum Reading {
        case ownThread(BatchChannel<Batch>)
        case helper(HelperThread)
        case callersThread
        /// A live replay's input: what its watermark let through (``TurnGate``).
        case gated(TurnGate)
    }
    private var reading = Reading.callersThread

    /// Starts reading `reader` ahead: on `helper` when one is given, otherwise on a new thread; or
    /// (with `threaded` false) on the caller's thread as batches are asked for. Call ``finish()``
    /// before touching `reader` again.
    init(_ reader: LogReader, threaded: Bool = true, batchSize: Int = 256, capacity: Int = 16, helper: HelperThread? = nil) {
        precondition(batchSize > 0)
        self.reader = reader
        self.batchSize = batchSize
        guard threaded else { return }
        if let helper {
            helper.startReadingAhead(capacity: capacity) { [self] in readBatch() }
            reading = .helper(helper)
            return
        }
        // No thread to be had: `next()` reads on the caller's thread instead, as if none were asked.
        let channel = BatchChannel<Batch>(capacity: capacity)
        let started = channel.spawn { [self] in
            while let batch = readBatch() {
                guard channel.put(batch) else { return }
            }
            channel.close()
        }
        if started { reading = .ownThread(channel) }
    }

    /// The items a live replay's watermark lets through (``TurnGate``), read on the caller's
    /// thread; `reader` is the input they are read from (for progress), or an empty one for
    /// records a program pushes.
    init(gate: TurnGate, reader: LogReader) {
        self.reader = reader
        batchSize = 1
        reading = .gated(gate)
    }

    /// Whether ``next()`` has a batch without waiting: always, but for a live replay's gate, which
    /// may have let nothing more through yet (the turn in hand is then whole). A stream read on the
    /// caller's thread (a pipe) is waited for: a line not written yet may share the turn's `t`.
    var hasBatchReady: Bool {
        if case .gated(let gate) = reading { return gate.hasReleased }
        return true
    }

    /// The next batch, waiting for the reading thread if need be; `nil` at the end of the input.
    func next() -> Batch? {
        switch reading {
        case .ownThread(let channel): channel.take()
        case .helper(let helper): helper.takeReadAhead()
        case .callersThread: readBatch()
        case .gated(let gate): gate.takeReleased()
        }
    }

    /// Stops reading ahead (the reading thread may be ahead of the consumer) and waits until the
    /// reader is no longer read. Idempotent; the reader may be used again afterwards.
    func finish() {
        switch reading {
        case .ownThread(let channel):
            channel.cancel()
            channel.join()
        case .helper(let helper):
            helper.stopReadingAhead()
        case .callersThread, .gated:
            return
        }
        reading = .callersThread
    }

    /// Reads up to ``batchSize`` items; `nil` at the end of the input.
    private func readBatch() -> Batch? {
        Batch.read(reader, capacity: batchSize)
    }
}
