import ResponderBus

extension RecordParser {
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
        do {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            while index + 8 <= bytes.count {
                let word = bytes.word(at: index)
                let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
                let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
                let hits =
                    ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
                    | ((word &- ones &* 0x20) & ~word) | word
                let flagged = hits & highs
                if flagged != 0 {
                    index += flagged.trailingZeroBitCount >> 3
                    return bytes[index] == UInt8(ascii: "\"") ? index : nil
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
            return bytes.string((ref.quote + 1)..<ref.end)
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
            return ref.end - ref.quote - 1 == count && bytes.has(literal, at: ref.quote + 1)
        }
        return string(ref) == "\(literal)"
    }

    /// The event kind `ref` names, `nil` for a name the format does not know.
    func eventKind(_ ref: StringRef) -> BuiltinEvent? {
        if ref.isVerbatim { return EventSpellings.table.known(in: bytes, at: ref.quote + 1)?.event }
        return BuiltinEvent(decoded: string(ref))
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
    mutating func skipString() throws(LogReadError) {
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
                let content = contentStart..<position
                position += 1
                if ascii { return bytes.string(content) }
                guard let text = bytes.validString(content) else {
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
        var scalars: [UInt8] = bytes.array(contentStart..<position)
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

}
