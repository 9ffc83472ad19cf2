import ResponderBus
import ResponderBusPlatform

/// Buffered writing to standard output (or a file): one `write(2)` per 64 KiB, not per line.
///
/// With ``writeInBackground()``, lines are encoded and written on a thread of its own, in order,
/// so that a fast replay does not wait for its own output.
///
/// Every write is checked: the first that fails is kept in ``failure`` (its `errno`), and later
/// output is dropped. Commands check ``failure`` after their last ``flush()`` and end with exit 74.
/// (With SIGPIPE's default disposition, a reader that goes away ends the process quietly, as it
/// does `cat`; where SIGPIPE is ignored, the write fails with EPIPE and is reported like any other.)
package final class Output {
    private let descriptor: Int32
    private let closes: Bool
    /// How the output is named in messages: `standard output` or the file's path in quotes.
    package let name: String
    /// The `errno` of the first write that failed; later output is dropped.
    private(set) var failure: Int32?
    /// Whether a write failed.
    package var failed: Bool { failure != nil }
    /// What each line changes, as one value, touching neither the writer thread's object nor its
    /// reference count (the lines for the thread gather here and are handed over 256 at a time).
    /// An `Output` is written by one thread (the replay's), so the value lives in the core's
    /// `UncheckedExclusivity` box: no run-time exclusivity check per line.
    private let lines = UncheckedExclusivity(Lines())

    private struct Lines {
        /// Encoded lines not yet written (when writing on the caller's thread).
        var buffer: [UInt8] = []
        /// The thread writing, after ``Output/writeInBackground()``.
        var background: BackgroundWriter?
        /// Lines for the thread, handed over when there are ``BackgroundWriter/batchSize``.
        var pending: [BackgroundWriter.Item] = []

        /// Adds a line for the thread; call only when there is one (``background``).
        mutating func handOver(_ item: consuming BackgroundWriter.Item) {
            pending.append(item)
            if pending.count >= BackgroundWriter.batchSize {
                background!.put(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Writes to `descriptor` (standard output by default), named `name` in messages. Standard
    /// output closed at start-up fails at the first write, with EBADF.
    package init(descriptor: Int32 = 1, closes: Bool = false, name: String = "standard output") {
        self.descriptor = descriptor
        self.closes = closes
        self.name = name
        if descriptor == 1 && StandardOutput.wasClosed { failure = EBADF }
        lines.value.buffer.reserveCapacity(1 << 16)
    }

    /// Writes to an ``OutputFile``; the file is committed by its owner.
    package convenience init(file: OutputFile) {
        self.init(descriptor: file.descriptor, closes: false, name: file.name)
    }

    /// The error to end a command with, after the last ``flush()``, if a write failed.
    package var error: OutputError? { failure.map { .writeFailed(name, $0) } }

    /// The thread the lines are written on, from ``writeInBackground()`` until ``flush()``: a
    /// replay reads its log ahead on it too (`ReplaySession.replay(_:strict:readAhead:helper:)`),
    /// so that the two share one thread.
    package var backgroundThread: HelperThread? { lines.value.background?.thread }

    /// From now until ``flush()``, encodes and writes lines on a thread of its own (when one can be
    /// had). What was written before goes out first.
    package func writeInBackground() {
        guard lines.value.background == nil else { return }
        flush()
        lines.value.background = BackgroundWriter(descriptor: descriptor)
        lines.value.pending.reserveCapacity(BackgroundWriter.batchSize)
    }

    /// Writes a line of text.
    package func line(_ text: String) {
        if lines.value.background != nil {
            lines.value.handOver(.text(text))
            return
        }
        lines.value.buffer.append(contentsOf: text.utf8)
        lines.value.buffer.append(0x0A)
        if lines.value.buffer.count >= 1 << 16 { flush() }
    }

    /// Writes a record as a log line, encoded straight into the buffer (or moved to the writer
    /// thread's batch: taken, not copied).
    package func line(_ record: consuming LogRecord) {
        if lines.value.background != nil {
            lines.value.handOver(.record(record))
            return
        }
        Self.append(record, to: &lines.value.buffer)
        if lines.value.buffer.count >= 1 << 16 { flush() }
    }

    /// Writes a record as a log line unless the line is longer than `maximumLength` bytes, in
    /// which case nothing is written and its length is returned (`nil` when written). On the
    /// caller's thread only (not after ``writeInBackground()``).
    package func line(_ record: consuming LogRecord, atMost maximumLength: Int) -> Int? {
        precondition(lines.value.background == nil, "line(_:atMost:) writes on the caller's thread")
        let start = lines.value.buffer.count
        Self.append(record, to: &lines.value.buffer)
        let length = lines.value.buffer.count - start - 1
        if length > maximumLength {
            lines.value.buffer.removeSubrange(start...)
            return length
        }
        if lines.value.buffer.count >= 1 << 16 { flush() }
        return nil
    }

    /// Writes out what is buffered; after ``writeInBackground()``, waits for the thread to write
    /// everything and goes back to writing on the caller's thread.
    package func flush() {
        if let background = lines.value.background {
            let rest = lines.value.pending
            lines.value.background = nil
            lines.value.pending = []
            if let code = background.finish(handingOver: rest), failure == nil { failure = code }
            return
        }
        guard !lines.value.buffer.isEmpty, failure == nil else {
            lines.value.buffer.removeAll(keepingCapacity: true)
            return
        }
        failure = DescriptorIO.writeAll(lines.value.buffer, to: descriptor)
        lines.value.buffer.removeAll(keepingCapacity: true)
    }

    deinit {
        flush()
        if closes { close(descriptor) }
    }

    fileprivate static func append(_ record: LogRecord, to buffer: inout [UInt8]) {
        LogWriter.append(record, to: &buffer)
        buffer.append(0x0A)
    }

    fileprivate static func append(_ text: String, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
    }
}

/// ``Output``'s writing in the background: the caller collects lines in batches of ``batchSize``
/// and hands them over; a helper thread encodes them and writes 64 KiB at a time. The replay may
/// read its log ahead on the same thread (``Output/backgroundThread``).
private final class BackgroundWriter: Sendable {
    enum Item: Sendable {
        case record(LogRecord)
        case text(String)
    }

    package static let batchSize = 256
    /// The thread the lines are written on.
    let thread: HelperThread
    /// What the thread changes as it writes.
    private let state: BackgroundWriterState

    /// Starts the thread; `nil` when none can be had.
    package init?(descriptor: Int32) {
        // The writer only has to keep up: the thread is woken when half the batches wait, not for
        // each one.
        guard let thread = HelperThread(writeCapacity: 32, writeWakeUp: 16) else { return nil }
        self.thread = thread
        state = BackgroundWriterState(descriptor: descriptor)
    }

    /// Hands a batch of lines to the thread (waiting while it is 32 batches behind: the thread may
    /// wait to be scheduled on a loaded machine, and the replay should not wait with it).
    package func put(_ batch: [Item]) {
        thread.writeBehind { [state] in state.write(batch) }
    }

    /// Hands over the rest, waits until all is written, ends the thread, and returns the errno of
    /// the write that failed, if one did.
    package func finish(handingOver rest: [Item]) -> Int32? {
        if !rest.isEmpty { put(rest) }
        thread.writeBehind { [state] in state.flush() }
        thread.shutDown()
        return state.failure
    }
}

/// The encoded lines not yet written and the first failure, written by the writing thread alone,
/// one piece of work at a time (``HelperThread/writeBehind(_:)`` runs them in order), and read once
/// the thread has ended. Behind a lock all the same, taken once a batch of lines, so that the
/// compiler can check that it is shared safely.
private final class BackgroundWriterState: Sendable {
    private struct Encoded {
        var buffer: [UInt8] = []
        var failed: Int32?
    }
    private let descriptor: Int32
    private let encoded: Locked<Encoded>

    init(descriptor: Int32) {
        self.descriptor = descriptor
        var empty = Encoded()
        empty.buffer.reserveCapacity((1 << 16) + 4096)
        encoded = Locked(empty)
    }

    /// The errno of the first failed write, if one failed.
    var failure: Int32? { encoded.withLock { $0.failed } }

    /// Encodes a batch, and writes once 64 KiB are encoded.
    func write(_ batch: [BackgroundWriter.Item]) {
        encoded.withLock { [descriptor] encoded in
            for item in batch {
                switch item {
                case .record(let record): Output.append(record, to: &encoded.buffer)
                case .text(let text): Output.append(text, to: &encoded.buffer)
                }
            }
            if encoded.buffer.count >= 1 << 16 {
                if encoded.failed == nil { encoded.failed = DescriptorIO.writeAll(encoded.buffer, to: descriptor) }
                encoded.buffer.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Writes what is left.
    func flush() {
        encoded.withLock { [descriptor] encoded in
            if encoded.failed == nil && !encoded.buffer.isEmpty { encoded.failed = DescriptorIO.writeAll(encoded.buffer, to: descriptor) }
            encoded.buffer.removeAll()
        }
    }
}
