import DequeModule
import HeapModule
import ResponderBusPlatform
import Synchronization

/// A deterministic event loop with virtual time, for tests and for replaying logs as fast as the
/// machine allows.
///
/// In the spirit of SwiftNIO's `EmbeddedEventLoop`: no threads and no wall clock. Time starts at
/// zero and moves only when you call ``advance(by:)`` or ``advance(to:)``; work runs only inside
/// ``run()`` and `advance`. Tasks are ordered by (deadline, order of scheduling), so two runs of
/// the same program do exactly the same thing.
///
/// The loop belongs to the thread that drives it: the one that created it, until another thread
/// calls ``run()``, ``advance(by:)``, ``advance(to:)`` or ``runUntilQuiet(limit:)``, which makes
/// that thread the loop's own. ``inLoop`` is `true` on that thread only. ``execute(_:)`` is safe to
/// call from other threads; their work waits in an inbox until the driving thread next runs the
/// loop (a token cancelled on another thread, for instance, stops delivery at once and leaves its
/// bookkeeping to the loop that way).
///
/// ```swift
/// let loop = VirtualTimeLoop()
/// loop.schedule(after: .milliseconds(250)) { print("animation ended") }
/// loop.advance(by: .seconds(1))   // prints, with loop.now == 0.25 s at the time
/// ```
public final class VirtualTimeLoop: BusLoop, @unchecked Sendable {
    private struct Task: Comparable {
        let deadline: Duration
        let sequence: UInt64
        let handle: ScheduledWork
        let work: () -> Void

        static func < (a: Task, b: Task) -> Bool {
            (a.deadline, a.sequence) < (b.deadline, b.sequence)
        }
        static func == (a: Task, b: Task) -> Bool {
            a.deadline == b.deadline && a.sequence == b.sequence
        }
    }

    // Loop-confined state, never accessed overlappingly (no inout access spans a callback): in the
    // audited layer's box, without the run-time exclusivity checks (about ten per replayed event).
    private struct State {
        var tasks = Heap<Task>()
        var sequence: UInt64 = 0
        /// The oldest end-of-turn work, when it was queued with nothing else waiting: most turns
        /// queue one piece (the bus's drain of its as-soon-as-possible events), which then costs
        /// no deque operations. Always older than everything in `endOfTurn`.
        var firstEndOfTurn: QueuedWork?
        /// The other end-of-turn work, in order.
        var endOfTurn = Deque<QueuedWork>()
        var idle = Deque<QueuedWork>()
        var now: Duration = .zero
        /// `tasks.min?.deadline`, kept up to date on insertion and removal: reading the heap's
        /// minimum copies the task (two retains and releases), and every turn asks several times.
        var earliest: Duration?
        /// Counts the turns ended (see ``turnsEnded``).
        var turnsEnded: UInt64 = 0
    }
    private let state = UncheckedExclusivity(State())

    /// How many turns the loop has ended: it moves when a turn's end-of-turn work has all run, and
    /// when ``run()`` returns, so that two events share a value exactly when they are of one turn.
    /// The bus tells the turns of its plugins' decisions apart by it.
    public var turnsEnded: UInt64? { state.value.turnsEnded }
    private var tasks: Heap<Task> {
        get { state.value.tasks }
        _modify { yield &state.value.tasks }
    }
    private var sequence: UInt64 {
        get { state.value.sequence }
        _modify { yield &state.value.sequence }
    }
    private var endOfTurn: Deque<QueuedWork> {
        get { state.value.endOfTurn }
        _modify { yield &state.value.endOfTurn }
    }
    private var idle: Deque<QueuedWork> {
        get { state.value.idle }
        _modify { yield &state.value.idle }
    }
    /// Work from other threads, and what to call when some arrives while ``runAsync(_:)`` waits.
    private struct Inbox {
        var work: [@Sendable () -> Void] = []
        var wake: (@Sendable () -> Void)?
    }
    private let inbox = Locked(Inbox())
    /// How many pieces of work wait in the inbox, readable without taking its lock.
    private let inboxCount = Atomic<Int>(0)

    /// The virtual clock, starting at zero.
    public private(set) var now: Duration {
        get { state.value.now }
        set { state.value.now = newValue }
    }

    /// The thread that drives the loop (see the type's discussion), as `pthread_self()`.
    private let owner = Atomic<UInt>(0)

    /// Whether the caller is the thread that drives the loop: the one that created it or, since,
    /// last ran it.
    public var inLoop: Bool { owner.load(ordering: .relaxed) == Self.currentThread }

    /// Creates a loop whose clock reads zero, owned by the calling thread.
    public init() {
        owner.store(Self.currentThread, ordering: .relaxed)
    }

    private static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// Makes the calling thread the loop's own (it is about to run the loop's work).
    private func adoptCallingThread() {
        let thread = Self.currentThread
        if owner.load(ordering: .relaxed) != thread { owner.store(thread, ordering: .relaxed) }
    }

    /// Queues `work` to run at the current virtual time during the next ``run()``. Thread-safe.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        let wake = inbox.withLock {
            $0.work.append(work)
            inboxCount.add(1, ordering: .releasing)
            return $0.wake
        }
        wake?()
    }

    /// Whether work queued with ``execute(_:)`` waits for the next ``run()``.
    var hasQueuedWorkFromOtherThreads: Bool { inboxCount.load(ordering: .acquiring) > 0 }

    /// Sets what ``execute(_:)`` calls after queueing: while `runAsync` waits for work, or while
    /// a live replay drives the loop from another (`Replayer.replayLive`).
    package func setDriverWakeUp(_ wake: (@Sendable () -> Void)?) {
        inbox.withLock { $0.wake = wake }
    }

    /// Schedules `work` for `now + delay` (a negative delay counts as zero).
    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
        let handle = ScheduledWork()
        enqueue(at: now + max(delay, .zero), handle: handle, work)
        return handle
    }

    /// Queues `work` for the end of the current turn.
    public func runAtEndOfTurn(_ work: @escaping () -> Void) {
        runAtEndOfTurn(QueuedWork(work))
    }

    /// Queues `bus`'s asap drain as end-of-turn work: the bus itself, retained, is the work.
    func runAtEndOfTurn(draining bus: Bus) {
        runAtEndOfTurn(QueuedWork(bus))
    }

    @inline(__always)
    private func runAtEndOfTurn(_ work: QueuedWork) {
        if state.value.firstEndOfTurn == nil && state.value.endOfTurn.isEmpty {
            state.value.firstEndOfTurn = work
        } else {
            endOfTurn.append(work)
        }
    }

    /// Whether end-of-turn work waits.
    private var hasEndOfTurnWork: Bool {
        state.value.firstEndOfTurn != nil || !state.value.endOfTurn.isEmpty
    }

    /// Queues `work` for when the loop has nothing else due at the current time.
    public func runWhenIdle(_ work: @escaping () -> Void) {
        idle.append(QueuedWork(work))
    }

    /// Whether any work is waiting: due now, scheduled for later, or queued for a hook.
    public var hasPendingWork: Bool {
        !tasks.isEmpty || hasEndOfTurnWork || !idle.isEmpty || inboxCount.load(ordering: .acquiring) > 0
    }

    /// The deadline of the earliest scheduled task that has not run, if any.
    public var nextDeadline: Duration? {
        state.value.earliest
    }

    /// Runs everything due at the current time: submitted work, due timers, end-of-turn hooks
    /// after each, then the idle hooks — until nothing is left for now. Time does not move.
    public func run() {
        adoptCallingThread()
        runDue()
    }

    /// ``run()``, on the thread that drives the loop already.
    private func runDue() {
        while true {
            if hasEndOfTurnWork { drainEndOfTurn() }
            if inboxCount.load(ordering: .acquiring) > 0 { moveInboxToTasks() }
            if let earliest = state.value.earliest, earliest <= now {
                let task = tasks.removeMin()
                state.value.earliest = tasks.min?.deadline
                task.handle.fire(task.work)
                drainEndOfTurn()
                continue
            }
            if !state.value.idle.isEmpty {
                var batch = idle
                idle.removeAll()
                while let work = batch.popFirst() { work.run() }
                drainEndOfTurn()
                continue
            }
            if inboxCount.load(ordering: .acquiring) > 0 { continue }
            state.value.turnsEnded &+= 1
            return
        }
    }

    /// Whether ``run()`` would find nothing to do: nothing queued for the end of the turn or for
    /// idleness, nothing from other threads, nothing due at the current time.
    private var hasNothingDueNow: Bool {
        !hasEndOfTurnWork && state.value.idle.isEmpty && inboxCount.load(ordering: .acquiring) == 0
            && !(state.value.earliest.map { $0 <= now } ?? false)
    }

    /// Runs `work` now as one callback of the loop (what a task due now would be), then everything
    /// that becomes due. For replayers, which post each recorded turn this way without allocating
    /// a timer per turn. Call it when nothing is due (after ``advance(to:)``).
    package func runAsTurn(_ work: () -> Void) {
        if hasNothingDueNow { adoptCallingThread() } else { run() }
        work()
        runDue()
    }

    /// Moves the clock to `time` (never back), running what falls due on the way as
    /// ``advance(to:)`` does, then runs `work` as one callback of the loop at `time` (what a task
    /// due then would be), then everything that becomes due. For replayers: each recorded turn is
    /// posted this way, with no timer allocated for it.
    package func runTurn(at time: Duration, _ work: () -> Void) {
        // Nothing is due once the clock is there (advance(to:) ran it), and the calling thread is
        // the loop's: the turn needs neither looked at again.
        advance(to: time)
        work()
        runDue()
    }

    /// Moves the clock forward by `delta`, running everything that falls due on the way, each at
    /// its own deadline.
    public func advance(by delta: Duration) {
        advance(to: now + max(delta, .zero))
    }

    /// Moves the clock forward to `time` (never backwards), running everything that falls due on the
    /// way, each at its own deadline.
    public func advance(to time: Duration) {
        // What a replay does between two turns: nothing is due on the way, the clock just moves.
        if hasNothingDueNow && !(state.value.earliest.map { $0 <= time } ?? false) {
            adoptCallingThread()
            now = max(now, time)
            return
        }
        while true {
            run()
            guard let next = state.value.earliest, next <= time else { break }
            now = max(now, next)
        }
        now = max(now, time)
        run()
    }

    /// Runs every task, advancing the clock to each deadline in turn, until nothing is scheduled.
    ///
    /// Stops after `limit` tasks so that a timer that keeps rescheduling itself cannot hang a test.
    ///
    /// - Returns: `true` when the loop ran dry, `false` when it stopped at `limit`.
    @discardableResult
    public func runUntilQuiet(limit: Int = 1_000_000) -> Bool {
        var count = 0
        run()
        while let next = state.value.earliest {
            if count >= limit { return false }
            count += 1
            now = max(now, next)
            run()
        }
        return true
    }

    private func enqueue(at deadline: Duration, handle: ScheduledWork, _ work: @escaping () -> Void) {
        sequence &+= 1
        tasks.insert(Task(deadline: deadline, sequence: sequence, handle: handle, work: work))
        if let earliest = state.value.earliest, earliest <= deadline { return }
        state.value.earliest = deadline
    }

    private func moveInboxToTasks() {
        guard inboxCount.load(ordering: .acquiring) > 0 else { return }
        let submitted = inbox.withLock { inbox -> [@Sendable () -> Void] in
            defer {
                inboxCount.subtract(inbox.work.count, ordering: .releasing)
                inbox.work.removeAll()
            }
            return inbox.work
        }
        for work in submitted {
            enqueue(at: now, handle: ScheduledWork(), work)
        }
    }

    private func drainEndOfTurn() {
        while true {
            if let first = state.value.firstEndOfTurn.take() {
                first.run()
            } else if let work = state.value.endOfTurn.popFirst() {
                work.run()
            } else {
                state.value.turnsEnded &+= 1
                return
            }
        }
    }
}
