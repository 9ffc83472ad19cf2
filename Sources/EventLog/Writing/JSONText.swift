import ResponderBus

/// Writes JSON text the way the log format wants it; public for tools that print values as logs
/// hold them.
public enum JSONText {
    /// A number in its shortest round-tripping form, whole numbers without a fraction (`521`, not
    /// `521.0`); `null` for NaN and infinities, which JSON cannot hold.
    public static func number(_ value: Double) -> String {
        text { $0.number(value) }
    }

    /// A JSON string literal, with the escapes JSON requires.
    public static func string(_ value: String) -> String {
        text { $0.string(value) }
    }

    /// The text `write` writes, as a `String`.
    static func text(_ write: (inout ByteCursor) -> Void) -> String {
        var bytes: [UInt8] = []
        ByteCursor.append(to: &bytes, write)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension ByteCursor {
    /// ``JSONText/number(_:)``'s text.
    mutating func number(_ value: Double) {
        guard value.isFinite else {
            ascii("null")
            return
        }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            integer(Int64(value))  // -0 becomes 0
            return
        }
        // Times and sizes usually have at most three decimals: when the value is the double nearest
        // to n / 1000 and small enough that neighbouring thousandths are distinct doubles, the
        // decimals of n without trailing zeros are its shortest round-tripping form, which is what
        // `description` would print (a test compares the two over many values).
        let thousandths = (value * 1000).rounded()
        if abs(value) < 1e9, abs(value) >= 1e-3, thousandths / 1000 == value {
            let whole = Int64(thousandths) / 1000
            var fraction = abs(Int64(thousandths) % 1000)
            if value < 0 && whole == 0 { byte(UInt8(ascii: "-")) }
            integer(whole)
            byte(UInt8(ascii: "."))
            var digits = 3
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            // Leading zeros of the fraction (0.05 → "05").
            var scale: Int64 = 1
            for _ in 1..<digits { scale *= 10 }
            while scale > fraction {
                byte(UInt8(ascii: "0"))
                scale /= 10
            }
            integer(fraction)
            return
        }
        // Swift's shortest round-tripping form; at most 24 bytes, so usually a small string.
        utf8(value.description)
    }

    /// `[x,y,width,height]`.
    mutating func rect(_ rect: Rect) {
        byte(UInt8(ascii: "["))
        number(rect.origin.x)
        byte(UInt8(ascii: ","))
        number(rect.origin.y)
        byte(UInt8(ascii: ","))
        number(rect.size.width)
        byte(UInt8(ascii: ","))
        number(rect.size.height)
        byte(UInt8(ascii: "]"))
    }
}

/// Writes one JSON object's members. The caller writes them in sorted key order (the format's
/// rule, so that logs diff cleanly); debug builds check that it did.
struct JSONObjectWriter {
    var out: ByteCursor
    private var first = true
    #if DEBUG
        private var lastKey: StaticString?
    #endif

    /// Starts an object at the cursor, which the writer takes over until ``finish(into:)``.
    init(into cursor: inout ByteCursor) {
        out = cursor
        out.byte(UInt8(ascii: "{"))
    }

    /// Starts a member: writes the comma if needed and `"key":`.
    @inline(__always)
    mutating func key(_ key: StaticString) {
        #if DEBUG
            if let lastKey {
                let ordered = "\(lastKey)".utf8.lexicographicallyPrecedes("\(key)".utf8)
                assert(ordered, "JSON keys written out of order: \(lastKey) before \(key)")
            }
            lastKey = key
        #endif
        if !first { out.byte(UInt8(ascii: ",")) }
        first = false
        out.byte(UInt8(ascii: "\""))
        out.ascii(key)
        out.byte(UInt8(ascii: "\""))
        out.byte(UInt8(ascii: ":"))
    }

    mutating func number(_ key: StaticString, _ value: Double) {
        self.key(key)
        out.number(value)
    }

    mutating func integer(_ key: StaticString, _ value: Int) {
        self.key(key)
        out.integer(Int64(value))
    }

    mutating func string(_ key: StaticString, _ value: String) {
        self.key(key)
        out.string(value)
    }

    mutating func optionalString(_ key: StaticString, _ value: String?) {
        self.key(key)
        if let value { out.string(value) } else { out.ascii("null") }
    }

    mutating func bool(_ key: StaticString, _ value: Bool) {
        self.key(key)
        out.ascii(value ? "true" : "false")
    }

    mutating func rect(_ key: StaticString, _ value: Rect) {
        self.key(key)
        out.rect(value)
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
        out.byte(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            var inner = JSONObjectWriter(into: &out)
            body(&inner, element)
            inner.finish(into: &out)
        }
        out.byte(UInt8(ascii: "]"))
    }

    /// Writes `key` and an array of strings.
    mutating func strings(_ key: StaticString, _ values: [String]) {
        self.key(key)
        out.byte(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            out.string(value)
        }
        out.byte(UInt8(ascii: "]"))
    }

    /// Writes `key` and an object of strings, its keys in sorted (byte) order.
    mutating func stringMap(_ key: StaticString, _ map: [String: String]) {
        self.key(key)
        out.byte(UInt8(ascii: "{"))
        for (index, entry) in map.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }).enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            out.string(entry.key)
            out.byte(UInt8(ascii: ":"))
            out.string(entry.value)
        }
        out.byte(UInt8(ascii: "}"))
    }

    /// Writes `key` and `[a,b]`.
    mutating func pair(_ key: StaticString, _ a: Double, _ b: Double) {
        self.key(key)
        out.byte(UInt8(ascii: "["))
        out.number(a)
        out.byte(UInt8(ascii: ","))
        out.number(b)
        out.byte(UInt8(ascii: "]"))
    }

    /// Closes the object and hands the cursor back.
    mutating func finish(into cursor: inout ByteCursor) {
        out.byte(UInt8(ascii: "}"))
        cursor = out
    }
}
