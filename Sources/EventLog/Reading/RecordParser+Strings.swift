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

    /// A string value, decoded (``JSONScan/string(in:at:)``), with the log's words for what is
    /// wrong with it.
    mutating func parseString() throws(LogReadError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw unexpected("a string") }
        do throws(JSONScanProblem) {
            return try JSONScan.string(in: bytes, at: &position)
        } catch {
            throw logError(error)
        }
    }

    /// A problem ``JSONScan`` found in this line, in the words (and at the column) the log reader
    /// gives it.
    mutating func logError(_ problem: JSONScanProblem) -> LogReadError {
        switch problem {
        case .unterminated(_, let at):
            position = at
            return unexpectedEnd("the end of a string")
        case .controlCharacter(let at): return error(.malformedJSON, at: at, "a control character inside a string must be escaped")
        case .endInEscape(let at):
            position = at
            return unexpectedEnd("an escape")
        case .unknownEscape(let escape):
            return error(.malformedJSON, at: escape, "unknown escape '\\\(Character(Unicode.Scalar(bytes[escape + 1])))'")
        case .hexCut(_, let at):
            position = at
            return unexpectedEnd("four hex digits")
        case .badHexDigit(_, let at): return error(.malformedJSON, at: at, "expected a hex digit in a \\u escape")
        case .highSurrogateAlone(_, _, let at): return error(.malformedJSON, at: at, "a lone surrogate escape; pair \\uD8xx with \\uDCxx")
        case .highSurrogateUnpaired(_, _, let at), .lowSurrogateAlone(_, _, let at): return error(.malformedJSON, at: at, "a lone surrogate escape")
        case .noCharacter(_, _, let at): return error(.malformedJSON, at: at, "an escape that is no character")
        case .invalidUTF8(let string): return error(.invalidUTF8, at: string, "the string here is not valid UTF-8; logs are UTF-8 text")
        case .noDigits(let number):
            position = number
            return unexpected("a number")
        case .leadingZero(let number): return error(.malformedJSON, at: number, "a number must not start with 0")
        case .noFractionDigits(_, let at):
            position = at
            return unexpected("a digit after the decimal point")
        case .noExponentDigits(_, let at):
            position = at
            return unexpected("the digits of an exponent")
        case .notANumber(let number, let end):
            let text = bytes.string((bytes[number] == UInt8(ascii: "-") ? number + 1 : number)..<end)
            return error(.malformedJSON, at: number, "'\(text)' is not a number")
        }
    }

}
