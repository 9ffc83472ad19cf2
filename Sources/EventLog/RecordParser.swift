import ResponderBus

// A JSON decoder written for the log format, byte by byte.
//
// Why not Codable: `JSONDecoder` costs about 12 µs a line here (it builds a generic value tree and
// goes through the Decoder protocol for every field), about ten times what a replay of a large log
// can afford. This parser reads each line once, straight into the typed fields of the one record
// the line holds: no intermediate dictionaries, no boxing, short strings stay inline. It also knows
// where it is, so every rejected line is reported with its line, column and reason.

/// The fields a record line may carry, filled as the parser meets them (in any order).
struct RawFields {
    var t: Double?
    var event: String?
    var eventColumn = 1
    var origin: String?
    var originColumn = 1
    var by: String?
    var view: String?
    var viewColumn = 1
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
    var root: ViewSpec?
    var lastFieldAction: String?
    var originY: Double?
    var contentOffsetY: Double?
    var bottomInset: Double?
    var from: String?
    var to: String?
    var name: String?
    var level: String?
    var levelColumn = 1
    var message: String?
    // Header fields.
    var format: String?
    var version: Int?
    var versionColumn = 1
    var screen: Size?
    var screenSource: String?
    var device: String?
}

/// Parses one line of a log. `bytes` excludes the newline.
struct RecordParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let line: Int
    /// Whether this is the file's last line and it had no newline: running out of bytes then means
    /// the file was cut off.
    let endsFile: Bool
    var position = 0

    static let maxDepth = 64

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

    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    mutating func parseNumber() throws(LogReadError) -> Double {
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
            value = Double(mantissa) / Self.exactPowersOfTen[fractionDigits]
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
    mutating func parseNull() -> Bool { matchLiteral("null") }

    private mutating func matchLiteral(_ literal: StaticString) -> Bool {
        guard peek() != nil else { return false }
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        if matches { position += count }
        return matches
    }

    /// `[x, y, width, height]`.
    mutating func parseRect() throws(LogReadError) -> Rect {
        let start = position
        guard peek() == UInt8(ascii: "[") else { throw error(.wrongType, "expected a rectangle [x, y, width, height]") }
        position += 1
        var values: [Double] = []
        values.reserveCapacity(4)
        if peek() == UInt8(ascii: "]") {
            position += 1
        } else {
            while true {
                values.append(try parseNumber())
                guard let next = peek() else { throw unexpectedEnd("',' or ']'") }
                position += 1
                if next == UInt8(ascii: "]") { break }
                guard next == UInt8(ascii: ",") else {
                    position -= 1
                    throw unexpected("',' or ']'")
                }
            }
        }
        guard values.count == 4 else {
            throw error(.wrongType, at: start, "expected a rectangle [x, y, width, height], found \(values.count) numbers")
        }
        return Rect(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    /// `[a, b]` or `{"x": a, "y": b}` / `{"width": a, "height": b}`.
    mutating func parsePair(_ first: String, _ second: String) throws(LogReadError) -> (Double, Double) {
        if peek() == UInt8(ascii: "[") {
            let start = position
            position += 1
            let a = try parseNumber()
            try expect(UInt8(ascii: ","), "','")
            let b = try parseNumber()
            guard peek() == UInt8(ascii: "]") else { throw error(.wrongType, at: start, "expected [\(first), \(second)]") }
            position += 1
            return (a, b)
        }
        var a = 0.0
        var b = 0.0
        try parseObject { (parser: inout RecordParser, key: String) throws(LogReadError) in
            if key == first { a = try parser.parseNumber() } else if key == second { b = try parser.parseNumber() } else { try parser.skipValue() }
        }
        return (a, b)
    }

    mutating func parseInsets() throws(LogReadError) -> EdgeInsets {
        var insets = EdgeInsets()
        try parseObject { (parser: inout RecordParser, key: String) throws(LogReadError) in
            switch key {
            case "top": insets.top = try parser.parseNumber()
            case "left": insets.left = try parser.parseNumber()
            case "bottom": insets.bottom = try parser.parseNumber()
            case "right": insets.right = try parser.parseNumber()
            default: try parser.skipValue()
            }
        }
        return insets
    }

    /// Calls `member` for each key of an object, with the parser on its value.
    mutating func parseObject(_ member: (inout RecordParser, String) throws(LogReadError) -> Void) throws(LogReadError) {
        guard peek() == UInt8(ascii: "{") else { throw error(.wrongType, "expected an object") }
        position += 1
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            let key = try parseString()
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
                    _ = try parseString()
                    try expect(UInt8(ascii: ":"), "':' after a key")
                }
                continue
            case UInt8(ascii: "\""): _ = try parseString()
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
                        _ = try parseString()
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
        try parseObject { (parser: inout RecordParser, key: String) throws(LogReadError) in
            switch key {
            case "id": id = try parser.parseString()
            case "kind":
                let at = parser.position
                let text = try parser.parseString()
                guard let parsed = ViewKind(rawValue: text) else {
                    throw parser.error(.invalidValue, at: at, "unknown view kind '\(text)'; expected view, textField, textView or scrollView")
                }
                kind = parsed
            case "frame": frame = try parser.parseRect()
            case "tag": tag = parser.parseNull() ? nil : try parser.parseInt()
            case "hidden": hidden = try parser.parseBool()
            case "enabled": enabled = try parser.parseBool()
            case "keyboardDistance": distance = parser.parseNull() ? nil : try parser.parseNumber()
            case "contentOffset":
                let (x, y) = try parser.parsePair("x", "y")
                offset = Point(x: x, y: y)
            case "contentSize":
                let (w, h) = try parser.parsePair("width", "height")
                size = Size(width: w, height: h)
            case "children":
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
            contentOffset: offset, contentSize: size, children: children)
    }

    // MARK: Lines

    /// Reads the top-level object of the line into `fields`.
    mutating func parseFields() throws(LogReadError) -> RawFields {
        var fields = RawFields()
        guard let first = peek() else { throw unexpectedEnd("a record") }
        guard first == UInt8(ascii: "{") else { throw unexpected("'{' (each line is one JSON object)") }
        try parseObject { (parser: inout RecordParser, key: String) throws(LogReadError) in
            try parser.parseField(key, into: &fields)
        }
        guard atEnd() else { throw unexpected("the end of the line after the record") }
        return fields
    }

    private mutating func nullableString() throws(LogReadError) -> String? {
        parseNull() ? nil : try parseString()
    }

    private mutating func parseField(_ key: String, into fields: inout RawFields) throws(LogReadError) {
        switch key {
        case "t": fields.t = try parseNumber()
        case "event":
            fields.eventColumn = position + 1
            fields.event = try parseString()
        case "origin":
            fields.originColumn = position + 1
            fields.origin = try nullableString()
        case "by": fields.by = try nullableString()
        case "view":
            fields.viewColumn = position + 1
            fields.view = try parseString()
        case "begin": fields.begin = parseNull() ? nil : try parseRect()
        case "end": fields.end = parseNull() ? nil : try parseRect()
        case "duration":
            fields.durationColumn = position + 1
            fields.duration = parseNull() ? nil : try parseNumber()
        case "curve": fields.curve = parseNull() ? nil : try parseInt()
        case "isLocal": fields.isLocal = parseNull() ? nil : try parseBool()
        case "frame": fields.frame = try parseRect()
        case "width": fields.width = try parseNumber()
        case "height": fields.height = try parseNumber()
        case "safeArea": fields.safeArea = parseNull() ? nil : try parseInsets()
        case "root": fields.root = try parseView(depth: 0)
        case "lastFieldAction": fields.lastFieldAction = try nullableString()
        case "originY": fields.originY = try parseNumber()
        case "contentOffsetY": fields.contentOffsetY = try parseNumber()
        case "bottomInset": fields.bottomInset = try parseNumber()
        case "from": fields.from = try nullableString()
        case "to": fields.to = try nullableString()
        case "name": fields.name = try parseString()
        case "level":
            fields.levelColumn = position + 1
            fields.level = try parseString()
        case "message": fields.message = try parseString()
        case "format": fields.format = try parseString()
        case "version":
            fields.versionColumn = position + 1
            fields.version = try parseInt()
        case "screen":
            let (w, h) = try parsePair("width", "height")
            fields.screen = Size(width: w, height: h)
        case "screenSource": fields.screenSource = try nullableString()
        case "device": fields.device = try nullableString()
        default: try skipValue()
        }
    }
}
