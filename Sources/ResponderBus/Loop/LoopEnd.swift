// The protocols by which a loop that ends (`UVEventLoop`'s shutdown) tells what runs on it: how a
// bus finishes the event streams it handed out (`Bus.events`) when its loop shuts down.

/// A loop that can end while the buses on it live, and tells registered targets when it does
/// (`UVEventLoop`: its `shutdown()`, or its release). A ``VirtualTimeLoop`` has no end but its
/// `deinit`, which no bus on it outlives, so it does not offer this.
package protocol BusLoopEndNotifying: BusLoop {
    /// Calls `target`'s ``BusLoopEndTarget/loopEnded()`` on the loop, once, when the loop ends: after
    /// everything it will still run has run. Loop-confined. The loop holds `target` weakly.
    ///
    /// - Returns: `false` if the loop has ended already: `target` is then never called.
    func notifyWhenEnded(_ target: any BusLoopEndTarget) -> Bool
}

/// What a ``BusLoopEndNotifying`` loop tells when it ends.
package protocol BusLoopEndTarget: AnyObject, Sendable {
    /// The loop is ending: the work posted before its shutdown ran, with the end-of-turn and idle
    /// work it queued, and nothing posted later will run. Called on the loop, once. Work queued on
    /// the loop from here still runs before the loop closes, but no Swift job can be enqueued on it.
    func loopEnded()
}
