import ResponderBus

/// Writes bytes into a fixed stretch of memory, checking the bounds on every write; when the text
/// does not fit, it notes the overflow and writes nothing more (the caller retries with more room).
///
/// The writer's audited layer. Invariant: a cursor exists only inside ``append(to:_:)``'s `write`
/// (it is made there and passed `inout`; a copy lives only in a local of that closure, such as a
/// `JSONObjectWriter`), so `base` is the scratch memory (or the new array's room) that call allocated,
/// valid and `capacity` bytes long for the cursor's whole life; every write below checks `count + n <= capacity` first. Records are encoded through this rather than by appending to an
/// array piece by piece (see the benchmark documentation for what that costs).
struct ByteCursor {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// Bytes written so far.
    private(set) var count = 0
    /// Whether a write did not fit.
    private(set) var overflowed = false

    private init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// Appends what `write` writes to `bytes`: written into scratch memory on the stack, with room
    /// for a typical record first and more when it did not fit, then appended in one piece.
    ///
    /// A record past a mebibyte (a scene of thousands of views) is written instead into a new
    /// array holding `bytes` and room for it, which becomes `bytes`: a line of tens of megabytes
    /// is held once, not in scratch memory and again in `bytes`.
    static func append(to bytes: inout [UInt8], _ write: (inout ByteCursor) -> Void) {
        var room = 512
        while room <= 1 << 20 {
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
        while true {
            // Only the pages written are touched: an attempt that does not fit is given back whole.
            var fits = false
            let grown = [UInt8](unsafeUninitializedCapacity: bytes.count + room) { buffer, initialized in
                let kept = buffer.initialize(fromContentsOf: bytes)
                var cursor = ByteCursor(base: buffer.baseAddress! + kept, capacity: room)
                write(&cursor)
                fits = !cursor.overflowed
                initialized = fits ? kept + cursor.count : 0
            }
            if fits {
                bytes = grown
                return
            }
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

    /// The bytes of `source` in `range`.
    @inline(__always)
    mutating func bytes(_ source: [UInt8], _ range: Range<Int>) {
        source[range].withUnsafeBufferPointer { bytes($0) }
    }

    /// ``JSONText/string(_:)``'s text: `value` quoted, with the escapes JSON requires. Its bytes are
    /// scanned where the String keeps them (`withUTF8`) rather than through its `utf8` view (the
    /// table of speed tricks in `Benchmarks/README.md` has the difference).
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
                        ascii("\\u00")
                        byte(UInt8(ascii: "0") + unit >> 4)  // below 0x20: the first digit is 0 or 1
                        byte(unit & 0xF < 10 ? UInt8(ascii: "0") + unit & 0xF : UInt8(ascii: "a") + unit & 0xF - 10)
                    default:
                        // Bytes of multi-byte characters pass through: the text stays UTF-8.
                        byte(unit)
                    }
                }
            }
            byte(UInt8(ascii: "\""))
        }
    }

    /// The UTF-8 bytes of `text`, as they are.
    @inline(__always)
    mutating func utf8(_ text: String) {
        var text = text
        text.withUTF8 { bytes($0) }
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

}
