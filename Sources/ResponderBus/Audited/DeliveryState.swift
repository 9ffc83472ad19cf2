import DequeModule

/// What the bus's delivery path reads and changes on every post: the routes to call, the events
/// waiting behind the one being delivered, the queues of later posts and the turn activity.
///
/// Part of the audited layer. The bus holds it in its one stored property that opts out of the
/// run-time exclusivity checks (`Bus.state`): a post reads the routes and flips `isDispatching` on
/// every call, and the checks were a measurable part of it (benchmark cases "bus.post, 1
/// observer" and "heap allocations per post", group 1). It is a stored property of the bus rather
/// than a ``LoopConfined`` box because the box's extra reference changes what the optimizer
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
struct DeliveryState {
    /// One route per name id: the pipeline's and the listeners' records, and the merged delivery list.
    @usableFromInline var routes: [Route] = []
    /// The records observing every name (`observeAll`, plugins without a name filter).
    @usableFromInline var wildcard = Route()
    /// Set while an outermost post delivers; a post made meanwhile joins `pending`.
    @usableFromInline var isDispatching = false
    /// Events posted from inside a callback, delivered in order before the outermost post returns.
    @usableFromInline var pending = Deque<PendingDelivery>()
    /// Records found dead during a post (their sender went away), detached when it returns.
    @usableFromInline var deadRecords: [ObserverRecord] = []
    /// Events posted `.asap`, delivered at the end of the loop's turn.
    @usableFromInline var asapQueue = Deque<QueuedPost>()
    /// Events posted `.whenIdle`, delivered when the loop has nothing else to do.
    @usableFromInline var idleQueue = Deque<QueuedPost>()
    /// Turn activity for ``TurnObserving`` plugins (read for every event when there are any).
    @usableFromInline var turnWatch = TurnWatch()
    /// The registrations that threw during the current outermost post.
    var failingRegistrations: [PluginRegistration] = []

    @usableFromInline init() {}
}
