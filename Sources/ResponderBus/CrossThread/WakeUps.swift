// The wake-up protocols between the cross-thread inbox and a loop that can wake it without a
// closure per signal (`UVEventLoop` implements them; see CrossThreadInbox.swift for the design).

/// A loop that can wake a registered target from any thread without queueing a closure per
/// signal: how `Bus.postFromAnyThread` wakes `UVEventLoop` (a `uv_async_t` per bus). Other loops
/// are woken with ``BusLoop/submit(_:)``.
///
/// A signal is ordered with the loop's other work by a *ticket* taken from the loop when the signal
/// is made: the loop handles a signal after the work submitted before its ticket was taken and
/// before the work submitted after, so a thread's signals and its ``BusLoop/execute(_:)`` calls
/// keep their order.
package protocol BusLoopWakingTargets: BusLoop {
    /// Registers `target` for wake-ups. Loop-confined.
    ///
    /// - Returns: the wake-up to signal, or `nil` when the loop no longer takes signals (it is
    ///   shutting down).
    func makeWakeUp(for target: any BusLoopWakeUpTarget) -> (any BusLoopWakeUp)?
}

/// What a target signals its loop with. Made by ``BusLoopWakingTargets/makeWakeUp(for:)``.
package protocol BusLoopWakeUp: AnyObject, Sendable {
    /// A ticket for a signal made now (never 0). Thread-safe.
    func takeTicket() -> UInt64

    /// Wakes the loop, which then calls the target's ``BusLoopWakeUpTarget/loopDidWake()`` if its
    /// ``BusLoopWakeUpTarget/pendingWakeUpTicket`` is not 0. Thread-safe, but never to be called
    /// once the target's ``BusLoopWakeUpTarget/loopEndedWakeUps()`` was called: the target
    /// serialises the two with a lock of its own.
    func signal()

    /// Unregisters the target, which is going away: the loop will not call it again. Thread-safe.
    func cancel()
}

/// What a loop wakes up.
package protocol BusLoopWakeUpTarget: AnyObject, Sendable {
    /// The ticket of the signal waiting for the loop, or 0. Read by the loop without a lock (the
    /// target stores it atomically before signalling, and sets it back to 0 when it handles it).
    var pendingWakeUpTicket: UInt64 { get }

    /// Handles the pending signal. Called on the loop, in ticket order with the loop's work.
    func loopDidWake()

    /// The loop takes no more signals (it is shutting down): ``BusLoopWakeUp/signal()`` must not
    /// be called from now on. Called on the loop, after a signal pending by then was handled.
    func loopEndedWakeUps()
}
