/// A line of a log that could not be read, with where and why.
///
/// Shaped like swift-service-lifecycle's errors: a code to switch on (equality compares the code
/// only), and a message for people that says what was wrong, where, and what to do.
public struct LogReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String

        /// The line is not valid JSON.
        public static let malformedJSON = Code(name: "malformedJSON")
        /// The file ends in the middle of a record.
        public static let truncatedLine = Code(name: "truncatedLine")
        /// Line 1 is not a `responder-bus-log` header.
        public static let missingHeader = Code(name: "missingHeader")
        /// The header's `version` is newer than this reader.
        public static let unsupportedVersion = Code(name: "unsupportedVersion")
        /// A field has the wrong JSON type.
        public static let wrongType = Code(name: "wrongType")
        /// A required field is missing.
        public static let missingField = Code(name: "missingField")
        /// A value is out of range: NaN, infinite, a negative duration, time going backwards, a time
        /// too large to replay, a view id used twice in one scene.
        public static let invalidValue = Code(name: "invalidValue")
        /// A record names a view the scene does not have.
        public static let unknownView = Code(name: "unknownView")
        /// A record names a view the model cannot use that way: editing begun on a view that is not
        /// a text field or text view.
        public static let notATextInput = Code(name: "notATextInput")
        /// A view's `kind` is not one this reader knows. A warning: the view is kept, as a plain
        /// view that remembers the kind (`ViewSpec.unrecognizedKind`), and the record is read.
        public static let unknownViewKind = Code(name: "unknownViewKind")
        /// The `event` is not one the format knows.
        public static let unknownEvent = Code(name: "unknownEvent")
        /// A string is not valid UTF-8.
        public static let invalidUTF8 = Code(name: "invalidUTF8")
        /// The line is longer than the reader accepts: it is skipped (in a lenient replay, reading
        /// goes on after it).
        public static let lineTooLong = Code(name: "lineTooLong")
        /// A line longer than the reader accepts, and no newline within a further gigabyte: the
        /// input is no log (an endless stream, a binary file). Reading stops there.
        public static let endlessLine = Code(name: "endlessLine")
        /// A value the reader accepts but no real session holds: a keyboard event's `duration`
        /// longer than ``LogLimits/longestKeyboardAnimation`` (usually milliseconds, `250` for
        /// 0.25 s). A warning: the record is read as written, after it.
        public static let implausibleValue = Code(name: "implausibleValue")
        /// The file is empty.
        public static let emptyFile = Code(name: "emptyFile")
        /// The input cannot be opened or read (missing, a directory, no permission).
        public static let unreadable = Code(name: "unreadable")
        /// A live replay that allows lateness had moved past the record's `t` when it arrived: the
        /// record was posted all the same, at the replay's time, never before what was already
        /// decided. A warning. (Without allowed lateness a live replay waits, and no record is late.)
        public static let lateRecord = Code(name: "lateRecord")

        /// The code's name.
        public var description: String { name }
    }

    /// The kind of problem.
    public let code: Code
    /// The 1-based line, 0 when the problem is with the input as a whole.
    public let line: Int
    /// The 1-based column (in bytes), 0 when not applicable.
    public let column: Int
    /// What was wrong and what to do.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, line: Int, column: Int, _ message: String) {
        self.code = code
        self.line = line
        self.column = column
        self.message = message
    }

    /// Whether this is a warning about a line that was read all the same (``Code/unknownViewKind``,
    /// ``Code/lateRecord``, ``Code/implausibleValue``):
    /// a lenient replay reports it and goes on with the record; a strict one stops.
    public var isWarning: Bool { code == .unknownViewKind || code == .lateRecord || code == .implausibleValue }

    /// Whether the problem ended the read (a line with no newline in sight, a read that failed):
    /// nothing after it was read, so a replay stops there, strict or not.
    public var endsReading: Bool { code == .endlessLine || code == .unreadable }

    /// `line L, column C: message`.
    public var description: String {
        if line == 0 { return message }
        if column == 0 { return "line \(line): \(message)" }
        return "line \(line), column \(column): \(message)"
    }

    /// Compares by code only.
    public static func == (a: Self, b: Self) -> Bool { a.code == b.code }
    /// Hashes the code only.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
