import DequeModule

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and parses a log on a thread of its own, a few batches ahead of the replay that consumes
/// it, so that parsing overlaps with delivery on a second core.
///
/// A virtual-time replay spends about a fifth of its time reading and parsing lines; the rest is
/// the bus, the plugins and the output, which must stay on the loop. The reader thread hands over
/// batches of ``LogReader/Item``s, in line order, through a bounded queue (``capacity`` batches of
/// ``batchSize`` items), so memory stays flat in the log's size. The consumer takes each item out of
/// its batch by moving it: nothing is copied or retained twice.
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
    /// How many batches may wait for the consumer.
    let capacity: Int

    // All of the below is guarded by `mutex`, except `reader`, which only the reader thread touches
    // between `init` and `finish()`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    private var ready = Deque<Batch>()
    private var done = false
    private var cancelled = false
    private var thread: pthread_t?
    private let reader: LogReader

    /// Starts reading `reader` on a new thread. Call ``finish()`` before touching `reader` again.
    init(_ reader: LogReader, batchSize: Int = 256, capacity: Int = 4) {
        precondition(batchSize > 0 && capacity > 0)
        self.reader = reader
        self.batchSize = batchSize
        self.capacity = capacity
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed = .allocate(capacity: 1)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)

        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let rc = pthread_create(&thread, nil, { context in
            let readAhead = Unmanaged<ReadAhead>.fromOpaque(context!).takeRetainedValue()
            readAhead.run()
            return nil
        }, context)
        if rc == 0 {
            self.thread = thread
        } else {
            // No thread to be had: read on the caller's thread instead, lazily, as if none were asked.
            Unmanaged<ReadAhead>.fromOpaque(context).release()
            self.thread = nil
        }
    }

    deinit {
        pthread_cond_destroy(changed)
        changed.deinitialize(count: 1)
        changed.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// The next batch, waiting for the reader thread if need be; `nil` at the end of the input.
    func next() -> Batch? {
        guard thread != nil else { return readBatch() }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while ready.isEmpty && !done { pthread_cond_wait(changed, mutex) }
        guard let batch = ready.popFirst() else { return nil }
        pthread_cond_broadcast(changed)
        return batch
    }

    /// Stops the reader thread (it may be ahead of the consumer) and waits for it. Idempotent; the
    /// reader may be used again afterwards.
    func finish() {
        guard let thread else { return }
        pthread_mutex_lock(mutex)
        cancelled = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
        pthread_join(thread, nil)
        self.thread = nil
        ready.removeAll()
    }

    // MARK: The reader thread

    private func run() {
        while let batch = readBatch() {
            pthread_mutex_lock(mutex)
            while ready.count >= capacity && !cancelled { pthread_cond_wait(changed, mutex) }
            let stop = cancelled
            if !stop {
                ready.append(batch)
                pthread_cond_broadcast(changed)
            }
            pthread_mutex_unlock(mutex)
            if stop { return }
        }
        pthread_mutex_lock(mutex)
        done = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
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
