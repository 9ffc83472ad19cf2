import ResponderBus

/// The production ``BusLoop``: a libuv loop running on a thread of its own.
///
/// The loop starts in `init` on a new thread named ``threadName`` and runs until ``shutdown()``.
/// ``inLoop`` is `true` exactly on that thread.
///
/// ```swift
/// let loop = UVEventLoop()
/// loop.execute {
///     loop.schedule(after: .milliseconds(250)) { print("animation ended at", loop.now) }
/// }
/// // …
/// loop.shutdown()   // delivers what was posted, cancels pending timers, ends the thread
/// ```
///
/// ## How the protocol maps onto libuv
///
/// - ``execute(_:)`` appends to a locked queue and wakes the loop with a `uv_async_t`. libuv merges
///   wake-ups, so each wake-up runs everything queued so far. Work from one thread runs in the order
///   it was posted, exactly once; work posted from the loop itself runs on a later iteration, never
///   inline.
/// - ``schedule(after:_:)`` starts one `uv_timer_t` per call, due at the first whole millisecond of
///   libuv's clock at or after the deadline: work never runs before ``now`` reaches its deadline,
///   and runs up to about a millisecond after it (plus whatever the loop is busy with). Timers fire
///   in deadline order to that resolution; deadlines within the same millisecond fire in the order
///   they were scheduled. Cancelling stops the timer and closes its handle. With libuv 1.44, a
///   zero-delay timer scheduled from a timer runs in the same timer pass, so a timer that keeps
///   rescheduling itself with no delay starves the loop (as it would a ``VirtualTimeLoop``).
/// - ``runAtEndOfTurn(_:)`` runs on a `uv_check_t`, after the callbacks of the current loop
///   iteration (the timers that were due, then the work posted through ``execute(_:)``) and before
///   the loop waits for anything new. A turn is therefore one iteration of the libuv loop: two
///   pieces of work handed to ``execute(_:)`` together both run before the end-of-turn work either
///   one queued, whereas ``VirtualTimeLoop`` runs end-of-turn work after each piece.
/// - ``runWhenIdle(_:)`` runs on a `uv_idle_t`, always after pending end-of-turn work. Each idle
///   callback runs the batch queued before it started; idle work queued by that batch runs on a
///   later iteration.
///
/// ## Shutting down
///
/// ``shutdown()`` runs everything posted before it, cancels pending timers, closes every handle,
/// closes the libuv loop (see ``closeResult``) and waits for the thread to end. After it has been
/// called, ``execute(_:)`` refuses work: the work does not run and is counted in
/// ``rejectedWorkCount``; ``submit(_:)`` reports the refusal to its caller.
///
/// Releasing the last reference to the loop without calling ``shutdown()`` shuts it down the same
/// way: `deinit` waits for the thread when it runs on another thread. When the last reference is
/// released on the loop thread itself, `deinit` cannot wait for its own thread; it requests the
/// shutdown and the thread finishes it and ends by itself.
///
/// ## Threading
///
/// ``execute(_:)``, ``submit(_:)``, ``now``, ``inLoop``, ``rejectedWorkCount``, ``closeResult`` and
/// ``shutdown()`` (not on the loop thread) are thread-safe. ``schedule(after:_:)``,
/// ``runAtEndOfTurn(_:)``, ``runWhenIdle(_:)`` and `ScheduledWork.cancel()` are loop-confined and
/// stop the process with a clear message when called from another thread, because libuv handles
/// must only be touched from the loop thread.
public final class UVEventLoop: BusLoop {
    /// The name given to the loop thread (Linux allows at most 15 bytes).
    public static let threadName = "responderbus.uv"

    private let core: UVLoopCore

    /// Creates the libuv loop and starts its thread.
    ///
    /// Stops the process with a message if libuv or the thread cannot be set up.
    public convenience init() {
        self.init(onThreadExit: nil)
    }

    /// Creates the loop; `onThreadExit` runs on the loop thread as the last thing it does. For tests.
    package init(onThreadExit: (@Sendable () -> Void)?) {
        core = UVLoopCore(onThreadExit: onThreadExit)
        core.start()
    }

    deinit {
        core.requestStop()
        if core.inLoop {
            core.detachThread()
        } else {
            core.joinThread()
        }
    }

    /// Whether the caller is running on the loop thread.
    ///
    /// `false` on every thread once the loop has shut down.
    public var inLoop: Bool { core.inLoop }

    /// Monotonic time elapsed since the loop was created (from `uv_hrtime`). Thread-safe.
    public var now: Duration { core.now }

    /// Runs `work` on the loop thread, soon. Thread-safe; never runs `work` inline.
    ///
    /// Work posted from one thread runs in the order it was posted, exactly once. Once
    /// ``shutdown()`` has been called (or the loop released), the work is refused: it never runs and
    /// ``rejectedWorkCount`` goes up by one. Use ``submit(_:)`` to find out at the call site.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        _ = core.submit(work)
    }

    /// Runs `work` on the loop thread, soon, like ``execute(_:)``, and says whether it was accepted.
    ///
    /// - Returns: `true` if `work` will run; `false` if the loop is shutting down or shut down, in
    ///   which case `work` never runs and ``rejectedWorkCount`` goes up by one.
    @discardableResult
    public func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
        core.submit(work)
    }

    /// How many pieces of work ``execute(_:)`` and ``submit(_:)`` refused because the loop was
    /// shutting down or shut down. Thread-safe.
    public var rejectedWorkCount: Int {
        core.inbox.withLock { $0.rejected }
    }

    /// Runs `work` on the loop once `delay` has elapsed (a negative delay counts as zero).
    /// Loop-confined.
    ///
    /// The deadline is `now + delay`; `work` never runs before ``now`` reaches it, and runs within
    /// about a millisecond after it when the loop is not busy (libuv's timers count whole
    /// milliseconds). While the loop is shutting down, the work is refused: the returned handle is
    /// already cancelled.
    ///
    /// - Returns: a handle whose `cancel()` (on the loop) stops the timer; cancelling after the
    ///   work ran does nothing.
    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
        core.schedule(after: delay, work)
    }

    /// Runs `work` after the callbacks of the current loop iteration, before the loop waits for
    /// anything new and before idle work. Loop-confined.
    ///
    /// FIFO; work added while the queue drains runs in the same drain.
    public func runAtEndOfTurn(_ work: @escaping () -> Void) {
        core.runAtEndOfTurn(work)
    }

    /// Runs `work` in the loop's idle phase, after any pending end-of-turn work. Loop-confined.
    ///
    /// FIFO. Idle work queued by idle work runs on a later iteration of the loop.
    public func runWhenIdle(_ work: @escaping () -> Void) {
        core.runWhenIdle(work)
    }

    /// Shuts the loop down and waits until its thread has ended.
    ///
    /// In order: everything posted with ``execute(_:)`` before this call runs, with the end-of-turn
    /// and idle work it queues; pending timers are cancelled (their handles report
    /// `isCancelled`, their work never runs, and timers scheduled meanwhile are refused); every
    /// libuv handle is closed; `uv_run` returns; `uv_loop_close` runs (its result is
    /// ``closeResult``); the thread ends. Work posted after this call is refused (see
    /// ``rejectedWorkCount``).
    ///
    /// Idempotent, and callable from several threads at once: every caller returns once the loop
    /// is down. Must not be called on the loop thread, which cannot wait for itself: that stops the
    /// process with a message. Work that keeps re-queueing end-of-turn or idle work forever keeps
    /// the loop, and this call, from finishing.
    public func shutdown() {
        precondition(!core.inLoop, "UVEventLoop.shutdown() called on the loop thread, which would wait for itself; call it from another thread")
        core.requestStop()
        core.joinThread()
    }

    /// What `uv_loop_close` returned during shutdown: `0` when every handle was closed cleanly, a
    /// negative libuv error code otherwise (the loop's memory is then leaked rather than freed
    /// under libuv). `nil` until the loop thread has closed the loop. Thread-safe.
    public var closeResult: Int32? {
        core.exitStatus.withLock { $0 }
    }
}
