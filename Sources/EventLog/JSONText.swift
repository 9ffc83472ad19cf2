import ResponderBus

/// Writes JSON text the way the log format wants it; public for tools that print values as logs
/// hold them.
///
/// The `append` forms write UTF-8 bytes straight into a buffer (what ``LogWriter`` uses for every
/// record: no intermediate strings); the `String` forms are for occasional text.
public enum JSONText {
    /// A number in its shortest round-tripping form, whole numbers without a fraction (`521`, not
    /// `521.0`); `null` for NaN and infinities, which JSON cannot hold.
    public static func number(_ value: Double) -> String {
        var bytes: [UInt8] = []
        appendNumber(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A JSON string literal, with the escapes JSON requires.
    public static func string(_ value: String) -> String {
        var bytes: [UInt8] = []
        appendString(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``number(_:)``'s text to `out`.
    public static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else {
            append("null", to: &out)
            return
        }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            appendInteger(Int64(value), to: &out)  // -0 becomes 0
            return
        }
        // Times and sizes usually have at most three decimals: when the value is the double nearest
        // to n / 1000 and small enough that neighbouring thousandths are distinct doubles, the
        // decimals of n without trailing zeros are its shortest round-tripping form, which is what
        // `description` would print (a test compares the two over millions of values).
        let thousandths = (value * 1000).rounded()
        if abs(value) < 1e9, abs(value) >= 1e-3, thousandths / 1000 == value {
            let whole = Int64(thousandths) / 1000
            var fraction = abs(Int64(thousandths) % 1000)
            if value < 0 && whole == 0 { out.append(UInt8(ascii: "-")) }
            appendInteger(whole, to: &out)
            out.append(UInt8(ascii: "."))
            var digits = 3
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            // Leading zeros of the fraction (0.05 → "05").
            var scale: Int64 = 1
            for _ in 1..<digits { scale *= 10 }
            while scale > fraction {
                out.append(UInt8(ascii: "0"))
                scale /= 10
            }
            appendInteger(fraction, to: &out)
            return
        }
        // Swift's shortest round-tripping form; at most 24 bytes, so usually a small string.
        var text = value.description
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Appends a whole number in decimal.
    public static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        var magnitude = value.magnitude
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let start = out.count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        out.withUnsafeMutableBufferPointer { buffer in
            var index = start + digits - 1
            repeat {
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
                index -= 1
            } while magnitude > 0
        }
    }

    /// Appends ``string(_:)``'s text to `out`.
    public static func appendString(_ value: String, to out: inout [UInt8]) {
        var value = value
        value.withUTF8 { bytes in
            out.append(UInt8(ascii: "\""))
            // Fast path: nothing to escape (the usual ids, names and messages).
            if !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                out.append(contentsOf: bytes)
            } else {
                for byte in bytes {
                    switch byte {
                    case UInt8(ascii: "\""): append("\\\"", to: &out)
                    case UInt8(ascii: "\\"): append("\\\\", to: &out)
                    case 0x0A: append("\\n", to: &out)
                    case 0x0D: append("\\r", to: &out)
                    case 0x09: append("\\t", to: &out)
                    case 0x08: append("\\b", to: &out)
                    case 0x0C: append("\\f", to: &out)
                    case ..<0x20:
                        let hex: StaticString = "0123456789abcdef"
                        append("\\u00", to: &out)
                        out.append(hex.utf8Start[Int(byte >> 4)])
                        out.append(hex.utf8Start[Int(byte & 0xF)])
                    default:
                        // Bytes of multi-byte characters pass through: the text stays UTF-8.
                        out.append(byte)
                    }
                }
            }
            out.append(UInt8(ascii: "\""))
        }
    }

    /// Appends `[x,y,width,height]`.
    static func appendRect(_ rect: Rect, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        appendNumber(rect.origin.x, to: &out)
        out.append(UInt8(ascii: ","))
        appendNumber(rect.origin.y, to: &out)
        out.append(UInt8(ascii: ","))
        appendNumber(rect.size.width, to: &out)
        out.append(UInt8(ascii: ","))
        appendNumber(rect.size.height, to: &out)
        out.append(UInt8(ascii: "]"))
    }

    /// Appends literal ASCII text.
    @inline(__always)
    static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}

/// Writes one JSON object's members into a byte buffer. The caller writes them in sorted key order
/// (the format's rule, so that logs diff cleanly); debug builds check that it did.
struct JSONObjectWriter {
    var out: [UInt8]
    private var first = true
    #if DEBUG
    private var lastKey: StaticString?
    #endif

    /// Starts an object at the end of `buffer`, which the writer takes over until ``finish(into:)``.
    /// (Swaps, never copies: a copy of a large output buffer per record would be ruinous.)
    init(into buffer: inout [UInt8]) {
        out = []
        swap(&out, &buffer)
        out.append(UInt8(ascii: "{"))
    }

    /// Starts a member: writes the comma if needed and `"key":`.
    @inline(__always)
    mutating func key(_ key: StaticString) {
        #if DEBUG
        if let lastKey {
            let ordered = UnsafeBufferPointer(start: lastKey.utf8Start, count: lastKey.utf8CodeUnitCount)
                .lexicographicallyPrecedes(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
            assert(ordered, "JSON keys written out of order: \(lastKey) before \(key)")
        }
        lastKey = key
        #endif
        if !first { out.append(UInt8(ascii: ",")) }
        first = false
        out.append(UInt8(ascii: "\""))
        JSONText.append(key, to: &out)
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    mutating func number(_ key: StaticString, _ value: Double) {
        self.key(key)
        JSONText.appendNumber(value, to: &out)
    }

    mutating func integer(_ key: StaticString, _ value: Int) {
        self.key(key)
        JSONText.appendInteger(Int64(value), to: &out)
    }

    mutating func string(_ key: StaticString, _ value: String) {
        self.key(key)
        JSONText.appendString(value, to: &out)
    }

    mutating func optionalString(_ key: StaticString, _ value: String?) {
        self.key(key)
        if let value { JSONText.appendString(value, to: &out) } else { JSONText.append("null", to: &out) }
    }

    mutating func bool(_ key: StaticString, _ value: Bool) {
        self.key(key)
        JSONText.append(value ? "true" : "false", to: &out)
    }

    mutating func rect(_ key: StaticString, _ value: Rect) {
        self.key(key)
        JSONText.appendRect(value, to: &out)
    }

    /// Writes `key` and, as its value, the object `body` writes.
    mutating func object(_ key: StaticString, _ body: (inout JSONObjectWriter) -> Void) {
        self.key(key)
        var inner = JSONObjectWriter(into: &out)
        body(&inner)
        inner.finish(into: &out)
    }

    /// Writes `key` and, as its value, an array with one object per element.
    mutating func objects<Element>(_ key: StaticString, _ elements: [Element], _ body: (inout JSONObjectWriter, Element) -> Void) {
        self.key(key)
        out.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            var inner = JSONObjectWriter(into: &out)
            body(&inner, element)
            inner.finish(into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Writes `key` and `[a,b]`.
    mutating func pair(_ key: StaticString, _ a: Double, _ b: Double) {
        self.key(key)
        out.append(UInt8(ascii: "["))
        JSONText.appendNumber(a, to: &out)
        out.append(UInt8(ascii: ","))
        JSONText.appendNumber(b, to: &out)
        out.append(UInt8(ascii: "]"))
    }

    /// Closes the object and hands the buffer back to `buffer`.
    mutating func finish(into buffer: inout [UInt8]) {
        out.append(UInt8(ascii: "}"))
        swap(&out, &buffer)
    }
}
