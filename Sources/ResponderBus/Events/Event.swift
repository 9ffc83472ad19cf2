/// Where an event came from.
public enum EventOrigin: Hashable, Sendable, CustomStringConvertible {
    /// What the world did: a recorded or live UIKit event.
    case external
    /// What a plugin decided; `by` names the plugin (the log format's `"by"`).
    case derived(by: String)

    /// The deriving plugin's name, or `nil` for an external event.
    public var derivingPlugin: String? {
        if case .derived(let by) = self { return by }
        return nil
    }

    /// `external` or `derived by NAME`.
    public var description: String {
        switch self {
        case .external: "external"
        case .derived(let by): "derived by \(by)"
        }
    }
}

/// One delivered event: its name, typed payload, sender and origin.
///
/// The counterpart of Foundation's `Notification`, without the `[AnyHashable: Any]` dictionary.
public struct Event<Payload: Sendable> {
    /// The event's name.
    public var name: EventName<Payload>
    /// The typed payload.
    public var payload: Payload
    /// The object that posted it, if any. Observers filtered on a sender compare it by identity.
    public var sender: AnyObject?
    /// Whether the world or a plugin produced it.
    public var origin: EventOrigin

    /// Creates an event.
    public init(_ name: EventName<Payload>, _ payload: Payload, sender: AnyObject? = nil, origin: EventOrigin = .external) {
        self.name = name
        self.payload = payload
        self.sender = sender
        self.origin = origin
    }

    /// The same event with its payload type erased.
    public var erased: AnyEvent {
        AnyEvent(name: name.erased, payload: payload, sender: sender, origin: origin)
    }
}

/// An event whose payload type is not known statically: what observers of every name receive.
public struct AnyEvent {
    /// The event's name.
    public var name: AnyEventName
    /// The payload, boxed.
    public var payload: any Sendable
    /// The object that posted it, if any.
    public var sender: AnyObject?
    /// Whether the world or a plugin produced it.
    public var origin: EventOrigin

    /// Creates an event.
    public init(name: AnyEventName, payload: any Sendable, sender: AnyObject? = nil, origin: EventOrigin = .external) {
        self.name = name
        self.payload = payload
        self.sender = sender
        self.origin = origin
    }

    /// The typed event, when this event has that name; `nil` otherwise. Never traps.
    public func `as`<P>(_ name: EventName<P>) -> Event<P>? {
        guard self.name.id == name.id, let payload = payload as? P else { return nil }
        return Event(name, payload, sender: sender, origin: origin)
    }

    /// The payload as `P`, or `nil` when it is of another type. Never traps.
    public func payload<P>(as type: P.Type) -> P? { payload as? P }
}
