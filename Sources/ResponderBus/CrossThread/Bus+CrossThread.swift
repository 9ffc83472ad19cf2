extension Bus {
    /// Posts an event from any thread. Thread-safe.
    ///
    /// The event is queued and delivered on the loop as if ``post(_:_:sender:origin:)`` had been
    /// called there: exactly once, and in the order this thread posted it relative to all its other
    /// posts, whatever their payload types. Never delivered inline, even when called on the loop.
    /// Posts from many threads share one wake-up of the loop per batch, so bursts are cheap, and the
    /// queue holds events as plain values in buffers it reuses: once warmed up, a post allocates
    /// nothing.
    ///
    /// The bus is kept alive until the events queued for its loop are delivered, and `sender` until
    /// its event is. On ``VirtualTimeLoop`` and `UVEventLoop`, whose queues are FIFO across threads,
    /// work this thread hands to ``BusLoop/execute(_:)`` after a post runs after that post was
    /// delivered.
    ///
    /// Once the loop refuses work (``BusLoop/submit(_:)`` returns `false`, as a `UVEventLoop` does
    /// once shut down), events posted from then on are dropped: they are never delivered.
    ///
    /// - Parameters:
    ///   - name: the event's name, which fixes the payload's type.
    ///   - payload: the payload.
    ///   - sender: the object posting it; observers filtered on a sender compare by identity.
    ///   - origin: ``EventOrigin/external`` for what the world did, `.derived(by:)` for a decision.
    @inlinable
    public func postFromAnyThread<Payload>(
        _ name: EventName<Payload>, _ payload: Payload, sender: (any AnyObject & Sendable)? = nil,
        origin: EventOrigin = .external
    ) {
        inbox.post(name, payload, sender: sender, origin: origin, on: self)
    }
}

extension Bus {
    /// The capacity, in events, of the cross-thread inbox's buffers: for each payload type posted
    /// with ``postFromAnyThread(_:_:sender:origin:)`` so far, in order of first post, the buffers
    /// producers fill and the ones the loop drains. Loop-confined. For tests of the inbox's memory.
    package var crossThreadBufferCapacities: [(pending: Int, draining: Int)] {
        loop.assertInLoop()
        return inbox.bufferCapacities
    }
}
