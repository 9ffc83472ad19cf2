/// The stages a ``UVLoopCore`` goes through on the way out, in order: one value instead of loose
/// flags, so that no combination the loop cannot be in can be written down.
///
/// - `running`: timers, watchers and wake-ups are accepted.
/// - `stopping`: a stop was requested and seen (by the inbox's drain, a timer or a watcher):
///   every timer was cancelled and every watcher stopped, and new ones are refused (returned
///   already cancelled). Wake-ups are still accepted: the inbox has not taken the stop request yet.
/// - `inboxClosed`: the drain took the stop request and everything posted before it; nothing more
///   is accepted, and every wake-up target was told (``BusLoopWakeUpTarget/loopEndedWakeUps()``).
/// - `handlesClosed`: once the end-of-turn and idle work ran out and the end targets were told
///   (``BusLoopEndTarget/loopEnded()``: buses finish their event streams), the loop's own handles
///   were closed; `uv_run` returns when their close callbacks have run.
///
/// Loop-confined, like the rest of the core's loop-thread state.
struct UVLoopLifecycle {
    enum Stage: Int, Comparable, Sendable {
        case running, stopping, inboxClosed, handlesClosed

        static func < (a: Stage, b: Stage) -> Bool { a.rawValue < b.rawValue }
    }

    private(set) var stage = Stage.running

    /// Whether new timers and watchers are accepted.
    var acceptsTimersAndWatchers: Bool { stage == .running }
    /// Whether new wake-ups are accepted.
    var acceptsWakeUps: Bool { stage < .inboxClosed }

    /// `running` → `stopping`. Whether it moved: the caller then cancels the timers and stops the
    /// watchers (once).
    mutating func beginStop() -> Bool {
        guard stage == .running else { return false }
        stage = .stopping
        return true
    }

    /// `stopping` → `inboxClosed`, when the drain took the stop request (the caller has begun
    /// stopping first, ``beginStop()``). Whether it moved: the caller then ends the wake-ups (once);
    /// a later drain, woken by a signal sent before the end, finds the inbox closed already.
    mutating func closeInbox() -> Bool {
        precondition(stage != .running, "the inbox closes after the loop began stopping")
        guard stage == .stopping else { return false }
        stage = .inboxClosed
        return true
    }

    /// `inboxClosed` → `handlesClosed`. Whether it moved: the caller then closes the handles (once).
    mutating func closeHandles() -> Bool {
        guard stage == .inboxClosed else { return false }
        stage = .handlesClosed
        return true
    }
}
