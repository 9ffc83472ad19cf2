import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// One payload type's buffers in the cross-thread inbox (see CrossThreadInbox.swift for the design).

/// The events of one payload type waiting to cross to the loop: the payload-independent part.
///
/// Each event is a ``CrossThreadHeader`` and a payload at the same index of two raw buffers. There
/// are two sets of buffers: producers append to the `pending…` set, only under the inbox's lock;
/// the loop delivers from the `draining…` set, which it owns. ``CrossThreadInbox/drain()`` swaps
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

    // Guarded by the inbox's lock.
    @exclusivity(unchecked) @usableFromInline var pendingHeaders: UnsafeMutablePointer<CrossThreadHeader>?
    @exclusivity(unchecked) @usableFromInline var pendingPayloads: UnsafeMutableRawPointer?
    @exclusivity(unchecked) @usableFromInline var pendingCount = 0
    @exclusivity(unchecked) @usableFromInline var pendingCapacity = 0

    // Loop-confined.
    @exclusivity(unchecked) @usableFromInline var drainingHeaders: UnsafeMutablePointer<CrossThreadHeader>?
    @exclusivity(unchecked) @usableFromInline var drainingPayloads: UnsafeMutableRawPointer?
    @exclusivity(unchecked) @usableFromInline var drainingCount = 0
    @exclusivity(unchecked) @usableFromInline var drainingCapacity = 0
    /// The next event of the draining buffers to deliver; the ones before it were moved out.
    @exclusivity(unchecked) @usableFromInline var drainCursor = 0

    /// Buffers up to this many bytes keep their capacity whatever the batches; above it, buffers a
    /// batch used less than an eighth of are given back, so a burst does not pin its peak memory.
    static let retainedBytes = 256 * 1024

    init(payloadType: ObjectIdentifier, payloadStride: Int, payloadAlignment: Int, deliver: @escaping (CrossThreadChannel, Bus, Int) -> Void) {
        self.payloadType = payloadType
        self.payloadStride = max(1, payloadStride)
        self.payloadAlignment = payloadAlignment
        self.deliver = deliver
    }

    deinit {
        // Events never delivered (the loop refused the drain, or the bus went away first); the
        // subclass has destroyed their payloads.
        pendingHeaders?.deinitialize(count: pendingCount)
        if let drainingHeaders {
            (drainingHeaders + drainCursor).deinitialize(count: drainingCount - drainCursor)
        }
        CrossThreadMemory.deallocate(pendingHeaders)
        CrossThreadMemory.deallocate(pendingPayloads)
        CrossThreadMemory.deallocate(drainingHeaders)
        CrossThreadMemory.deallocate(drainingPayloads)
    }

    /// Whether the payloads may be moved with `realloc` (bitwise).
    var payloadsAreBitwiseMovable: Bool { false }

    /// Makes room for more pending events. Under the lock.
    ///
    /// Both buffers grow with `realloc` when their contents may be moved bitwise (nearly always):
    /// a large buffer then grows in place or is remapped by the kernel, without copying the events
    /// or touching fresh memory for them again.
    @usableFromInline
    final func growPending() {
        let capacity = max(16, pendingCapacity * 2)
        let count = pendingCount
        pendingHeaders = CrossThreadMemory.grow(
            pendingHeaders.map(UnsafeMutableRawPointer.init), to: capacity * MemoryLayout<CrossThreadHeader>.stride,
            alignment: MemoryLayout<CrossThreadHeader>.alignment,
            bitwiseMovable: CrossThreadMemory.headersAreBitwiseMovable
        ) { source, destination in
            destination.assumingMemoryBound(to: CrossThreadHeader.self)
                .moveInitialize(from: source.assumingMemoryBound(to: CrossThreadHeader.self), count: count)
        }.assumingMemoryBound(to: CrossThreadHeader.self)
        pendingPayloads = CrossThreadMemory.grow(
            pendingPayloads, to: capacity * payloadStride, alignment: payloadAlignment,
            bitwiseMovable: payloadsAreBitwiseMovable
        ) { source, destination in
            movePayloads(from: source, to: destination, count: count)
        }
        pendingCapacity = capacity
    }

    /// Moves `count` payloads between raw buffers of this channel's payload type.
    func movePayloads(from source: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, count: Int) {
        fatalError("overridden")
    }

    /// Hands the pending events to the loop and the loop's empty buffers to producers. Under the
    /// lock, on the loop, once the previous batch was delivered.
    final func swapBuffers() {
        assert(drainCursor == drainingCount, "swapping a channel whose batch is not delivered")
        swap(&pendingHeaders, &drainingHeaders)
        swap(&pendingPayloads, &drainingPayloads)
        swap(&pendingCapacity, &drainingCapacity)
        drainingCount = pendingCount
        pendingCount = 0
        drainCursor = 0
    }

    /// Ends a delivered batch: the draining buffers are empty again. On the loop.
    final func finishBatch() {
        assert(drainCursor == drainingCount, "a batch ended with events left in it")
        let used = drainingCount
        drainingCount = 0
        drainCursor = 0
        let bytes = drainingCapacity * (MemoryLayout<CrossThreadHeader>.stride + payloadStride)
        if bytes > Self.retainedBytes && used < drainingCapacity / 8 {
            CrossThreadMemory.deallocate(drainingHeaders)
            CrossThreadMemory.deallocate(drainingPayloads)
            drainingHeaders = nil
            drainingPayloads = nil
            drainingCapacity = 0
        }
    }
}

/// The events of payload type `Payload` waiting to cross to the loop.
@usableFromInline
final class TypedCrossThreadChannel<Payload: Sendable>: CrossThreadChannel {
    @usableFromInline
    init(deliver: @escaping (CrossThreadChannel, Bus, Int) -> Void) {
        super.init(
            payloadType: ObjectIdentifier(Payload.self), payloadStride: MemoryLayout<Payload>.stride,
            payloadAlignment: MemoryLayout<Payload>.alignment, deliver: deliver)
    }

    override var payloadsAreBitwiseMovable: Bool { _isBitwiseTakable(Payload.self) }

    deinit {
        if let pendingPayloads {
            pendingPayloads.assumingMemoryBound(to: Payload.self).deinitialize(count: pendingCount)
        }
        if let drainingPayloads {
            (drainingPayloads.assumingMemoryBound(to: Payload.self) + drainCursor)
                .deinitialize(count: drainingCount - drainCursor)
        }
    }

    /// Appends an event to the pending buffers. Under the lock.
    @inlinable
    func append(nameID: Int, _ payload: Payload, sender: (any AnyObject & Sendable)?, origin: EventOrigin) {
        if pendingCount == pendingCapacity { growPending() }
        let index = pendingCount
        (pendingHeaders.unsafelyUnwrapped + index).initialize(to: CrossThreadHeader(nameID: nameID, sender: sender, origin: origin))
        (pendingPayloads.unsafelyUnwrapped.assumingMemoryBound(to: Payload.self) + index).initialize(to: payload)
        pendingCount = index &+ 1
    }

    override func movePayloads(from source: UnsafeMutableRawPointer, to destination: UnsafeMutableRawPointer, count: Int) {
        destination.assumingMemoryBound(to: Payload.self)
            .moveInitialize(from: source.assumingMemoryBound(to: Payload.self), count: count)
    }

    /// Moves the next `count` events out of the draining buffers and posts each. On the loop.
    @inlinable
    func deliverNext(_ count: Int, to bus: Bus) {
        let headers = drainingHeaders.unsafelyUnwrapped
        let payloads = drainingPayloads.unsafelyUnwrapped.assumingMemoryBound(to: Payload.self)
        var index = drainCursor
        let end = index &+ count
        while index < end {
            let header = (headers + index).move()
            let payload = (payloads + index).move()
            index &+= 1
            bus.post(EventName<Payload>(crossThreadID: header.nameID), payload, sender: header.sender, origin: header.origin)
        }
        drainCursor = end
    }
}

extension EventName {
    /// The name with `id`, which was a name of this payload type when it was posted.
    @inlinable
    init(crossThreadID id: Int) {
        self.id = id
    }
}
