import ResponderBusPlatform
import Synchronization

// The raw storage of the cross-thread inbox (see CrossThreadInbox.swift for the design).

/// The raw memory of the channels' buffers: `malloc`ed, and grown with `realloc` when the contents
/// may be moved bitwise.
///
/// `realloc` matters for bursts: a large buffer is grown by the kernel remapping its pages, so the
/// events already queued are neither copied nor faulted in again. Growing by allocate-and-move
/// (page faults and copies on every growth) and asking for transparent huge pages (`MADV_HUGEPAGE`:
/// faults then compact memory) were both measurably slower: see the benchmark cases
/// "postFromAnyThread, 1 producer" and "postFromAnyThread, 4 producers" (group 2) before changing it.
enum CrossThreadMemory {
    /// Whether ``CrossThreadHeader``s may be moved bitwise.
    static let headersAreBitwiseMovable = _isBitwiseTakable(CrossThreadHeader.self)

    /// `old` (or nothing) grown to `bytes`, its contents kept: with `realloc` when `bitwiseMovable`
    /// and `malloc`'s alignment suffices, otherwise in a new allocation filled by `move`.
    static func grow(
        _ old: UnsafeMutableRawPointer?, to bytes: Int, alignment: Int, bitwiseMovable: Bool,
        move: (_ source: UnsafeMutableRawPointer, _ destination: UnsafeMutableRawPointer) -> Void
    ) -> UnsafeMutableRawPointer {
        let buffer: UnsafeMutableRawPointer
        if alignment <= 16 && (bitwiseMovable || old == nil) {
            guard let grown = realloc(old, bytes) else { fatalError("cross-thread inbox: out of memory (\(bytes) bytes)") }
            buffer = grown
        } else {
            var allocated: UnsafeMutableRawPointer?
            guard posix_memalign(&allocated, max(alignment, MemoryLayout<Int>.alignment), bytes) == 0, let allocated else {
                fatalError("cross-thread inbox: out of memory (\(bytes) bytes)")
            }
            buffer = allocated
            if let old {
                move(old, buffer)
                free(old)
            }
        }
        return buffer
    }

    /// Frees a buffer made by ``grow(_:to:alignment:bitwiseMovable:move:)``; its contents must
    /// have been destroyed.
    static func deallocate<T>(_ buffer: UnsafeMutablePointer<T>?) {
        free(buffer)
    }

    /// Frees a buffer made by ``grow(_:to:alignment:bitwiseMovable:move:)``; its contents must
    /// have been destroyed.
    static func deallocate(_ buffer: UnsafeMutableRawPointer?) {
        free(buffer)
    }
}

/// What an event carries besides its payload, waiting in a ``CrossThreadChannel``.
///
/// Kept apart from the payload on purpose: a struct of a large payload plus the sender and the
/// origin is copied and destroyed through its value witnesses (after a metadata lookup) rather than
/// field by field; this small one and a payload on its own are handled inline.
@usableFromInline
struct CrossThreadHeader {
    @usableFromInline let nameID: Int
    @usableFromInline let sender: (any AnyObject & Sendable)?
    @usableFromInline let origin: EventOrigin

    @inlinable
    init(nameID: Int, sender: (any AnyObject & Sendable)?, origin: EventOrigin) {
        self.nameID = nameID
        self.sender = sender
        self.origin = origin
    }
}

/// Consecutive posts to one channel, in the order they were made.
@usableFromInline
struct CrossThreadRun {
    /// The channel's index in ``CrossThreadInbox``'s channel list.
    @usableFromInline var channel: Int
    /// How many events of the channel, in its buffers' order.
    @usableFromInline var count: Int

    @inlinable
    init(channel: Int, count: Int) {
        self.channel = channel
        self.count = count
    }
}
