import DequeModule
import ResponderBusPlatform

/// A bounded, ordered hand-off of batches from one thread to another, with a thread of its own for
/// one side: ``ReadAhead`` parses on it, the CLI's output encodes and writes on it.
///
/// Batches, not items, cross the lock, so its cost is spread over hundreds of records. At most
/// ``capacity`` batches wait, so memory stays flat however far ahead the producer could run. A
/// pthread mutex and condition variable (``ConditionLock``), which ThreadSanitizer understands.
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

    private let guarded = ConditionLock()
    // Guarded by `guarded`.
    private var ready = Deque<Batch>()
    private var closed = false
    private var cancelled = false
    private var thread: SystemThread?
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
    }

    /// Runs `body` on a new thread (the producer's or the consumer's side); ``join()`` waits for it.
    ///
    /// - Returns: `false` when no thread could be made; `body` has not run then.
    package func spawn(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard let thread = SystemThread.start(body) else { return false }
        self.thread = thread
        return true
    }

    /// Waits for the thread ``spawn(_:)`` made, if any, to end. Call it from the other side only.
    package func join() {
        guard let thread else { return }
        thread.join()
        self.thread = nil
    }

    /// Hands a batch over, waiting while ``capacity`` batches wait already.
    ///
    /// - Returns: `false` (and drops the batch) once the consumer has cancelled.
    @discardableResult
    package func put(_ batch: Batch) -> Bool {
        guarded.lock()
        defer { guarded.unlock() }
        while ready.count >= capacity && !cancelled {
            producerWaits = true
            guarded.wait()
        }
        producerWaits = false
        guard !cancelled else { return false }
        ready.append(batch)
        if consumerWaits && ready.count >= wakesConsumerAt { guarded.wake() }
        return true
    }

    /// The producer's last word: ``take()`` returns `nil` once the waiting batches are taken.
    package func close() {
        guarded.lock()
        closed = true
        guarded.wake()
        guarded.unlock()
    }

    /// The consumer's way out: waiting batches are dropped and ``put(_:)`` refuses from now on.
    package func cancel() {
        guarded.lock()
        cancelled = true
        ready.removeAll()
        guarded.wake()
        guarded.unlock()
    }

    /// The next batch, waiting for one; `nil` once the producer has closed and all are taken.
    package func take() -> Batch? {
        guarded.lock()
        defer { guarded.unlock() }
        while ready.isEmpty && !closed && !cancelled {
            consumerWaits = true
            guarded.wait()
        }
        consumerWaits = false
        guard let batch = ready.popFirst() else { return nil }
        if producerWaits && ready.count <= capacity / 2 { guarded.wake() }
        return batch
    }
}
