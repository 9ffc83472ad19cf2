import EventLog

#if canImport(Glibc)
    import Glibc
#endif

/// Buffered writing to standard output (or a file): one `write(2)` per 64 KiB, not per line.
///
/// With ``writeInBackground()``, lines are encoded and written on a thread of its own, in order,
/// so that a fast replay does not wait for its own output.
///
/// Every write is checked: the first that fails is kept in ``failure`` (its `errno`), and later
/// output is dropped. Commands check ``failure`` after their last ``flush()`` and end with exit 74.
/// (With SIGPIPE's default disposition, a reader that goes away ends the process quietly, as it
/// does `cat`; where SIGPIPE is ignored, the write fails with EPIPE and is reported like any other.)
final class Output {
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    private let descriptor: Int32
    private let closes: Bool
    /// How the output is named in messages: `standard output` or the file's path in quotes.
    let name: String
    /// The `errno` of the first write that failed; later output is dropped.
    private(set) var failure: Int32?
    /// Whether a write failed.
    var failed: Bool { failure != nil }
    @exclusivity(unchecked) private var background: BackgroundWriter? {
        didSet { backgroundRef = background.map(Unmanaged.passUnretained) }
    }
    /// `background`, for the per-line path: without the atomic retain and release of the writer
    /// that reading the optional costs (its cache line is shared with the writer thread; `perf record`
    /// on the benchmark case "replay 1000000 events, 3 plugins → /dev/null" shows the pair). `background`
    /// keeps it alive.
    @exclusivity(unchecked) private var backgroundRef: Unmanaged<BackgroundWriter>?

    /// Writes to `descriptor` (standard output by default), named `name` in messages. Standard
    /// output closed at start-up fails at the first write, with EBADF.
    init(descriptor: Int32 = 1, closes: Bool = false, name: String = "standard output") {
        self.descriptor = descriptor
        self.closes = closes
        self.name = name
        if descriptor == 1 && StandardOutput.wasClosed { failure = EBADF }
        buffer.reserveCapacity(1 << 16)
    }

    /// Writes to an ``OutputFile``; the file is committed by its owner.
    convenience init(file: OutputFile) {
        self.init(descriptor: file.descriptor, closes: false, name: file.name)
    }

    /// The error to end a command with, after the last ``flush()``, if a write failed.
    var error: OutputError? { failure.map { .writeFailed(name, $0) } }

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
            if let code = background.finish(), failure == nil { failure = code }
            return
        }
        guard !buffer.isEmpty, failure == nil else {
            buffer.removeAll(keepingCapacity: true)
            return
        }
        failure = Self.write(buffer, to: descriptor)
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

    /// Writes all of `bytes`; the `errno` of the write that failed, if one did.
    fileprivate static func write(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
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
    // The writer thread's until `finish()` has joined it: the errno of the first failed write.
    private var failure: Int32?

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
                    if failure == nil { failure = Output.write(buffer, to: descriptor) }
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            if failure == nil && !buffer.isEmpty { failure = Output.write(buffer, to: descriptor) }
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

    /// Hands over the rest, waits until all is written, and returns the errno of the write that
    /// failed, if one did.
    func finish() -> Int32? {
        if !pending.isEmpty { channel.put(pending) }
        pending = []
        channel.close()
        channel.join()
        return failure
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
