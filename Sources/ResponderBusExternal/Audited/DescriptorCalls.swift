import ResponderBusPlatform

/// The system calls that read and write bytes through pointers, for the code of this module that
/// speaks to the system outside libuv: a plugin process's standard streams (``PluginServer``).
///
/// Invariants (the audited layer): an array's storage is lent to one call for the length of that
/// call, and only the part its bounds allow (`read(2)` fills at most the whole array; `write(2)`
/// takes `bytes[offset...]`, the offset checked). Any thread: nothing is kept between calls.
enum DescriptorCalls {
    /// One `read(2)` from `descriptor` into `buffer` (at most its whole length): its result, a byte
    /// count or -1 with `errno` set.
    static func readChunk(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
        buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    }

    /// One `write(2)` of `bytes[offset...]` to `descriptor`: its result, a byte count or -1 with
    /// `errno` set.
    static func writeChunk(_ descriptor: Int32, _ bytes: [UInt8], from offset: Int = 0) -> Int {
        precondition(offset >= 0 && offset <= bytes.count, "DescriptorCalls.writeChunk: offset out of range")
        return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
    }
}
