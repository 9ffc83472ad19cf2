/// The event loop a ``Bus`` runs on.
///
/// Two loops implement it: ``VirtualTimeLoop`` in this module (tests and fast replay: no threads, no
/// wall clock) and `UVEventLoop` in `ResponderBusUV` (production: libuv on its own thread). The core
/// never imports libuv; everything that runs on a loop goes through this protocol, the way SwiftNIO
/// splits `NIOCore` from `NIOPosix` and `NIOEmbedded`.
///
/// ## Threading contract
///
/// - ``execute(_:)`` may be called from any thread. Work submitted from one thread runs in the
///   order it was submitted, exactly once, on the loop.
/// - Every other requirement is **loop-confined**: call it only from code already running on the
///   loop (``inLoop`` is `true`). Loop-confined closures need not be `Sendable`.
///
/// ## A turn of the loop
///
/// Work given to ``runAtEndOfTurn(_:)`` runs when the current turn's callbacks have finished, before
/// the loop waits for anything new; work given to ``runWhenIdle(_:)`` runs after that, once the loop
/// has nothing else due. Both run in FIFO order; end-of-turn work added during its drain runs in the
/// same drain.
///
/// What a turn spans differs between the loops, as a run-loop turn does between UIKit run-loop
/// sources: on ``VirtualTimeLoop`` a turn is one callback (one piece of work from ``execute(_:)`` or
/// one timer); on the libuv loop it is one iteration of `uv_run` (the timers that were due and the
/// work that was submitted, then the `uv_check_t` phase). Code that wants several events to share a
/// turn on both — a replayer posting the events of one recorded `t` — posts them from one callback.
/// Code that wants them in turns of their own schedules the next from end-of-turn work: a timer
/// scheduled from a timer may fire in the same turn on the libuv loop.
public protocol BusLoop: AnyObject, Sendable {
    /// Whether the caller is running on the loop, where loop-confined calls are allowed.
    var inLoop: Bool { get }

    /// The loop's clock: time elapsed since the loop was created (virtual time on a
    /// ``VirtualTimeLoop``, monotonic time on the libuv loop).
    var now: Duration { get }

    /// Runs `work` on the loop, soon. Thread-safe; never runs `work` inline, even on the loop.
    func execute(_ work: @escaping @Sendable () -> Void)

    /// Runs `work` on the loop, soon, like ``execute(_:)``, and says whether the loop accepted it.
    /// Thread-safe; never runs `work` inline.
    ///
    /// A loop that refuses work, for example because it is shutting down, returns `false` and never
    /// runs `work`. The default implementation calls ``execute(_:)`` and returns `true`, for loops
    /// that never refuse.
    ///
    /// - Returns: `true` if `work` will run.
    @discardableResult
    func submit(_ work: @escaping @Sendable () -> Void) -> Bool

    /// Runs `work` on the loop once `delay` has elapsed. Loop-confined.
    ///
    /// - Returns: a handle whose ``ScheduledWork/cancel()`` stops `work` from running.
    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork

    /// Runs `work` at the end of the current loop turn. Loop-confined.
    func runAtEndOfTurn(_ work: @escaping () -> Void)

    /// Runs `work` once the loop has nothing else due, after the end-of-turn work. Loop-confined.
    func runWhenIdle(_ work: @escaping () -> Void)

    /// How many turns the loop has ended, or `nil` for a loop that does not count them.
    /// Loop-confined.
    ///
    /// The count moves once a turn's end-of-turn work has all run (work added while it ran
    /// included), so everything a turn does, its end-of-turn work too, sees one value, and work
    /// with end-of-turn work between it sees two. It may also move at the end of a turn that had no
    /// end-of-turn work. The default implementation returns `nil`.
    var turnsEnded: UInt64? { get }
}

extension BusLoop {
    /// `nil`: the loop does not count its turns.
    public var turnsEnded: UInt64? { nil }

    /// Calls ``execute(_:)`` and returns `true`: the loop never refuses work.
    @discardableResult
    public func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
        execute(work)
        return true
    }

    /// Stops the process with a clear message when called off the loop, in debug builds.
    ///
    /// The bus's per-event entry points (`post`) call this: a check on every event would cost a
    /// measurable part of a post (benchmark case "bus.post, 1 observer").
    @inlinable
    public func assertInLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(inLoop, "called off its event loop; use a thread-safe entry such as execute(_:)", file: file, line: line)
    }

    /// Stops the process with a clear message when called off the loop, in every build.
    ///
    /// The bus's set-up entry points (`observe`, `register`, `unregister`) call this: they are not
    /// per event, and confinement broken there would corrupt the bus's tables for every later post.
    @inlinable
    public func preconditionInLoop(file: StaticString = #fileID, line: UInt = #line) {
        precondition(inLoop, "called off its event loop; use a thread-safe entry such as execute(_:)", file: file, line: line)
    }
}

// MARK: - Wake-ups (package)
