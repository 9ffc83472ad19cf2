import ResponderBusPlatform

/// The loop thread's pthread plumbing: starting it (a `SystemThread` of the platform layer) with
/// its core, and marking it as the core's thread.
///
/// Invariants (ResponderBusUV's audited layer): the thread's closure holds a strong reference to
/// the core until the thread ends, so the core outlives its thread's work. The thread-specific
/// slot holds the running core's address, unretained, set by the loop thread at its start and
/// cleared before it ends; it is only ever compared (``isCurrent(_:)``), never turned back into a
/// reference. Any thread.
enum UVLoopThread {
    /// The thread-specific slot that marks a loop thread: it holds the running core's address.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let rc = pthread_key_create(&key, nil)
        precondition(rc == 0, "UVEventLoop: pthread_key_create failed (\(rc))")
        return key
    }()

    /// Starts the loop thread of `core` (``UVLoopCore/runLoopThread()``); stops the process with a
    /// message when no thread can be had.
    static func start(_ core: UVLoopCore) -> SystemThread {
        guard let thread = SystemThread.start({ core.runLoopThread() }) else {
            preconditionFailure("UVEventLoop: cannot start the loop thread: pthread_create failed")
        }
        return thread
    }

    /// Marks the calling thread as the loop thread of `core`, or (`nil`) as none's.
    static func markCurrent(_ core: UVLoopCore?) {
        pthread_setspecific(key, core.map { Unmanaged.passUnretained($0).toOpaque() })
    }

    /// Whether the calling thread is the loop thread of `core`.
    @inline(__always)
    static func isCurrent(_ core: UVLoopCore) -> Bool {
        pthread_getspecific(key) == Unmanaged.passUnretained(core).toOpaque()
    }
}
