import Dispatch
import ResponderBus

/// The loop no longer takes work: ``UVEventLoop/perform(_:)`` was called after
/// ``UVEventLoop/shutdown()`` (or ``UVEventLoop/shutdownGracefully()``) began.
public struct UVLoopShutDownError: Error, CustomStringConvertible {
    /// Creates the error.
    public init() {}

    /// What happened, for a person.
    public var description: String { "the UVEventLoop is shutting down or shut down: it runs no more work" }
}

/// The loop as a Swift concurrency executor.
///
/// An actor whose `unownedExecutor` is the loop's runs on the loop thread, so it may touch the bus,
/// its screen and loop-confined plugin state directly, without locks:
///
/// ```swift
/// actor Keyboards {
///     let loop: UVEventLoop
///     let bus: Bus
///     var shows = 0
///     nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
///
///     init(loop: UVEventLoop, bus: Bus) {
///         self.loop = loop
///         self.bus = bus
///     }
///
///     func start() {
///         // On the loop thread: observe and post directly.
///         _ = bus.observe(.keyboardWillShow) { [unowned self] _ in
///             self.assumeIsolated { $0.shows += 1 }
///         }
///     }
/// }
/// ```
///
/// The loop is a `TaskExecutor` too: `Task(executorPreference: loop) { … }` runs the task's
/// nonisolated code on the loop thread. ``perform(_:)`` runs one closure there and returns its
/// value; ``shutdownGracefully()`` is the asynchronous ``shutdown()``.
///
/// Jobs run like work given to ``execute(_:)``: in the order they were enqueued, never inline, each
/// as one callback of the loop (its end-of-turn work runs after it). A job enqueued once the loop is
/// shutting down cannot run anywhere: that stops the process with a message, as a task waiting for
/// it would otherwise wait forever. Shut the loop down after the tasks that use it have finished.
extension UVEventLoop: SerialExecutor, TaskExecutor {
    /// Runs `job` on the loop thread, after the work already queued. Stops the process with a
    /// message if the loop is shutting down or shut down.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let accepted = submit { [self] in
            job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        }
        precondition(
            accepted,
            "UVEventLoop: a Swift task was enqueued after the loop began shutting down, so it could never run; shut the loop down once the tasks and actors that use it are done"
        )
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
    public func isSameExclusiveExecutionContext(other: UVEventLoop) -> Bool {
        other === self
    }

    /// Stops the process with a message unless the caller is on the loop thread: what
    /// `assertIsolated`, `preconditionIsolated` and `assumeIsolated` use when the running task's
    /// executor is not the loop's.
    public func checkIsolated() {
        precondition(inLoop, "UVEventLoop: expected to run on the loop thread '\(UVEventLoop.threadName)', but this is another thread")
    }

    /// Runs `body` on the loop thread and returns its value, or rethrows its error.
    ///
    /// On the loop thread already (from an actor on the loop, say), `body` runs at once; otherwise
    /// it runs as one callback of the loop, after the work already queued, while the caller waits
    /// without blocking a thread.
    ///
    /// - Throws: what `body` throws; ``UVLoopShutDownError`` when the loop no longer takes work
    ///   (`body` then does not run).
    public func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        if inLoop { return try body() }
        return try await withCheckedThrowingContinuation { continuation in
            let accepted = submit {
                continuation.resume(with: Result { try body() })
            }
            if !accepted { continuation.resume(throwing: UVLoopShutDownError()) }
        }
    }

    /// Shuts the loop down as ``shutdown()`` does and returns once everything posted before it was
    /// delivered, every handle and the libuv loop are closed and the thread has ended — without
    /// blocking the caller's thread meanwhile.
    ///
    /// Call it from outside the loop: a task running on the loop (an actor on it, say) cannot wait
    /// for the loop to end, and stops the process with a message.
    public func shutdownGracefully() async {
        precondition(
            !inLoop, "UVEventLoop.shutdownGracefully() called on the loop thread, which would wait for itself; call it from another task or thread")
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // The wait for the thread happens on a thread of Dispatch's, not the caller's.
            DispatchQueue.global().async { [self] in
                shutdown()
                continuation.resume()
            }
        }
    }
}
