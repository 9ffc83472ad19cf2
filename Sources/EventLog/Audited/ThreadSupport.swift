import ResponderBusPlatform

/// A pthread mutex and a condition variable on it: the lock of the log's hand-offs between threads
/// (`BatchChannel`, `HelperThread`). ThreadSanitizer understands both, as it does not
/// `Synchronization.Mutex` (see `Locked`).
///
/// Part of the reader's audited layer. Its owner keeps the state the lock guards, and touches it
/// between ``lock()`` and ``unlock()`` only; ``wait()`` is called with the lock held.
final class ConditionLock {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }

    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }

    /// Releases the lock until woken (``wake()``), then takes it again. Call with the lock held.
    @inline(__always) func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every thread that waits.
    @inline(__always) func wake() { pthread_cond_broadcast(condition) }
}
