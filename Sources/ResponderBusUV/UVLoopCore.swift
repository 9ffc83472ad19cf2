import CLibUV
import DequeModule
import ResponderBus
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Everything behind a ``UVEventLoop``: the libuv loop, its handles, its queues and its thread.
///
/// Kept apart from the public object so that the loop thread can own a reference to it while it
/// runs: the public ``UVEventLoop`` can then be released (and shut the loop down in `deinit`) while
/// the thread is still running.
///
/// ## Threading
///
/// - `inbox`, `thread` and `exitStatus` are guarded by their locks and used from any thread.
/// - The libuv handles and every `private var` are loop-confined: set up in `init` before the thread
///   starts, then touched only on the loop thread, then (memory only) released by the loop thread
///   after `uv_loop_close`.
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
    private struct Signal {
        let ticket: UInt64
        let target: any BusLoopWakeUpTarget
    }

    /// The lifecycle of the loop thread.
    enum ThreadState: Sendable {
        case starting
        case running(pthread_t)
        case joined
        case detached
    }

    /// The libuv callback phase the loop thread is in; decides whether end-of-turn work needs a
    /// non-blocking poll.
    private enum Phase {
        /// Timer or idle callbacks: they run *before* the poll of the iteration.
        case beforePoll
        /// The async callback (inside the poll) or the check callback (after it).
        case pollOrLater
    }

    /// The thread-specific slot that marks a loop thread: it holds the running core's address.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        let rc = pthread_key_create(&key, nil)
        precondition(rc == 0, "UVEventLoop: pthread_key_create failed (\(rc))")
        return key
    }()

    let loop: UnsafeMutablePointer<uv_loop_t>
    private let wakeupHandle: UnsafeMutablePointer<uv_async_t>
    private let checkHandle: UnsafeMutablePointer<uv_check_t>
    private let idleHandle: UnsafeMutablePointer<uv_idle_t>
    private let startTime: UInt64
    private let onThreadExit: (@Sendable () -> Void)?

    let inbox = Locked(Inbox())
    /// The last ticket handed out: work and wake-up signals are ordered by their tickets.
    /// Producers signalling wake-ups increment it; on its own line, so that they do not steal the
    /// loop thread's.
    let lastTicket = UVPaddedAtomic<UInt64>(0)
    /// Whether the inbox may hold work or a stop request: set under the inbox's lock by whoever
    /// queues, cleared under it by the drain; read without the lock by a drain that a wake-up
    /// started, which then skips the lock when there is nothing but signals to handle.
    private let inboxMayHaveWork = UVPaddedAtomic<Bool>(false)
    let thread = Locked(ThreadState.starting)
    /// The value `uv_loop_close` returned, once the loop thread has closed the loop.
    let exitStatus = Locked<Int32?>(nil)

    // Loop-confined state. The state a drain touches is never accessed overlappingly (no inout
    // access spans a callback), so its run-time exclusivity checks are turned off.
    @exclusivity(unchecked) private var phase = Phase.pollOrLater
    /// The empty work queue swapped with the inbox's at each drain, so that both keep their
    /// capacity and posting does not allocate once they are big enough.
    @exclusivity(unchecked) private var spareWork = Deque<Work>()
    /// The registered wake-ups (see ``makeWakeUp(for:)``).
    @exclusivity(unchecked) private var wakeUps: [UVWakeUp] = []
    /// Set once the stop request was seen: no wake-up is made or signalled any more.
    @exclusivity(unchecked) private var wakeUpsEnded = false
    /// Scratch list of the signals a drain found, kept for its capacity.
    @exclusivity(unchecked) private var signals: [Signal] = []
    @exclusivity(unchecked) private var endOfTurnWork = Deque<QueuedWork>()
    @exclusivity(unchecked) private var idleWork = Deque<QueuedWork>()
    private var checkActive = false
    private var idleActive = false
    private var timers: [ObjectIdentifier: UVTimer] = [:]
    /// File and signal watchers that are running; shutdown stops them all.
    private var watchers: [ObjectIdentifier: UVWatcher] = [:]
    /// Set once the stop request is seen: pending timers are cancelled and running watchers
    /// stopped; new ones are refused.
    private var stopping = false
    /// Set by the drain that saw the stop request: nothing more can arrive through the inbox.
    @exclusivity(unchecked) private var inboxClosed = false
    @exclusivity(unchecked) private var handlesClosed = false

    /// Creates the loop and its handles. Call ``start()`` next.
    init(onThreadExit: (@Sendable () -> Void)?) {
        self.onThreadExit = onThreadExit
        loop = .allocate(capacity: 1)
        loop.initialize(to: uv_loop_t())
        Self.check(uv_loop_init(loop), "uv_loop_init")
        wakeupHandle = .allocate(capacity: 1)
        wakeupHandle.initialize(to: uv_async_t())
        Self.check(uv_async_init(loop, wakeupHandle, UVCallbacks.wakeup), "uv_async_init")
        checkHandle = .allocate(capacity: 1)
        checkHandle.initialize(to: uv_check_t())
        Self.check(uv_check_init(loop, checkHandle), "uv_check_init")
        idleHandle = .allocate(capacity: 1)
        idleHandle.initialize(to: uv_idle_t())
        Self.check(uv_idle_init(loop, idleHandle), "uv_idle_init")
        startTime = uv_hrtime()

        let context = Unmanaged.passUnretained(self).toOpaque()
        wakeupHandle.pointee.data = context
        checkHandle.pointee.data = context
        idleHandle.pointee.data = context
    }

    private static func check(_ rc: Int32, _ call: StaticString) {
        guard rc != 0 else { return }
        let message = uv_strerror(rc).map { String(cString: $0) } ?? "error \(rc)"
        preconditionFailure("UVEventLoop: \(call) failed: \(message)")
    }

    // MARK: - Any thread

    /// Whether the calling thread is this loop's thread.
    var inLoop: Bool {
        pthread_getspecific(Self.threadKey) == Unmanaged.passUnretained(self).toOpaque()
    }

    /// Monotonic time since `init`.
    var now: Duration {
        .nanoseconds(Int64(bitPattern: uv_hrtime() &- startTime))
    }

    /// Starts the loop thread.
    func start() {
        thread.withLock { state in
            var id = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            let rc = pthread_create(&id, nil, UVCallbacks.threadMain, context)
            guard rc == 0 else {
                Unmanaged<UVLoopCore>.fromOpaque(context).release()
                preconditionFailure("UVEventLoop: cannot start the loop thread: pthread_create failed (\(rc))")
            }
            state = .running(id)
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
                uv_async_send(wakeupHandle)
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
            uv_async_send(wakeupHandle)
        }
    }

    /// Waits for the loop thread to end. Not on the loop thread. Concurrent callers all wait.
    func joinThread() {
        thread.withLock { state in
            guard case .running(let id) = state else { return }
            let rc = pthread_join(id, nil)
            precondition(rc == 0, "UVEventLoop: pthread_join failed (\(rc))")
            state = .joined
        }
    }

    /// Lets the loop thread end on its own (used when the last reference goes away on the loop).
    func detachThread() {
        thread.withLock { state in
            guard case .running(let id) = state else { return }
            pthread_detach(id)
            state = .detached
        }
    }

    // MARK: - The loop thread

    /// The body of the loop thread: runs the loop until shutdown has closed every handle, closes
    /// the loop and frees its memory.
    func runLoopThread() {
        pthread_setspecific(Self.threadKey, Unmanaged.passUnretained(self).toOpaque())
        Self.nameCurrentThread(UVEventLoop.threadName)

        uv_run(loop, UV_RUN_DEFAULT)
        let rc = uv_loop_close(loop)
        if rc == 0 {
            // Every handle is closed and every close callback has run: the memory is ours again.
            wakeupHandle.deinitialize(count: 1)
            wakeupHandle.deallocate()
            checkHandle.deinitialize(count: 1)
            checkHandle.deallocate()
            idleHandle.deinitialize(count: 1)
            idleHandle.deallocate()
            loop.deinitialize(count: 1)
            loop.deallocate()
        }
        // Otherwise libuv still references the memory; leaking it is the only safe choice, and
        // the non-zero result is reported through `UVEventLoop.closeResult`.

        pthread_setspecific(Self.threadKey, nil)
        exitStatus.withLock { $0 = rc }
        onThreadExit?()
    }

    /// Names the calling thread (best effort; shown by `ps -L`, debuggers and `/proc`).
    ///
    /// `pthread_setname_np` is a GNU extension that the Glibc module does not export, so it is
    /// looked up at run time.
    private static func nameCurrentThread(_ name: String) {
        typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(nil, "pthread_setname_np") else { return }
        let setName = unsafeBitCast(symbol, to: SetName.self)
        _ = name.withCString { setName(pthread_self(), $0) }
    }

    private func requireInLoop(_ function: StaticString) {
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
        phase = .pollOrLater
        var stop = false
        var again: Bool
        repeat {
            again = false
            var first = collectSignals(upTo: .max).first
            if !inboxMayHaveWork.value.load(ordering: .acquiring) {
                // The common case: signals only, usually one bus's.
                if signals.isEmpty {
                    first?.target.loopDidWake()
                } else {
                    if let first { signals.append(first) }
                    var nothing = Deque<Work>()
                    handleSignals(merging: &nothing)
                }
                continue
            }
            signals.removeAll(keepingCapacity: true)
            var batch = Deque<Work>()
            swap(&batch, &spareWork)
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
            if let first { signals.append(first) }
            let taken = batch.count
            handleSignals(merging: &batch)
            // Keep the emptied queue's storage for the next swap, unless a burst made it large.
            if taken > 0 && taken <= 4096 { swap(&batch, &spareWork) }
        } while again
        if stop {
            // The stop request and everything posted before it were taken under one lock, and
            // nothing is accepted after it: the inbox is closed for good.
            inboxClosed = true
            endWakeUps()
            beginStop()
        }
        finishIfDrained()
    }

    /// Looks at every target's pending signal: returns the first one with a ticket up to
    /// `watermark` and appends the others to `signals`; says whether a newer one was left.
    private func collectSignals(upTo watermark: UInt64) -> (first: Signal?, skippedNewer: Bool) {
        var first: Signal?
        var skippedNewer = false
        for wakeUp in wakeUps {
            guard let target = wakeUp.target else { continue }
            let ticket = target.pendingWakeUpTicket
            if ticket == 0 { continue }
            if ticket > watermark {
                skippedNewer = true
            } else if first == nil {
                first = Signal(ticket: ticket, target: target)
            } else {
                signals.append(Signal(ticket: ticket, target: target))
            }
        }
        return (first, skippedNewer)
    }

    /// Handles the signals in `signals` in ticket order, merged with `batch` (run in order, each
    /// piece after the older signals), then empties `signals`.
    private func handleSignals(merging batch: inout Deque<Work>) {
        if signals.count > 1 { signals.sort { $0.ticket < $1.ticket } }
        var next = 0
        while let work = batch.popFirst() {
            while next < signals.count && signals[next].ticket < work.ticket {
                signals[next].target.loopDidWake()
                next += 1
            }
            work.run()
        }
        while next < signals.count {
            signals[next].target.loopDidWake()
            next += 1
        }
        signals.removeAll(keepingCapacity: true)
    }

    // MARK: Wake-ups

    /// Registers `target`: a `uv_async_t` of its own, whose callback drains like the loop's.
    /// Loop-confined. `nil` once the stop request was seen.
    func makeWakeUp(for target: any BusLoopWakeUpTarget) -> (any BusLoopWakeUp)? {
        requireInLoop("makeWakeUp(for:)")
        guard !wakeUpsEnded else { return nil }
        let handle = UnsafeMutablePointer<uv_async_t>.allocate(capacity: 1)
        handle.initialize(to: uv_async_t())
        Self.check(uv_async_init(loop, handle, UVCallbacks.wakeUpSignalled), "uv_async_init")
        handle.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        let wakeUp = UVWakeUp(core: self, handle: handle, target: target)
        wakeUps.append(wakeUp)
        return wakeUp
    }

    /// The stop request was seen: handles a signal that arrived since the drain looked, then tells
    /// every target that no signal is taken any more.
    private func endWakeUps() {
        wakeUpsEnded = true
        for wakeUp in wakeUps {
            guard let target = wakeUp.target else { continue }
            if target.pendingWakeUpTicket != 0 { target.loopDidWake() }
            target.loopEndedWakeUps()
        }
    }

    /// Unregisters a cancelled wake-up and closes its handle. Loop-confined.
    func remove(_ wakeUp: UVWakeUp) {
        guard let index = wakeUps.firstIndex(where: { $0 === wakeUp }) else { return }
        wakeUps.remove(at: index)
        wakeUp.close()
    }

    /// Cancels every pending timer, stops every watcher, and refuses new ones.
    private func beginStop() {
        guard !stopping else { return }
        stopping = true
        for timer in Array(timers.values) {
            timer.scheduled?.cancel()
            cancel(timer)  // already done through the handle's onCancel; a no-op then
        }
        // Closes their handles; `uv_run` does not return before the close callbacks have run.
        for watcher in Array(watchers.values) {
            watcher.stop()
        }
    }

    /// Closes the loop's handles once the stop request was drained and no hook work is left;
    /// `uv_run` then returns as soon as the close callbacks have run.
    private func finishIfDrained() {
        guard inboxClosed, !handlesClosed, endOfTurnWork.isEmpty, idleWork.isEmpty else { return }
        handlesClosed = true
        checkActive = false
        idleActive = false
        wakeupHandle.withMemoryRebound(to: uv_handle_t.self, capacity: 1) { uv_close($0, nil) }
        checkHandle.withMemoryRebound(to: uv_handle_t.self, capacity: 1) { uv_close($0, nil) }
        idleHandle.withMemoryRebound(to: uv_handle_t.self, capacity: 1) { uv_close($0, nil) }
        // Their targets were told at the stop request (or are gone): nothing signals them now.
        for wakeUp in wakeUps { wakeUp.close() }
        wakeUps.removeAll()
    }

    // MARK: Timers

    func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
        requireInLoop("schedule(after:_:)")
        guard !stopping else {
            let refused = ScheduledWork()
            refused.cancel()
            return refused
        }
        let delay = max(delay, .zero)
        let timer = UVTimer(core: self, deadline: now + delay, work: work)
        let scheduled = ScheduledWork(onCancel: { [weak timer] in
            if let timer { timer.core.cancel(timer) }
        })
        timer.scheduled = scheduled
        Self.check(uv_timer_init(loop, timer.handle), "uv_timer_init")
        timer.handle.pointee.data = Unmanaged.passRetained(timer).toOpaque()
        timers[ObjectIdentifier(timer)] = timer
        uv_timer_start(timer.handle, UVCallbacks.timerFired, timeout(until: timer.deadline), 0)
        return scheduled
    }

    /// Stops and closes `timer` unless it already fired or was cancelled.
    func cancel(_ timer: UVTimer) {
        requireInLoop("ScheduledWork.cancel()")
        guard timers.removeValue(forKey: ObjectIdentifier(timer)) != nil else { return }
        timer.work = nil
        uv_timer_stop(timer.handle)
        close(timer)
    }

    private func close(_ timer: UVTimer) {
        timer.handle.withMemoryRebound(to: uv_handle_t.self, capacity: 1) {
            uv_close($0, UVCallbacks.timerClosed)
        }
    }

    /// Timer callback.
    func timerFired(_ timer: UVTimer) {
        phase = .beforePoll
        defer { phase = .pollOrLater }
        if !stopping, inbox.withLock({ $0.stopRequested }) {
            beginStop()  // no timer fires once shutdown was asked for; this cancels `timer` too
        }
        guard timers[ObjectIdentifier(timer)] != nil else { return }
        let remaining = timer.deadline - now
        if remaining > .zero {
            // Not expected (see `timeout(until:)`); never run work early all the same.
            uv_timer_start(timer.handle, UVCallbacks.timerFired, timeout(until: timer.deadline), 0)
            return
        }
        timers.removeValue(forKey: ObjectIdentifier(timer))
        close(timer)
        let work = timer.work
        timer.work = nil
        timer.scheduled?.fire { work?() }
    }

    /// The libuv timeout, in milliseconds from the loop's current time, for a timer due at
    /// `deadline` on ``now``'s clock.
    ///
    /// libuv's clock (`uv_now`) counts whole milliseconds of the same monotonic clock as
    /// `uv_hrtime`, truncated, and may lag it. The timer is due at the first whole millisecond at or
    /// after the deadline, so it never fires before ``now`` reaches the deadline; the loop's clock
    /// is refreshed first so that the timeout counts from the present, not from the start of the
    /// iteration. Deadlines within the same millisecond fire in the order they were scheduled.
    private func timeout(until deadline: Duration) -> UInt64 {
        uv_update_time(loop)
        let (due, overflow) = startTime.addingReportingOverflow(Self.nanoseconds(deadline))
        guard !overflow else { return .max }
        let dueMilliseconds = due / 1_000_000 + (due % 1_000_000 == 0 ? 0 : 1)
        let loopMilliseconds = uv_now(loop)
        return dueMilliseconds > loopMilliseconds ? dueMilliseconds - loopMilliseconds : 0
    }

    /// `duration` in nanoseconds, rounded up; zero for negative durations, saturating.
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let attosecondsPerNanosecond: Int64 = 1_000_000_000
        var fraction = attoseconds / attosecondsPerNanosecond
        if attoseconds % attosecondsPerNanosecond != 0 { fraction += 1 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflow2) = whole.addingReportingOverflow(UInt64(fraction))
        return overflow || overflow2 ? .max : total
    }

    // MARK: Watchers

    /// How many watchers are running. Loop-confined.
    var watcherCount: Int {
        requireInLoop("watcherCount")
        return watchers.count
    }

    /// Starts watching `path` with inotify (`uv_fs_event_t`, unless `usingInotify` is `false`) and
    /// with `stat` every `pollInterval` (`uv_fs_poll_t`). Loop-confined.
    ///
    /// While the loop is stopping, returns a watcher that is already stopped.
    func watchFile(
        atPath path: String,
        pollInterval: Duration,
        usingInotify: Bool,
        _ onChange: @escaping () -> Void
    ) throws(UVWatchError) -> UVWatcher {
        requireInLoop("watchFile(atPath:pollInterval:_:)")
        let watcher = UVWatcher(core: self, action: .fileChanged(onChange))
        guard !stopping else {
            watcher.stop()
            return watcher
        }
        watchers[ObjectIdentifier(watcher)] = watcher
        let nanoseconds = Self.nanoseconds(pollInterval)
        let milliseconds = nanoseconds / 1_000_000 + (nanoseconds % 1_000_000 == 0 ? 0 : 1)
        let interval = UInt32(clamping: max(1, milliseconds))  // libuv's unit; at least 1 ms
        do throws(UVLibError) {
            if usingInotify {
                let event = try watcher.addHandle(uv_fs_event_t(), operation: "uv_fs_event_init") { uv_fs_event_init(loop, $0) }
                try UVLibError.check(uv_fs_event_start(event, UVCallbacks.fileEvent, path, 0), "uv_fs_event_start")
            }
            let poll = try watcher.addHandle(uv_fs_poll_t(), operation: "uv_fs_poll_init") { uv_fs_poll_init(loop, $0) }
            try UVLibError.check(uv_fs_poll_start(poll, UVCallbacks.filePolled, path, interval), "uv_fs_poll_start")
        } catch {
            watcher.stop()  // closes the handles initialised so far
            throw UVWatchError(path: path, operation: "\(error.operation)", code: error.code)
        }
        return watcher
    }

    /// Starts one `uv_signal_t` per distinct signal in `signals`. Loop-confined.
    ///
    /// While the loop is stopping, returns a watcher that is already stopped. Stops the process with
    /// a message if libuv refuses a signal.
    func watchSignals(_ signals: [Int32], _ handler: @escaping (Int32) -> Void) -> UVWatcher {
        requireInLoop("watchSignals(_:_:)")
        let watcher = UVWatcher(core: self, action: .signal(handler))
        guard !stopping else {
            watcher.stop()
            return watcher
        }
        watchers[ObjectIdentifier(watcher)] = watcher
        var seen = Set<Int32>()
        var watched = sigset_t()
        sigemptyset(&watched)
        for signal in signals where seen.insert(signal).inserted {
            do throws(UVLibError) {
                let handle = try watcher.addHandle(uv_signal_t(), operation: "uv_signal_init") { uv_signal_init(loop, $0) }
                try UVLibError.check(uv_signal_start(handle, UVCallbacks.signalReceived, signal), "uv_signal_start")
            } catch {
                watcher.stop()
                preconditionFailure(
                    "UVEventLoop.watchSignals: cannot watch signal \(signal): \(error.operation) failed: \(UVWatchError.message(for: error.code))")
            }
            sigaddset(&watched, signal)
        }
        // The loop thread inherited the signal mask of the thread that created it, and threads of
        // Dispatch and of the Swift concurrency pool block nearly every signal. Accepting the
        // watched signals here guarantees that one thread of the process does: the kernel delivers
        // a signal sent to the process only to a thread that does not block it.
        pthread_sigmask(SIG_UNBLOCK, &watched, nil)
        return watcher
    }

    /// Called by a watcher when it stops.
    func watcherStopped(_ watcher: UVWatcher) {
        watchers.removeValue(forKey: ObjectIdentifier(watcher))
    }

    /// Called first by every watcher callback (they run in the poll phase, or in the check phase
    /// for coalesced file changes); `false` once shutdown was requested, in which case every
    /// watcher has been stopped and the callback must not run.
    func watcherCallbackMayRun() -> Bool {
        phase = .pollOrLater
        if !stopping, inbox.withLock({ $0.stopRequested }) {
            beginStop()  // no watcher callback runs once shutdown was asked for, as for timers
        }
        return !stopping
    }

    // MARK: End of turn and idle

    func runAtEndOfTurn(_ work: @escaping () -> Void) {
        requireInLoop("runAtEndOfTurn(_:)")
        endOfTurnWork.append(QueuedWork(work))
        if !checkActive {
            checkActive = true
            uv_check_start(checkHandle, UVCallbacks.check)
        }
        if phase == .beforePoll {
            // The check phase follows this iteration's poll, which would block until some other
            // event arrives; an active idle handle makes it return at once. (A timer that fired is
            // being closed, which already keeps the poll from blocking, and the idle callback keeps
            // its handle active while end-of-turn work is pending; this does not rely on either.)
            startIdle()
        }
    }

    func runWhenIdle(_ work: @escaping () -> Void) {
        requireInLoop("runWhenIdle(_:)")
        idleWork.append(QueuedWork(work))
        startIdle()
    }

    private func startIdle() {
        guard !idleActive else { return }
        idleActive = true
        uv_idle_start(idleHandle, UVCallbacks.idle)
    }

    /// Check callback: drains the end-of-turn queue, including work added while draining.
    func runEndOfTurnWork() {
        phase = .pollOrLater
        while let work = endOfTurnWork.popFirst() { work.run() }
        checkActive = false
        uv_check_stop(checkHandle)
        finishIfDrained()
    }

    /// Idle callback: runs the idle work queued so far, unless end-of-turn work is still pending
    /// (it runs first, in this iteration's check phase; the idle work waits for the next one).
    func runIdleWork() {
        phase = .beforePoll
        if endOfTurnWork.isEmpty {
            var batch = Deque<QueuedWork>()
            swap(&batch, &idleWork)
            while let work = batch.popFirst() { work.run() }
        }
        // Stay active while anything is pending, so that the poll does not block before the
        // check phase or the next idle phase.
        if idleWork.isEmpty, endOfTurnWork.isEmpty {
            idleActive = false
            uv_idle_stop(idleHandle)
        }
        phase = .pollOrLater
        finishIfDrained()
    }
}

/// A wake-up of ``UVLoopCore``: a `uv_async_t` of its own, whose callback drains the loop's inbox
/// and the signalled targets in ticket order (``UVLoopCore/drainInbox()``).
///
/// The handle is closed on the loop, when the loop shuts down or after ``cancel()``; its target
/// guarantees that ``signal()`` is never called after either (see ``BusLoopWakeUp``).
final class UVWakeUp: BusLoopWakeUp, @unchecked Sendable {
    /// Strong: the core keeps its libuv loop until every wake-up is closed; the core drops its
    /// reference to the wake-up then, which ends the cycle.
    let core: UVLoopCore
    /// The core's ticket counter, kept here so that signalling touches nothing of the core.
    private let tickets: UVPaddedAtomic<UInt64>
    private let handle: UnsafeMutablePointer<uv_async_t>
    /// Weak: a target going away cancels its wake-up, but the loop may look first.
    weak var target: (any BusLoopWakeUpTarget)?
    /// Loop-confined.
    private var closed = false

    init(core: UVLoopCore, handle: UnsafeMutablePointer<uv_async_t>, target: any BusLoopWakeUpTarget) {
        self.core = core
        self.tickets = core.lastTicket
        self.handle = handle
        self.target = target
    }

    func takeTicket() -> UInt64 {
        UVLoopCore.takeTicket(from: tickets)
    }

    func signal() {
        uv_async_send(handle)
    }

    func cancel() {
        if core.inLoop {
            core.remove(self)
        } else {
            // If refused, the loop is stopping and closes every registered handle itself.
            _ = core.submit(countingRefusal: false) { [core, self] in core.remove(self) }
        }
    }

    /// Closes the handle; its memory is freed by the close callback. Loop-confined; idempotent.
    func close() {
        guard !closed else { return }
        closed = true
        handle.withMemoryRebound(to: uv_handle_t.self, capacity: 1) { uv_close($0, UVCallbacks.wakeUpClosed) }
    }
}

/// An atomic value alone on its cache line: one that producers write and the loop reads (or the
/// reverse) must not share a line with state the other side keeps writing.
final class UVPaddedAtomic<Value: AtomicRepresentable & Sendable>: Sendable {
    // 56 bytes on each side: whatever 64-byte line holds `value`, nothing else lives on it.
    private let before: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
    let value: Atomic<Value>
    private let after: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)

    init(_ value: Value) {
        self.value = Atomic(value)
    }
}
