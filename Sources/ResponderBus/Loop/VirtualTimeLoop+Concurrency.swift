import Dispatch

/// The virtual-time loop as a Swift concurrency executor, for deterministic async tests (in the
/// spirit of SwiftNIO's `NIOAsyncTestingEventLoop`).
///
/// An actor whose `unownedExecutor` is the loop's, and a task with the loop as its executor
/// preference, run their jobs on the loop: in the order they were enqueued, on the thread that
/// drives the loop, when it is driven (``run()``, ``advance(by:)``…). ``runAsync(_:)`` is the
/// usual way in: it starts an async operation on the loop and drives the loop on the calling
/// thread until the operation is done. Nothing else runs those jobs and time moves only when the
/// operation advances it, so every run of a test does the same:
///
/// ```swift
/// let loop = VirtualTimeLoop()
/// let bus = Bus(loop: loop)
/// let shows = try loop.runAsync {
///     let tally = Tally(loop: loop, bus: bus)   // an actor on the loop
///     await tally.start()
///     bus.post(.keyboardWillShow, KeyboardInfo(end: Rect(x: 0, y: 521, width: 375, height: 291)))
///     loop.advance(by: .seconds(1))
///     return await tally.shows
/// }
/// ```
extension VirtualTimeLoop: SerialExecutor, TaskExecutor {
    /// Queues `job` to run on the loop the next time it is driven. Thread-safe.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        execute { [self] in
            job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        }
    }

    /// The loop as a serial executor, for an actor's `unownedExecutor`.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// The loop as a task executor, for `Task(executorPreference:)` and `withTaskExecutorPreference`.
    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Whether the loop and `other` are the same executor.
    public func isSameExclusiveExecutionContext(other: VirtualTimeLoop) -> Bool {
        other === self
    }

    /// Stops the process with a message unless the caller is the thread driving the loop.
    public func checkIsolated() {
        precondition(inLoop, "VirtualTimeLoop: expected to run on the thread that drives the loop, but this is another thread")
    }

    /// Runs `body` on the loop and returns its value, or rethrows its error: at once on the thread
    /// driving the loop, otherwise the next time the loop is driven (the caller waits meanwhile).
    public func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        if inLoop { return try body() }
        return try await withCheckedThrowingContinuation { continuation in
            execute { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Starts `operation` as a task on this loop and drives the loop on the calling thread until
    /// the operation returns; returns its value or rethrows its error.
    ///
    /// The operation's own code and every actor on this loop run on the calling thread, one job at
    /// a time in the order they were enqueued; the loop's timers, end-of-turn and idle work run as
    /// ``run()`` runs them; time moves only when the operation calls ``advance(by:)`` or
    /// ``advance(to:)``. When the operation waits for something off the loop (another actor, a
    /// continuation resumed by another thread), the calling thread sleeps until work arrives.
    ///
    /// Blocks the calling thread: call it from a synchronous test or a thread of your own, not from
    /// a task whose executor other tasks need. Move time from the operation itself, not from an
    /// actor method on this loop: ``advance(by:)`` runs the loop's due work, jobs included, so
    /// called from inside a job it would run that actor's next jobs in the middle of the current one.
    public func runAsync<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Locked<Result<T, any Error>?>(nil)
        let arrived = DispatchSemaphore(value: 0)
        // Whoever queues work from another thread wakes the driver (see `execute`).
        setDriverWakeUp { arrived.signal() }
        defer { setDriverWakeUp(nil) }
        Task(executorPreference: self) { [self] in
            let result: Result<T, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            execute {}  // wakes the driver, wherever the task finished
        }
        while true {
            run()
            if let result = outcome.withLock({ $0 }) { return try result.get() }
            if !hasQueuedWorkFromOtherThreads { arrived.wait() }
        }
    }
}
