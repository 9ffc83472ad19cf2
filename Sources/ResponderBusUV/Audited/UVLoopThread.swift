#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The loop thread's pthread plumbing: starting it with its core as `pthread_create`'s context,
/// marking it as the core's thread, and naming it.
///
/// Invariants (ResponderBusUV's audited layer): the context ``start(_:)`` hands `pthread_create` is
/// one retained reference to the core, which ``UVCallbacks/threadMain`` takes over (or which is
/// released here when no thread starts), so the core outlives its thread's work. The thread-specific
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
    static func start(_ core: UVLoopCore) -> pthread_t {
        var id = pthread_t()
        let context = Unmanaged.passRetained(core).toOpaque()
        let rc = pthread_create(&id, nil, UVCallbacks.threadMain, context)
        guard rc == 0 else {
            Unmanaged<UVLoopCore>.fromOpaque(context).release()
            preconditionFailure("UVEventLoop: cannot start the loop thread: pthread_create failed (\(rc))")
        }
        return id
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

    /// Names the calling thread (best effort; shown by `ps -L`, debuggers and `/proc`).
    ///
    /// `pthread_setname_np` is a GNU extension that the Glibc module does not export, so it is
    /// looked up at run time.
    static func nameCurrent(_ name: String) {
        typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(nil, "pthread_setname_np") else { return }
        let setName = unsafeBitCast(symbol, to: SetName.self)
        _ = name.withCString { setName(pthread_self(), $0) }
    }
}
