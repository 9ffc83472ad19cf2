import ResponderBus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// A JSON decoder written for the log format, byte by byte.
//
// Why not Codable: `JSONDecoder` costs about 12 µs a line here (it builds a generic value tree and
// goes through the Decoder protocol for every field), about ten times what a replay of a large log
// can afford. This parser reads each line once, straight into the typed fields of the one record
// the line holds: no intermediate dictionaries, no boxing, short strings stay inline. It also knows
// where it is, so every rejected line is reported with its line, column and reason.
//
// What keeps a line cheap (issue 6: from about 9,400 instructions to about 2,200 for the lines of a
// typical replay): keys are recognised where they stand from their bytes (`FieldKey`), never made
// into Strings; a string value is first only located in the line (`StringRef`) and becomes a String
// only if the record uses it, so the event's name is matched on its bytes (`EventKind`) and
// `RawFields` is plain data, cheap to create and to drop; the common number and the common
// rectangle are read in one pass, into locals. Anything unusual (an escape, a byte beyond ASCII, a
// number with an exponent) takes the general path, which reads, checks and reports exactly as
// before.

/// Whether `count` bytes at `a` and `b` are equal: a few word compares for short runs (a key, an
/// event's name), `memcmp` beyond.
@inline(__always)
func bytesEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
    let a = UnsafeRawPointer(a)
    let b = UnsafeRawPointer(b)
    @inline(__always) func same<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> Bool {
        a.loadUnaligned(fromByteOffset: offset, as: T.self) == b.loadUnaligned(fromByteOffset: offset, as: T.self)
    }
    switch count {
    case 0: return true
    case 1: return same(0, UInt8.self)
    case 2...3: return same(0, UInt16.self) && same(count - 2, UInt16.self)
    case 4...7: return same(0, UInt32.self) && same(count - 4, UInt32.self)
    case 8...16: return same(0, UInt64.self) && same(count - 8, UInt64.self)
    case 17...32: return same(0, UInt64.self) && same(8, UInt64.self) && same(count - 16, UInt64.self) && same(count - 8, UInt64.self)
    default: return memcmp(a, b, count) == 0
    }
}

/// When `spelling` is at `start` in `bytes` and a quote right after it, the offset of that quote.
@inline(__always)
func spelledEnd(_ spelling: StaticString, in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
    let count = spelling.utf8CodeUnitCount
    let end = start + count
    guard end < bytes.count, bytes[end] == UInt8(ascii: "\""), bytesEqual(bytes.baseAddress! + start, spelling.utf8Start, count: count)
    else { return nil }
    return end
}

/// Where a string value sits in the line being parsed. It becomes a `String` only when the record
/// uses it (``RecordParser/string(_:)``).
struct StringRef {
    /// The offset of the opening quote in the line.
    var quote: Int
    /// The offset of the closing quote.
    var end: Int
    /// Whether the bytes between the quotes are the string itself: ASCII without escapes. Otherwise
    /// (escapes, UTF-8 beyond ASCII) the string is decoded again from `quote` when it is needed.
    var isVerbatim: Bool

    /// The 1-based column of the value (its opening quote).
    var column: Int { quote + 1 }
}

/// The fields a record line may carry, filled as the parser meets them (in any order; when a key
/// is repeated, the last value wins). Plain data (the scene's view tree is kept by the parser,
/// ``RecordParser/root``), so that it costs nothing to drop, and it is filled in place.
struct RawFields {
    var t: Double?
    var tColumn = 1
    var event: StringRef?
    /// The kind `event` names, when its bytes spell one.
    var eventKind: EventKind?
    var origin: StringRef?
    var by: StringRef?
    var view: StringRef?
    var begin: Rect?
    var end: Rect?
    var duration: Double?
    var durationColumn = 1
    var curve: Int?
    var isLocal: Bool?
    var frame: Rect?
    var width: Double?
    var height: Double?
    var safeArea: EdgeInsets?
    var lastFieldAction: StringRef?
    var originY: Double?
    var contentOffsetY: Double?
    var bottomInset: Double?
    var from: StringRef?
    var to: StringRef?
    var name: StringRef?
    var level: StringRef?
    var message: StringRef?
    // Header fields.
    var format: StringRef?
    var version: Int?
    var versionColumn = 1
    var screen: Size?
    var screenSource: StringRef?
    var device: StringRef?
}

/// Every key the format gives a meaning to, at the top level of a line or inside one of its objects
/// (a view, a pair, insets), recognised from the key's bytes.
enum FieldKey: UInt8, CaseIterable {
    // Records.
    case t, event, origin, by, view, begin, end, duration, curve, isLocal, frame, width, height, safeArea, root
    case lastFieldAction, originY, contentOffsetY, bottomInset, from, to, name, level, message
    // The header.
    case format, version, screen, screenSource, device
    // Views, pairs and insets.
    case id, kind, tag, hidden, enabled, keyboardDistance, contentOffset, contentSize, children, className, x, y
    case top, left, bottom, right
    /// A key the format does not know: its value is skipped.
    case unknown

    /// The key as written in a log.
    var spelling: StaticString {
        switch self {
        case .t: "t"
        case .event: "event"
        case .origin: "origin"
        case .by: "by"
        case .view: "view"
        case .begin: "begin"
        case .end: "end"
        case .duration: "duration"
        case .curve: "curve"
        case .isLocal: "isLocal"
        case .frame: "frame"
        case .width: "width"
        case .height: "height"
        case .safeArea: "safeArea"
        case .root: "root"
        case .lastFieldAction: "lastFieldAction"
        case .originY: "originY"
        case .contentOffsetY: "contentOffsetY"
        case .bottomInset: "bottomInset"
        case .from: "from"
        case .to: "to"
        case .name: "name"
        case .level: "level"
        case .message: "message"
        case .format: "format"
        case .version: "version"
        case .screen: "screen"
        case .screenSource: "screenSource"
        case .device: "device"
        case .id: "id"
        case .kind: "kind"
        case .tag: "tag"
        case .hidden: "hidden"
        case .enabled: "enabled"
        case .keyboardDistance: "keyboardDistance"
        case .className: "class"
        case .contentOffset: "contentOffset"
        case .contentSize: "contentSize"
        case .children: "children"
        case .x: "x"
        case .y: "y"
        case .top: "top"
        case .left: "left"
        case .bottom: "bottom"
        case .right: "right"
        case .unknown: ""
        }
    }

    /// The key as a String (for messages).
    var text: String { "\(spelling)" }

    /// The known key spelled at `start` in `bytes` and closed by a quote right after it, with the
    /// offset of that quote; `nil` otherwise. No scan for the closing quote: the first byte picks a
    /// few candidates, each checked with a word compare or two.
    static func known(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (key: FieldKey, end: Int)? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "b"):
            if let end = spelledEnd("begin", in: bytes, at: start) { return (.begin, end) }
            if let end = spelledEnd("by", in: bytes, at: start) { return (.by, end) }
            if let end = spelledEnd("bottomInset", in: bytes, at: start) { return (.bottomInset, end) }
            if let end = spelledEnd("bottom", in: bytes, at: start) { return (.bottom, end) }
            return nil
        case UInt8(ascii: "c"):
            if let end = spelledEnd("curve", in: bytes, at: start) { return (.curve, end) }
            if let end = spelledEnd("children", in: bytes, at: start) { return (.children, end) }
            if let end = spelledEnd("class", in: bytes, at: start) { return (.className, end) }
            if let end = spelledEnd("contentOffsetY", in: bytes, at: start) { return (.contentOffsetY, end) }
            if let end = spelledEnd("contentOffset", in: bytes, at: start) { return (.contentOffset, end) }
            if let end = spelledEnd("contentSize", in: bytes, at: start) { return (.contentSize, end) }
            return nil
        case UInt8(ascii: "d"):
            if let end = spelledEnd("duration", in: bytes, at: start) { return (.duration, end) }
            if let end = spelledEnd("device", in: bytes, at: start) { return (.device, end) }
            return nil
        case UInt8(ascii: "e"):
            if let end = spelledEnd("event", in: bytes, at: start) { return (.event, end) }
            if let end = spelledEnd("end", in: bytes, at: start) { return (.end, end) }
            if let end = spelledEnd("enabled", in: bytes, at: start) { return (.enabled, end) }
            return nil
        case UInt8(ascii: "f"):
            if let end = spelledEnd("frame", in: bytes, at: start) { return (.frame, end) }
            if let end = spelledEnd("from", in: bytes, at: start) { return (.from, end) }
            if let end = spelledEnd("format", in: bytes, at: start) { return (.format, end) }
            return nil
        case UInt8(ascii: "h"):
            if let end = spelledEnd("height", in: bytes, at: start) { return (.height, end) }
            if let end = spelledEnd("hidden", in: bytes, at: start) { return (.hidden, end) }
            return nil
        case UInt8(ascii: "i"):
            if let end = spelledEnd("isLocal", in: bytes, at: start) { return (.isLocal, end) }
            if let end = spelledEnd("id", in: bytes, at: start) { return (.id, end) }
            return nil
        case UInt8(ascii: "k"):
            if let end = spelledEnd("kind", in: bytes, at: start) { return (.kind, end) }
            if let end = spelledEnd("keyboardDistance", in: bytes, at: start) { return (.keyboardDistance, end) }
            return nil
        case UInt8(ascii: "l"):
            if let end = spelledEnd("lastFieldAction", in: bytes, at: start) { return (.lastFieldAction, end) }
            if let end = spelledEnd("level", in: bytes, at: start) { return (.level, end) }
            if let end = spelledEnd("left", in: bytes, at: start) { return (.left, end) }
            return nil
        case UInt8(ascii: "m"):
            if let end = spelledEnd("message", in: bytes, at: start) { return (.message, end) }
            return nil
        case UInt8(ascii: "n"):
            if let end = spelledEnd("name", in: bytes, at: start) { return (.name, end) }
            return nil
        case UInt8(ascii: "o"):
            if let end = spelledEnd("origin", in: bytes, at: start) { return (.origin, end) }
            if let end = spelledEnd("originY", in: bytes, at: start) { return (.originY, end) }
            return nil
        case UInt8(ascii: "r"):
            if let end = spelledEnd("root", in: bytes, at: start) { return (.root, end) }
            if let end = spelledEnd("right", in: bytes, at: start) { return (.right, end) }
            return nil
        case UInt8(ascii: "s"):
            if let end = spelledEnd("safeArea", in: bytes, at: start) { return (.safeArea, end) }
            if let end = spelledEnd("screen", in: bytes, at: start) { return (.screen, end) }
            if let end = spelledEnd("screenSource", in: bytes, at: start) { return (.screenSource, end) }
            return nil
        case UInt8(ascii: "t"):
            if let end = spelledEnd("t", in: bytes, at: start) { return (.t, end) }
            if let end = spelledEnd("to", in: bytes, at: start) { return (.to, end) }
            if let end = spelledEnd("tag", in: bytes, at: start) { return (.tag, end) }
            if let end = spelledEnd("top", in: bytes, at: start) { return (.top, end) }
            return nil
        case UInt8(ascii: "v"):
            if let end = spelledEnd("view", in: bytes, at: start) { return (.view, end) }
            if let end = spelledEnd("version", in: bytes, at: start) { return (.version, end) }
            return nil
        case UInt8(ascii: "w"):
            if let end = spelledEnd("width", in: bytes, at: start) { return (.width, end) }
            return nil
        case UInt8(ascii: "x"):
            if let end = spelledEnd("x", in: bytes, at: start) { return (.x, end) }
            return nil
        case UInt8(ascii: "y"):
            if let end = spelledEnd("y", in: bytes, at: start) { return (.y, end) }
            return nil
        default: return nil
        }
    }

    /// Recognises a key that had escapes or bytes beyond ASCII, comparing Strings as the format
    /// always has (Unicode canonical equivalence).
    init(decoded key: String) {
        self = Self.allCases.first { $0 != .unknown && $0.text == key } ?? .unknown
    }
}

/// The events of the format, recognised from the bytes of an `event` value.
enum EventKind: UInt8, CaseIterable {
    case keyboardWillShow, keyboardDidShow, keyboardWillHide, keyboardDidHide, keyboardWillChangeFrame, keyboardDidChangeFrame
    case didBeginEditing, didEndEditing, returnKey, scene, setFrame, screen
    case viewShift, scroll, focusChange, action, resign, diagnostic

    /// The name as written in a log.
    var spelling: StaticString {
        switch self {
        case .keyboardWillShow: "keyboardWillShow"
        case .keyboardDidShow: "keyboardDidShow"
        case .keyboardWillHide: "keyboardWillHide"
        case .keyboardDidHide: "keyboardDidHide"
        case .keyboardWillChangeFrame: "keyboardWillChangeFrame"
        case .keyboardDidChangeFrame: "keyboardDidChangeFrame"
        case .didBeginEditing: "didBeginEditing"
        case .didEndEditing: "didEndEditing"
        case .returnKey: "returnKey"
        case .scene: "scene"
        case .setFrame: "setFrame"
        case .screen: "screen"
        case .viewShift: "viewShift"
        case .scroll: "scroll"
        case .focusChange: "focusChange"
        case .action: "action"
        case .resign: "resign"
        case .diagnostic: "diagnostic"
        }
    }

    /// The name as a String.
    var name: String { "\(spelling)" }

    /// The keyboard event, for the six keyboard kinds.
    var keyboardEvent: LogEvent.KeyboardEvent? { LogEvent.KeyboardEvent.byKind[Int(rawValue)] }

    /// The event whose name is spelled at `start` in `bytes` and closed by a quote right after it,
    /// with the offset of that quote; `nil` otherwise. No scan for the closing quote: a byte or two
    /// pick the only candidate, which a few word compares check.
    @inline(__always)
    static func known(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (kind: EventKind, end: Int)? {
        // The shortest name has 5 bytes (and a quote after it): the bytes looked at below exist when
        // a name fits.
        guard start + 5 < bytes.count else { return nil }
        let name: StaticString
        let kind: EventKind
        switch bytes[start] {
        case UInt8(ascii: "k"):
            // keyboard{Will,Did}{Show,Hide,ChangeFrame}, 15 bytes or more.
            guard start + 15 < bytes.count else { return nil }
            if bytes[start + 8] == UInt8(ascii: "W") {
                switch bytes[start + 12] {
                case UInt8(ascii: "S"): (name, kind) = ("keyboardWillShow", .keyboardWillShow)
                case UInt8(ascii: "H"): (name, kind) = ("keyboardWillHide", .keyboardWillHide)
                default: (name, kind) = ("keyboardWillChangeFrame", .keyboardWillChangeFrame)
                }
            } else {
                switch bytes[start + 11] {
                case UInt8(ascii: "S"): (name, kind) = ("keyboardDidShow", .keyboardDidShow)
                case UInt8(ascii: "H"): (name, kind) = ("keyboardDidHide", .keyboardDidHide)
                default: (name, kind) = ("keyboardDidChangeFrame", .keyboardDidChangeFrame)
                }
            }
        case UInt8(ascii: "d"):
            switch bytes[start + 3] {
            case UInt8(ascii: "B"): (name, kind) = ("didBeginEditing", .didBeginEditing)
            case UInt8(ascii: "E"): (name, kind) = ("didEndEditing", .didEndEditing)
            default: (name, kind) = ("diagnostic", .diagnostic)
            }
        case UInt8(ascii: "r"):
            if bytes[start + 2] == UInt8(ascii: "t") {
                (name, kind) = ("returnKey", .returnKey)
            } else {
                (name, kind) = ("resign", .resign)
            }
        case UInt8(ascii: "s"):
            if bytes[start + 1] == UInt8(ascii: "e") {
                (name, kind) = ("setFrame", .setFrame)
            } else if bytes[start + 2] == UInt8(ascii: "e") {
                (name, kind) = ("scene", .scene)
            } else if bytes[start + 3] == UInt8(ascii: "e") {
                (name, kind) = ("screen", .screen)
            } else {
                (name, kind) = ("scroll", .scroll)
            }
        case UInt8(ascii: "v"): (name, kind) = ("viewShift", .viewShift)
        case UInt8(ascii: "f"): (name, kind) = ("focusChange", .focusChange)
        case UInt8(ascii: "a"): (name, kind) = ("action", .action)
        default: return nil
        }
        return spelledEnd(name, in: bytes, at: start).map { (kind, $0) }
    }

    /// Recognises a name that had escapes or bytes beyond ASCII, comparing Strings as the format
    /// always has (Unicode canonical equivalence).
    init?(decoded name: String) {
        guard let kind = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = kind
    }
}

/// A view tree read from a line.
final class ParsedView {
    let view: ViewSpec

    init(_ view: ViewSpec) { self.view = view }
}

/// Parses one line of a log. `bytes` excludes the newline.
struct RecordParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let line: Int
    /// Whether this is the file's last line and it had no newline: running out of bytes then means
    /// the file was cut off.
    let endsFile: Bool
    var position = 0
    /// The line's `root` view tree, when it has one (kept here rather than in ``RawFields``, which
    /// stays plain data; boxed, so that a parser without one is a null reference to create and drop).
    var root: ParsedView?
    /// The view ids of the scene being read, to reject one that repeats.
    var sceneViewIDs: Set<String> = []

    /// How deeply a scene's views may nest: scenes imported from real app windows can nest deeper
    /// than the 64 levels this once was. The bound keeps a hostile line from exhausting the
    /// reader's stack (each level is one call of ``parseView(depth:)``).
    static let maxDepth = 256

    init(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, endsFile: Bool) {
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

    // MARK: Values

    /// The end of the string that starts at the quote at `position` when it is verbatim (ASCII
    /// without escapes or control characters): the offset of its closing quote. `nil` when the
    /// string needs ``parseString()`` (which also reports whatever is wrong with it).
    @inline(__always)
    private func verbatimStringEnd() -> Int? {
        var index = position + 1
        // Eight bytes at a time: the lowest flagged byte of each test below is exact (a borrow only
        // flags bytes above a true hit), so the first flagged byte is the first byte that ends the
        // fast scan.
        if let base = bytes.baseAddress {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
                let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
                let hits =
                    ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
                    | ((word &- ones &* 0x20) & ~word) | word
                let flagged = hits & highs
                if flagged != 0 {
                    index += flagged.trailingZeroBitCount >> 3
                    return base[index] == UInt8(ascii: "\"") ? index : nil
                }
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return index }
            // A control character (< 0x20), a byte beyond ASCII (>= 0x80) or a backslash.
            if byte &- 0x20 >= 0x60 || byte == UInt8(ascii: "\\") { return nil }
            index += 1
        }
        return nil
    }

    /// Locates a string value (checked as ``parseString()`` checks it) without making a String.
    @inline(__always)
    mutating func parseStringRef() throws(LogReadError) -> StringRef {
        guard peek() == UInt8(ascii: "\"") else { throw unexpected("a string") }
        let quote = position
        if let end = verbatimStringEnd() {
            position = end + 1
            return StringRef(quote: quote, end: end, isVerbatim: true)
        }
        _ = try parseString()
        return StringRef(quote: quote, end: position - 1, isVerbatim: false)
    }

    /// The String a ``StringRef`` of this line locates.
    func string(_ ref: StringRef) -> String {
        if ref.isVerbatim {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[(ref.quote + 1)..<ref.end]), as: UTF8.self)
        }
        // Decoded again: it was checked when the line was parsed, so this cannot fail.
        var again = self
        again.position = ref.quote
        return (try? again.parseString()) ?? ""
    }

    /// Whether the string `ref` locates is `literal` (an ASCII literal), compared as Strings are.
    func matches(_ ref: StringRef, _ literal: StaticString) -> Bool {
        if ref.isVerbatim {
            let count = literal.utf8CodeUnitCount
            return ref.end - ref.quote - 1 == count && bytesEqual(bytes.baseAddress! + ref.quote + 1, literal.utf8Start, count: count)
        }
        return string(ref) == "\(literal)"
    }

    /// The event kind `ref` names, `nil` for a name the format does not know.
    func eventKind(_ ref: StringRef) -> EventKind? {
        if ref.isVerbatim { return EventKind.known(in: bytes, at: ref.quote + 1)?.kind }
        return EventKind(decoded: string(ref))
    }

    /// Reads a key, recognising it from its bytes.
    @inline(__always)
    mutating func parseKey() throws(LogReadError) -> FieldKey {
        guard peek() == UInt8(ascii: "\"") else { throw unexpected("a string") }
        if let (key, end) = FieldKey.known(in: bytes, at: position + 1) {
            position = end + 1
            return key
        }
        return try parseOtherKey()
    }

    /// A key ``FieldKey/known(in:at:)`` did not recognise where it stands.
    private mutating func parseOtherKey() throws(LogReadError) -> FieldKey {
        // Verbatim, it would have been recognised: a key the format does not know.
        if let end = verbatimStringEnd() {
            position = end + 1
            return .unknown
        }
        return FieldKey(decoded: try parseString())
    }

    /// Skips a string, checked as ``parseString()`` checks it.
    private mutating func skipString() throws(LogReadError) {
        if peek() == UInt8(ascii: "\""), let end = verbatimStringEnd() {
            position = end + 1
            return
        }
        _ = try parseString()
    }

    mutating func parseString() throws(LogReadError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw unexpected("a string") }
        let start = position
        position += 1
        let contentStart = position
        var ascii = true
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<position])
                position += 1
                if ascii { return String(decoding: slice, as: UTF8.self) }
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw error(.invalidUTF8, at: start, "the string here is not valid UTF-8; logs are UTF-8 text")
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error(.malformedJSON, "a control character inside a string must be escaped") }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        guard position < bytes.count else { throw unexpectedEnd("the end of a string") }
        // Slow path: escapes.
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                guard let text = String(validating: scalars, as: UTF8.self) else {
                    throw error(.invalidUTF8, at: start, "the string here is not valid UTF-8; logs are UTF-8 text")
                }
                return text
            }
            if byte < 0x20 { throw error(.malformedJSON, "a control character inside a string must be escaped") }
            if byte != UInt8(ascii: "\\") {
                scalars.append(byte)
                position += 1
                continue
            }
            position += 1
            guard position < bytes.count else { throw unexpectedEnd("an escape") }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var value = try parseHex4()
                if (0xD800..<0xDC00).contains(value) {
                    // A surrogate pair: \uD83D\uDE00.
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                        throw error(.malformedJSON, "a lone surrogate escape; pair \\uD8xx with \\uDCxx")
                    }
                    position += 2
                    let low = try parseHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error(.malformedJSON, "a lone surrogate escape") }
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(value) {
                    throw error(.malformedJSON, "a lone surrogate escape")
                }
                guard let scalar = Unicode.Scalar(value) else { throw error(.malformedJSON, "an escape that is no character") }
                scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw error(.malformedJSON, at: position - 2, "unknown escape '\\\(Character(Unicode.Scalar(escape)))'")
            }
        }
        throw unexpectedEnd("the end of a string")
    }

    private mutating func parseHex4() throws(LogReadError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw unexpectedEnd("four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error(.malformedJSON, "expected a hex digit in a \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// 10^exponent for 0...15: exact, as every power of ten up to 10^22 is a double, and so is each
    /// step of the product. (A loop of a few multiplications rather than a table or a switch, which
    /// would make the number readers too large to be inlined.)
    @inline(__always)
    private static func exactPowerOfTen(_ exponent: Int) -> Double {
        var power = 1.0
        var remaining = exponent
        while remaining > 0 {
            power *= 10
            remaining &-= 1
        }
        return power
    }

    mutating func parseNumber() throws(LogReadError) -> Double {
        skipWhitespace()
        if let value = shortDecimal() { return value }
        return try parseAnyNumber()
    }

    /// The common number, `-?digits(.digits)?` with at most 15 digits, no leading zero and no
    /// exponent, read in one pass; `nil` (and nothing consumed) for anything else, which
    /// ``parseAnyNumber()`` reads (or rejects) as it always has. Its value is the one
    /// ``parseAnyNumber()`` gives: the same exact quotient.
    @inline(__always)
    private mutating func shortDecimal() -> Double? {
        let count = bytes.count
        var index = position
        guard index < count else { return nil }
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index &+= 1 }
        let integerStart = index
        var mantissa: UInt64 = 0
        while index < count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index &+= 1
        }
        let integerDigits = index &- integerStart
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
        var fractionDigits = 0
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index &+= 1
            let fractionStart = index
            while index < count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                index &+= 1
            }
            fractionDigits = index &- fractionStart
            guard fractionDigits > 0 else { return nil }
        }
        guard integerDigits &+ fractionDigits <= 15 else { return nil }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
        position = index
        // Exact: both operands are exact doubles, so the quotient is correctly rounded.
        let value = Double(mantissa) / Self.exactPowerOfTen(fractionDigits)
        return negative ? -value : value
    }

    /// Any JSON number, with the reasons a number is rejected.
    private mutating func parseAnyNumber() throws(LogReadError) -> Double {
        guard let first = peek() else { throw unexpectedEnd("a number") }
        let start = position
        if first == UInt8(ascii: "N") || first == UInt8(ascii: "I")
            || (first == UInt8(ascii: "-") && position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "I"))
        {
            throw error(.invalidValue, "NaN and infinite numbers are not allowed in a log; write a finite number")
        }
        var negative = false
        if first == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var integerDigits = 0
        while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 {
            if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[position] &- UInt8(ascii: "0")) }
            digits += 1
            integerDigits += 1
            position += 1
        }
        guard integerDigits > 0 else {
            position = start
            throw unexpected("a number")
        }
        if integerDigits > 1 && bytes[start + (negative ? 1 : 0)] == UInt8(ascii: "0") {
            throw error(.malformedJSON, at: start, "a number must not start with 0")
        }
        var fractionDigits = 0
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[position] &- UInt8(ascii: "0"))
                    fractionDigits += 1
                }
                digits += 1
                position += 1
            }
            guard fractionDigits > 0 || digits > integerDigits else { throw unexpected("a digit after the decimal point") }
        }
        var hasExponent = false
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            hasExponent = true
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            var exponentDigits = 0
            while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 {
                exponentDigits += 1
                position += 1
            }
            guard exponentDigits > 0 else { throw unexpected("the digits of an exponent") }
        }
        let value: Double
        if !hasExponent && digits <= 15 {
            // Exact: both operands are exact doubles, so the quotient is correctly rounded.
            value = Double(mantissa) / Self.exactPowerOfTen(fractionDigits)
        } else {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + (negative ? 1 : 0))..<position]), as: UTF8.self)
            guard let parsed = Double(text) else { throw error(.malformedJSON, at: start, "'\(text)' is not a number") }
            value = parsed
        }
        guard value.isFinite else {
            throw error(.invalidValue, at: start, "this number is too large to be finite; write a finite number")
        }
        return negative ? -value : value
    }

    mutating func parseInt() throws(LogReadError) -> Int {
        let start = position
        skipWhitespace()
        if let short = shortDecimal(), short == short.rounded() { return Int(short) }
        position = start
        let value = try parseNumber()
        guard value == value.rounded(), abs(value) < 1e15 else {
            throw error(.wrongType, at: start, "expected a whole number, found \(value)")
        }
        return Int(value)
    }

    mutating func parseBool() throws(LogReadError) -> Bool {
        if matchLiteral("true") { return true }
        if matchLiteral("false") { return false }
        throw unexpected("true or false")
    }

    /// Consumes `null` when it is next.
    @inline(__always)
    mutating func parseNull() -> Bool { matchLiteral("null") }

    @inline(__always)
    private mutating func matchLiteral(_ literal: StaticString) -> Bool {
        guard let first = peek(), first == literal.utf8Start.pointee else { return false }
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count, bytesEqual(bytes.baseAddress! + position, literal.utf8Start, count: count) else {
            return false
        }
        position += count
        return true
    }

    /// `[x, y, width, height]`, read into four numbers.
    mutating func parseRect() throws(LogReadError) -> Rect {
        let start = position
        if let rect = shortRect() { return rect }
        position = start
        return try parseAnyRect()
    }

    /// The common rectangle, four numbers ``shortDecimal()`` reads, in one pass; `nil` (and nothing
    /// consumed) for anything else, which ``parseAnyRect()`` reads (or rejects) as it always has.
    @inline(__always)
    private mutating func shortRect() -> Rect? {
        let start = position
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "[") else {
            position = start
            return nil
        }
        position += 1
        guard let x = shortElement(then: UInt8(ascii: ",")), let y = shortElement(then: UInt8(ascii: ",")),
            let width = shortElement(then: UInt8(ascii: ",")), let height = shortElement(then: UInt8(ascii: "]"))
        else {
            position = start
            return nil
        }
        return Rect(x: x, y: y, width: width, height: height)
    }

    /// A ``shortDecimal()`` and the `separator` after it (whitespace around both allowed).
    @inline(__always)
    private mutating func shortElement(then separator: UInt8) -> Double? {
        skipWhitespace()
        guard let value = shortDecimal() else { return nil }
        skipWhitespace()
        guard position < bytes.count, bytes[position] == separator else { return nil }
        position += 1
        return value
    }

    /// Any rectangle, with the reasons a rectangle is rejected.
    private mutating func parseAnyRect() throws(LogReadError) -> Rect {
        let start = position
        guard peek() == UInt8(ascii: "[") else { throw error(.wrongType, "expected a rectangle [x, y, width, height]") }
        position += 1
        var x = 0.0
        var y = 0.0
        var width = 0.0
        var height = 0.0
        var count = 0
        if peek() == UInt8(ascii: "]") {
            position += 1
        } else {
            while true {
                // parseNumber(), with its common case in line.
                skipWhitespace()
                let value: Double
                if let short = shortDecimal() { value = short } else { value = try parseAnyNumber() }
                switch count {
                case 0: x = value
                case 1: y = value
                case 2: width = value
                case 3: height = value
                default: break
                }
                count += 1
                guard let next = peek() else { throw unexpectedEnd("',' or ']'") }
                position += 1
                if next == UInt8(ascii: "]") { break }
                guard next == UInt8(ascii: ",") else {
                    position -= 1
                    throw unexpected("',' or ']'")
                }
            }
        }
        guard count == 4 else {
            throw error(.wrongType, at: start, "expected a rectangle [x, y, width, height], found \(count) numbers")
        }
        return Rect(x: x, y: y, width: width, height: height)
    }

    /// `[a, b]` or `{"x": a, "y": b}` / `{"width": a, "height": b}`.
    mutating func parsePair(_ first: FieldKey, _ second: FieldKey) throws(LogReadError) -> (Double, Double) {
        if peek() == UInt8(ascii: "[") {
            let start = position
            position += 1
            let a = try parseNumber()
            try expect(UInt8(ascii: ","), "','")
            let b = try parseNumber()
            guard peek() == UInt8(ascii: "]") else { throw error(.wrongType, at: start, "expected [\(first.text), \(second.text)]") }
            position += 1
            return (a, b)
        }
        var a = 0.0
        var b = 0.0
        try parseObject { (parser: inout RecordParser, key: FieldKey) throws(LogReadError) in
            if key == first { a = try parser.parseNumber() } else if key == second { b = try parser.parseNumber() } else { try parser.skipValue() }
        }
        return (a, b)
    }

    mutating func parseInsets() throws(LogReadError) -> EdgeInsets {
        var insets = EdgeInsets()
        try parseObject { (parser: inout RecordParser, key: FieldKey) throws(LogReadError) in
            switch key {
            case .top: insets.top = try parser.parseNumber()
            case .left: insets.left = try parser.parseNumber()
            case .bottom: insets.bottom = try parser.parseNumber()
            case .right: insets.right = try parser.parseNumber()
            default: try parser.skipValue()
            }
        }
        return insets
    }

    /// Calls `member` for each key of an object, with the parser on its value.
    @inline(__always)
    mutating func parseObject(_ member: (inout RecordParser, FieldKey) throws(LogReadError) -> Void) throws(LogReadError) {
        guard peek() == UInt8(ascii: "{") else { throw error(.wrongType, "expected an object") }
        position += 1
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            let key = try parseKey()
            try expect(UInt8(ascii: ":"), "':' after a key")
            _ = peek()
            try member(&self, key)
            guard let next = peek() else { throw unexpectedEnd("',' or '}'") }
            position += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else {
                position -= 1
                throw unexpected("',' or '}'")
            }
        }
    }

    /// Skips any JSON value, without recursion (deep nesting cannot overflow the stack).
    mutating func skipValue() throws(LogReadError) {
        var depth = 0
        repeat {
            guard let byte = peek() else { throw unexpectedEnd("a value") }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                position += 1
                if let close = peek(), close == UInt8(ascii: "}") || close == UInt8(ascii: "]") {
                    depth -= 1
                    position += 1
                    break
                }
                if byte == UInt8(ascii: "{") {
                    try skipString()
                    try expect(UInt8(ascii: ":"), "':' after a key")
                }
                continue
            case UInt8(ascii: "\""): try skipString()
            case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try parseBool()
            case UInt8(ascii: "n"):
                guard parseNull() else { throw unexpected("a value") }
            default: _ = try parseNumber()
            }
            // After a value inside a container: ',' (then the next member) or a closing bracket.
            while depth > 0 {
                guard let next = peek() else { throw unexpectedEnd("',' or a closing bracket") }
                if next == UInt8(ascii: ",") {
                    position += 1
                    // Inside an object the next member starts with a key. We cannot tell objects from
                    // arrays without a stack; a key is a string followed by ':'.
                    let save = position
                    if peek() == UInt8(ascii: "\"") {
                        try skipString()
                        if peek() == UInt8(ascii: ":") { position += 1 } else { position = save }
                    }
                    break
                } else if next == UInt8(ascii: "}") || next == UInt8(ascii: "]") {
                    position += 1
                    depth -= 1
                } else {
                    throw unexpected("',' or a closing bracket")
                }
            }
        } while depth > 0
    }

    // MARK: Views

    mutating func parseView(depth: Int) throws(LogReadError) -> ViewSpec {
        guard depth < Self.maxDepth else {
            throw error(.invalidValue, "the view tree is nested more than \(Self.maxDepth) levels deep")
        }
        let start = position
        var id: String?
        var kind = ViewKind.view
        var frame: Rect?
        var tag: Int?
        var hidden = false
        var enabled = true
        var distance: Double?
        var offset: Point?
        var size: Size?
        var children: [ViewSpec] = []
        var className: String?
        try parseObject { (parser: inout RecordParser, key: FieldKey) throws(LogReadError) in
            switch key {
            case .id:
                let at = parser.position
                let value = try parser.parseString()
                guard parser.sceneViewIDs.insert(value).inserted else {
                    throw parser.error(.invalidValue, at: at, "view id '\(value)' appears twice in the scene; each view needs an id of its own")
                }
                id = value
            case .kind:
                let at = parser.position
                let text = try parser.parseString()
                guard let parsed = ViewKind(rawValue: text) else {
                    throw parser.error(.invalidValue, at: at, "unknown view kind '\(text)'; expected view, textField, textView or scrollView")
                }
                kind = parsed
            case .frame: frame = try parser.parseRect()
            case .tag: tag = parser.parseNull() ? nil : try parser.parseInt()
            case .hidden: hidden = try parser.parseBool()
            case .enabled: enabled = try parser.parseBool()
            case .keyboardDistance: distance = parser.parseNull() ? nil : try parser.parseNumber()
            case .className: className = parser.parseNull() ? nil : try parser.parseString()
            case .contentOffset:
                let (x, y) = try parser.parsePair(.x, .y)
                offset = Point(x: x, y: y)
            case .contentSize:
                let (w, h) = try parser.parsePair(.width, .height)
                size = Size(width: w, height: h)
            case .children:
                guard parser.peek() == UInt8(ascii: "[") else { throw parser.error(.wrongType, "expected an array of views") }
                parser.position += 1
                if parser.peek() == UInt8(ascii: "]") {
                    parser.position += 1
                    return
                }
                while true {
                    children.append(try parser.parseView(depth: depth + 1))
                    guard let next = parser.peek() else { throw parser.unexpectedEnd("',' or ']'") }
                    parser.position += 1
                    if next == UInt8(ascii: "]") { break }
                    guard next == UInt8(ascii: ",") else {
                        parser.position -= 1
                        throw parser.unexpected("',' or ']'")
                    }
                }
            default: try parser.skipValue()
            }
        }
        guard let id else { throw error(.missingField, at: start, "a view needs an \"id\"") }
        guard let frame else { throw error(.missingField, at: start, "view '\(id)' needs a \"frame\" [x, y, width, height]") }
        return ViewSpec(
            id: ViewID(id), kind: kind, frame: frame, tag: tag, isHidden: hidden, isEnabled: enabled, keyboardDistance: distance,
            contentOffset: offset, contentSize: size, className: className, children: children)
    }

    // MARK: Lines

    /// Reads the top-level object of the line into `fields` (and ``root``). The loop over the
    /// members and the dispatch on their keys are one function: this runs for every member of
    /// every line.
    mutating func parseFields(into fields: inout RawFields) throws(LogReadError) {
        guard let first = peek() else { throw unexpectedEnd("a record") }
        guard first == UInt8(ascii: "{") else { throw unexpected("'{' (each line is one JSON object)") }
        position += 1
        if peek() == UInt8(ascii: "}") {
            position += 1
        } else {
            while true {
                let key = try parseKey()
                try expect(UInt8(ascii: ":"), "':' after a key")
                _ = peek()
                switch key {
                case .t:
                    fields.tColumn = position + 1
                    fields.t = try parseNumber()
                case .event:
                    // The name of an event the format knows is recognised where it stands, without a scan.
                    if peek() == UInt8(ascii: "\""), let (kind, end) = EventKind.known(in: bytes, at: position + 1) {
                        fields.event = StringRef(quote: position, end: end, isVerbatim: true)
                        fields.eventKind = kind
                        position = end + 1
                    } else {
                        fields.event = try parseStringRef()
                        fields.eventKind = nil
                    }
                case .origin: fields.origin = try nullableString()
                case .by: fields.by = try nullableString()
                case .view: fields.view = try parseStringRef()
                case .begin: fields.begin = parseNull() ? nil : try parseRect()
                case .end: fields.end = parseNull() ? nil : try parseRect()
                case .duration:
                    fields.durationColumn = position + 1
                    fields.duration = parseNull() ? nil : try parseNumber()
                case .curve: fields.curve = parseNull() ? nil : try parseInt()
                case .isLocal: fields.isLocal = parseNull() ? nil : try parseBool()
                case .frame: fields.frame = try parseRect()
                case .width: fields.width = try parseNumber()
                case .height: fields.height = try parseNumber()
                case .safeArea: fields.safeArea = parseNull() ? nil : try parseInsets()
                case .root:
                    sceneViewIDs.removeAll(keepingCapacity: true)
                    root = ParsedView(try parseView(depth: 0))
                case .lastFieldAction: fields.lastFieldAction = try nullableString()
                case .originY: fields.originY = try parseNumber()
                case .contentOffsetY: fields.contentOffsetY = try parseNumber()
                case .bottomInset: fields.bottomInset = try parseNumber()
                case .from: fields.from = try nullableString()
                case .to: fields.to = try nullableString()
                case .name: fields.name = try parseStringRef()
                case .level: fields.level = try parseStringRef()
                case .message: fields.message = try parseStringRef()
                case .format: fields.format = try parseStringRef()
                case .version:
                    fields.versionColumn = position + 1
                    fields.version = try parseInt()
                case .screen:
                    let (w, h) = try parsePair(.width, .height)
                    fields.screen = Size(width: w, height: h)
                case .screenSource: fields.screenSource = try nullableString()
                case .device: fields.device = try nullableString()
                case .id, .kind, .tag, .hidden, .enabled, .keyboardDistance, .contentOffset, .contentSize, .children, .className, .x, .y,
                    .top, .left, .bottom, .right, .unknown:
                    try skipValue()
                }
                guard let next = peek() else { throw unexpectedEnd("',' or '}'") }
                position += 1
                if next == UInt8(ascii: "}") { break }
                guard next == UInt8(ascii: ",") else {
                    position -= 1
                    throw unexpected("',' or '}'")
                }
            }
        }
        guard atEnd() else { throw unexpected("the end of the line after the record") }
    }

    @inline(__always)
    private mutating func nullableString() throws(LogReadError) -> StringRef? {
        parseNull() ? nil : try parseStringRef()
    }
}
