import ResponderBus

extension RecordParser {
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
        var mantissa: UInt64
        (mantissa, index) = digits(from: index)
        let integerDigits = index &- integerStart
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
        var fractionDigits = 0
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index &+= 1
            let fractionStart = index
            (mantissa, index) = digits(from: index, after: mantissa)
            fractionDigits = index &- fractionStart
            guard fractionDigits > 0 else { return nil }
        }
        guard integerDigits &+ fractionDigits <= 15 else { return nil }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
        position = index
        // Exact: both operands are exact doubles, so the quotient is correctly rounded.
        let value = Double(mantissa) / JSONScan.exactPowerOfTen(fractionDigits)
        return negative ? -value : value
    }

    /// The decimal digits from `index` on, appended to `value` (wrapping: the callers bound how
    /// many digits they take), and the index after the last.
    @inline(__always)
    private func digits(from index: Int, after value: UInt64 = 0) -> (value: UInt64, end: Int) {
        var index = index
        var value = value
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ UInt64(digit)
            index &+= 1
        }
        return (value, index)
    }

    /// Any JSON number (``JSONScan/number(in:at:)``), with the reasons a number is rejected.
    private mutating func parseAnyNumber() throws(LogReadError) -> Double {
        guard let first = peek() else { throw unexpectedEnd("a number") }
        let start = position
        if first == UInt8(ascii: "N") || first == UInt8(ascii: "I")
            || (first == UInt8(ascii: "-") && position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "I"))
        {
            throw error(.invalidValue, "NaN and infinite numbers are not allowed in a log; write a finite number")
        }
        let value: Double
        do throws(JSONScanProblem) {
            value = try JSONScan.number(in: bytes, at: &position)
        } catch {
            throw logError(error)
        }
        guard value.isFinite else {
            throw error(.invalidValue, at: start, "this number is too large to be finite; write a finite number")
        }
        return value
    }

    mutating func parseInt() throws(LogReadError) -> Int {
        let start = position
        skipWhitespace()
        // A short decimal is below 10^15, so it is whole exactly when its Int is it.
        if let short = shortDecimal(), Double(Int(short)) == short { return Int(short) }
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
        _ = peek()  // past whitespace, as every reader of a value is
        guard bytes.has(literal, at: position) else { return false }
        position += literal.utf8CodeUnitCount
        return true
    }

    /// `[x, y, width, height]`, read into four numbers.
    mutating func parseRect() throws(LogReadError) -> Rect {
        let start = position
        if let rect = wholeRect() ?? shortRect() { return rect }
        position = start
        return try parseAnyRect()
    }

    /// The commonest rectangle of all, `[x,y,width,height]` of whole numbers from 0 to 999,999,999
    /// with no sign, no leading zero and no whitespace inside, read in one tight pass; `nil` (and
    /// nothing consumed) for anything else, which ``shortRect()`` reads. Its value is the one
    /// ``shortRect()`` gives: each a whole number, exactly.
    @inline(__always)
    private mutating func wholeRect() -> Rect? {
        let count = bytes.count
        var index = position
        guard index < count, bytes[index] == UInt8(ascii: "[") else { return nil }
        index &+= 1
        var values: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        for element in 0..<4 {
            let start = index
            let value: UInt64
            (value, index) = self.digits(from: index)
            let digits = index &- start
            guard digits > 0, digits <= 9, digits == 1 || bytes[start] != UInt8(ascii: "0"), index < count,
                bytes[index] == (element == 3 ? UInt8(ascii: "]") : UInt8(ascii: ","))
            else { return nil }
            index &+= 1
            switch element {
            case 0: values.0 = value
            case 1: values.1 = value
            case 2: values.2 = value
            default: values.3 = value
            }
        }
        position = index
        return Rect(x: Double(values.0), y: Double(values.1), width: Double(values.2), height: Double(values.3))
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

}
