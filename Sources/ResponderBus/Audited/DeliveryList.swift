/// A route's delivery list: the records a post of its name calls, in order, in memory the list
/// owns, so that a post walks it through a pointer that stays valid while the list lives.
///
/// Part of the audited layer. A post walks the list in place, without the retain and release of
/// the list that a copy-on-write snapshot costs on every post (the benchmark documentation has
/// the counts); the list is a class, rather than an array whose buffer pointer would have to
/// escape `withUnsafeBufferPointer`, so that the pointer's validity is the object's lifetime.
///
/// ## Invariant
///
/// Changed only through ``Route``'s mutating methods, which change it in place only when the route
/// holds the only reference (`isKnownUniquelyReferenced`) and otherwise replace it with a changed
/// copy. A post that walks a list keeps it referenced twice while it walks (the route and
/// `BusState.pinnedDeliveries`, filled before any change made during a post), so the list it
/// walks is never changed or freed under it.
@usableFromInline
final class DeliveryList {
    // Read by every post, from code inlined into the posting module, where run-time exclusivity
    // checks cannot be proven away; changed only as the invariant says.
    @usableFromInline @exclusivity(unchecked) private(set) var records: UnsafeMutablePointer<ObserverRecord>
    @usableFromInline @exclusivity(unchecked) private(set) var count: Int
    private var capacity: Int

    /// An empty list.
    init() {
        records = .allocate(capacity: 1)
        count = 0
        capacity = 1
    }

    /// A list of `elements`, with room for `extra` more.
    init(_ elements: some Collection<ObserverRecord>, extra: Int = 0) {
        capacity = Swift.max(1, elements.count + extra)
        records = .allocate(capacity: capacity)
        count = 0
        for element in elements {
            (records + count).initialize(to: element)
            count += 1
        }
    }

    deinit {
        records.deinitialize(count: count)
        records.deallocate()
    }

    /// The records, in order, for a walk (valid while the list lives and is not changed).
    @inlinable var buffer: UnsafeBufferPointer<ObserverRecord> { UnsafeBufferPointer(start: records, count: count) }

    /// Adds `record` at the end; the caller holds the only reference.
    func append(_ record: ObserverRecord) {
        if count == capacity {
            let grown = UnsafeMutablePointer<ObserverRecord>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: records, count: count)
            records.deallocate()
            records = grown
            capacity *= 2
        }
        (records + count).initialize(to: record)
        count += 1
    }

    /// Removes every entry that is `record`; the caller holds the only reference.
    func remove(_ record: ObserverRecord) {
        var kept = 0
        for index in 0..<count {
            let element = (records + index).move()
            if element === record { continue }
            (records + kept).initialize(to: element)
            kept += 1
        }
        count = kept
    }
}

extension Route {
    /// Adds `record` at the end of the delivery list, in place unless a post holds the list.
    mutating func appendToDelivery(_ record: ObserverRecord) {
        if !isKnownUniquelyReferenced(&delivery) { delivery = DeliveryList(delivery.buffer, extra: 1) }
        delivery.append(record)
    }

    /// Removes `record` from the delivery list, in place unless a post holds the list.
    mutating func removeFromDelivery(_ record: ObserverRecord) {
        if !isKnownUniquelyReferenced(&delivery) { delivery = DeliveryList(delivery.buffer) }
        delivery.remove(record)
    }
}
