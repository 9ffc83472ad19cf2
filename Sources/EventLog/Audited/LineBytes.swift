import ResponderBusPlatform

/// One line's bytes, read where they lie (in the chunk the line splitter read, its buffer for a
/// line split across chunks, or an array a caller passed): the reader's audited buffer. The
/// parser reads lines through this type alone, so no other file of the reader touches a pointer.
///
/// Invariants:
/// - A `LineBytes` is made only here and by ``LineSplitter/withBytes(of:_:)``, and only passed to
///   a non-escaping closure: the memory it views is that array's or that chunk's, alive and
///   unchanged for the whole call. Nothing keeps one after the closure returns (the
///   `RecordParser` that holds one is a local of it).
/// - Every read is checked against ``count``, in release builds too: a byte by the subscript, a
///   run of bytes by the method that reads it. A parser's mistake is then a trap, never a read
///   beyond the line. (What the checks cost is in `Benchmarks/README.md`'s table of speed tricks.)
struct LineBytes {
    private let base: UnsafePointer<UInt8>?
    /// How many bytes the line has.
    let count: Int

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        base = buffer.baseAddress
        count = buffer.count
    }

    /// Calls `body` with the bytes of `array`.
    static func with<Result>(_ array: ArraySlice<UInt8>, _ body: (LineBytes) -> Result) -> Result {
        array.withUnsafeBufferPointer { body(LineBytes($0)) }
    }

    /// The byte at `index`.
    @inline(__always)
    subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < count, "a read beyond the line")
        return base.unsafelyUnwrapped[index]
    }

    /// The bytes from `start` on.
    @inline(__always)
    func dropFirst(_ start: Int) -> LineBytes {
        precondition(start >= 0 && start <= count, "a read beyond the line")
        return LineBytes(UnsafeBufferPointer(start: base.map { $0 + start }, count: count - start))
    }

    /// The eight bytes at `index`, the first in the lowest bits.
    @inline(__always)
    func word(at index: Int) -> UInt64 {
        precondition(index >= 0 && index + 8 <= count, "a read beyond the line")
        return UInt64(littleEndian: UnsafeRawPointer(base.unsafelyUnwrapped + index).loadUnaligned(as: UInt64.self))
    }

    /// The bytes in `range`, decoded as UTF-8 (invalid sequences repaired, as `String(decoding:as:)` does).
    func string(_ range: Range<Int>) -> String {
        String(decoding: buffer(range), as: UTF8.self)
    }

    /// The bytes in `range` as a String, or `nil` when they are not valid UTF-8.
    func validString(_ range: Range<Int>) -> String? {
        String(validating: buffer(range), as: UTF8.self)
    }

    /// The bytes in `range`, copied.
    func array(_ range: Range<Int>) -> [UInt8] {
        Array(buffer(range))
    }

    /// Whether `literal`'s bytes are at `start`.
    @inline(__always)
    func has(_ literal: StaticString, at start: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard start >= 0, start + length <= count else { return false }
        guard length > 0 else { return true }
        return Self.equal(base.unsafelyUnwrapped + start, literal.utf8Start, count: length)
    }

    /// When `literal` is at `start` with a quote right after it, the offset of that quote.
    @inline(__always)
    func end(of literal: StaticString, at start: Int) -> Int? {
        let end = start + literal.utf8CodeUnitCount
        guard start >= 0, end < count, self[end] == UInt8(ascii: "\""), has(literal, at: start) else { return nil }
        return end
    }

    /// Whether the `length` bytes at `start` are those of `other` from `offset`.
    @inline(__always)
    func has(_ other: [UInt8], from offset: Int, length: Int, at start: Int) -> Bool {
        precondition(length >= 0 && offset >= 0 && offset + length <= other.count, "a read beyond the spelling")
        guard start >= 0, start + length <= count else { return false }
        guard length > 0 else { return true }
        return other.withUnsafeBufferPointer { Self.equal(base.unsafelyUnwrapped + start, $0.baseAddress! + offset, count: length) }
    }

    private func buffer(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "a read beyond the line")
        return UnsafeBufferPointer(start: base.map { $0 + range.lowerBound }, count: range.count)
    }

    /// Whether `count` bytes at `a` and `b` are equal: a few word compares for short runs (a key, an
    /// event's name), `memcmp` beyond.
    @inline(__always)
    private static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        let a = UnsafeRawPointer(a)
        let b = UnsafeRawPointer(b)
        @inline(__always) func same<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> Bool {
            a.loadUnaligned(fromByteOffset: offset, as: T.self) == b.loadUnaligned(fromByteOffset: offset, as: T.self)
        }
        switch count {
        case 0: return true
        case 1: return same(0, UInt8.self)
        case 2...3: return same(0, UInt16.self) && same(count - 2, UInt16.self)
        case 4...7: return same(0, UInt32.self) && same(count - 4, UInt32.self)
        case 8...16: return same(0, UInt64.self) && same(count - 8, UInt64.self)
        case 17...32: return same(0, UInt64.self) && same(8, UInt64.self) && same(count - 16, UInt64.self) && same(count - 8, UInt64.self)
        default: return memcmp(a, b, count) == 0
        }
    }
}
