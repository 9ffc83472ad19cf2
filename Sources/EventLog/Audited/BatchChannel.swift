import DequeModule

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bounded, ordered hand-off of batches from one thread to another, with a thread of its own for
/// one side: ``ReadAhead`` parses on it, the CLI's output encodes and writes on it.
///
/// Batches, not items, cross the lock, so its cost is spread over hundreds of records. At most
/// ``capacity`` batches wait, so memory stays flat however far ahead the producer could run. A
/// pthread mutex and condition variable, which ThreadSanitizer understands (see `Locked`).
///
/// A side that waits is woken only when it has a run of work: a producer waiting for room once
/// half the batches are taken, a consumer waiting for batches once ``wakesConsumerAt`` of them wait
/// (or the channel closes). Waking the other thread is a system call, and the faster side would
/// otherwise wake the slower one for every single batch (count the futex calls of the benchmark case
/// "replay 1000000 events, 3 plugins → /dev/null" with `strace -f -c -e futex` to see the
/// difference).
package final class BatchChannel<Batch>: @unchecked Sendable {
    /// How many batches may wait for the consumer.
    package let capacity: Int
    /// How many batches must wait before a waiting consumer is woken (1: at once).
    package let wakesConsumerAt: Int

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    // Guarded by `mutex`.
    private var ready = Deque<Batch>()
    private var closed = false
    private var cancelled = false
    private var thread: pthread_t?
    private var producerWaits = false
    private var consumerWaits = false

    /// Creates an empty channel.
    ///
    /// - Parameters:
    ///   - capacity: how many batches may wait.
    ///   - wakesConsumerAt: how many must wait before a waiting consumer is woken; 1 for a consumer
    ///     that wants each batch as soon as it is there, more for one that only has to keep up.
    package init(capacity: Int = 4, wakesConsumerAt: Int = 1) {
        precondition(capacity > 0 && wakesConsumerAt > 0 && wakesConsumerAt <= capacity)
        self.capacity = capacity
        self.wakesConsumerAt = wakesConsumerAt
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed = .allocate(capacity: 1)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        changed.deinitialize(count: 1)
        changed.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` on a new thread (the producer's or the consumer's side); ``join()`` waits for it.
    ///
    /// - Returns: `false` when no thread could be made; `body` has not run then.
    package func spawn(_ body: @escaping @Sendable () -> Void) -> Bool {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(ThreadStart(body)).toOpaque()
        let rc = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<ThreadStart>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, context)
        guard rc == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(context).release()
            return false
        }
        self.thread = thread
        return true
    }

    /// Waits for the thread ``spawn(_:)`` made, if any, to end. Call it from the other side only.
    package func join() {
        guard let thread else { return }
        pthread_join(thread, nil)
        self.thread = nil
    }

    /// Hands a batch over, waiting while ``capacity`` batches wait already.
    ///
    /// - Returns: `false` (and drops the batch) once the consumer has cancelled.
    @discardableResult
    package func put(_ batch: Batch) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while ready.count >= capacity && !cancelled {
            producerWaits = true
            pthread_cond_wait(changed, mutex)
        }
        producerWaits = false
        guard !cancelled else { return false }
        ready.append(batch)
        if consumerWaits && ready.count >= wakesConsumerAt { pthread_cond_broadcast(changed) }
        return true
    }

    /// The producer's last word: ``take()`` returns `nil` once the waiting batches are taken.
    package func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// The consumer's way out: waiting batches are dropped and ``put(_:)`` refuses from now on.
    package func cancel() {
        pthread_mutex_lock(mutex)
        cancelled = true
        ready.removeAll()
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// The next batch, waiting for one; `nil` once the producer has closed and all are taken.
    package func take() -> Batch? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while ready.isEmpty && !closed && !cancelled {
            consumerWaits = true
            pthread_cond_wait(changed, mutex)
        }
        consumerWaits = false
        guard let batch = ready.popFirst() else { return nil }
        if producerWaits && ready.count <= capacity / 2 { pthread_cond_broadcast(changed) }
        return batch
    }
}

/// What a new thread runs, passed through `pthread_create`'s context pointer.
private final class ThreadStart {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
