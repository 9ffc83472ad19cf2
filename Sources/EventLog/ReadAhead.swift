/// Reads and parses a log on a thread of its own, a few batches ahead of the replay that consumes
/// it, so that parsing overlaps with delivery on a second core.
///
/// A virtual-time replay spends about a fifth of its time reading and parsing lines; the rest is
/// the bus, the plugins and the output, which must stay on the loop. The reader thread hands over
/// batches of ``LogReader/Item``s, in line order, through a bounded `BatchChannel` (four batches
/// of ``batchSize`` items by default), so memory stays flat in the log's size. The consumer takes
/// each item out of its batch by moving it: nothing is copied or retained twice.
///
/// Only for inputs that end (a regular file or bytes in memory): a batch is handed over when it is
/// full, so a slow pipe or a followed file would see its records late.
final class ReadAhead: @unchecked Sendable {
    /// Items read together, with the reader's byte count after the last of them (for progress).
    final class Batch {
        let items: UnsafeMutablePointer<LogReader.Item>
        let count: Int
        let bytesConsumed: Int
        /// Items before this index have been moved out.
        var taken = 0

        init(_ items: UnsafeMutablePointer<LogReader.Item>, count: Int, bytesConsumed: Int) {
            self.items = items
            self.count = count
            self.bytesConsumed = bytesConsumed
        }

        /// Moves the next item out, or returns `nil` when the batch is used up.
        @inline(__always)
        func take() -> LogReader.Item? {
            guard taken < count else { return nil }
            defer { taken += 1 }
            return (items + taken).move()
        }

        deinit {
            (items + taken).deinitialize(count: count - taken)
            items.deallocate()
        }
    }

    /// How many items a batch holds at most.
    let batchSize: Int
    private let channel: BatchChannel<Batch>
    /// Touched only by the reader thread between `init` and ``finish()`` (or by the caller's
    /// thread, when no thread could be made).
    private let reader: LogReader
    private var threaded = false

    /// Starts reading `reader` on a new thread. Call ``finish()`` before touching `reader` again.
    init(_ reader: LogReader, batchSize: Int = 256, capacity: Int = 4) {
        precondition(batchSize > 0)
        self.reader = reader
        self.batchSize = batchSize
        channel = BatchChannel(capacity: capacity)
        // No thread to be had: `next()` reads on the caller's thread instead, as if none were asked.
        threaded = channel.spawn { [self] in
            while let batch = readBatch() {
                guard channel.put(batch) else { return }
            }
            channel.close()
        }
    }

    /// The next batch, waiting for the reader thread if need be; `nil` at the end of the input.
    func next() -> Batch? {
        threaded ? channel.take() : readBatch()
    }

    /// Stops the reader thread (it may be ahead of the consumer) and waits for it. Idempotent; the
    /// reader may be used again afterwards.
    func finish() {
        guard threaded else { return }
        channel.cancel()
        channel.join()
        threaded = false
    }

    /// Reads up to ``batchSize`` items; `nil` at the end of the input.
    private func readBatch() -> Batch? {
        let items = UnsafeMutablePointer<LogReader.Item>.allocate(capacity: batchSize)
        var count = 0
        while count < batchSize, let item = reader.next() {
            (items + count).initialize(to: item)
            count += 1
        }
        guard count > 0 else {
            items.deallocate()
            return nil
        }
        return Batch(items, count: count, bytesConsumed: reader.bytesConsumed)
    }
}
