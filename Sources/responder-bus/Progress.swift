import ResponderBusPlatform

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
