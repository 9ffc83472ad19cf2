import Synchronization

/// A value handed from one thread to another: the main thread gives the libuv loop's thread what a
/// replay needs, and waits (the result comes back as a Sendable value, `LoopResult`).
///
/// The `Mutex` makes the hand-off safe to check, not a promise: a value goes in as `sending` (no one
/// else still holds it) and comes out as `sending`, once. So nothing here opts out of Sendable
/// checking.
package final class Handoff<Value>: Sendable {
    private let slot: Mutex<Value?>

    /// Holds `value` for another thread.
    package init(_ value: sending Value) {
        slot = Mutex(value)
    }

    /// Takes the value out; `nil` when there is none (any more).
    package func take() -> sending Value? {
        slot.withLock { value -> sending Value? in
            let taken = value.take()
            return taken
        }
    }
}
