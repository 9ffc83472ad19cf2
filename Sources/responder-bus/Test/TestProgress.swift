import ResponderBusPlatform

/// The progress line `responder-bus test` keeps on a terminal's standard error: sessions done,
/// failures, rate and time left, redrawn at most ten times a second.
final class TestProgress {
    private let total: Int
    private let enabled: Bool
    private let start = monotonicSeconds()
    private var lastDraw = 0.0
    private var shown = false

    init(total: Int, enabled: Bool = isatty(2) == 1) {
        self.total = total
        self.enabled = enabled && total > 1
    }

    func update(done: Int, failed: Int) {
        guard enabled else { return }
        let now = monotonicSeconds()
        guard done == total || now - lastDraw >= 0.1 else { return }
        lastDraw = now
        let elapsed = max(now - start, 1e-9)
        let rate = Double(done) / elapsed
        let left = rate > 0 ? Double(total - done) / rate : 0
        let width = 24
        let filled = total == 0 ? width : width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let line =
            "[\(bar)] \(done)/\(total) sessions, \(failed) failed, \(Self.rate(rate))/s, ETA \(Self.duration(left))"
        writeStandardError("\r\u{1B}[2K" + line)
        shown = true
    }

    /// Clears the line, before other output and at the end.
    func clear() {
        guard shown else { return }
        writeStandardError("\r\u{1B}[2K")
        shown = false
    }

    static func rate(_ value: Double) -> String {
        value >= 100 ? String(Int(value.rounded())) : String(Double(Int(value * 10)) / 10)
    }

    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "?" }
        let whole = Int(seconds.rounded(.up))
        return whole >= 60 ? "\(whole / 60)m\(whole % 60)s" : "\(whole)s"
    }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
