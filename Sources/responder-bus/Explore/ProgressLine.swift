import ResponderBusPlatform

/// A line on standard error that a long run rewrites in place, only when standard error is a
/// terminal.
final class ProgressLine {
    private let enabled = isatty(2) == 1
    private var shown = false

    /// Shows `text` in place of the last line.
    func show(_ text: String) {
        guard enabled else { return }
        shown = true
        writeStandardError("\r\u{1B}[K" + text)
    }

    /// Clears the line.
    func finish() {
        guard shown else { return }
        writeStandardError("\r\u{1B}[K")
    }
}
