import ResponderBusPlatform
import Synchronization

// One payload type's buffers in the cross-thread inbox (see CrossThreadInbox.swift for the design).

/// The events of one payload type waiting to cross to the loop: the payload-independent part.
///
/// Each event is a ``CrossThreadHeader`` and a payload at the same index of two raw buffers. There
/// are two sets of buffers: producers append to the `pending` set, only under the inbox's lock;
/// the loop delivers from the `draining` set, which it owns. ``CrossThreadInbox/drain()`` swaps
/// the two under the lock, so both keep their capacity.
@usableFromInline
class CrossThreadChannel {
    /// Delivers the next `count` events of the draining buffers to the bus, in order.
    ///
    /// Made by `@inlinable` code for the channel's payload type, so specialised for it.
    @usableFromInline let deliver: (CrossThreadChannel, Bus, Int) -> Void
    /// `ObjectIdentifier` of the payload type.
    let payloadType: ObjectIdentifier
    /// Bytes per payload, and their alignment.
    let payloadStride: Int
    let payloadAlignment: Int
    /// Whether the payloads may be moved with `realloc` (bitwise).
    let payloadsAreBitwiseMovable: Bool
    /// Moves `count` payloads between raw buffers of the channel's payload type (when they grow
    /// and cannot be moved bitwise).
    let movePayloads: (_ source: UnsafeMutableRawPointer, _ destination: UnsafeMutableRawPointer, _ count: Int) -> Void

    /// The set producers append to; touched only under the inbox's lock.
    @exclusivity(unchecked) @usableFromInline var pending = CrossThreadBuffers()
    /// The set the loop delivers from; touched only on the loop (and swapped under the lock).
    @exclusivity(unchecked) @usableFromInline var draining = CrossThreadBuffers()

    /// Buffers up to this many bytes keep their capacity whatever the batches; above it, buffers a
    /// batch used less than an eighth of are given back, so a burst does not pin its peak memory.
    static let retainedBytes = 256 * 1024

    init<Payload>(
        of payload: Payload.Type, deliver: @escaping (CrossThreadChannel, Bus, Int) -> Void
    ) {
        self.payloadType = ObjectIdentifier(Payload.self)
        self.payloadStride = max(1, MemoryLayout<Payload>.stride)
        self.payloadAlignment = MemoryLayout<Payload>.alignment
        self.payloadsAreBitwiseMovable = _isBitwiseTakable(Payload.self)
        self.movePayloads = { source, destination, count in
            destination.assumingMemoryBound(to: Payload.self).moveInitialize(from: source.assumingMemoryBound(to: Payload.self), count: count)
        }
        self.deliver = deliver
    }

    deinit {
        // Events never delivered (the loop refused the drain, or the bus went away first); the
        // subclass has destroyed their payloads.
        pending.headers?.deinitialize(count: pending.count)
        if let headers = draining.headers {
            (headers + draining.cursor).deinitialize(count: draining.count - draining.cursor)
        }
        CrossThreadMemory.deallocate(pending.headers)
        CrossThreadMemory.deallocate(pending.payloads)
        CrossThreadMemory.deallocate(draining.headers)
        CrossThreadMemory.deallocate(draining.payloads)
    }

    /// Makes room for more pending events. Under the lock.
    ///
    /// Both buffers grow with `realloc` when their contents may be moved bitwise (nearly always):
    /// a large buffer then grows in place or is remapped by the kernel, without copying the events
    /// or touching fresh memory for them again.
    @usableFromInline
    final func growPending() {
        let capacity = max(16, pending.capacity * 2)
        let count = pending.count
        pending.headers = CrossThreadMemory.grow(
            pending.headers.map(UnsafeMutableRawPointer.init), to: capacity * MemoryLayout<CrossThreadHeader>.stride,
            alignment: MemoryLayout<CrossThreadHeader>.alignment,
            bitwiseMovable: CrossThreadMemory.headersAreBitwiseMovable
        ) { source, destination in
            destination.assumingMemoryBound(to: CrossThreadHeader.self)
                .moveInitialize(from: source.assumingMemoryBound(to: CrossThreadHeader.self), count: count)
        }.assumingMemoryBound(to: CrossThreadHeader.self)
        pending.payloads = CrossThreadMemory.grow(
            pending.payloads, to: capacity * payloadStride, alignment: payloadAlignment,
            bitwiseMovable: payloadsAreBitwiseMovable
        ) { source, destination in
            movePayloads(source, destination, count)
        }
        pending.capacity = capacity
    }

    /// Hands the pending events to the loop and the loop's empty buffers to producers. Under the
    /// lock, on the loop, once the previous batch was delivered.
    final func swapBuffers() {
        assert(draining.cursor == draining.count, "swapping a channel whose batch is not delivered")
        // The delivered set (count == cursor) becomes the empty pending one.
        swap(&pending, &draining)
        pending.count = 0
        pending.cursor = 0
        draining.cursor = 0
    }

    /// Ends a delivered batch: the draining buffers are empty again. On the loop.
    final func finishBatch() {
        assert(draining.cursor == draining.count, "a batch ended with events left in it")
        let used = draining.count
        draining.count = 0
        draining.cursor = 0
        let bytes = draining.capacity * (MemoryLayout<CrossThreadHeader>.stride + payloadStride)
        if bytes > Self.retainedBytes && used < draining.capacity / 8 {
            CrossThreadMemory.deallocate(draining.headers)
            CrossThreadMemory.deallocate(draining.payloads)
            draining.headers = nil
            draining.payloads = nil
            draining.capacity = 0
        }
    }
}

/// The events of payload type `Payload` waiting to cross to the loop.
@usableFromInline
final class TypedCrossThreadChannel<Payload: Sendable>: CrossThreadChannel {
    @usableFromInline
    init(deliver: @escaping (CrossThreadChannel, Bus, Int) -> Void) {
        super.init(of: Payload.self, deliver: deliver)
    }

    deinit {
        if let payloads = pending.payloads {
            payloads.assumingMemoryBound(to: Payload.self).deinitialize(count: pending.count)
        }
        if let payloads = draining.payloads {
            (payloads.assumingMemoryBound(to: Payload.self) + draining.cursor)
                .deinitialize(count: draining.count - draining.cursor)
        }
    }

    /// Appends an event to the pending buffers. Under the lock.
    @inlinable
    func append(nameID: Int, _ payload: Payload, sender: (any AnyObject & Sendable)?, origin: EventOrigin) {
        if pending.count == pending.capacity { growPending() }
        let index = pending.count
        (pending.headers.unsafelyUnwrapped + index).initialize(to: CrossThreadHeader(nameID: nameID, sender: sender, origin: origin))
        (pending.payloads.unsafelyUnwrapped.assumingMemoryBound(to: Payload.self) + index).initialize(to: payload)
        pending.count = index &+ 1
    }

    /// Moves the next `count` events out of the draining buffers and posts each. On the loop.
    @inlinable
    func deliverNext(_ count: Int, to bus: Bus) {
        let headers = draining.headers.unsafelyUnwrapped
        let payloads = draining.payloads.unsafelyUnwrapped.assumingMemoryBound(to: Payload.self)
        var index = draining.cursor
        let end = index &+ count
        while index < end {
            let header = (headers + index).move()
            let payload = (payloads + index).move()
            index &+= 1
            bus.post(EventName<Payload>(crossThreadID: header.nameID), payload, sender: header.sender, origin: header.origin)
        }
        draining.cursor = end
    }
}

extension EventName {
    /// The name with `id`, which was a name of this payload type when it was posted.
    @inlinable
    init(crossThreadID id: Int) {
        self.id = id
    }
}

/// One set of a channel's buffers: headers and payloads at the same index.
///
/// ## Invariant
///
/// A channel keeps two of these, each in a stored property that skips the run-time exclusivity
/// checks (benchmark case "postFromAnyThread, 1 producer", group 2): `pending` is touched only
/// under the inbox's lock, `draining` only on the loop, and the two are swapped under the lock once
/// the loop has delivered its set. No `inout` access to either spans a call out of the channel.
@usableFromInline
struct CrossThreadBuffers {
    @usableFromInline var headers: UnsafeMutablePointer<CrossThreadHeader>?
    @usableFromInline var payloads: UnsafeMutableRawPointer?
    /// Events in the buffers.
    @usableFromInline var count = 0
    /// Events the buffers have room for.
    @usableFromInline var capacity = 0
    /// The next event to deliver; the ones before it were moved out (the draining set only).
    @usableFromInline var cursor = 0

    @usableFromInline init() {}
}
