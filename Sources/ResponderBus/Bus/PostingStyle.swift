/// When a posted event is delivered.
///
/// The counterpart of Foundation's `NotificationQueue.PostingStyle`, on the bus's loop.
public enum PostingStyle: Hashable, Sendable {
    /// Delivered now: `post` returns after every matching observer ran (or, from inside an
    /// observer, queued behind the current event and delivered before the outer `post` returns).
    case now
    /// Delivered at the end of the current loop turn (libuv: the `uv_check_t` phase).
    case asap
    /// Delivered once the loop has nothing else due, after the end-of-turn work (libuv: a
    /// `uv_idle_t`).
    case whenIdle
}

/// Which queued events a new post replaces.
///
/// When an event is queued with a non-empty mask, every event still queued (in either the
/// ``PostingStyle/asap`` or the ``PostingStyle/whenIdle`` queue) that matches it is removed first, and
/// the new one goes to the back: FIFO, latest wins. With both options, both must match.
public struct Coalescing: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates a mask from its bits.
    @inlinable public init(rawValue: Int) { self.rawValue = rawValue }

    /// Queued events with the same name are replaced.
    @inlinable public static var onName: Coalescing { Coalescing(rawValue: 1 << 0) }
    /// Queued events from the same sender (by identity; no sender matches no sender) are replaced.
    @inlinable public static var onSender: Coalescing { Coalescing(rawValue: 1 << 1) }
    /// Nothing is replaced.
    @inlinable public static var none: Coalescing { Coalescing(rawValue: 0) }
}
