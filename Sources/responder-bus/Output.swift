import EventLog

#if canImport(Glibc)
import Glibc
#endif

/// Buffered writing to standard output (or a file): one `write(2)` per 64 KiB, not per line.
///
/// With ``writeInBackground()``, lines are encoded and written on a thread of its own, in order,
/// so that a fast replay does not wait for its own output.
final class Output {
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    private let descriptor: Int32
    private let closes: Bool
    /// Whether a write failed (a closed pipe): later output is dropped.
    private(set) var failed = false
    @exclusivity(unchecked) private var background: BackgroundWriter? {
        didSet { backgroundRef = background.map(Unmanaged.passUnretained) }
    }
    /// `background`, for the per-line path: without the atomic retain and release of the writer
    /// that reading the optional costs (its cache line is shared with the writer thread, which made
    /// that pair the most expensive instructions of a replay's loop thread). `background` keeps it
    /// alive.
    @exclusivity(unchecked) private var backgroundRef: Unmanaged<BackgroundWriter>?

    init(descriptor: Int32 = 1, closes: Bool = false) {
        self.descriptor = descriptor
        self.closes = closes
        buffer.reserveCapacity(1 << 16)
    }

    /// From now until ``flush()``, encodes and writes lines on a thread of its own (when one can be
    /// had). What was written before goes out first.
    func writeInBackground() {
        guard background == nil else { return }
        flush()
        background = BackgroundWriter(descriptor: descriptor)
    }

    func line(_ text: String) {
        if let backgroundRef { return backgroundRef._withUnsafeGuaranteedRef { $0.add(.text(text)) } }
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes a record as a log line, encoded straight into the buffer.
    func line(_ record: LogRecord) {
        if let backgroundRef { return backgroundRef._withUnsafeGuaranteedRef { $0.add(.record(record)) } }
        Self.append(record, to: &buffer)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes out what is buffered; after ``writeInBackground()``, waits for the thread to write
    /// everything and goes back to writing on the caller's thread.
    func flush() {
        if let background {
            self.background = nil
            if background.finish() { failed = true }
            return
        }
        guard !buffer.isEmpty, !failed else {
            buffer.removeAll(keepingCapacity: true)
            return
        }
        if !Self.write(buffer, to: descriptor) { failed = true }
        buffer.removeAll(keepingCapacity: true)
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

    /// Writes all of `bytes`; `false` when a write fails (a closed pipe).
    fileprivate static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}

/// ``Output``'s thread: the caller collects lines in batches of 256 and hands them over; the thread
/// encodes them and writes 64 KiB at a time.
private final class BackgroundWriter: @unchecked Sendable {
    enum Item: Sendable {
        case record(LogRecord)
        case text(String)
    }

    private static let batchSize = 256
    // The writer only has to keep up: it is woken when half the batches wait, not for each one.
    private let channel = BatchChannel<[Item]>(capacity: 8, wakesConsumerAt: 4)
    // The caller's thread only.
    @exclusivity(unchecked) private var pending: [Item] = []
    // The writer thread's until `finish()` has joined it.
    private var failed = false

    /// Starts the thread; `nil` when none can be had.
    init?(descriptor: Int32) {
        pending.reserveCapacity(Self.batchSize)
        let started = channel.spawn { [self] in
            var buffer: [UInt8] = []
            buffer.reserveCapacity((1 << 16) + 4096)
            while let batch = channel.take() {
                for item in batch {
                    switch item {
                    case .record(let record): Output.append(record, to: &buffer)
                    case .text(let text): Output.append(text, to: &buffer)
                    }
                }
                if buffer.count >= 1 << 16 {
                    if !failed && !Output.write(buffer, to: descriptor) { failed = true }
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            if !failed && !buffer.isEmpty && !Output.write(buffer, to: descriptor) { failed = true }
        }
        guard started else { return nil }
    }

    func add(_ item: Item) {
        pending.append(item)
        if pending.count >= Self.batchSize {
            channel.put(pending)
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// Hands over the rest, waits until all is written, and returns whether a write failed.
    func finish() -> Bool {
        if !pending.isEmpty { channel.put(pending) }
        pending = []
        channel.close()
        channel.join()
        return failed
    }
}

/// Shows progress on standard error while a large log is read, only when standard error is a
/// terminal.
final class Progress {
    private let enabled: Bool
    private var lastShown: Double = 0
    private var shown = false

    init(totalBytes: Int?) {
        enabled = isatty(2) == 1 && (totalBytes ?? 0) > 4 << 20
    }

    func update(_ consumed: Int, _ total: Int?) {
        guard enabled, let total, total > 0 else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let seconds = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        guard seconds - lastShown >= 0.2 else { return }
        lastShown = seconds
        shown = true
        let percent = Int(Double(consumed) / Double(total) * 100)
        writeStandardError("\r  reading… \(percent)% (\(consumed >> 20) of \(total >> 20) MiB)")
    }

    func finish() {
        guard shown else { return }
        writeStandardError("\r\u{1B}[K")
    }
}
