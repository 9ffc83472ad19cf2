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

/// Writes bytes into a fixed stretch of memory, checking the bounds on every write; when the text
/// does not fit, it notes the overflow and writes nothing more (the caller retries with more room).
///
/// Records are encoded through this rather than by appending to an array piece by piece: an
/// array's append checks uniqueness and capacity each time, which cost more than the JSON itself.
struct ByteCursor {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// Bytes written so far.
    private(set) var count = 0
    /// Whether a write did not fit.
    private(set) var overflowed = false

    init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// Appends what `write` writes to `bytes`: written into scratch memory on the stack, with room
    /// for a typical record first and more when it did not fit, then appended in one piece.
    static func append(to bytes: inout [UInt8], _ write: (inout ByteCursor) -> Void) {
        var room = 512
        while true {
            let done = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { scratch -> Bool in
                var cursor = ByteCursor(base: scratch.baseAddress!, capacity: room)
                write(&cursor)
                guard !cursor.overflowed else { return false }
                bytes.append(contentsOf: UnsafeBufferPointer(start: scratch.baseAddress!, count: cursor.count))
                return true
            }
            if done { return }
            room *= 4
        }
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        guard count < capacity else {
            overflowed = true
            return
        }
        base[count] = value
        count += 1
    }

    @inline(__always)
    mutating func bytes(_ source: UnsafeBufferPointer<UInt8>) {
        guard source.count <= capacity - count else {
            overflowed = true
            return
        }
        if let address = source.baseAddress { (base + count).update(from: address, count: source.count) }
        count += source.count
    }

    /// Literal ASCII text.
    @inline(__always)
    mutating func ascii(_ text: StaticString) {
        bytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A whole number in decimal.
    mutating func integer(_ value: Int64) {
        var magnitude = value.magnitude
        if value < 0 { byte(UInt8(ascii: "-")) }
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        guard digits <= capacity - count else {
            overflowed = true
            return
        }
        var index = count + digits - 1
        repeat {
            base[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
        count += digits
    }

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
        var text = value.description
        text.withUTF8 { bytes($0) }
    }

    /// ``JSONText/string(_:)``'s text.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { source in
            byte(UInt8(ascii: "\""))
            // Fast path: nothing to escape (the usual ids, names and messages).
            if !source.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                bytes(source)
            } else {
                for unit in source {
                    switch unit {
                    case UInt8(ascii: "\""): ascii("\\\"")
                    case UInt8(ascii: "\\"): ascii("\\\\")
                    case 0x0A: ascii("\\n")
                    case 0x0D: ascii("\\r")
                    case 0x09: ascii("\\t")
                    case 0x08: ascii("\\b")
                    case 0x0C: ascii("\\f")
                    case ..<0x20:
                        let hex: StaticString = "0123456789abcdef"
                        ascii("\\u00")
                        byte(hex.utf8Start[Int(unit >> 4)])
                        byte(hex.utf8Start[Int(unit & 0xF)])
                    default:
                        // Bytes of multi-byte characters pass through: the text stays UTF-8.
                        byte(unit)
                    }
                }
            }
            byte(UInt8(ascii: "\""))
        }
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
                let ordered = UnsafeBufferPointer(start: lastKey.utf8Start, count: lastKey.utf8CodeUnitCount)
                    .lexicographicallyPrecedes(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
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
