import EventLog

#if canImport(Glibc)
import Glibc
#endif

/// Buffered writing to standard output (or a file): one `write(2)` per 64 KiB, not per line.
final class Output {
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    private let descriptor: Int32
    private let closes: Bool
    /// Whether a write failed (a closed pipe): later output is dropped.
    private(set) var failed = false

    init(descriptor: Int32 = 1, closes: Bool = false) {
        self.descriptor = descriptor
        self.closes = closes
        buffer.reserveCapacity(1 << 16)
    }

    func line(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes a record as a log line, encoded straight into the buffer.
    func line(_ record: LogRecord) {
        LogWriter.append(record, to: &buffer)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty, !failed else {
            buffer.removeAll(keepingCapacity: true)
            return
        }
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                failed = true
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit {
        flush()
        if closes { close(descriptor) }
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
