import ResponderBus

/// Writes bytes into a fixed stretch of memory, checking the bounds on every write; when the text
/// does not fit, it notes the overflow and writes nothing more (the caller retries with more room).
///
/// The writer's audited layer. Invariant: a cursor exists only inside ``append(to:_:)``'s `write`
/// (it is passed `inout` and never stored), so `base` is the scratch memory that call allocated,
/// valid and `capacity` bytes long for the cursor's whole life; every write below checks
/// `count + n <= capacity` first. Records are encoded through this rather than by appending to an
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

    /// The bytes of `source` in `range`.
    @inline(__always)
    mutating func bytes(_ source: [UInt8], _ range: Range<Int>) {
        source.withUnsafeBufferPointer { bytes(UnsafeBufferPointer(rebasing: $0[range])) }
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
