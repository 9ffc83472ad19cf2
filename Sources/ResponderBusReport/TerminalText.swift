/// Text from a log or a console dump, made safe to show on a terminal.
///
/// View ids, messages and class names come from files anyone can write; printed raw, an id such as
/// `x\u{1B}]0;PWNED\u{07}\u{1B}[2J` would set the terminal's title and clear its screen (and OSC 52
/// can write the clipboard in some terminals). Every human-readable line the command prints —
/// the timeline, the summary and every message on standard error — goes through ``escaped(_:)``.
/// JSON output is not touched: it is JSON-escaped already.
package enum TerminalText {
    /// `text` with every control character shown as a Swift escape (`\u{1B}`): C0 controls but
    /// the tab, DEL, C1 controls, the line and paragraph separators, and the bidirectional
    /// overrides and isolates (which can make text read differently from what it is).
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` escaped line by line (``escaped(_:)``): its line breaks (`\n`, `\r\n`) stay real ones,
    /// each followed by `indent`, so that a message of several lines prints as several lines.
    package static func escapedLines(_ text: String, indent: String = "") -> String {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
            .map { escaped(String($0)) }.joined(separator: "\n" + indent)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
