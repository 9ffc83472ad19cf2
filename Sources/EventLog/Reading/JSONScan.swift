// The scanning of JSON strings and numbers that both of EventLog's readers share: the log's
// `RecordParser` (one record a line, as fast as a replay needs) and `JSONValueReader` (a document
// people write by hand, such as a project file). What is wrong is found here once, as a
// `JSONScanProblem` that says where in offsets; each reader words it for its own readers (a log's
// messages are the ones the log reader has always given).
//
// The log's common strings and numbers never come here: `RecordParser` reads verbatim strings
// (`verbatimStringEnd`) and short decimals (`shortDecimal`) itself, and comes here for the rest.

/// What is wrong with a JSON string or number, and where (byte offsets in the bytes scanned).
enum JSONScanProblem: Error {
    /// The bytes end inside the string whose opening quote is at `string`; `at` is the end.
    case unterminated(string: Int, at: Int)
    /// A byte below 0x20 inside a string, at `at`.
    case controlCharacter(at: Int)
    /// The bytes end right after a backslash; `at` is the end.
    case endInEscape(at: Int)
    /// The backslash at `escape` is followed by a byte that starts no escape.
    case unknownEscape(escape: Int)
    /// The bytes end within the four hex digits of the `\u` escape at `escape`; `at` is the offset
    /// after its `u`.
    case hexCut(escape: Int, at: Int)
    /// The byte at `at` is no hex digit, within the four of the `\u` escape at `escape`.
    case badHexDigit(escape: Int, at: Int)
    /// The high surrogate `value`, escaped at `escape`, is not followed by a `\u` escape; `at` is
    /// the offset after its digits.
    case highSurrogateAlone(escape: Int, value: UInt32, at: Int)
    /// The high surrogate `value`, escaped at `escape`, is followed by an escape that is no low
    /// surrogate; `at` is the offset after that escape's digits.
    case highSurrogateUnpaired(escape: Int, value: UInt32, at: Int)
    /// The low surrogate `value`, escaped at `escape`, has no high surrogate before it; `at` is the
    /// offset after its digits.
    case lowSurrogateAlone(escape: Int, value: UInt32, at: Int)
    /// The `\u` escape at `escape` (of `value`) is no character; `at` is the offset after it.
    case noCharacter(escape: Int, value: UInt32, at: Int)
    /// The string whose opening quote is at `string` is not valid UTF-8.
    case invalidUTF8(string: Int)
    /// The number at `number` has no digit where its integer part should be (after a `-`, or none
    /// at all).
    case noDigits(number: Int)
    /// The number at `number` starts with a 0 that more digits follow.
    case leadingZero(number: Int)
    /// The number at `number` has no digit after its decimal point, at `at`.
    case noFractionDigits(number: Int, at: Int)
    /// The number at `number` has an exponent without digits; `at` is where they should be.
    case noExponentDigits(number: Int, at: Int)
    /// The standard library read no number in the bytes from `number` to `end`.
    case notANumber(number: Int, end: Int)
}

/// Reads JSON strings and numbers out of a line's (or a document's) bytes, from an offset.
enum JSONScan {
    /// 10^exponent for 0...15: exact, as every power of ten up to 10^22 is a double, and so is each
    /// step of the product. (A loop of a few multiplications rather than a table or a switch, which
    /// would make the number readers too large to be inlined.)
    @inline(__always)
    static func exactPowerOfTen(_ exponent: Int) -> Double {
        var power = 1.0
        var remaining = exponent
        while remaining > 0 {
            power *= 10
            remaining &-= 1
        }
        return power
    }

    // MARK: Strings

    /// The string whose opening quote is at `position`, decoded; `position` ends after its closing
    /// quote. A string without escapes is made from its bytes where they lie; one with escapes
    /// goes on in ``escapedString(in:string:at:)``.
    @inline(__always)
    static func string(in bytes: LineBytes, at position: inout Int) throws(JSONScanProblem) -> String {
        let start = position
        position += 1
        let contentStart = position
        var ascii = true
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let content = contentStart..<position
                position += 1
                if ascii { return bytes.string(content) }
                guard let text = bytes.validString(content) else { throw .invalidUTF8(string: start) }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw .controlCharacter(at: position) }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        guard position < bytes.count else { throw .unterminated(string: start, at: position) }
        return try escapedString(in: bytes, string: start, at: &position)
    }

    /// The rest of the string whose opening quote is at `start`, from the backslash at `position`.
    private static func escapedString(in bytes: LineBytes, string start: Int, at position: inout Int) throws(JSONScanProblem) -> String {
        var scalars: [UInt8] = bytes.array((start + 1)..<position)
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                guard let text = String(validating: scalars, as: UTF8.self) else { throw .invalidUTF8(string: start) }
                return text
            }
            if byte < 0x20 { throw .controlCharacter(at: position) }
            if byte != UInt8(ascii: "\\") {
                scalars.append(byte)
                position += 1
                continue
            }
            try escape(in: bytes, at: &position, into: &scalars)
        }
        throw .unterminated(string: start, at: position)
    }

    /// Decodes the escape whose backslash is at `position` into `scalars` (UTF-8).
    private static func escape(in bytes: LineBytes, at position: inout Int, into scalars: inout [UInt8]) throws(JSONScanProblem) {
        let escape = position
        position += 1
        guard position < bytes.count else { throw .endInEscape(at: position) }
        let letter = bytes[position]
        position += 1
        switch letter {
        case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): scalars.append(0x08)
        case UInt8(ascii: "f"): scalars.append(0x0C)
        case UInt8(ascii: "n"): scalars.append(0x0A)
        case UInt8(ascii: "r"): scalars.append(0x0D)
        case UInt8(ascii: "t"): scalars.append(0x09)
        case UInt8(ascii: "u"):
            var value = try hex4(in: bytes, escape: escape, at: &position)
            if (0xD800..<0xDC00).contains(value) {
                // A surrogate pair: \uD83D\uDE00.
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    throw .highSurrogateAlone(escape: escape, value: value, at: position)
                }
                let second = position
                position += 2
                let low = try hex4(in: bytes, escape: second, at: &position)
                guard (0xDC00..<0xE000).contains(low) else { throw .highSurrogateUnpaired(escape: escape, value: value, at: position) }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(value) {
                throw .lowSurrogateAlone(escape: escape, value: value, at: position)
            }
            guard let scalar = Unicode.Scalar(value) else { throw .noCharacter(escape: escape, value: value, at: position) }
            scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw .unknownEscape(escape: escape)
        }
    }

    /// The four hex digits at `position`, of the `\u` escape at `escape`.
    private static func hex4(in bytes: LineBytes, escape: Int, at position: inout Int) throws(JSONScanProblem) -> UInt32 {
        guard position + 4 <= bytes.count else { throw .hexCut(escape: escape, at: position) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw .badHexDigit(escape: escape, at: position)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    // MARK: Numbers

    /// Any JSON number at `position` (`-?int(.digits)?([eE][+-]?digits)?`), with `position` after
    /// it. Its value is the correctly rounded double, infinite when the number is too large for
    /// one (a reader that wants finite numbers checks). What follows the number is not looked at.
    static func number(in bytes: LineBytes, at position: inout Int) throws(JSONScanProblem) -> Double {
        let start = position
        var negative = false
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") {
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
            throw .noDigits(number: start)
        }
        if integerDigits > 1 && bytes[start + (negative ? 1 : 0)] == UInt8(ascii: "0") { throw .leadingZero(number: start) }
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
            guard fractionDigits > 0 || digits > integerDigits else { throw .noFractionDigits(number: start, at: position) }
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
            guard exponentDigits > 0 else { throw .noExponentDigits(number: start, at: position) }
        }
        let value: Double
        if !hasExponent && digits <= 15 {
            // Exact: both operands are exact doubles, so the quotient is correctly rounded.
            value = Double(mantissa) / exactPowerOfTen(fractionDigits)
        } else {
            guard let parsed = Double(bytes.string((start + (negative ? 1 : 0))..<position)) else {
                throw .notANumber(number: start, end: position)
            }
            value = parsed
        }
        return negative ? -value : value
    }
}
