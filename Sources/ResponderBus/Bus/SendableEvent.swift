/// An event as delivered off the loop: to a `DispatchQueue` observer or an async sequence.
///
/// The sender is not carried across threads (it is usually a loop-confined object such as a
/// ``ViewNode``); its identity is, so you can still tell senders apart.
public struct SendableEvent<Payload: Sendable>: Sendable {
    /// The event's name.
    public var name: EventName<Payload>
    /// The typed payload.
    public var payload: Payload
    /// The identity of the object that posted it, if any.
    public var senderID: ObjectIdentifier?
    /// Whether the world or a plugin produced it.
    public var origin: EventOrigin

    /// Copies the sendable parts of an event.
    public init(_ event: Event<Payload>) {
        name = event.name
        payload = event.payload
        senderID = event.sender.map(ObjectIdentifier.init)
        origin = event.origin
    }
}
