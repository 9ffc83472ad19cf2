import ResponderBus

// A JSON decoder written for the log format, byte by byte.
//
// Why not Codable: `JSONDecoder` builds a generic value tree and goes through the Decoder protocol
// for every field, several times what a replay of a large log can afford (benchmark case "replay vs
// JSONDecoder", group 3). This parser reads each line once, straight into the typed fields of the one record
// the line holds: no intermediate dictionaries, no boxing, short strings stay inline. It also knows
// where it is, so every rejected line is reported with its line, column and reason.
//
// What keeps a line cheap (benchmark cases "replay 1000000 events, 3 plugins → /dev/null" and
// "replay vs reading+splitting lines"; profile with the callgrind recipe in Benchmarks/README.md): keys are recognised where they stand from their bytes (`FieldKey`), never made
// into Strings; a string value is first only located in the line (`StringRef`) and becomes a String
// only if the record uses it, so the event's name is matched on its bytes (`EventSpellings`) and
// `RawFields` is plain data, cheap to create and to drop; the common number and the common
// rectangle are read in one pass, into locals. Anything unusual (an escape, a byte beyond ASCII, a
// number with an exponent) takes the general path, which reads, checks and reports exactly as
// before.

/// Parses one line of a log. `bytes` excludes the newline.
struct RecordParser {
    let bytes: LineBytes
    let line: Int
    /// Whether this is the file's last line and it had no newline: running out of bytes then means
    /// the file was cut off.
    let endsFile: Bool
    var position = 0
    /// What only some lines have (a scene's views, a diagnostic's extras, warnings), made by the
    /// first that needs it: a parser without it, as for most lines, is plain data to make and drop.
    private(set) var extras: LineExtras?

    /// ``extras``, made if the line has none yet.
    mutating func lineExtras() -> LineExtras {
        if let extras { return extras }
        let made = LineExtras()
        extras = made
        return made
    }

    /// How deeply a scene's views may nest: scenes imported from real app windows can nest deeper
    /// than the 64 levels this once was. The bound keeps a hostile line from exhausting the
    /// reader's stack (each level is one call of ``parseView(depth:)``).
    static let maxDepth = 256

    init(_ bytes: LineBytes, line: Int, endsFile: Bool) {
        self.bytes = bytes
        self.line = line
        self.endsFile = endsFile
    }

    // MARK: Errors

    func error(_ code: LogReadError.Code, at offset: Int? = nil, _ message: String) -> LogReadError {
        LogReadError(code, line: line, column: (offset ?? position) + 1, message)
    }

    func unexpectedEnd(_ expecting: String) -> LogReadError {
        if endsFile {
            return error(.truncatedLine, "the file ends in the middle of this record (expected \(expecting)); was it cut off?")
        }
        return error(.malformedJSON, "the line ends before the record does (expected \(expecting))")
    }

    func unexpected(_ expecting: String) -> LogReadError {
        guard position < bytes.count else { return unexpectedEnd(expecting) }
        let byte = bytes[position]
        let shown = byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        return error(.malformedJSON, "expected \(expecting), found \(shown)")
    }

    // MARK: Lexing

    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0D, 0x0A: position += 1
            default: return
            }
        }
    }

    @inline(__always)
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    @inline(__always)
    mutating func expect(_ byte: UInt8, _ what: String) throws(LogReadError) {
        guard peek() == byte else { throw unexpected(what) }
        position += 1
    }

    /// Whether the rest of the line is whitespace.
    mutating func atEnd() -> Bool { peek() == nil }

}

/// What only some lines have, beside the ``RawFields`` every line fills.
final class LineExtras {
    /// The line's `root` view tree, when it has one (kept here rather than in ``RawFields``, which
    /// stays plain data).
    var root: ViewSpec?
    /// The view ids of the scene being read, to reject one that repeats.
    var sceneViewIDs: Set<String> = []
    /// What the line has that the reader accepted with a warning (a view kind it does not know):
    /// the record is read all the same, and the reader reports these before it.
    var warnings: [LogReadError] = []
    /// A diagnostic's `views`.
    var views: [ViewID] = []
    /// A diagnostic's `metadata`.
    var metadata: [String: String] = [:]
}
