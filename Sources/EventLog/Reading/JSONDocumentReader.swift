/// ``JSONValueReader``'s work: the structure of one document (objects, arrays, literals, the
/// whitespace between them) read byte by byte, its strings and numbers by ``JSONScan``, and every
/// problem worded for the person who wrote the document.
///
/// Offsets are bytes, as the scanning's are; a node's line and column are counted as the reading
/// goes (``location(of:)``), so that a document of one long line costs no more than one of many.
struct JSONDocumentReader {
    private let bytes: LineBytes
    /// Where the document starts: after a byte order mark.
    private let origin: Int
    private let document: String
    private let example: String
    private var position: Int
    /// The last offset located, and its line and column.
    private var located: (offset: Int, line: Int, column: Int)

    /// A reader of `bytes`, a `document` (`a project file`) that `example` shows a short one of.
    init(bytes: LineBytes, document: String, example: String) {
        self.bytes = bytes
        self.document = document
        self.example = example
        origin = bytes.has("\u{FEFF}", at: 0) ? 3 : 0
        position = origin
        located = (origin, 1, 1)
    }

    /// The top-level object's members.
    mutating func readDocument() throws(JSONReadError) -> [JSONMember] {
        try validateUTF8()
        try skipWhitespace()
        guard let first = current else {
            throw failure("the file is empty; \(document) is a JSON object, such as \(example)")
        }
        guard first == UInt8(ascii: "{") else {
            let found: String
            switch first {
            case UInt8(ascii: "["): found = "an array"
            case UInt8(ascii: "\""): found = "a string"
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): found = "a number"
            default: found = shownCurrent
            }
            throw failure("the top level must be a JSON object ({ ... }), got \(found)")
        }
        let members = try readObject(depth: 1, keyPath: "")
        try skipWhitespace()
        if current != nil { throw failure("expected the end of the file after the top-level object, got \(shownCurrent)") }
        return members
    }

    // MARK: Positions and messages

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// The line and column of `offset`: counted on from the last offset located (back from the
    /// start for an earlier one), a line at each newline and a column at each byte that starts a
    /// character.
    private mutating func location(of offset: Int) -> (line: Int, column: Int) {
        if offset < located.offset { located = (origin, 1, 1) }
        var (index, line, column) = located
        while index < offset {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        located = (index, line, column)
        return (line, column)
    }

    /// The problem `message`, at `offset` (the current position when `nil`).
    private mutating func failure(_ message: String, at offset: Int? = nil) -> JSONReadError {
        let (line, column) = location(of: offset ?? position)
        return JSONReadError(line: line, column: column, message: message)
    }

    /// The character at `offset` as a message shows it: `'x'`, `'é' (U+00E9)`, or `U+0009` for an
    /// invisible one or a space.
    private func shown(at offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the file" }
        let text = bytes.string(offset..<min(bytes.count, offset + 4))
        guard let scalar = text.unicodeScalars.first else { return "the end of the file" }
        let code = "U+" + JSONMessageText.hex(scalar.value)
        if JSONMessageText.isInvisible(scalar) || scalar.properties.isWhitespace { return code }
        return scalar.isASCII ? "'\(scalar)'" : "'\(scalar)' (\(code))"
    }

    private var shownCurrent: String { shown(at: position) }

    private static func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Whether `byte` is a letter, a digit, `_` or `$`: part of a bare word.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "$"):
            return true
        default: return false
        }
    }

    /// The bare word (letters, digits, `_`, `$`) at the current position.
    private func word() -> String {
        var end = position
        while end < bytes.count, Self.isWordByte(bytes[end]) { end += 1 }
        return bytes.string(position..<end)
    }

    /// Checks that the document is UTF-8 (the standard library's decoder decides), naming the first
    /// byte that is not.
    private mutating func validateUTF8() throws(JSONReadError) {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = Bytes(bytes: bytes, index: origin)
        var offset = origin
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return
            case .error:
                let hex = String(bytes[offset], radix: 16, uppercase: true)
                throw failure(
                    "the file is not valid UTF-8 (byte 0x\(hex.count < 2 ? "0" + hex : hex)); \(document) is UTF-8 text", at: offset)
            }
        }
    }

    /// The bytes from an offset on, for the UTF-8 decoder.
    private struct Bytes: IteratorProtocol {
        let bytes: LineBytes
        var index: Int

        mutating func next() -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }
    }

    /// Skips JSON whitespace, refusing comments.
    private mutating func skipWhitespace() throws(JSONReadError) {
        while let byte = current {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            case UInt8(ascii: "/"):
                let next = position + 1 < bytes.count ? bytes[position + 1] : 0
                if next == UInt8(ascii: "/") || next == UInt8(ascii: "*") { throw failure("comments are not allowed in JSON") }
                return
            default: return
            }
        }
    }

    // MARK: Values

    /// The value at the current position (after whitespace), at `keyPath` (`x[0].a`) and `depth`
    /// levels of nesting.
    private mutating func readValue(depth: Int, keyPath: String) throws(JSONReadError) -> JSONNode {
        try skipWhitespace()
        let (line, column) = location(of: position)
        guard let byte = current else { throw failure("unexpected end of the file; expected a value") }
        let value: JSONValue
        switch byte {
        case UInt8(ascii: "{"): value = .object(try readObject(depth: depth, keyPath: keyPath))
        case UInt8(ascii: "["): value = .array(try readArray(depth: depth, keyPath: keyPath))
        case UInt8(ascii: "\""): value = .string(try readString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try readNumber()
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: "$"):
            value = try readLiteral()
        case UInt8(ascii: "'"): throw failure("strings need double quotes (\"), not single quotes (')")
        case UInt8(ascii: "+"): throw failure("a number cannot start with '+'")
        case UInt8(ascii: ".") where Self.isDigit(position + 1 < bytes.count ? bytes[position + 1] : nil):
            throw failure("a number cannot start with '.'; write a 0 before it")
        default: throw failure("expected a value (an object, array, string, number, true, false or null), got \(shownCurrent)")
        }
        return JSONNode(value: value, line: line, column: column)
    }

    /// `true`, `false` or `null`; any other bare word is refused with what JSON wants instead.
    private mutating func readLiteral() throws(JSONReadError) -> JSONValue {
        let word = word()
        let shown = JSONMessageText.cut(word)
        let value: JSONValue
        switch word {
        case "true": value = .bool(true)
        case "false": value = .bool(false)
        case "null": value = .null
        case "NaN", "Infinity": throw failure("expected a value, got '\(shown)'; JSON has no NaN or Infinity")
        case "True", "TRUE", "False", "FALSE", "Null", "NULL", "None", "nil":
            throw failure("expected a value, got '\(shown)'; JSON's literals are lowercase: true, false and null")
        default: throw failure("expected a value, got '\(shown)'; a string needs double quotes")
        }
        position += word.utf8.count
        return value
    }

    /// The object at the current position (its `{`): its members, each key once.
    private mutating func readObject(depth: Int, keyPath: String) throws(JSONReadError) -> [JSONMember] {
        if depth > JSONValueReader.maximumDepth { throw failure("objects and arrays are nested more than \(JSONValueReader.maximumDepth) deep") }
        let open = location(of: position)
        position += 1
        var members: [JSONMember] = []
        var seen: [String: (line: Int, column: Int)] = [:]
        try skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return members
        }
        while true {
            let (key, keyOffset, keyLine, keyColumn) = try readKey(open: open)
            let memberPath = keyPath.isEmpty ? key : keyPath + "." + key
            if let first = seen[key] {
                throw failure(
                    "duplicate key '\(JSONMessageText.escaped(memberPath).text)' (first at line \(first.line), column \(first.column))",
                    at: keyOffset)
            }
            seen[key] = (keyLine, keyColumn)
            try skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                let shownKey = JSONMessageText.escaped(key).text
                if current == nil { throw failure("unexpected end of the file; expected ':' after the key '\(shownKey)'") }
                throw failure("expected ':' after the key '\(shownKey)', got \(shownCurrent)")
            }
            position += 1
            let value = try readValue(depth: depth + 1, keyPath: memberPath)
            members.append(JSONMember(key: key, line: keyLine, column: keyColumn, value: value))
            let closed = try readSeparator(close: UInt8(ascii: "}"), open: open, container: "object", after: "a member")
            if closed { return members }
        }
    }

    /// A member's key, and the offset, line and column it starts at.
    private mutating func readKey(open: (line: Int, column: Int)) throws(JSONReadError) -> (String, offset: Int, line: Int, column: Int) {
        try skipWhitespace()
        let (line, column) = location(of: position)
        switch current {
        case UInt8(ascii: "\"")?: break
        case nil:
            throw failure("unexpected end of the file; expected a key (the object at line \(open.line), column \(open.column) is not closed)")
        case UInt8(ascii: "'")?: throw failure("keys need double quotes (\"), not single quotes (')")
        case let byte? where Self.isWordByte(byte):
            let word = JSONMessageText.cut(word())
            throw failure("expected a key in double quotes, got \(word) (write \"\(word)\")")
        default: throw failure("expected a key in double quotes, got \(shownCurrent)")
        }
        let offset = position
        return (try readString(), offset, line, column)
    }

    /// The array at the current position (its `[`): its items.
    private mutating func readArray(depth: Int, keyPath: String) throws(JSONReadError) -> [JSONNode] {
        if depth > JSONValueReader.maximumDepth { throw failure("objects and arrays are nested more than \(JSONValueReader.maximumDepth) deep") }
        let open = location(of: position)
        position += 1
        var items: [JSONNode] = []
        try skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return items
        }
        while true {
            items.append(try readValue(depth: depth + 1, keyPath: "\(keyPath)[\(items.count)]"))
            let closed = try readSeparator(close: UInt8(ascii: "]"), open: open, container: "array", after: "an array item")
            if closed { return items }
        }
    }

    /// What follows an item of a container: `,` and more (`false`), or the closing `close` (`true`).
    private mutating func readSeparator(close: UInt8, open: (line: Int, column: Int), container: String, after: String) throws(JSONReadError)
        -> Bool
    {
        let closing = close == UInt8(ascii: "}") ? "'}'" : "']'"
        try skipWhitespace()
        switch current {
        case UInt8(ascii: ",")?:
            let comma = position
            position += 1
            try skipWhitespace()
            if current == close { throw failure("trailing comma: JSON allows no ',' before \(closing)", at: comma) }
            return false
        case close?:
            position += 1
            return true
        case nil:
            throw failure(
                "unexpected end of the file; expected ',' or \(closing) (the \(container) at line \(open.line), column \(open.column) is not closed)")
        default: throw failure("expected ',' or \(closing) after \(after)")
        }
    }

    // MARK: Strings and numbers

    /// The string at the current position (its opening quote), decoded.
    private mutating func readString() throws(JSONReadError) -> String {
        let open = position
        do throws(JSONScanProblem) {
            return try JSONScan.string(in: bytes, at: &position)
        } catch {
            throw stringFailure(error, open: open)
        }
    }

    /// A string's problem, in the reader's words.
    private mutating func stringFailure(_ problem: JSONScanProblem, open: Int) -> JSONReadError {
        let surrogates = "a high surrogate must be followed by a low one (\\uDC00 to \\uDFFF)"
        switch problem {
        case .unterminated(_, let at):
            let (line, column) = location(of: open)
            return failure("unexpected end of the file in a string (the string at line \(line), column \(column) is not closed)", at: at)
        case .controlCharacter(let at) where bytes[at] == 0x0A || bytes[at] == 0x0D:
            return failure("a line break in a string (is a closing '\"' missing? write \\n for a line break)", at: at)
        case .controlCharacter(let at):
            return failure("control character \(shown(at: at)) in a string; write it as \\u\(JSONMessageText.hex(UInt32(bytes[at])))", at: at)
        case .endInEscape(let at): return failure("unexpected end of the file in a string's escape", at: at)
        case .unknownEscape(let escape):
            let letter = bytes[escape + 1]
            let shown = Self.isWordByte(letter) || (0x21..<0x7F).contains(letter) ? String(UnicodeScalar(letter)) : shown(at: escape + 1)
            return failure("invalid escape '\\\(shown)' in a string; the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX", at: escape)
        case .hexCut(let escape, _), .badHexDigit(let escape, _):
            return failure("invalid escape: '\\u' must be followed by four hex digits", at: escape)
        case .highSurrogateAlone(let escape, let value, _), .highSurrogateUnpaired(let escape, let value, _):
            return failure("unpaired surrogate '\\u\(JSONMessageText.hex(value))': \(surrogates)", at: escape)
        case .lowSurrogateAlone(let escape, let value, _):
            return failure(
                "unpaired surrogate '\\u\(JSONMessageText.hex(value))': a low surrogate must follow a high one (\\uD800 to \\uDBFF)", at: escape)
        case .noCharacter(let escape, let value, _): return failure("invalid escape '\\u\(JSONMessageText.hex(value))'", at: escape)
        case .invalidUTF8(let string): return failure("the string here is not valid UTF-8", at: string)
        case .noDigits, .leadingZero, .noFractionDigits, .noExponentDigits, .notANumber: return failure("expected a string", at: open)
        }
    }

    /// The number at the current position, as written and its value. A number that a letter, `.`
    /// or `+` follows is refused whole (`20pt`, `1.5.2`).
    private mutating func readNumber() throws(JSONReadError) -> JSONValue {
        let start = position
        let value: Double
        do throws(JSONScanProblem) {
            value = try JSONScan.number(in: bytes, at: &position)
        } catch {
            let reason: String
            switch error {
            case .leadingZero: reason = "leading zeros are not allowed"
            case .noFractionDigits: reason = "a digit must follow '.'"
            case .noExponentDigits: reason = "the exponent has no digits"
            case .noDigits: reason = "a digit must follow '-'"
            default: reason = ""
            }
            throw invalidNumber(at: start, reason)
        }
        if let byte = current, Self.isWordByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") {
            throw invalidNumber(at: start, "")
        }
        return .number(bytes.string(start..<position), value)
    }

    /// `invalid number 'TOKEN': REASON`, where the token is the number and the letters, digits and
    /// signs that run on from it.
    private mutating func invalidNumber(at start: Int, _ reason: String) -> JSONReadError {
        var end = start
        while end < bytes.count,
            Self.isWordByte(bytes[end]) || bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-")
        {
            end += 1
        }
        let token = JSONMessageText.cut(bytes.string(start..<max(end, start + 1)))
        return failure("invalid number '\(token)'" + (reason.isEmpty ? "" : ": " + reason), at: start)
    }
}
