import ResponderBusPlatform

/// Colour on standard output, only where a person reads it: a terminal (`isatty`), not `TERM=dumb`,
/// and no `NO_COLOR` (no-color.org); `CLICOLOR_FORCE` set to anything but `0` asks for it even
/// through a pipe (a CI log that shows colour), unless `NO_COLOR` is set. Applied after the text is
/// made safe (`TerminalText`): the escapes are the command's own, never the log's.
enum TerminalColour {
    /// Whether standard output takes colour, decided once.
    static let isEnabled: Bool = decide(isTerminal: isatty(1) == 1, environment: environment)

    /// The rule, apart from the process's state.
    static func decide(isTerminal: Bool, environment: [String: String]) -> Bool {
        if let none = environment["NO_COLOR"], !none.isEmpty { return false }
        if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" { return true }
        return isTerminal && environment["TERM"] != "dumb"
    }

    private static var environment: [String: String] {
        var values: [String: String] = [:]
        for name in ["NO_COLOR", "CLICOLOR_FORCE", "TERM"] {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }

    /// Red and bold: a failure.
    static let failure = "\u{1B}[1;31m"
    /// Yellow: a warning, an expected failure.
    static let warning = "\u{1B}[33m"
    /// Green: a pass.
    static let pass = "\u{1B}[32m"
    private static let reset = "\u{1B}[0m"

    /// `text` in `colour` when colour is on.
    static func paint(_ text: some StringProtocol, _ colour: String, enabled: Bool = isEnabled) -> String {
        enabled ? colour + text + reset : String(text)
    }

    /// A `test` verdict line with its label coloured: `FAIL`, `UNREADABLE` and `XPASS` red, `xfail`
    /// yellow, `pass` green; the rest of the line as it is.
    static func verdict(_ line: String, enabled: Bool = isEnabled) -> String {
        guard enabled, let space = line.firstIndex(of: " ") else { return line }
        let label = line[..<space]
        let colour: String
        switch label {
        case "FAIL", "UNREADABLE", "XPASS": colour = failure
        case "xfail": colour = warning
        case "pass": colour = pass
        default: return line
        }
        return paint(label, colour, enabled: true) + line[space...]
    }

    /// A timeline line with its alarm coloured: `⚠ covered` red, a diagnostic's `warning:` and
    /// `error:` yellow and red.
    static func timeline(_ line: String, enabled: Bool = isEnabled) -> String {
        guard enabled else { return line }
        for (mark, colour) in [("⚠ covered", failure), ("diagnostic error:", failure), ("diagnostic warning:", warning)] {
            if let range = line.firstRange(of: mark) {
                return String(line[..<range.lowerBound]) + paint(line[range], colour, enabled: true) + line[range.upperBound...]
            }
        }
        return line
    }
}
