import ResponderBusPlatform

/// What a pipe's read callback leaves for ``PluginProcess`` to take: the bytes read since it last
/// took them (into a buffer of 64 KiB made once), and whether the stream ended.
///
/// Invariants (the audited layer): the buffer is allocated once by ``PluginProcessHandles`` and
/// freed in its `deinit`, never before; the inbox itself lives at a fixed address there, which the
/// pipe's `data` points at. `bytes[0..<count]` holds what was read and `bytes[count..<capacity]`
/// is free: libuv writes only into the free part (lent by ``PluginProcessCallbacks/allocate``, and
/// only while the loop runs), ``PluginProcessHandles/readNow(_:)`` likewise, and ``take(_:)``
/// lends the read part as ``PipeBytes`` for the length of its closure. All on the thread of the
/// plugin that owns the handles.
struct PipeInbox {
    let bytes: UnsafeMutablePointer<UInt8>
    let capacity: Int
    /// How much of `bytes` holds what was read.
    var count = 0
    /// The stream ended (end of file, or a read error: the plugin is gone either way).
    var ended = false
    /// Reading stopped because `bytes` was full; it starts again once they are taken.
    var stopped = false

    /// Hands what was read to `body` and empties the buffer; how many bytes there were.
    @discardableResult
    mutating func take(_ body: (borrowing PipeBytes) -> Void) -> Int {
        let taken = count
        if taken > 0 {
            body(PipeBytes(start: bytes, count: taken))
            count = 0
        }
        return taken
    }
}

/// Bytes read from a plugin's pipe, lent to a reader for the length of a closure
/// (``PipeInbox/take(_:)``): what ``LineBuffer`` and ``ErrorLines`` read them through, with no
/// pointer of their own.
///
/// Invariants (the audited layer): the bytes belong to the ``PipeInbox`` that lends them, which
/// neither writes nor frees them while they are lent. The view is `~Copyable` and only ever lent
/// (`borrowing`), so it cannot be kept past the closure; every access is checked against ``count``.
struct PipeBytes: ~Copyable {
    private let start: UnsafePointer<UInt8>
    /// How many bytes there are.
    let count: Int

    fileprivate init(start: UnsafeMutablePointer<UInt8>, count: Int) {
        self.start = UnsafePointer(start)
        self.count = count
    }

    /// The index of the first `byte` at or after `from`, if any (`memchr`: a flood is searched at
    /// memory speed, whatever the build).
    func firstIndex(of byte: UInt8, from: Int) -> Int? {
        precondition(from >= 0 && from <= count, "PipeBytes: index out of range")
        guard let found = memchr(start + from, Int32(byte), count - from) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(start)
    }

    /// Appends the bytes in `range` to `array`.
    func append(_ range: Range<Int>, to array: inout [UInt8]) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "PipeBytes: range out of bounds")
        array.append(contentsOf: UnsafeBufferPointer(start: start + range.lowerBound, count: range.count))
    }

    /// Appends every byte to `array`.
    func appendAll(to array: inout [UInt8]) {
        array.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
    }
}

/// A write libuv finishes as the plugin reads (``PluginProcessHandles/startWrite(_:from:)``).
///
/// Invariants (the audited layer): `buffer` is the copy being written, allocated by
/// ``PluginProcessHandles/startWrite(_:from:)`` while no other write is pending, and freed exactly
/// once: by ``PluginProcessCallbacks/written`` when libuv ends the write (written, failed or
/// cancelled), at once when the write could not start, or by the handles' `deinit` when the loop
/// never ended it. On the thread of the plugin that owns the handles.
struct PendingWrite {
    var pending = false
    /// 0, or the libuv error the write ended with.
    var status: Int32 = 0
    /// The copy of the bytes being written; freed when the write ends.
    var buffer: UnsafeMutableRawPointer?
}
