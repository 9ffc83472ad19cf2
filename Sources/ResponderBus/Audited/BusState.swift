import DequeModule

/// What the bus's delivery path reads and changes on every post: the routes to call, the events
/// waiting behind the one being delivered, the queues of later posts and the turn activity.
///
/// Part of the audited layer. The bus holds it in its one stored property that opts out of the
/// run-time exclusivity checks (`Bus.state`): a post reads the routes and flips `isDispatching` on
/// every call, and the checks were a measurable part of it (benchmark cases "bus.post, 1
/// observer" and "heap allocations per post", group 1). It is a stored property of the bus rather
/// than a ``UncheckedExclusivity`` box because the box's extra reference changes what the optimizer
/// inlines into the caller's post: under callgrind, a post with one observer cost half as much again
/// through a box as stored in place (`Benchmarks/.build/release/BusBenchmarks - - - out.json
/// profile-post`; the figures are in the commit that chose this, a84b119).
///
/// ## Invariant
///
/// Touched on the bus's loop only (the bus is loop-confined; cross-thread posts reach it through
/// the inbox, which the loop drains), and no `inout` access to any part of it spans a callback:
/// every change below completes before an observer or a plugin is called, so no access can
/// overlap another. A change that needs to call out while it holds a part of this `inout` must
/// copy that part out first.
@usableFromInline
struct BusState {
    /// One route per name id: the pipeline's and the listeners' records, and the merged delivery list.
    @usableFromInline var routes: [Route] = []
    /// The records observing every name (`observeAll`, plugins without a name filter).
    @usableFromInline var wildcard = Route()
    /// Set while an outermost post delivers; a post made meanwhile joins `pending`.
    @usableFromInline var isDispatching = false
    /// Events posted from inside a callback, delivered in order before the outermost post returns.
    @usableFromInline var pending = SlotQueue<PendingDelivery>()
    /// Records found dead during a post (their sender went away), detached when it returns.
    @usableFromInline var deadRecords: [ObserverRecord] = []
    /// Events posted `.asap`, delivered at the end of the loop's turn.
    @usableFromInline var asapQueue = PostQueue()
    /// Events posted `.whenIdle`, delivered when the loop has nothing else to do.
    @usableFromInline var idleQueue = PostQueue()
    /// Turn activity for ``TurnObserving`` plugins (read for every event when there are any).
    @usableFromInline var turnWatch = TurnWatch()
    /// The plugins' decisions of the current loop turn, for naming conflicts (`Bus.noteDecision`).
    var decisionLedger = DecisionLedger()
    /// The registrations that threw during the current outermost post.
    var failingRegistrations: [PluginRegistration] = []
    /// The delivery lists as they were before each change made during the current outermost post
    /// (see ``deliveryRecords(for:)``); emptied when it ends.
    @usableFromInline var pinnedDeliveries: [DeliveryList] = []
    /// The last queued event delivered, with its name id, kept for the next asap or when-idle post
    /// of that name (see ``takeSpareEvent(nameID:)``); its sender already let go, its payload kept
    /// until then.
    @usableFromInline var spareEvent: (nameID: Int, event: any QueuedEvent)?

    @usableFromInline init() {}

    /// The kept event, when it was of name id `nameID` (and so of its payload type), taken out.
    @inlinable
    mutating func takeSpareEvent(nameID: Int) -> (any QueuedEvent)? {
        guard spareEvent?.nameID == nameID else { return nil }
        return spareEvent.take()?.event
    }
}

extension BusState {
    /// The delivery list a post of name id `id` walks (the all-names route's for an id no route
    /// has yet), and whether it holds an erased record: read in place, without the retain and
    /// release of the list that a copy would cost on every post.
    ///
    /// ## Invariant
    ///
    /// The buffer stays valid, unchanged, until the outermost post ends (`isDispatching` goes back
    /// to false), because nothing changes a delivery list in place meanwhile: every change to one
    /// (`Bus.attach`, `Bus.detach`, `Bus.rebuildAllDeliveries`; an observer added or removed from
    /// a callback) first calls ``pinDeliveriesBeforeChange(of:)``, which holds a reference to the
    /// lists it may change while a post is under way. The change then replaces the list with a
    /// changed copy (``DeliveryList`` changes in place only when its route holds the only
    /// reference) and the walk goes on over the old one, as over a snapshot, in memory the old list
    /// owns while it lives; the outermost post lets them go
    /// (``unpinDeliveries()``). Every walk happens inside a post (`dispatch` is only called with
    /// `isDispatching` set). Removal still takes effect at once through `ObserverRecord.isRemoved`.
    ///
    /// Mutating only so that it reads the bus's state in place (a non-mutating call copied the
    /// whole state); it changes nothing.
    @inlinable
    mutating func deliveryRecords(for id: Int) -> (records: UnsafeBufferPointer<ObserverRecord>, hasErased: Bool) {
        if id < routes.count {
            return (routes[id].delivery.buffer, routes[id].deliveryHasErased)
        }
        return (wildcard.delivery.buffer, wildcard.deliveryHasErased)
    }

    /// Called before any change to a delivery list: during a post, holds a reference to the list
    /// of name id `id` as it is (every list, for `nil`: a change to the all-names route), so that
    /// the change copies rather than changes the one being walked.
    mutating func pinDeliveriesBeforeChange(of id: Int?) {
        guard isDispatching else { return }
        if let id {
            // An id without a route yet is delivered the all-names route's list.
            pinnedDeliveries.append(id < routes.count ? routes[id].delivery : wildcard.delivery)
            return
        }
        pinnedDeliveries.append(wildcard.delivery)
        for route in routes { pinnedDeliveries.append(route.delivery) }
    }

    /// Lets the lists pinned during the post that just ended go.
    @usableFromInline
    mutating func unpinDeliveries() {
        pinnedDeliveries.removeAll()
    }
}
