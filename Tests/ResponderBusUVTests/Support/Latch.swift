import ResponderBusPlatform

/// A count-down latch on a pthread mutex and condition variable (visible to ThreadSanitizer).
///
/// `wait` gives up after a timeout, so that a test whose work never arrives fails instead of hanging.
final class Latch: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var count: Int

    init(_ count: Int = 1) {
        self.count = count
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition.initialize(to: pthread_cond_t())
        #if canImport(Darwin)
            // Darwin has no pthread_condattr_setclock: its timed wait reads the realtime clock.
            pthread_cond_init(condition, nil)
        #else
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        #endif
    }

    /// The clock `pthread_cond_timedwait` measures the deadline on (see `init`).
    private static var clock: clockid_t {
        #if canImport(Darwin)
            CLOCK_REALTIME
        #else
            CLOCK_MONOTONIC
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func countDown() {
        pthread_mutex_lock(mutex)
        count -= 1
        if count <= 0 { pthread_cond_broadcast(condition) }
        pthread_mutex_unlock(mutex)
    }

    /// Waits until the count reaches zero; `false` if `timeout` passed first.
    func wait(timeout: Duration = .seconds(10)) -> Bool {
        var deadline = timespec()
        clock_gettime(Self.clock, &deadline)
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
        deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while count > 0 {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
        }
        return count <= 0
    }
}
