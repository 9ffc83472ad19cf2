/// The name of an event, bound to the type of its payload.
///
/// A name is interned: creating `EventName<P>("x")` twice gives equal values with the same ``id``,
/// which the bus uses as an array index, so no string is hashed on a post. The payload type is part
/// of the identity: `EventName<Int>("x")` and `EventName<String>("x")` are different names, so an
/// observer can never receive a payload of a type it did not ask for.
///
/// The built-in names (``keyboardWillShow`` and the rest) are declared in constrained extensions,
/// so `.keyboardWillShow` works wherever an `EventName` is expected. A plugin that defines its own
/// event declares a name once, typically as a static constant:
///
/// ```swift
/// struct KeyboardNoise: Sendable { var bursts: Int }
/// extension EventName where Payload == KeyboardNoise {
///     static let keyboardNoise = EventName("keyboardNoise")
/// }
/// ```
public struct EventName<Payload: Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// The interned identity of this name and payload type.
    public let id: Int

    /// Creates (or finds) the name with the given raw value for this payload type.
    ///
    /// Raw names are written into logs: keep them stable.
    public init(_ rawValue: String) {
        id = EventNameRegistry.shared.intern(rawValue, kind: TypedPayloadKind<Payload>())
    }

    /// The built-in event's name (its id is the table's raw value).
    @inlinable package init(builtin: BuiltinEvent) {
        id = builtin.rawValue
    }

    /// The raw name, as written in logs.
    public var rawValue: String { EventNameRegistry.shared.rawValue(of: id) }

    /// The name with its payload type erased.
    public var erased: AnyEventName { AnyEventName(id: id) }

    /// The raw name.
    public var description: String { rawValue }
}

/// An event name whose payload type is not known statically.
public struct AnyEventName: Hashable, Sendable, CustomStringConvertible {
    /// The interned identity shared with the typed ``EventName``.
    public let id: Int

    init(id: Int) { self.id = id }

    /// Creates the erased form of a typed name.
    public init<P>(_ name: EventName<P>) { id = name.id }

    /// The raw name, as written in logs.
    public var rawValue: String { EventNameRegistry.shared.rawValue(of: id) }

    /// The payload type events of this name carry.
    public var payloadType: any Sendable.Type { EventNameRegistry.shared.kind(of: id).payloadType }

    /// Every name interned so far with this raw value (one per payload type).
    public static func named(_ rawValue: String) -> [AnyEventName] {
        EventNameRegistry.shared.ids(named: rawValue).map(AnyEventName.init(id:))
    }

    /// The raw name.
    public var description: String { rawValue }

    /// Whether this is the erased form of `name`.
    public static func == <P>(lhs: AnyEventName, rhs: EventName<P>) -> Bool { lhs.id == rhs.id }
}

/// The process-wide table of interned event names.
final class EventNameRegistry: Sendable {
    static let shared = EventNameRegistry()

    private struct Key: Hashable {
        let rawValue: String
        let payloadType: ObjectIdentifier
    }

    private struct State {
        var ids: [Key: Int] = [:]
        var rawValues: [String] = []
        var kinds: [any PayloadKind] = []
    }

    private let state: Locked<State>

    private init() {
        var initial = State()
        for builtin in BuiltinEvent.allCases {
            precondition(builtin.rawValue == initial.rawValues.count)
            let kind = builtin.payloadKind
            initial.ids[Key(rawValue: builtin.name, payloadType: ObjectIdentifier(kind.payloadType))] = builtin.rawValue
            initial.rawValues.append(builtin.name)
            initial.kinds.append(kind)
        }
        state = Locked(initial)
    }

    func intern(_ rawValue: String, kind: any PayloadKind) -> Int {
        let key = Key(rawValue: rawValue, payloadType: ObjectIdentifier(kind.payloadType))
        return state.withLock { state in
            if let id = state.ids[key] { return id }
            let id = state.rawValues.count
            state.ids[key] = id
            state.rawValues.append(rawValue)
            state.kinds.append(kind)
            return id
        }
    }

    func rawValue(of id: Int) -> String {
        state.withLock { $0.rawValues[id] }
    }

    func kind(of id: Int) -> any PayloadKind {
        state.withLock { $0.kinds[id] }
    }

    func ids(named rawValue: String) -> [Int] {
        state.withLock { state in
            state.rawValues.indices.filter { state.rawValues[$0] == rawValue }
        }
    }

    var count: Int { state.withLock { $0.rawValues.count } }
}

/// What the registry knows of a payload type: enough to post a boxed payload with its static type.
///
/// `any Sendable` cannot be opened into a generic parameter (Sendable is a marker protocol), so each
/// name keeps, from the moment it is interned, a value that still knows its `Payload`.
protocol PayloadKind: Sendable {
    var payloadType: any Sendable.Type { get }
    /// Posts the event with its static payload type; `false` when the payload is of another type.
    func post(_ event: AnyEvent, on bus: Bus) -> Bool
}

struct TypedPayloadKind<Payload: Sendable>: PayloadKind {
    var payloadType: any Sendable.Type { Payload.self }

    func post(_ event: AnyEvent, on bus: Bus) -> Bool {
        guard let payload = event.payload as? Payload else { return false }
        bus.post(EventName<Payload>(unchecked: event.name.id), payload, sender: event.sender, origin: event.origin)
        return true
    }
}
