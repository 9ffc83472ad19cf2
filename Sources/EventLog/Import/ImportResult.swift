import ResponderBus

/// What ``ConsoleImporter`` made of a console dump: a v1 log (header and records) and what it
/// could not read.
public struct ImportResult: Hashable, Sendable {
    /// The log's header. When ``isEmpty`` is `true` and no screen was given, its screen is `0×0` and
    /// its `screenSource` is `nil`: there is no log to write.
    public var header: LogHeader
    /// The imported events in dump order, with times; a `scene` record first when the dump has
    /// editing notifications (see ``ConsoleImporter``).
    public var records: [LogRecord]
    /// What could not be read, in dump order; problems about the whole dump (line 0) come last.
    public var problems: [ImportProblem]

    /// Creates a result.
    public init(header: LogHeader, records: [LogRecord], problems: [ImportProblem]) {
        self.header = header
        self.records = records
        self.problems = problems
    }

    /// Whether nothing could be imported (the CLI exits 65): ``problems`` then says why, with an
    /// ``ImportProblem/Kind/nothingImportable`` or ``ImportProblem/Kind/screenUnknown`` problem.
    public var isEmpty: Bool { records.isEmpty }
}

/// Something in a console dump the importer could not read, and where.
public struct ImportProblem: Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A notification's userInfo or a frame stops before its end (the dump is cut off there, or
        /// other text follows it); the notifications it belonged to are skipped.
        case truncated
        /// A value the log needs (a frame, the duration, the curve, `isLocal`) cannot be read; the
        /// notification is skipped.
        case unreadableValue
        /// Text between userInfo entries that is not an entry (what is left of an edited or garbled
        /// line); it is ignored and the entries around it are kept.
        case strayText
        /// A frame that is not finite (`{{inf, inf}, {0, 0}}`, CGRectNull): the log format cannot
        /// hold it, so the notification is imported without that frame.
        case unrepresentableFrame
        /// An NSLog timestamp earlier than the one before it; the dump order is kept and the time
        /// is held at the previous one.
        case timeWentBack
        /// An NSLog timestamp more than ``LogLimits/maximumSeconds`` after the dump's first one (a
        /// garbled date, most likely): a log cannot replay it, so the time is held at the previous
        /// one.
        case timeTooLate
        /// Notifications were found but no `--screen` was given and no docked keyboard frame shows
        /// the screen; nothing is imported.
        case screenUnknown
        /// No keyboard notification, userInfo dump or editing notification was found.
        case nothingImportable
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The 1-based line of the dump (every line counts, `#` annotations included); 0 when the
    /// problem is about the dump as a whole.
    public var line: Int
    /// The 1-based column in characters (Unicode scalars), when it makes sense.
    public var column: Int?
    /// What was wrong, quoting the text, and what was done about it.
    public var message: String

    /// Creates a problem.
    public init(kind: Kind, line: Int, column: Int? = nil, message: String) {
        self.kind = kind
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line L, column C: message`, `line L: message`, or the message alone for line 0.
    public var description: String {
        if line == 0 { return message }
        if let column { return "line \(line), column \(column): \(message)" }
        return "line \(line): \(message)"
    }
}
