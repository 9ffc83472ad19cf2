/// A queued event of `Payload`: what an asap or when-idle post delivers when its turn comes.
///
/// Part of the audited layer. A coalesced post that would remove the only event waiting and queue
/// itself in its place changes that event in place instead (``replace(_:sender:origin:)``, from
/// `Bus.replaceOnlyQueuedEvent`): a turn's settle, posted again after every event of the turn,
/// then costs no allocation. The bus reads and replaces the fields on every such post, from code
/// inlined into the posting plugin's module, where run-time exclusivity checks cannot be proven
/// away; so they opt out of them (the benchmark documentation has what this saves). Once
/// delivered, the bus keeps the last one (``BusState/spareEvent``) for the next post of its
/// name: a settle queued once per turn allocates nothing either.
///
/// ## Invariant
///
/// Touched on the bus's loop only: made by a post, replaced by a coalesced post, read by the
/// drain that delivers it. ``deliver(to:)`` copies the fields out before it posts, so no access to
/// them spans a callback, and a re-post from inside that callback cannot overlap a read. Only one
/// queue entry or the spare slot holds an event at a time, so an event replaced in place or reused
/// is never one that another entry will deliver.
@usableFromInline
final class QueuedPayload<Payload: Sendable>: QueuedEvent {
    @usableFromInline let name: EventName<Payload>
    @usableFromInline @exclusivity(unchecked) var payload: Payload
    @usableFromInline @exclusivity(unchecked) var sender: AnyObject?
    @usableFromInline @exclusivity(unchecked) var origin: EventOrigin
    /// Posts the event: made where it was posted, so that the post is compiled for `Payload` there.
    @usableFromInline let deliverBody: (QueuedPayload, Bus) -> Void

    @inlinable
    init(_ name: EventName<Payload>, _ payload: Payload, sender: AnyObject?, origin: EventOrigin) {
        self.name = name
        self.payload = payload
        self.sender = sender
        self.origin = origin
        deliverBody = { event, bus in
            let (payload, sender, origin) = (event.payload, event.sender, event.origin)
            bus.post(event.name, payload, sender: sender, origin: origin)
        }
    }

    /// Makes it the post of `payload` from `sender` with `origin`.
    @inlinable
    func replace(_ payload: Payload, sender: AnyObject?, origin: EventOrigin) {
        self.payload = payload
        self.sender = sender
        // Usually the same plugin's: not stored again (a release and a retain of its name).
        if origin != self.origin { self.origin = origin }
    }

    @usableFromInline
    func deliver(to bus: Bus) {
        deliverBody(self, bus)
    }

    @usableFromInline
    func dropSender() {
        sender = nil
    }
}
