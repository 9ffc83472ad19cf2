import ResponderBus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
/// Lines longer than ``maxLineLength`` are rejected without being held in memory. Blank lines are
/// skipped. Times must not go backwards.
public final class LogReader {
    /// One step of the stream.
    public enum Item: Sendable {
        /// A record, with where it came from.
        case record(LogRecord, RecordLocation)
        /// A line that was rejected.
        case problem(LogReadError)
    }

    /// The longest line accepted, in bytes (1 MiB by default; a scene with thousands of views fits).
    public let maxLineLength: Int
    /// The input's size in bytes when known (a regular file), for progress.
    public let totalBytes: Int?

    // The reader's state is read and written several times for every line. A reader is used from
    // one thread at a time (it is not Sendable), and no two accesses to one of these properties
    // overlap: the only accesses that span a call are the reads of `chunk` or `pending` around the
    // parse of a line (`withUnsafeBufferPointer`; the parse touches neither, only `lineNumber` and
    // `lastT`), the write of `lastT` through the parse (`inout`), and the write of `chunk` around
    // `read(2)`; none of them calls code outside this file. So the run-time exclusivity checks (a
    // `swift_beginAccess` call per access) are turned off for them.

    /// How many bytes have been consumed so far.
    @exclusivity(unchecked) public private(set) var bytesConsumed = 0
    /// The number of the last line read.
    @exclusivity(unchecked) public private(set) var lineNumber = 0
    /// Whether the input may still grow (`tail -f`): at its current end, ``next()`` returns `nil`
    /// without treating an unfinished last line as cut off, and a later ``next()`` reads what was
    /// appended since.
    @exclusivity(unchecked) public var follows = false

    private var source: ByteSource
    @exclusivity(unchecked) private var chunk: [UInt8]
    @exclusivity(unchecked) private var chunkStart = 0
    @exclusivity(unchecked) private var chunkEnd = 0
    @exclusivity(unchecked) private var pending: [UInt8] = []
    @exclusivity(unchecked) private var pendingTooLong = false
    @exclusivity(unchecked) private var reachedEnd = false
    @exclusivity(unchecked) private var headerDone = false
    @exclusivity(unchecked) private var lastT = 0.0

    private static let chunkSize = 1 << 16

    /// Opens a log file (`-` for standard input).
    ///
    /// - Throws: ``LogReadError/Code/unreadable`` when the file is missing, is a directory or cannot
    ///   be read.
    public convenience init(path: String, maxLineLength: Int = 1 << 20) throws(LogReadError) {
        let (source, size) = try ByteSource.open(path: path)
        self.init(source: source, size: size, maxLineLength: maxLineLength)
    }

    /// Reads a log held in memory.
    public convenience init(bytes: [UInt8], maxLineLength: Int = 1 << 20) {
        self.init(source: .memory(bytes), size: bytes.count, maxLineLength: maxLineLength)
    }

    /// Reads a log from an open file descriptor, which the reader does not close.
    public convenience init(fileDescriptor: Int32, maxLineLength: Int = 1 << 20) {
        self.init(source: .file(descriptor: fileDescriptor, owned: false), size: nil, maxLineLength: maxLineLength)
    }

    private init(source: ByteSource, size: Int?, maxLineLength: Int) {
        self.source = source
        self.totalBytes = size
        self.maxLineLength = maxLineLength
        if case .memory(let bytes) = source {
            chunk = bytes
            chunkEnd = bytes.count
            reachedEnd = true
        } else {
            chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        }
    }

    deinit {
        if case .file(let descriptor, true) = source { close(descriptor) }
    }

    // MARK: Header

    /// Reads and checks line 1.
    ///
    /// - Throws: ``LogReadError/Code/emptyFile``, ``LogReadError/Code/missingHeader`` (not a
    ///   `responder-bus-log` header), ``LogReadError/Code/unsupportedVersion`` (a newer version), or
    ///   the problem with the line.
    public func readHeader() throws(LogReadError) -> LogHeader {
        precondition(!headerDone, "readHeader() called twice")
        headerDone = true
        guard let line = nextLine() else {
            throw LogReadError(
                .emptyFile, line: 0, column: 0,
                "the log is empty; a v1 log starts with a header line such as {\"format\":\"responder-bus-log\",\"version\":1,\"screen\":{\"width\":375,\"height\":812}}"
            )
        }
        if case .tooLong = line { throw tooLong() }
        let number = lineNumber
        let result = withBytes(of: line) { (bytes, endsFile) -> Result<LogHeader, LogReadError> in
            var parser = RecordParser(bytes, line: number, endsFile: endsFile)
            do throws(LogReadError) {
                return .success(try Self.header(from: &parser))
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
        if !headerDone {
            do {
                _ = try readHeader()
            } catch {
                return .problem(error)
            }
        }
        guard let line = nextLine() else { return nil }
        if case .tooLong = line { return .problem(tooLong()) }
        return withBytes(of: line) { (bytes, endsFile) in parseRecord(bytes, endsFile: endsFile) }
    }

    /// Parses the record on the current line.
    @inline(__always)
    private func parseRecord(_ bytes: UnsafeBufferPointer<UInt8>, endsFile: Bool) -> Item? {
        var parser = RecordParser(bytes, line: lineNumber, endsFile: endsFile)
        do throws(LogReadError) {
            return try Self.record(from: &parser, after: &lastT)
        } catch {
            return .problem(error)
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
        let logEvent = try makeEvent(event, fields, &parser)
        lastT = t
        return .record(LogRecord(t: t, event: logEvent, origin: origin), RecordLocation(line: parser.line, viewColumn: fields.view?.column))
    }

    /// Rejects a negative duration, and one too long to be replayed.
    @inline(__always)
    private static func checkDuration(_ f: RawFields, _ parser: inout RecordParser) throws(LogReadError) {
        guard let duration = f.duration else { return }
        if duration < 0 {
            throw parser.error(.invalidValue, at: f.durationColumn - 1, "a negative duration (\(duration)); durations are seconds, 0 or more")
        }
        if duration > LogLimits.maximumSeconds {
            throw parser.error(
                .invalidValue, at: f.durationColumn - 1,
                "a duration of \(duration) seconds, beyond what can be replayed (at most \(Int(LogLimits.maximumSeconds))); is it in milliseconds? durations are seconds"
            )
        }
    }

    @inline(__always)
    private static func makeEvent(_ event: StringRef, _ f: RawFields, _ parser: inout RecordParser) throws(LogReadError) -> LogEvent {
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
        if let keyboard = kind.keyboardEvent {
            try checkDuration(f, &parser)
            return .keyboard(keyboard, KeyboardInfo(begin: f.begin, end: f.end, duration: f.duration, curve: f.curve, isLocal: f.isLocal))
        }
        switch kind {
        case .didBeginEditing: return .didBeginEditing(EditingInfo(view: try requireView()))
        case .didEndEditing: return .didEndEditing(EditingInfo(view: try requireView()))
        case .returnKey: return .returnKey(ReturnKeyInfo(view: try requireView()))
        case .scene:
            return .scene(SceneInfo(root: try require(parser.root?.view, "root"), lastFieldAction: f.lastFieldAction.map { parser.string($0) }))
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
        case .diagnostic:
            let levelRef = try require(f.level, "level")
            let text = parser.string(levelRef)
            guard let level = Diagnostic.Level(rawValue: text) else {
                throw parser.error(.invalidValue, at: levelRef.quote, "unknown level '\(text)'; expected info, warning or error")
            }
            return .diagnostic(Diagnostic(level: level, message: f.message.map { parser.string($0) } ?? ""))
        case .keyboardWillShow, .keyboardDidShow, .keyboardWillHide, .keyboardDidHide, .keyboardWillChangeFrame, .keyboardDidChangeFrame:
            preconditionFailure("keyboard events are handled above")
        }
    }

    // MARK: Lines

    /// Where the next line is: in the current chunk, or gathered in `pending` (a line that spans
    /// chunks, or the file's last line without a newline).
    private enum Line {
        /// `chunk[start..<end]`.
        case chunk(start: Int, end: Int)
        /// `pending`; `endsFile` when it is the file's last line and had no newline.
        case pending(endsFile: Bool)
        /// A line longer than ``maxLineLength``, skipped.
        case tooLong
    }

    /// Finds the next non-blank line; `nil` at the end of the input.
    private func nextLine() -> Line? {
        while true {
            // Look for a newline in the current chunk.
            if let newline = newlineInChunk() {
                let lineStart = chunkStart
                chunkStart = newline + 1
                bytesConsumed += newline + 1 - lineStart
                lineNumber += 1
                if pendingTooLong {
                    pendingTooLong = false
                    pending.removeAll(keepingCapacity: false)
                    return .tooLong
                }
                if !pending.isEmpty {
                    guard pending.count + (newline - lineStart) <= maxLineLength else {
                        pending.removeAll(keepingCapacity: false)
                        return .tooLong
                    }
                    pending.append(contentsOf: chunk[lineStart..<newline])
                    if pending.withUnsafeBufferPointer(Self.isBlank) {
                        pending.removeAll(keepingCapacity: true)
                        continue
                    }
                    return .pending(endsFile: false)
                }
                guard newline - lineStart <= maxLineLength else { return .tooLong }
                if chunk.withUnsafeBufferPointer({ Self.isBlank(UnsafeBufferPointer(rebasing: $0[lineStart..<newline])) }) { continue }
                return .chunk(start: lineStart, end: newline)
            }
            // No newline: keep the rest and read more.
            let rest = chunkEnd - chunkStart
            if rest > 0 {
                bytesConsumed += rest
                if pendingTooLong || pending.count + rest > maxLineLength {
                    pendingTooLong = true
                    pending.removeAll(keepingCapacity: false)
                } else {
                    pending.append(contentsOf: chunk[chunkStart..<chunkEnd])
                }
                chunkStart = chunkEnd
            }
            if !fill() {
                if follows { return nil }
                // The end: a last line without a newline.
                if pendingTooLong {
                    pendingTooLong = false
                    lineNumber += 1
                    return .tooLong
                }
                guard !pending.isEmpty else { return nil }
                lineNumber += 1
                if pending.withUnsafeBufferPointer(Self.isBlank) {
                    pending.removeAll()
                    return nil
                }
                return .pending(endsFile: true)
            }
        }
    }

    /// The offset of the next newline in the current chunk (`memchr`).
    @inline(__always)
    private func newlineInChunk() -> Int? {
        let start = chunkStart
        let count = chunkEnd - start
        guard count > 0 else { return nil }
        return chunk.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, let found = memchr(base + start, 0x0A, count) else { return nil }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }
    }

    /// Whether a line holds only spaces, tabs and carriage returns.
    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in line where byte != 0x20 && byte != 0x09 && byte != 0x0D { return false }
        return true
    }

    /// Calls `body` with the bytes of `line` (the whole line, without its newline) and whether it
    /// ends the file. A line gathered in `pending` is dropped afterwards.
    @inline(__always)
    private func withBytes<T>(of line: Line, _ body: (UnsafeBufferPointer<UInt8>, Bool) -> T) -> T {
        switch line {
        case .chunk(let start, let end):
            return chunk.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<end]), false) }
        case .pending(let endsFile):
            let result = pending.withUnsafeBufferPointer { body($0, endsFile) }
            pending.removeAll(keepingCapacity: !endsFile)
            return result
        case .tooLong:
            preconditionFailure("a line too long has no bytes; the callers report it")
        }
    }

    private func tooLong() -> LogReadError {
        LogReadError(
            .lineTooLong, line: lineNumber, column: maxLineLength + 1,
            "the line is longer than \(maxLineLength) bytes; skipped without reading it into memory")
    }

    /// Reads the next chunk; `false` at the end of the input.
    private func fill() -> Bool {
        guard !reachedEnd, case .file(let descriptor, _) = source else { return false }
        chunkStart = 0
        chunkEnd = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, Self.chunkSize) }
            if count > 0 {
                chunkEnd = count
                return true
            }
            if count < 0 && errno == EINTR { continue }
            if !follows { reachedEnd = true }
            return false
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
