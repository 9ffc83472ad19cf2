import ResponderBus

/// The production `BusLoop`: a libuv loop running on a thread of its own.
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
///   timer scheduled from a timer runs in the same timer pass, and so in the same turn, when
///   libuv's clock has already reached its millisecond (a delay of zero or less does when a
///   millisecond begins between the two clock readings); later libuv runs it on the next
///   iteration. Work that must have a turn of its own (a replayer's next recorded `t`) is
///   scheduled from end-of-turn work, after which no timer of the turn can run.
/// - ``runAtEndOfTurn(_:)`` runs on a `uv_check_t`, after the callbacks of the current loop
///   iteration (the timers that were due, then the work posted through ``execute(_:)``) and before
///   the loop waits for anything new. A turn is therefore one iteration of the libuv loop: two
///   pieces of work handed to ``execute(_:)`` together both run before the end-of-turn work either
///   one queued, whereas `VirtualTimeLoop` runs end-of-turn work after each piece.
/// - ``runWhenIdle(_:)`` runs on a `uv_idle_t`, always after pending end-of-turn work. Each idle
///   callback runs the batch queued before it started; idle work queued by that batch runs on a
///   later iteration.
/// - ``watchFile(atPath:pollInterval:_:)`` watches a file with both a `uv_fs_event_t` (inotify) and
///   a `uv_fs_poll_t`; ``watchSignals(_:_:)`` starts a `uv_signal_t` per signal. Each returns a
///   ``UVWatch`` whose ``UVWatch/stop()`` closes the handles.
///
/// ## Shutting down
///
/// ``shutdown()`` runs everything posted before it, cancels pending timers, stops running watches,
/// finishes the event streams of the buses on the loop (`Bus.events`), closes every handle, closes
/// the libuv loop (see ``closeResult``) and waits for the thread to end. After it has been called, ``execute(_:)`` refuses work: the work does not run and is
/// counted in ``rejectedWorkCount``; ``submit(_:)`` reports the refusal to its caller.
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
/// ``runAtEndOfTurn(_:)``, ``runWhenIdle(_:)``, ``watchFile(atPath:pollInterval:_:)``,
/// ``watchSignals(_:_:)``, `ScheduledWork.cancel()` and ``UVWatch/stop()`` are loop-confined and
/// stop the process with a clear message when called from another thread, because libuv handles
/// must only be touched from the loop thread.
public final class UVEventLoop: BusLoop, BusLoopWakingTargets, BusLoopEndNotifying {
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

    /// How many turns the loop has ended: the count moves in the `uv_check_t` phase of each
    /// iteration that had end-of-turn work, once that work (and what it queued) has all run.
    /// Loop-confined. An iteration without end-of-turn work does not move it.
    public var turnsEnded: UInt64? {
        core.requireInLoop("turnsEnded")
        return core.onLoop.turnsEnded
    }

    // MARK: Watching files and signals

    /// Calls `onChange` on the loop soon after the file at `path` changes: appended to, written,
    /// truncated, its attributes changed, renamed or removed. Loop-confined.
    ///
    /// Made for following a log as it grows (`tail -f`): on each call, read from where the last read
    /// stopped to the end of the file.
    ///
    /// Two libuv watchers feed the one callback:
    /// - a `uv_fs_event_t` (inotify), which reports a change within the loop iteration that sees
    ///   it;
    /// - a `uv_fs_poll_t`, which compares the file's `stat` every `pollInterval` and catches what
    ///   inotify misses: files on filesystems without inotify support (network filesystems, some
    ///   FUSE mounts), and a new file created at `path` after the watched one was renamed or
    ///   removed (inotify follows the original file).
    ///
    /// Everything either watcher reports during one loop iteration leads to a single call, at the
    /// end of that iteration (``runAtEndOfTurn(_:)``). A change is usually reported twice, though:
    /// by inotify at once, and again by the poll up to `pollInterval` later; `onChange` must treat
    /// a call as "look at the file", which may find nothing new.
    ///
    /// The watch runs until ``UVWatch/stop()``, the release of the returned ``UVWatch``, or the
    /// loop's shutdown. Started while the loop is shutting down, the watch is refused: the returned
    /// watch is already stopped and `onChange` is never called.
    ///
    /// - Parameters:
    ///   - path: the file to watch; it must exist.
    ///   - pollInterval: how often the fallback poll calls `stat`; rounded up to whole
    ///     milliseconds, at least 1 ms.
    ///   - onChange: called on the loop thread.
    /// - Returns: the running watch; keep it as long as the watch should run.
    /// - Throws: ``UVWatchError`` with libuv's message when a watcher cannot start, for example
    ///   `ENOENT` when there is no file at `path`; nothing is left running then.
    public func watchFile(
        atPath path: String,
        pollInterval: Duration = .milliseconds(250),
        _ onChange: @escaping () -> Void
    ) throws(UVWatchError) -> UVWatch {
        try watchFile(atPath: path, pollInterval: pollInterval, usingInotify: true, onChange)
    }

    /// ``watchFile(atPath:pollInterval:_:)``, optionally without inotify, to exercise the poll
    /// fallback alone. For tests.
    package func watchFile(
        atPath path: String,
        pollInterval: Duration,
        usingInotify: Bool,
        _ onChange: @escaping () -> Void
    ) throws(UVWatchError) -> UVWatch {
        let watcher = try core.watchFile(atPath: path, pollInterval: pollInterval, usingInotify: usingInotify, onChange)
        return UVWatch(core: core, watcher: watcher)
    }

    /// Calls `handler` on the loop with the signal number each time one of `signals` (such as
    /// `SIGINT` and `SIGTERM`) is delivered to the process. Loop-confined.
    ///
    /// Uses one `uv_signal_t` per distinct signal. While any libuv signal watcher is running for a
    /// signal, in any loop of the process, the signal no longer has its default effect (ending the
    /// process, for `SIGINT` and `SIGTERM`); libuv restores the default action when the last one
    /// stops. Signals that arrive close together may be reported once.
    ///
    /// libuv's signal handler may run on any thread, and forwards the signal to the loop. The
    /// watched signals are unblocked on the loop thread, which may have inherited a mask blocking
    /// them (as threads of Dispatch and of the Swift concurrency pool block nearly every signal),
    /// so a signal sent to the process (`kill`, Control-C) always has a thread to land on. A
    /// signal sent to one thread (`raise`, `pthread_kill`) that blocks it stays pending there and
    /// is never reported.
    ///
    /// While the watch runs, its signals also end a wait that blocks the loop's thread for an
    /// out-of-process plugin's answer (`ExternalPlugin`, which runs the plugin's own libuv loop
    /// meanwhile and watches the same signals there): so a signal reaches `handler` within a
    /// moment even while a plugin hangs, instead of after the plugin's time limit.
    ///
    /// The watch runs until ``UVWatch/stop()``, the release of the returned ``UVWatch``, or the
    /// loop's shutdown. Started while the loop is shutting down, the watch is refused: the returned
    /// watch is already stopped and `handler` is never called.
    ///
    /// Stops the process with libuv's message if a signal cannot be watched (an invalid number,
    /// `SIGKILL`, `SIGSTOP`).
    ///
    /// - Returns: the running watch; keep it as long as the watch should run.
    public func watchSignals(_ signals: [Int32], _ handler: @escaping (Int32) -> Void) -> UVWatch {
        UVWatch(core: core, watcher: core.watchSignals(signals, handler))
    }

    /// How many file and signal watches are running. Loop-confined. For tests.
    package var runningWatchCount: Int { core.watcherCount }

    // MARK: Shutting down

    /// Shuts the loop down and waits until its thread has ended.
    ///
    /// In order: everything posted with ``execute(_:)`` before this call runs, with the end-of-turn
    /// and idle work it queues; pending timers are cancelled (their handles report
    /// `isCancelled`, their work never runs, and timers scheduled meanwhile are refused); running
    /// watches are stopped (they report ``UVWatch/isStopped``, their callbacks are not called once
    /// the shutdown was requested, and watches started meanwhile are refused); the event streams
    /// that buses on the loop handed out (`Bus.events(_:sender:buffering:)`) finish, after every
    /// event posted before this call was yielded to them, so a `for await` over one ends once it
    /// has taken them; every libuv handle is closed; `uv_run` returns; `uv_loop_close` runs (its result is ``closeResult``); the
    /// thread ends. Work posted after this call is refused (see ``rejectedWorkCount``).
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

    // MARK: Wake-ups

    /// Registers `target` for wake-ups through a `uv_async_t` of its own. Loop-confined.
    ///
    /// - Returns: `nil` once the loop is shutting down.
    package func makeWakeUp(for target: any BusLoopWakeUpTarget) -> (any BusLoopWakeUp)? {
        core.makeWakeUp(for: target)
    }

    /// Tells `target` when the loop ends: on the loop, once everything posted before the shutdown
    /// ran with the end-of-turn and idle work it queued, just before the loop closes its handles.
    /// Loop-confined. How a bus finishes its event streams.
    ///
    /// - Returns: `false` once the loop has closed its handles.
    package func notifyWhenEnded(_ target: any BusLoopEndTarget) -> Bool {
        core.notifyWhenEnded(target)
    }

    /// What `uv_loop_close` returned during shutdown: `0` when every handle was closed cleanly, a
    /// negative libuv error code otherwise (the loop's memory is then leaked rather than freed
    /// under libuv). `nil` until the loop thread has closed the loop. Thread-safe.
    public var closeResult: Int32? {
        core.exitStatus.withLock { $0 }
    }
}
