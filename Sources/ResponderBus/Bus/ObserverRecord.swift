import Synchronization

/// One registration on the bus: a filter and a body. Internal.
///
/// Records are reference types so that removal is visible at once to a post that is iterating a
/// snapshot of the observer list: delivery checks ``isRemoved`` before every call. Its members are
/// `final`: delivery reads them for every record, and through the vtable each read held a retain
/// of the record.
@usableFromInline
class ObserverRecord {
    /// The name id observed, or `nil` for every name.
    final let nameID: Int?
    /// The sender's identity when filtered on a sender.
    @usableFromInline final let senderID: ObjectIdentifier?
    /// The sender, held weakly: a dead sender's reused address must never match.
    @usableFromInline final weak var sender: AnyObject?
    /// Delivery order within its segment: registration order for listeners, pipeline rank for
    /// plugins.
    @usableFromInline final var sortKey: UInt64
    /// Whether this record sits in the plugin pipeline rather than among the listeners.
    final let inPipeline: Bool
    /// Whether the body takes an ``AnyEvent`` (an ``ErasedRecord``) rather than a typed event.
    @usableFromInline final let isErased: Bool
    /// The plugin that owns this record, if any.
    final let pluginName: String?
    /// The origins of the posts this record takes.
    @usableFromInline final let origins: OriginFilter
    /// Whether delivery must look at the post's sender or origin (``senderID`` or ``origins``
    /// filters): one test for the usual record, which filters on neither.
    @usableFromInline final let isFiltered: Bool
    @usableFromInline final let removed = Atomic<Bool>(false)

    init(
        nameID: Int?, sender: AnyObject?, sortKey: UInt64, inPipeline: Bool, isErased: Bool, pluginName: String?,
        origins: OriginFilter = .any
    ) {
        self.nameID = nameID
        self.senderID = sender.map(ObjectIdentifier.init)
        self.sender = sender
        self.sortKey = sortKey
        self.inPipeline = inPipeline
        self.isErased = isErased
        self.pluginName = pluginName
        self.origins = origins
        self.isFiltered = sender != nil || origins != .any
    }

    /// Whether the observation was removed; thread-safe.
    @inlinable
    final var isRemoved: Bool { removed.load(ordering: .acquiring) }

    /// Marks the observation removed; thread-safe. Returns `false` when it already was.
    @usableFromInline @discardableResult
    final func markRemoved() -> Bool {
        removed.exchange(true, ordering: .acquiringAndReleasing) == false
    }

    /// Whether a post from `postSender` passes this record's sender filter.
    ///
    /// A post with no sender reaches only observers without a sender filter; a filtered record
    /// whose sender died matches nothing.
    @inlinable
    final func accepts(_ postSender: AnyObject?) -> Bool {
        guard let senderID else { return true }
        guard let postSender, ObjectIdentifier(postSender) == senderID else { return false }
        return sender != nil
    }
}

/// Which posts an observation takes by their origin: a recorder of derived events only need not be
/// called for every external one. Package-internal.
@usableFromInline
package enum OriginFilter: UInt8, Sendable {
    /// Every post.
    case any
    /// Only posts whose origin is ``EventOrigin/external``.
    case external
    /// Only posts derived by a plugin.
    case derived

    /// Whether a post of `origin` passes.
    @inlinable
    func accepts(_ origin: EventOrigin) -> Bool {
        switch self {
        case .any: return true
        case .external:
            if case .external = origin { return true }
            return false
        case .derived:
            if case .external = origin { return false }
            return true
        }
    }
}

/// A record whose body takes a typed event.
@usableFromInline
final class TypedRecord<Payload: Sendable>: ObserverRecord {
    @usableFromInline let body: (Event<Payload>) -> Void

    init(
        nameID: Int, sender: AnyObject?, sortKey: UInt64, inPipeline: Bool, pluginName: String?,
        origins: OriginFilter = .any, body: @escaping (Event<Payload>) -> Void
    ) {
        self.body = body
        super.init(
            nameID: nameID, sender: sender, sortKey: sortKey, inPipeline: inPipeline, isErased: false,
            pluginName: pluginName, origins: origins)
    }
}

/// A record whose body takes an ``AnyEvent``: observers of every name, and generic plugins.
@usableFromInline
final class ErasedRecord: ObserverRecord {
    @usableFromInline let body: (AnyEvent) -> Void

    init(
        nameID: Int?, sender: AnyObject?, sortKey: UInt64, inPipeline: Bool, pluginName: String?,
        body: @escaping (AnyEvent) -> Void
    ) {
        self.body = body
        super.init(
            nameID: nameID, sender: sender, sortKey: sortKey, inPipeline: inPipeline, isErased: true,
            pluginName: pluginName)
    }
}

/// The records for one name: the plugin pipeline first, then the listeners.
@usableFromInline
struct Route {
    @usableFromInline var pipeline: ContiguousArray<ObserverRecord> = []
    @usableFromInline var listeners: ContiguousArray<ObserverRecord> = []
    /// What a post of this name calls, in order: this name's and the all-names pipeline records
    /// merged by sort key, then the same for the listeners. Derived from the lists above and the
    /// bus's all-names route whenever either changes, so that a post walks one array (one retain)
    /// instead of merging four.
    @usableFromInline var delivery = DeliveryList()
    /// Whether ``delivery`` holds an erased record (one that takes an ``AnyEvent``).
    @usableFromInline var deliveryHasErased = false

    init() {}

    subscript(pipeline inPipeline: Bool) -> ContiguousArray<ObserverRecord> {
        get { inPipeline ? pipeline : listeners }
        set { if inPipeline { pipeline = newValue } else { listeners = newValue } }
    }

    /// Recomputes ``delivery`` from this route's lists and the all-names route's.
    mutating func rebuildDelivery(wildcard: Route) {
        var merged = ContiguousArray<ObserverRecord>()
        merged.reserveCapacity(pipeline.count + listeners.count + wildcard.pipeline.count + wildcard.listeners.count)
        Self.merge(pipeline, wildcard.pipeline, into: &merged)
        Self.merge(listeners, wildcard.listeners, into: &merged)
        delivery = DeliveryList(merged)
        deliveryHasErased = merged.contains { $0.isErased }
    }

    private static func merge(
        _ a: ContiguousArray<ObserverRecord>, _ b: ContiguousArray<ObserverRecord>, into out: inout ContiguousArray<ObserverRecord>
    ) {
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i].sortKey < b[j].sortKey) {
                out.append(a[i])
                i += 1
            } else {
                out.append(b[j])
                j += 1
            }
        }
    }
}
