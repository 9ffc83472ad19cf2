import CLibUV
import DequeModule
import ResponderBus
import ResponderBusPlatform
import Synchronization

/// Everything behind a ``UVEventLoop``: the libuv loop, its handles, its queues and its thread.
///
/// Kept apart from the public object so that the loop thread can own a reference to it while it
/// runs: the public ``UVEventLoop`` can then be released (and shut the loop down in `deinit`) while
/// the thread is still running.
///
/// ## Threading
///
/// - `inbox`, `thread` and `exitStatus` are guarded by their locks and used from any thread.
/// - The libuv handles and every other `var` are loop-confined: set up in `init` before the thread
///   starts, then touched only on the loop thread, then (memory only) released by the loop thread
///   after `uv_loop_close`.
///
/// The type is in four files by concern: this one (state, the calls from any thread, the loop
/// thread and its inbox drain), `+WakeUps` (the inbox's wake-ups and stopping), `+Timers` (timers
/// and file and signal watchers) and `+Turns` (end-of-turn and idle work). Its members are internal
/// rather than private only so that those files share them; the module's API is `UVEventLoop`.
/// - `uv_async_send` is the only libuv call made from other threads, and only while holding the
///   inbox lock with the inbox still open, so it can never race the closing of the async handle.
final class UVLoopCore: @unchecked Sendable {
    /// The cross-thread inbox behind ``UVEventLoop/execute(_:)``.
    struct Inbox {
        /// Work posted from any thread, FIFO.
        var work = Deque<Work>()
        /// Whether ``UVEventLoop/shutdown()`` (or `deinit`) asked the loop to stop.
        var stopRequested = false
        /// Work refused because the loop was stopping.
        var rejected = 0
    }

    /// A piece of work from ``UVEventLoop/execute(_:)``.
    ///
    /// Wrapped in a struct: a bare closure stored in a generic container such as `Deque` is
    /// re-abstracted, which allocates a thunk context for every piece of work queued.
    struct Work {
        /// Its place in the order of work and wake-up signals (see ``takeTicket()``).
        let ticket: UInt64
        let run: @Sendable () -> Void
    }

    /// A wake-up target that was signalled, found by a drain.
    struct Signal {
        let ticket: UInt64
        let target: any BusLoopWakeUpTarget
    }

    /// The lifecycle of the loop thread.
    enum ThreadState: Sendable {
        case starting
        case running(SystemThread)
        case joined
        case detached
    }

    /// The libuv callback phase the loop thread is in; decides whether end-of-turn work needs a
    /// non-blocking poll.
    enum Phase {
        /// Timer or idle callbacks: they run *before* the poll of the iteration.
        case beforePoll
        /// The async callback (inside the poll) or the check callback (after it).
        case pollOrLater
    }

    /// The libuv loop and its own handles, freed by the loop thread once the loop is closed.
    let loop: UVMemory<uv_loop_t>
    let wakeupHandle: UVMemory<uv_async_t>
    let checkHandle: UVMemory<uv_check_t>
    let idleHandle: UVMemory<uv_idle_t>
    let startTime: UInt64
    let onThreadExit: (@Sendable () -> Void)?

    let inbox = Locked(Inbox())
    /// The last ticket handed out: work and wake-up signals are ordered by their tickets.
    /// Producers signalling wake-ups increment it; on its own line, so that they do not steal the
    /// loop thread's.
    let lastTicket = UVPaddedAtomic<UInt64>(0)
    /// Whether the inbox may hold work or a stop request: set under the inbox's lock by whoever
    /// queues, cleared under it by the drain; read without the lock by a drain that a wake-up
    /// started, which then skips the lock when there is nothing but signals to handle.
    let inboxMayHaveWork = UVPaddedAtomic<Bool>(false)
    let thread = Locked(ThreadState.starting)
    /// The value `uv_loop_close` returned, once the loop thread has closed the loop.
    let exitStatus = Locked<Int32?>(nil)

    /// What only the loop thread touches and a drain reads and changes on every wake-up (see
    /// ``UVLoopThreadState``): one stored property without run-time exclusivity checks.
    @exclusivity(unchecked) var onLoop = UVLoopThreadState()
    var checkActive = false
    var idleActive = false
    var timers: [ObjectIdentifier: UVTimer] = [:]
    /// File and signal watchers that are running; shutdown stops them all.
    var watchers: [ObjectIdentifier: UVWatcher] = [:]

    /// Creates the loop and its handles. Call ``start()`` next.
    init(onThreadExit: (@Sendable () -> Void)?) {
        self.onThreadExit = onThreadExit
        loop = UVMemory(uv_loop_t())
        Self.check(uv_loop_init(loop.pointer), "uv_loop_init")
        wakeupHandle = UVMemory(uv_async_t())
        Self.check(uv_async_init(loop.pointer, wakeupHandle.pointer, UVCallbacks.wakeup), "uv_async_init")
        checkHandle = UVMemory(uv_check_t())
        Self.check(uv_check_init(loop.pointer, checkHandle.pointer), "uv_check_init")
        idleHandle = UVMemory(uv_idle_t())
        Self.check(uv_idle_init(loop.pointer, idleHandle.pointer), "uv_idle_init")
        startTime = uv_hrtime()

        wakeupHandle.attach(unretained: self)
        checkHandle.attach(unretained: self)
        idleHandle.attach(unretained: self)
    }

    static func check(_ rc: Int32, _ call: StaticString) {
        guard rc != 0 else { return }
        let message = uv_strerror(rc).map { String(cString: $0) } ?? "error \(rc)"
        preconditionFailure("UVEventLoop: \(call) failed: \(message)")
    }

    // MARK: - Any thread

    /// Whether the calling thread is this loop's thread.
    var inLoop: Bool {
        UVLoopThread.isCurrent(self)
    }

    /// Monotonic time since `init`.
    var now: Duration {
        .nanoseconds(Int64(bitPattern: uv_hrtime() &- startTime))
    }

    /// Starts the loop thread.
    func start() {
        thread.withLock { state in
            state = .running(UVLoopThread.start(self))
        }
    }

    /// Queues `work` and wakes the loop; `false` once a stop was requested, and then counted in
    /// `rejected` unless `countingRefusal` is `false` (for the loop's own bookkeeping).
    func submit(countingRefusal: Bool = true, _ work: @escaping @Sendable () -> Void) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.stopRequested else {
                if countingRefusal { inbox.rejected += 1 }
                return false
            }
            let wasEmpty = inbox.work.isEmpty
            inbox.work.append(Work(ticket: takeTicket(), run: work))
            // Only the post that makes the inbox non-empty needs to wake the loop: the drain takes
            // everything, and later posts join the queue a pending wake-up will drain.
            if wasEmpty {
                inboxMayHaveWork.value.store(true, ordering: .releasing)
                uv_async_send(wakeupHandle.pointer)
            }
            return true
        }
    }

    /// A new ticket (never 0). Thread-safe. Tickets taken by one thread increase in the order it
    /// took them.
    func takeTicket() -> UInt64 {
        Self.takeTicket(from: lastTicket)
    }

    /// A new ticket from `counter` (never 0).
    static func takeTicket(from counter: UVPaddedAtomic<UInt64>) -> UInt64 {
        // Release: work queued before the ticket was taken is seen by a drain that reads a
        // watermark at least this ticket (see `drainInbox`).
        counter.value.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
    }

    /// Asks the loop to stop. Idempotent; does not wait.
    func requestStop() {
        inbox.withLock { inbox in
            guard !inbox.stopRequested else { return }
            inbox.stopRequested = true
            inboxMayHaveWork.value.store(true, ordering: .releasing)
            uv_async_send(wakeupHandle.pointer)
        }
    }

    /// Waits for the loop thread to end. Not on the loop thread. Concurrent callers all wait.
    func joinThread() {
        thread.withLock { state in
            guard case .running(let loopThread) = state else { return }
            let rc = loopThread.join()
            precondition(rc == 0, "UVEventLoop: pthread_join failed (\(rc))")
            state = .joined
        }
    }

    /// Lets the loop thread end on its own (used when the last reference goes away on the loop).
    func detachThread() {
        thread.withLock { state in
            guard case .running(let loopThread) = state else { return }
            loopThread.detach()
            state = .detached
        }
    }

    // MARK: - The loop thread

    /// The body of the loop thread: runs the loop until shutdown has closed every handle, closes
    /// the loop and frees its memory.
    func runLoopThread() {
        UVLoopThread.markCurrent(self)
        SystemThread.nameCurrent(UVEventLoop.threadName)

        uv_run(loop.pointer, UV_RUN_DEFAULT)
        let rc = uv_loop_close(loop.pointer)
        if rc == 0 {
            // Every handle is closed and every close callback has run: the memory is ours again.
            wakeupHandle.free()
            checkHandle.free()
            idleHandle.free()
            loop.free()
        }
        // Otherwise libuv still references the memory; leaking it is the only safe choice, and
        // the non-zero result is reported through `UVEventLoop.closeResult`.

        UVLoopThread.markCurrent(nil)
        exitStatus.withLock { $0 = rc }
        onThreadExit?()
    }

    func requireInLoop(_ function: StaticString) {
        precondition(inLoop, "UVEventLoop.\(function) called off its loop thread; it is loop-confined (use execute(_:) from other threads)")
    }

    /// Async callback (of the loop's own handle and of every wake-up's): runs everything posted so
    /// far and handles the wake-ups signalled so far, in ticket order, and notices a stop request.
    ///
    /// Each round first looks at the signals. When no work is queued, they are handled at once: a
    /// thread that queued work before signalling set the flag before its signal was seen. Otherwise
    /// the round takes the queued work and a *watermark* (a ticket no older than any of that
    /// work's), looks at the signals again, and handles those up to the watermark merged with the
    /// work by ticket. A newer signal may follow work not in hand yet: another round takes both.
    func drainInbox() {
        onLoop.phase = .pollOrLater
        var stop = false
        var again: Bool
        repeat {
            again = false
            var first = collectSignals(upTo: .max).first
            if !inboxMayHaveWork.value.load(ordering: .acquiring) {
                // The common case: signals only, usually one bus's.
                if onLoop.signals.isEmpty {
                    first?.target.loopDidWake()
                } else {
                    if let first { onLoop.signals.append(first) }
                    var nothing = Deque<Work>()
                    handleSignals(merging: &nothing)
                }
                continue
            }
            onLoop.signals.removeAll(keepingCapacity: true)
            var batch = Deque<Work>()
            swap(&batch, &onLoop.spareWork)
            var watermark: UInt64 = 0
            let stopRequested = inbox.withLock { inbox in
                swap(&batch, &inbox.work)
                inboxMayHaveWork.value.store(false, ordering: .relaxed)
                // Under the lock, where work takes its tickets: all work up to here is in hand.
                watermark = lastTicket.value.load(ordering: .acquiring)
                return inbox.stopRequested
            }
            stop = stop || stopRequested
            let found = collectSignals(upTo: watermark)
            first = found.first
            again = found.skippedNewer
            if let first { onLoop.signals.append(first) }
            let taken = batch.count
            handleSignals(merging: &batch)
            // Keep the emptied queue's storage for the next swap, unless a burst made it large.
            if taken > 0 && taken <= 4096 { swap(&batch, &onLoop.spareWork) }
        } while again
        if stop {
            // The stop request and everything posted before it were taken under one lock, and
            // nothing is accepted after it: the inbox is closed for good.
            beginStop()
            if onLoop.lifecycle.closeInbox() { endWakeUps() }
        }
        finishIfDrained()
    }

    /// Looks at every target's pending signal: returns the first one with a ticket up to
    /// `watermark` and appends the others to `signals`; says whether a newer one was left.
    func collectSignals(upTo watermark: UInt64) -> (first: Signal?, skippedNewer: Bool) {
        var first: Signal?
        var skippedNewer = false
        for wakeUp in onLoop.wakeUps {
            guard let target = wakeUp.target else { continue }
            let ticket = target.pendingWakeUpTicket
            if ticket == 0 { continue }
            if ticket > watermark {
                skippedNewer = true
            } else if first == nil {
                first = Signal(ticket: ticket, target: target)
            } else {
                onLoop.signals.append(Signal(ticket: ticket, target: target))
            }
        }
        return (first, skippedNewer)
    }

    /// Handles the signals in `signals` in ticket order, merged with `batch` (run in order, each
    /// piece after the older signals), then empties `signals`.
    func handleSignals(merging batch: inout Deque<Work>) {
        if onLoop.signals.count > 1 { onLoop.signals.sort { $0.ticket < $1.ticket } }
        var next = 0
        while let work = batch.popFirst() {
            while next < onLoop.signals.count && onLoop.signals[next].ticket < work.ticket {
                // Read out first: no access to `onLoop` spans the call, which may change it.
                let target = onLoop.signals[next].target
                target.loopDidWake()
                next += 1
            }
            work.run()
        }
        while next < onLoop.signals.count {
            let target = onLoop.signals[next].target
            target.loopDidWake()
            next += 1
        }
        onLoop.signals.removeAll(keepingCapacity: true)
    }

}

/// What a ``UVLoopCore`` keeps for its loop thread: the callback phase, the way out, the work for
/// the end of the turn and for idle time, the registered wake-ups and end targets, and a drain's
/// scratch lists.
///
/// ## Invariant
///
/// Touched only on the loop thread, from libuv's callbacks. The core holds it in one stored
/// property that skips the run-time exclusivity checks (a drain reads and changes it on every
/// wake-up; benchmark cases "postFromAnyThread, 1 producer" and "round trip p50", group 2), so no
/// `inout` access to any part of it may span a call out of the core (work, a wake-up target's
/// `loopDidWake`), which can reach it again: such calls take what they need out first.
struct UVLoopThreadState {
    var phase = UVLoopCore.Phase.pollOrLater
    /// Where the loop is on the way out (see ``UVLoopLifecycle``).
    var lifecycle = UVLoopLifecycle()
    /// The empty work queue swapped with the inbox's at each drain, so that both keep their
    /// capacity and posting does not allocate once they are big enough.
    var spareWork = Deque<UVLoopCore.Work>()
    /// The registered wake-ups (see `UVLoopCore.makeWakeUp(for:)`).
    var wakeUps: [UVWakeUp] = []
    /// What to tell when the loop ends (see `UVLoopCore.notifyWhenEnded(_:)`).
    var endTargets: [UVEndTarget] = []
    /// Scratch list of the signals a drain found, kept for its capacity.
    var signals: [UVLoopCore.Signal] = []
    /// Work for the end of the current turn (``UVEventLoop/runAtEndOfTurn(_:)``).
    var endOfTurnWork = Deque<QueuedWork>()
    /// How many check phases have drained end-of-turn work (``UVEventLoop/turnsEnded``).
    var turnsEnded: UInt64 = 0
    /// Work for when the loop is idle.
    var idleWork = Deque<QueuedWork>()
}
