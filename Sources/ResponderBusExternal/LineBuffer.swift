/// Bytes read from a pipe, handed out a line at a time: what both ends of the protocol read with.
///
/// Only what arrived since the last look is searched for a line break (a scene can be megabytes,
/// read 64 KiB at a time), and a line may be at most ``maximumLength`` long.
struct LineBuffer {
    /// The longest line either side may write: a longer one is a fault, not a reason to fill memory.
    static let maximumLength = 16 << 20

    private var bytes: [UInt8] = []
    private var start = 0
    /// How far `bytes` has been searched for a line break.
    private var scanned = 0

    /// Whether nothing is held.
    var isEmpty: Bool { start == bytes.count }

    /// Whether the unfinished line held is already longer than ``maximumLength``.
    var isOverlong: Bool { bytes.count - start > Self.maximumLength }

    /// The next complete line (without its line break), or `nil` until one has arrived.
    mutating func nextLine() -> ArraySlice<UInt8>? {
        if let newline = bytes[max(start, scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = bytes[start..<newline]
            start = newline + 1
            scanned = start
            return line
        }
        scanned = bytes.count
        if start > 0 {
            bytes.removeFirst(start)
            scanned -= start
            start = 0
        }
        return nil
    }

    /// What is left, once the input has ended: an unfinished last line, or `nil`.
    mutating func rest() -> ArraySlice<UInt8>? {
        guard !isEmpty else { return nil }
        let last = bytes[start...]
        bytes = []
        start = 0
        scanned = 0
        return last
    }

    /// Adds what was read.
    mutating func append(_ chunk: ArraySlice<UInt8>) {
        bytes.append(contentsOf: chunk)
    }

    /// Adds what a read callback left.
    mutating func append(_ chunk: borrowing PipeBytes) {
        chunk.appendAll(to: &bytes)
    }
}
