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
        id = EventNameRegistry.shared.intern(rawValue, payloadType: Payload.self)
    }

    init(builtin: BuiltinEvent) {
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
    public var payloadType: any Sendable.Type { EventNameRegistry.shared.payloadType(of: id) }

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
        var payloadTypes: [any Sendable.Type] = []
    }

    private let state: Locked<State>

    private init() {
        var initial = State()
        for builtin in BuiltinEvent.allCases {
            precondition(builtin.rawValue == initial.rawValues.count)
            initial.ids[Key(rawValue: builtin.name, payloadType: ObjectIdentifier(builtin.payloadType))] = builtin.rawValue
            initial.rawValues.append(builtin.name)
            initial.payloadTypes.append(builtin.payloadType)
        }
        state = Locked(initial)
    }

    func intern(_ rawValue: String, payloadType: any Sendable.Type) -> Int {
        let key = Key(rawValue: rawValue, payloadType: ObjectIdentifier(payloadType))
        return state.withLock { state in
            if let id = state.ids[key] { return id }
            let id = state.rawValues.count
            state.ids[key] = id
            state.rawValues.append(rawValue)
            state.payloadTypes.append(payloadType)
            return id
        }
    }

    func rawValue(of id: Int) -> String {
        state.withLock { $0.rawValues[id] }
    }

    func payloadType(of id: Int) -> any Sendable.Type {
        state.withLock { $0.payloadTypes[id] }
    }

    func ids(named rawValue: String) -> [Int] {
        state.withLock { state in
            state.rawValues.indices.filter { state.rawValues[$0] == rawValue }
        }
    }

    var count: Int { state.withLock { $0.rawValues.count } }
}
