#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ResponderBus

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
    /// How many bytes have been consumed so far.
    public private(set) var bytesConsumed = 0
    /// The number of the last line read.
    public private(set) var lineNumber = 0
    /// Whether the input may still grow (`tail -f`): at its current end, ``next()`` returns `nil`
    /// without treating an unfinished last line as cut off, and a later ``next()`` reads what was
    /// appended since.
    public var follows = false

    private var source: ByteSource
    private var chunk: [UInt8]
    private var chunkStart = 0
    private var chunkEnd = 0
    private var pending: [UInt8] = []
    private var pendingTooLong = false
    private var reachedEnd = false
    private var headerDone = false
    private var lastT = 0.0

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
        guard let result = nextLine(parse: { (parser: inout RecordParser) throws(LogReadError) -> LogHeader in
            try Self.header(from: &parser)
        }) else {
            throw LogReadError(.emptyFile, line: 0, column: 0, "the log is empty; a v1 log starts with a header line such as {\"format\":\"responder-bus-log\",\"version\":1,\"screen\":{\"width\":375,\"height\":812}}")
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
        let fields = try parser.parseFields()
        guard fields.format == LogHeader.formatName else {
            let found = fields.event.map { "a '\($0)' record" } ?? (fields.format.map { "format '\($0)'" } ?? "no \"format\" field")
            throw parser.error(.missingHeader, at: 0, "line 1 must be the header {\"format\":\"responder-bus-log\",\"version\":1,\"screen\":{…}}, found \(found)")
        }
        guard let version = fields.version else {
            throw parser.error(.missingField, at: 0, "the header has no \"version\"; this reader reads version 1")
        }
        guard version <= LogHeader.currentVersion else {
            throw parser.error(.unsupportedVersion, at: fields.versionColumn - 1, "this log is version \(version), written by a newer responder-bus; this one reads version \(LogHeader.currentVersion): upgrade responder-bus")
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
        return LogHeader(screen: screen, safeArea: fields.safeArea, version: version, screenSource: fields.screenSource, device: fields.device)
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
        let lastT = self.lastT
        guard let result = nextLine(parse: { (parser: inout RecordParser) throws(LogReadError) -> (LogRecord, Int?) in
            try Self.record(from: &parser, notBefore: lastT)
        }) else { return nil }
        switch result {
        case .success(let (record, viewColumn)):
            self.lastT = record.t
            return .record(record, RecordLocation(line: lineNumber, viewColumn: viewColumn))
        case .failure(let error):
            return .problem(error)
        }
    }

    static func record(from parser: inout RecordParser, notBefore lastT: Double) throws(LogReadError) -> (LogRecord, Int?) {
        let fields = try parser.parseFields()
        guard let event = fields.event else {
            if fields.format != nil {
                throw parser.error(.invalidValue, at: 0, "a second header; a log has one header, on line 1")
            }
            throw parser.error(.missingField, at: 0, "the record has no \"event\"")
        }
        guard let t = fields.t else { throw parser.error(.missingField, at: 0, "the '\(event)' record has no \"t\" (seconds from the start of the log)") }
        guard t >= 0 else { throw parser.error(.invalidValue, at: 0, "t is negative (\(t)); times count from the start of the log") }
        guard t >= lastT else {
            throw parser.error(.invalidValue, at: 0, "t goes back from \(lastT) to \(t); records must be in time order")
        }
        var origin = EventOrigin.external
        switch fields.origin {
        case nil, "external": break
        case "derived":
            guard let by = fields.by, !by.isEmpty else {
                throw parser.error(.missingField, at: fields.originColumn - 1, "a derived record needs \"by\": the plugin that derived it")
            }
            origin = .derived(by: by)
        case let other?:
            throw parser.error(.invalidValue, at: fields.originColumn - 1, "unknown origin '\(other)'; expected \"external\" or \"derived\"")
        }
        let logEvent = try makeEvent(event, fields, &parser)
        return (LogRecord(t: t, event: logEvent, origin: origin), fields.view == nil ? nil : fields.viewColumn)
    }

    private static func makeEvent(_ event: String, _ f: RawFields, _ parser: inout RecordParser) throws(LogReadError) -> LogEvent {
        func require<T>(_ value: T?, _ field: String) throws(LogReadError) -> T {
            guard let value else { throw parser.error(.missingField, at: 0, "'\(event)' needs \"\(field)\"") }
            return value
        }
        if let kind = LogEvent.KeyboardEvent(rawValue: event) {
            if let duration = f.duration, duration < 0 {
                throw parser.error(.invalidValue, at: f.durationColumn - 1, "a negative duration (\(duration)); durations are seconds, 0 or more")
            }
            return .keyboard(kind, KeyboardInfo(begin: f.begin, end: f.end, duration: f.duration, curve: f.curve, isLocal: f.isLocal))
        }
        switch event {
        case "didBeginEditing": return .didBeginEditing(EditingInfo(view: ViewID(try require(f.view, "view"))))
        case "didEndEditing": return .didEndEditing(EditingInfo(view: ViewID(try require(f.view, "view"))))
        case "returnKey": return .returnKey(ReturnKeyInfo(view: ViewID(try require(f.view, "view"))))
        case "scene": return .scene(SceneInfo(root: try require(f.root, "root"), lastFieldAction: f.lastFieldAction))
        case "setFrame": return .setFrame(FrameChange(view: ViewID(try require(f.view, "view")), frame: try require(f.frame, "frame")))
        case "screen":
            let width = try require(f.width, "width")
            let height = try require(f.height, "height")
            guard width > 0, height > 0 else { throw parser.error(.invalidValue, at: 0, "a screen needs a positive width and height") }
            return .screen(ScreenChange(width: width, height: height, safeArea: f.safeArea))
        case "viewShift":
            if let duration = f.duration, duration < 0 {
                throw parser.error(.invalidValue, at: f.durationColumn - 1, "a negative duration (\(duration))")
            }
            return .viewShift(ViewShift(originY: try require(f.originY, "originY"), duration: f.duration ?? 0.25, curve: f.curve ?? 7))
        case "scroll":
            return .scroll(ScrollChange(
                view: ViewID(try require(f.view, "view")), contentOffsetY: try require(f.contentOffsetY, "contentOffsetY"),
                bottomInset: try require(f.bottomInset, "bottomInset")))
        case "focusChange": return .focusChange(FocusChange(from: f.from.map { ViewID($0) }, to: f.to.map { ViewID($0) }))
        case "action": return .action(ActionInfo(name: try require(f.name, "name")))
        case "resign": return .resign(ResignInfo(view: ViewID(try require(f.view, "view"))))
        case "diagnostic":
            let text = try require(f.level, "level")
            guard let level = Diagnostic.Level(rawValue: text) else {
                throw parser.error(.invalidValue, at: f.levelColumn - 1, "unknown level '\(text)'; expected info, warning or error")
            }
            return .diagnostic(Diagnostic(level: level, message: f.message ?? ""))
        default:
            throw parser.error(.unknownEvent, at: f.eventColumn - 1, "unknown event '\(event)'; skipped (the format knows \(LogEvent.knownNames.sorted().joined(separator: ", ")))")
        }
    }

    // MARK: Lines

    /// Finds the next non-blank line and parses it; `nil` at the end of the input.
    private func nextLine<T>(parse: (inout RecordParser) throws(LogReadError) -> T) -> Result<T, LogReadError>? {
        while true {
            // Look for a newline in the current chunk.
            if let newline = chunk[chunkStart..<chunkEnd].firstIndex(of: 0x0A) {
                let lineStart = chunkStart
                chunkStart = newline + 1
                bytesConsumed += newline + 1 - lineStart
                lineNumber += 1
                if pendingTooLong {
                    pendingTooLong = false
                    pending.removeAll(keepingCapacity: false)
                    return .failure(tooLong())
                }
                if !pending.isEmpty {
                    guard pending.count + (newline - lineStart) <= maxLineLength else {
                        pending.removeAll(keepingCapacity: false)
                        return .failure(tooLong())
                    }
                    pending.append(contentsOf: chunk[lineStart..<newline])
                    let line = pending
                    pending.removeAll(keepingCapacity: true)
                    if let result = parseLine(line[...], endsFile: false, parse) { return result }
                    continue
                }
                guard newline - lineStart <= maxLineLength else { return .failure(tooLong()) }
                if let result = parseLine(chunk[lineStart..<newline], endsFile: false, parse) { return result }
                continue
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
                    return .failure(tooLong())
                }
                guard !pending.isEmpty else { return nil }
                lineNumber += 1
                let line = pending
                pending.removeAll()
                if let result = parseLine(line[...], endsFile: true, parse) { return result }
                return nil
            }
        }
    }

    private func tooLong() -> LogReadError {
        LogReadError(.lineTooLong, line: lineNumber, column: maxLineLength + 1, "the line is longer than \(maxLineLength) bytes; skipped without reading it into memory")
    }

    /// Parses one line; `nil` for a blank line.
    private func parseLine<T>(
        _ line: ArraySlice<UInt8>, endsFile: Bool, _ parse: (inout RecordParser) throws(LogReadError) -> T
    ) -> Result<T, LogReadError>? {
        var trimmed = line
        while let last = trimmed.last, last == 0x0D || last == 0x20 || last == 0x09 { trimmed.removeLast() }
        while let first = trimmed.first, first == 0x20 || first == 0x09 { trimmed.removeFirst() }
        if trimmed.isEmpty { return nil }
        let number = lineNumber
        return line.withUnsafeBufferPointer { buffer -> Result<T, LogReadError> in
            var parser = RecordParser(buffer, line: number, endsFile: endsFile)
            do throws(LogReadError) {
                return .success(try parse(&parser))
            } catch {
                return .failure(error)
            }
        }
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
