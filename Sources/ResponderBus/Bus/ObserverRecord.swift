import Synchronization

/// One registration on the bus: a filter and a body. Internal.
///
/// Records are reference types so that removal is visible at once to a post that is iterating a
/// snapshot of the observer list: delivery checks ``isRemoved`` before every call.
@usableFromInline
class ObserverRecord {
    /// The name id observed, or `nil` for every name.
    let nameID: Int?
    /// The sender's identity when filtered on a sender.
    @usableFromInline let senderID: ObjectIdentifier?
    /// The sender, held weakly: a dead sender's reused address must never match.
    @usableFromInline weak var sender: AnyObject?
    /// Delivery order within its segment: registration order for listeners, pipeline rank for
    /// plugins.
    @usableFromInline var sortKey: UInt64
    /// Whether this record sits in the plugin pipeline rather than among the listeners.
    let inPipeline: Bool
    /// Whether the body takes an ``AnyEvent`` (an ``ErasedRecord``) rather than a typed event.
    @usableFromInline let isErased: Bool
    /// The plugin that owns this record, if any.
    let pluginName: String?
    @usableFromInline let removed = Atomic<Bool>(false)

    init(nameID: Int?, sender: AnyObject?, sortKey: UInt64, inPipeline: Bool, isErased: Bool, pluginName: String?) {
        self.nameID = nameID
        self.senderID = sender.map(ObjectIdentifier.init)
        self.sender = sender
        self.sortKey = sortKey
        self.inPipeline = inPipeline
        self.isErased = isErased
        self.pluginName = pluginName
    }

    /// Whether the observation was removed; thread-safe.
    @inlinable
    var isRemoved: Bool { removed.load(ordering: .acquiring) }

    /// Marks the observation removed; thread-safe. Returns `false` when it already was.
    @usableFromInline @discardableResult
    func markRemoved() -> Bool {
        removed.exchange(true, ordering: .acquiringAndReleasing) == false
    }

    /// Whether a post from `postSender` passes this record's sender filter.
    ///
    /// A post with no sender reaches only observers without a sender filter; a filtered record
    /// whose sender died matches nothing.
    @inlinable
    func accepts(_ postSender: AnyObject?) -> Bool {
        guard let senderID else { return true }
        guard let postSender, ObjectIdentifier(postSender) == senderID else { return false }
        return sender != nil
    }
}

/// A record whose body takes a typed event.
@usableFromInline
final class TypedRecord<Payload: Sendable>: ObserverRecord {
    @usableFromInline let body: (Event<Payload>) -> Void

    init(nameID: Int, sender: AnyObject?, sortKey: UInt64, inPipeline: Bool, pluginName: String?,
         body: @escaping (Event<Payload>) -> Void) {
        self.body = body
        super.init(nameID: nameID, sender: sender, sortKey: sortKey, inPipeline: inPipeline, isErased: false,
                   pluginName: pluginName)
    }
}

/// A record whose body takes an ``AnyEvent``: observers of every name, and generic plugins.
@usableFromInline
final class ErasedRecord: ObserverRecord {
    @usableFromInline let body: (AnyEvent) -> Void

    init(nameID: Int?, sender: AnyObject?, sortKey: UInt64, inPipeline: Bool, pluginName: String?,
         body: @escaping (AnyEvent) -> Void) {
        self.body = body
        super.init(nameID: nameID, sender: sender, sortKey: sortKey, inPipeline: inPipeline, isErased: true,
                   pluginName: pluginName)
    }
}

/// The records for one name: the plugin pipeline first, then the listeners.
@usableFromInline
struct Route {
    @usableFromInline var pipeline: ContiguousArray<ObserverRecord> = []
    @usableFromInline var listeners: ContiguousArray<ObserverRecord> = []

    init() {}

    subscript(pipeline inPipeline: Bool) -> ContiguousArray<ObserverRecord> {
        get { inPipeline ? pipeline : listeners }
        set { if inPipeline { pipeline = newValue } else { listeners = newValue } }
    }
}
