import ResponderBus
import ResponderBusPlatform

/// Reads a v1 log as a stream: constant memory whatever the log's size.
///
/// ```swift
/// let reader = try LogReader(path: "session.jsonl")
/// let header = try reader.readHeader()
/// while let item = reader.next() {
///     switch item {
///     case .record(let record, let location): print(location.line, record.event.name)
///     case .problem(let error): print(error)        // "line 7, column 12: …"; reading goes on
///     }
/// }
/// ```
///
/// Every rejected line comes back as a ``Item/problem(_:)`` naming its line, column and reason,
/// and reading goes on with the next line: whether to stop (`--strict`) is the caller's choice.
/// A line longer than ``maxLineLength`` is a ``LogReadError/Code/lineTooLong`` problem as soon as
/// the limit is passed, holding no more than the limit; the rest of it is skipped, and reading goes
/// on after it. One with no newline within a further gigabyte (an endless stream, a binary file)
/// ends the read with ``LogReadError/Code/endlessLine``, and a read that fails ends it with
/// ``LogReadError/Code/unreadable``.
/// Check ``LogReadError/endsReading``. A UTF-8 byte-order mark before the header is skipped. Blank
/// lines are skipped. Times must not go backwards.
public final class LogReader {
    /// One step of the stream.
    public enum Item: Sendable {
        /// A record, with where it came from.
        case record(LogRecord, RecordLocation)
        /// A line that was rejected.
        case problem(LogReadError)
    }

    /// The longest line accepted, in bytes (``LogLimits/maximumLineLength``, 64 MiB, by default).
    public let maxLineLength: Int
    /// The input's size in bytes when known (a regular file), for progress.
    public let totalBytes: Int?

    /// How many bytes have been consumed so far.
    public var bytesConsumed: Int { state.lines.bytesConsumed }
    /// The number of the last line read.
    public var lineNumber: Int { state.lines.lineNumber }
    /// Whether the input may still grow (`tail -f`): at its current end, ``next()`` returns `nil`
    /// without treating an unfinished last line as cut off, and a later ``next()`` reads what was
    /// appended since.
    public var follows: Bool {
        get { state.lines.follows }
        set { state.lines.follows = newValue }
    }

    /// Everything reading changes, as one value. A reader is used by one thread at a time (the
    /// replay hands it to its read-ahead thread and takes it back).
    private var state: State

    /// Opens a log file (`-` for standard input).
    ///
    /// - Throws: ``LogReadError/Code/unreadable`` when the file is missing, is a directory or cannot
    ///   be read.
    public convenience init(path: String, maxLineLength: Int = LogLimits.maximumLineLength) throws(LogReadError) {
        try self.init(path: SystemPath(path), maxLineLength: maxLineLength)
    }

    /// Opens a log file by its bytes (a name that is not UTF-8 included; `-` for standard input).
    ///
    /// - Throws: ``LogReadError/Code/unreadable`` when the file is missing, is a directory or a
    ///   device, or cannot be read.
    public convenience init(path: SystemPath, maxLineLength: Int = LogLimits.maximumLineLength) throws(LogReadError) {
        let (source, size) = try ByteSource.open(path: path)
        self.init(source: source, size: size, maxLineLength: maxLineLength)
    }

    /// Reads a log held in memory.
    public convenience init(bytes: [UInt8], maxLineLength: Int = LogLimits.maximumLineLength) {
        self.init(source: .memory(bytes), size: bytes.count, maxLineLength: maxLineLength)
    }

    /// Reads a log from an open file descriptor, which the reader does not close.
    public convenience init(fileDescriptor: Int32, maxLineLength: Int = LogLimits.maximumLineLength) {
        self.init(source: .file(descriptor: fileDescriptor, owned: false), size: nil, maxLineLength: maxLineLength)
    }

    /// Reads records held in memory, as if from a log with `header` and one record per line (what
    /// the console importer returns, replayed without writing it out as text). The records are
    /// taken in time order (those with the same `t` in the order given); record *n* (from 1) is
    /// reported at line *n* + 1, after the header. A record the format does not allow — a `t` or a
    /// keyboard duration that is negative, not finite or beyond ``LogLimits/maximumSeconds``, a
    /// derived record without its plugin's name — is a problem at its line, as it would be in text;
    /// a keyboard animation longer than ``LogLimits/longestKeyboardAnimation`` is a warning before
    /// its record, as in text.
    ///
    /// - Parameters:
    ///   - header: what ``readHeader()`` returns.
    ///   - records: the records, external and derived.
    public convenience init(header: LogHeader, records: [LogRecord]) {
        self.init(source: .memory([]), size: nil, maxLineLength: LogLimits.maximumLineLength)
        let ordered = records.enumerated().sorted { $0.element.t < $1.element.t || ($0.element.t == $1.element.t && $0.offset < $1.offset) }
        state.given = GivenRecords(header: header, records: ordered.map(\.element))
    }

    private init(source: ByteSource, size: Int?, maxLineLength: Int) {
        self.totalBytes = size
        self.maxLineLength = maxLineLength
        state = State(lines: LineSplitter(source: source, maxLineLength: maxLineLength))
    }

    deinit {
        if case .file(let descriptor, true) = state.lines.source { close(descriptor) }
    }

    // MARK: Header

    /// Reads and checks line 1.
    ///
    /// - Throws: ``LogReadError/Code/emptyFile``, ``LogReadError/Code/missingHeader`` (not a
    ///   `responder-bus-log` header), ``LogReadError/Code/unsupportedVersion`` (a newer version), or
    ///   the problem with the line.
    public func readHeader() throws(LogReadError) -> LogHeader {
        try state.readHeader()
    }

    private static func header(from parser: inout RecordParser) throws(LogReadError) -> LogHeader {
        var fields = RawFields()
        try parser.parseFields(into: &fields)
        guard let format = fields.format.map({ parser.string($0) }), format == LogHeader.formatName else {
            let found =
                fields.event.map { "a '\(parser.string($0))' record" }
                ?? (fields.format.map { "format '\(parser.string($0))'" } ?? "no \"format\" field")
            throw parser.error(
                .missingHeader, at: 0, "line 1 must be the header {\"format\":\"responder-bus-log\",\"version\":1,\"screen\":{…}}, found \(found)")
        }
        guard let version = fields.version else {
            throw parser.error(.missingField, at: 0, "the header has no \"version\"; this reader reads version 1")
        }
        guard version <= LogHeader.currentVersion else {
            throw parser.error(
                .unsupportedVersion, at: fields.versionColumn - 1,
                "this log is version \(version), written by a newer responder-bus; this one reads version \(LogHeader.currentVersion): upgrade responder-bus"
            )
        }
        guard version >= 1 else {
            throw parser.error(.invalidValue, at: fields.versionColumn - 1, "version \(version) does not exist; the first version is 1")
        }
        guard let screen = fields.screen else {
            throw parser.error(.missingField, at: 0, "the header has no \"screen\" {\"width\":…,\"height\":…}")
        }
        guard screen.width > 0, screen.height > 0 else {
            throw parser.error(.invalidValue, at: 0, "the screen must have a positive width and height, found \(screen)")
        }
        return LogHeader(
            screen: screen, safeArea: fields.safeArea, version: version, screenSource: fields.screenSource.map { parser.string($0) },
            device: fields.device.map { parser.string($0) })
    }

    // MARK: Records

    /// The next record or rejected line, or `nil` at the end of the input. Reads the header first if
    /// ``readHeader()`` was not called (a bad header is then the first problem).
    public func next() -> Item? {
        state.next()
    }

    /// Reads up to `limit` items, handing each to `body` in order, and returns how many it read
    /// (fewer at the end of the input). What ``next()`` does `limit` times, in one access to the
    /// reader's state rather than one per item; `body` must not use this reader.
    func next(upTo limit: Int, _ body: (consuming Item) -> Void) -> Int {
        Self.next(&state, upTo: limit, body)
    }

    private static func next(_ state: inout State, upTo limit: Int, _ body: (consuming Item) -> Void) -> Int {
        var count = 0
        while count < limit, let item = state.next() {
            body(item)
            count += 1
        }
        return count
    }

    /// The header and records of a reader of records in memory, and how many were handed out.
    final class GivenRecords {
        let header: LogHeader
        let records: [LogRecord]
        var taken = 0
        /// A record held back while the warning about it is handed out.
        private var held: Item?

        init(header: LogHeader, records: [LogRecord]) {
            self.header = header
            self.records = records
        }

        /// The next record, at line *n* + 1 for record *n*; a record the log format does not allow
        /// (a time or a duration that cannot be replayed, a derived record without its plugin's
        /// name) is a problem there instead, as its line would be.
        func next() -> Item? {
            if isHolding { return releaseHeld() }
            guard taken < records.count else { return nil }
            let record = records[taken]
            taken += 1
            let item = Self.item(record, line: taken + 1)
            // One comparison for most records: the warning is looked for only past the bound.
            if Self.animatesLong(record), case .record = item, let warning = Self.warning(about: record, line: taken + 1) {
                held = item
                isHolding = true
                return .problem(warning)
            }
            return item
        }

        /// Whether an item is held (a flag: read for every record, without the optional's copy).
        private var isHolding = false

        @inline(never)
        private func releaseHeld() -> Item? {
            isHolding = false
            defer { held = nil }
            return held
        }

        /// Whether `record` is a keyboard event whose animation is longer than
        /// ``LogLimits/longestKeyboardAnimation``.
        @inline(__always)
        static func animatesLong(_ record: LogRecord) -> Bool {
            guard case .keyboard(_, let info) = record.event, let duration = info.duration else { return false }
            return duration > LogLimits.longestKeyboardAnimation
        }

        /// The warning the reader gives before `record` read at line `line`, if any: a keyboard
        /// animation longer than any real one (``LogLimits/longestKeyboardAnimation``).
        static func warning(about record: LogRecord, line: Int) -> LogReadError? {
            guard case .keyboard(_, let info) = record.event, let duration = info.duration, duration > LogLimits.longestKeyboardAnimation,
                duration <= LogLimits.maximumSeconds
            else { return nil }
            return LogReadError(.implausibleValue, line: line, column: 0, LogLimits.implausibleDurationMessage(duration))
        }

        /// `record` as the item of line `line`: the record, or the problem the reader would find
        /// in its line (for records that did not come from a line: in memory, or pushed into a
        /// live replay).
        static func item(_ record: LogRecord, line: Int) -> Item {
            if case .keyboard(let name, _) = record.event, !name.isBuiltinKeyboardEvent {
                let message = "unknown event '\(name.rawValue)'; skipped (not a keyboard event of the log format)"
                return .problem(LogReadError(.unknownEvent, line: line, column: 0, message))
            }
            if let problem = Self.problem(with: record) {
                return .problem(LogReadError(.invalidValue, line: line, column: 0, problem))
            }
            return .record(record, RecordLocation(line: line, viewColumn: record.event.viewID == nil ? nil : 1))
        }

        /// What the reader would say of `record`'s line, if anything.
        private static func problem(with record: LogRecord) -> String? {
            let t = record.t
            guard t.isFinite, t >= 0 else { return "t is \(t); times count from the start of the log, in seconds" }
            guard t <= LogLimits.maximumSeconds else {
                return "t is \(t), beyond what can be replayed (at most \(Int(LogLimits.maximumSeconds)) seconds); is it in milliseconds?"
            }
            if case .keyboard(_, let info) = record.event, let duration = info.duration,
                !(duration.isFinite && duration >= 0 && duration <= LogLimits.maximumSeconds)
            {
                return "a duration of \(duration) seconds cannot be replayed; durations are seconds, 0 or more"
            }
            if case .derived(let by) = record.origin, by.isEmpty {
                return "a derived record needs \"by\": the plugin that derived it"
            }
            return nil
        }
    }

    /// What reading changes: the lines, whether the header was read, and the last record's time.
    private struct State {
        /// The next record of a reader of records in memory.
        private mutating func nextGiven() -> Item? {
            headerDone = true
            return given?.next()
        }

        var lines: LineSplitter
        var headerDone = false
        var lastT = 0.0
        /// Items of the last line still to hand out: its record, after the warnings about it.
        var queued: [Item] = []
        /// The header and records of a reader of records in memory (a reference: the check for it
        /// on every line is one comparison).
        var given: GivenRecords?

        mutating func readHeader() throws(LogReadError) -> LogHeader {
            precondition(!headerDone, "readHeader() called twice")
            headerDone = true
            if let given { return given.header }
            guard let line = lines.nextLine() else {
                throw LogReadError(
                    .emptyFile, line: 0, column: 0,
                    "the log is empty; a v1 log starts with a header line such as {\"format\":\"responder-bus-log\",\"version\":1,\"screen\":{\"width\":375,\"height\":812}}"
                )
            }
            switch line {
            case .tooLong, .endless, .failed: throw lines.endingError(line)
            case .chunk, .pending: break
            }
            let number = lines.lineNumber
            let result = lines.withBytes(of: line) { (bytes, endsFile) -> Result<LogHeader, LogReadError> in
                // A UTF-8 byte-order mark, which some editors put at the start of a file, is skipped.
                let bom = number == 1 && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
                var parser = RecordParser(bom ? bytes.dropFirst(3) : bytes, line: number, endsFile: endsFile)
                do throws(LogReadError) {
                    return .success(try LogReader.header(from: &parser))
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let header): return header
            case .failure(let error):
                if error.code == .malformedJSON || error.code == .truncatedLine || error.code == .invalidUTF8 {
                    throw LogReadError(.missingHeader, line: error.line, column: error.column, "line 1 is not a header: \(error.message)")
                }
                throw error
            }
        }

        mutating func next() -> Item? {
            if !queued.isEmpty { return queued.removeFirst() }
            if given != nil { return nextGiven() }
            if !headerDone {
                do {
                    _ = try readHeader()
                } catch {
                    return .problem(error)
                }
            }
            guard let line = lines.nextLine() else { return nil }
            switch line {
            case .tooLong, .endless, .failed: return .problem(lines.endingError(line))
            case .chunk, .pending: break
            }
            let number = lines.lineNumber
            return lines.withBytes(of: line) { (bytes, endsFile) in
                var parser = RecordParser(bytes, line: number, endsFile: endsFile)
                do throws(LogReadError) {
                    let item = try LogReader.record(from: &parser, after: &lastT)
                    if let warnings = parser.extras?.warnings, !warnings.isEmpty {
                        // The warnings first, in column order, then the record they are about.
                        queued = warnings.dropFirst().map { .problem($0) } + [item].compactMap { $0 }
                        return .problem(warnings[0])
                    }
                    return item
                } catch {
                    return .problem(error)
                }
            }
        }
    }

    /// The record on the parser's line, as the stream's next item (returned whole rather than as a
    /// tuple to wrap: the value is large, and each layer copied it). `lastT` is the time of the
    /// previous record, and becomes this record's.
    @inline(__always)
    static func record(from parser: inout RecordParser, after lastT: inout Double) throws(LogReadError) -> Item? {
        var fields = RawFields()
        try parser.parseFields(into: &fields)
        guard let event = fields.event else {
            if fields.format != nil {
                throw parser.error(.invalidValue, at: 0, "a second header; a log has one header, on line 1")
            }
            throw parser.error(.missingField, at: 0, "the record has no \"event\"")
        }
        guard let t = fields.t else {
            throw parser.error(.missingField, at: 0, "the '\(parser.string(event))' record has no \"t\" (seconds from the start of the log)")
        }
        guard t >= 0 else { throw parser.error(.invalidValue, at: 0, "t is negative (\(t)); times count from the start of the log") }
        guard t <= LogLimits.maximumSeconds else {
            throw parser.error(
                .invalidValue, at: fields.tColumn - 1,
                "t is \(t), beyond what can be replayed (at most \(Int(LogLimits.maximumSeconds)) seconds); is it in milliseconds? times are seconds from the start of the log"
            )
        }
        guard t >= lastT else {
            throw parser.error(.invalidValue, at: 0, "t goes back from \(lastT) to \(t); records must be in time order")
        }
        var origin = EventOrigin.external
        if let originRef = fields.origin, !parser.matches(originRef, "external") {
            guard parser.matches(originRef, "derived") else {
                throw parser.error(
                    .invalidValue, at: originRef.quote, "unknown origin '\(parser.string(originRef))'; expected \"external\" or \"derived\"")
            }
            let by = fields.by.map { parser.string($0) }
            guard let by, !by.isEmpty else {
                throw parser.error(.missingField, at: originRef.quote, "a derived record needs \"by\": the plugin that derived it")
            }
            origin = .derived(by: by)
        }
        let logEvent = try makeEvent(event, &fields, &parser)
        lastT = t
        return .record(LogRecord(t: t, event: logEvent, origin: origin), RecordLocation(line: parser.line, viewColumn: fields.view?.column))
    }

    /// Rejects a negative duration, and one too long to be replayed; warns of a keyboard
    /// animation longer than any real one. A duration from 0 to
    /// ``LogLimits/longestKeyboardAnimation``, the common one, costs the two comparisons it always
    /// did: the test against ``LogLimits/maximumSeconds`` moved out of line, behind the new bound.
    @inline(__always)
    private static func checkDuration(_ f: RawFields, _ parser: inout RecordParser, keyboard: Bool = false) throws(LogReadError) {
        guard let duration = f.duration else { return }
        if duration < 0 {
            throw parser.error(.invalidValue, at: f.durationColumn - 1, "a negative duration (\(duration)); durations are seconds, 0 or more")
        }
        if duration > LogLimits.longestKeyboardAnimation {
            try longDuration(duration, column: f.durationColumn, &parser, keyboard: keyboard)
        }
    }

    /// A duration longer than any keyboard animation: rejected beyond what can be replayed, and
    /// read with a warning on a keyboard event (a plugin's shift may be as slow as it likes).
    @inline(never)
    private static func longDuration(_ duration: Double, column: Int, _ parser: inout RecordParser, keyboard: Bool) throws(LogReadError) {
        if duration > LogLimits.maximumSeconds {
            throw parser.error(
                .invalidValue, at: column - 1,
                "a duration of \(duration) seconds, beyond what can be replayed (at most \(Int(LogLimits.maximumSeconds))); is it in milliseconds? durations are seconds"
            )
        }
        if keyboard {
            parser.lineExtras().warnings.append(parser.error(.implausibleValue, at: column - 1, LogLimits.implausibleDurationMessage(duration)))
        }
    }

    /// The event the fields describe. `f` is only read; it is `inout` because the fields (650 bytes)
    /// were copied for every record when passed by value from the `var` they were parsed into.
    @inline(__always)
    private static func makeEvent(_ event: StringRef, _ f: inout RawFields, _ parser: inout RecordParser) throws(LogReadError) -> LogEvent {
        func missing(_ field: String) -> LogReadError {
            parser.error(.missingField, at: 0, "'\(parser.string(event))' needs \"\(field)\"")
        }
        func require<T>(_ value: T?, _ field: String) throws(LogReadError) -> T {
            guard let value else { throw missing(field) }
            return value
        }
        func requireView() throws(LogReadError) -> ViewID {
            guard let view = f.view else { throw missing("view") }
            return ViewID(parser.string(view))
        }
        guard let kind = f.eventKind ?? parser.eventKind(event) else {
            throw parser.error(
                .unknownEvent, at: event.quote,
                "unknown event '\(parser.string(event))'; skipped (the format knows \(LogEvent.knownNames.sorted().joined(separator: ", ")))")
        }
        if kind.isKeyboard {
            try checkDuration(f, &parser, keyboard: true)
            let info = KeyboardInfo(begin: f.begin, end: f.end, duration: f.duration, curve: f.curve, isLocal: f.isLocal)
            return .keyboard(EventName(builtin: kind), info)
        }
        switch kind {
        case .didBeginEditing: return .didBeginEditing(EditingInfo(view: try requireView()))
        case .didEndEditing: return .didEndEditing(EditingInfo(view: try requireView()))
        case .returnKey: return .returnKey(ReturnKeyInfo(view: try requireView()))
        case .scene:
            return .scene(SceneInfo(root: try require(parser.extras?.root, "root"), lastFieldAction: f.lastFieldAction.map { parser.string($0) }))
        case .setFrame:
            let view = try requireView()
            return .setFrame(FrameChange(view: view, frame: try require(f.frame, "frame")))
        case .screen:
            let width = try require(f.width, "width")
            let height = try require(f.height, "height")
            guard width > 0, height > 0 else { throw parser.error(.invalidValue, at: 0, "a screen needs a positive width and height") }
            return .screen(ScreenChange(width: width, height: height, safeArea: f.safeArea))
        case .viewShift:
            try checkDuration(f, &parser)
            return .viewShift(ViewShift(originY: try require(f.originY, "originY"), duration: f.duration ?? 0.25, curve: f.curve ?? 7))
        case .scroll:
            let view = try requireView()
            return .scroll(
                ScrollChange(
                    view: view, contentOffsetY: try require(f.contentOffsetY, "contentOffsetY"),
                    bottomInset: try require(f.bottomInset, "bottomInset")))
        case .focusChange:
            return .focusChange(FocusChange(from: f.from.map { ViewID(parser.string($0)) }, to: f.to.map { ViewID(parser.string($0)) }))
        case .action: return .action(ActionInfo(name: parser.string(try require(f.name, "name"))))
        case .resign: return .resign(ResignInfo(view: try requireView()))
        case .viewSettings:
            let view = try requireView()
            if let distance = f.keyboardDistance, !(distance.isFinite && distance >= 0) {
                throw parser.error(
                    .invalidValue, at: f.keyboardDistanceColumn - 1,
                    "a keyboardDistance of \(distance); a gap is 0 points or more, or null for the default")
            }
            return .viewSettings(
                ViewSettings(
                    view: view, keyboardDistance: f.keyboardDistance, avoidsKeyboard: f.avoidsKeyboard ?? true,
                    followsKeyboard: f.followsKeyboard ?? false))
        case .viewMove:
            try checkDuration(f, &parser)
            let view = try requireView()
            return .viewMove(ViewMove(view: view, frame: try require(f.frame, "frame"), duration: f.duration ?? 0.25, curve: f.curve ?? 7))
        case .diagnostic:
            let levelRef = try require(f.level, "level")
            let text = parser.string(levelRef)
            guard let level = Diagnostic.Level(rawValue: text) else {
                throw parser.error(.invalidValue, at: levelRef.quote, "unknown level '\(text)'; expected info, warning or error")
            }
            return .diagnostic(
                Diagnostic(
                    level: level, message: f.message.map { parser.string($0) } ?? "", views: parser.extras?.views ?? [],
                    metadata: parser.extras?.metadata ?? [:]))
        default:
            // The keyboard's events are read above; `turnSettled` is in no log, so no look-up finds it.
            preconditionFailure("\(kind) is not read here")
        }
    }
}

/// Where a record came from in its log.
public struct RecordLocation: Hashable, Sendable {
    /// The 1-based line.
    public var line: Int
    /// The 1-based column of the record's `view` value, when it has one.
    public var viewColumn: Int?

    /// Creates a location.
    public init(line: Int, viewColumn: Int? = nil) {
        self.line = line
        self.viewColumn = viewColumn
    }
}
