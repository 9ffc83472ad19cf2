import ResponderBus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Byte comparisons for the parser of log lines (see RecordParser.swift).

/// Whether `count` bytes at `a` and `b` are equal: a few word compares for short runs (a key, an
/// event's name), `memcmp` beyond.
@inline(__always)
func bytesEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
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

/// When `spelling` is at `start` in `bytes` and a quote right after it, the offset of that quote.
@inline(__always)
func spelledEnd(_ spelling: StaticString, in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int? {
    let count = spelling.utf8CodeUnitCount
    let end = start + count
    guard end < bytes.count, bytes[end] == UInt8(ascii: "\""), bytesEqual(bytes.baseAddress! + start, spelling.utf8Start, count: count)
    else { return nil }
    return end
}
