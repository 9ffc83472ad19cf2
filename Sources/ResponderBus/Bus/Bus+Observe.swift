import Dispatch

extension Bus {
    /// Observes events of one name, optionally from one sender only. Loop-confined.
    ///
    /// The body runs on the loop, in registration order among the listeners, after the screen model
    /// and the plugins have seen the event.
    ///
    /// - Parameters:
    ///   - name: the name to observe.
    ///   - sender: when given, only events posted by this object (by identity) are delivered; it is
    ///     held weakly, and once it dies the observation never matches again.
    ///   - body: called with each matching event.
    /// - Returns: the token that keeps the observation alive; drop it or cancel it to stop.
    public func observe<Payload>(
        _ name: EventName<Payload>, sender: AnyObject? = nil, _ body: @escaping (Event<Payload>) -> Void
    ) -> ObservationToken {
        loop.preconditionInLoop()
        let record = TypedRecord(
            nameID: name.id, sender: sender, sortKey: makeSequence(), inPipeline: false, pluginName: nil, body: body)
        attach(record)
        return ObservationToken(bus: self, record: record)
    }

    /// Observes events of one name whose origin passes `origins`. Loop-confined. Package-internal:
    /// a log recorder that keeps only derived events is then not called for every external one
    /// (a replay posts a million of them).
    package func observe<Payload>(
        _ name: EventName<Payload>, origins: OriginFilter, _ body: @escaping (Event<Payload>) -> Void
    ) -> ObservationToken {
        loop.preconditionInLoop()
        let record = TypedRecord(
            nameID: name.id, sender: nil, sortKey: makeSequence(), inPipeline: false, pluginName: nil, origins: origins,
            body: body)
        attach(record)
        return ObservationToken(bus: self, record: record)
    }

    /// Observes events of every name, optionally from one sender only. Loop-confined.
    ///
    /// Delivery to an all-names observer boxes the payload into an ``AnyEvent`` (one allocation per
    /// post for payloads larger than three words); name-filtered observers pay nothing for it.
    public func observeAll(sender: AnyObject? = nil, _ body: @escaping (AnyEvent) -> Void) -> ObservationToken {
        loop.preconditionInLoop()
        let record = ErasedRecord(
            nameID: nil, sender: sender, sortKey: makeSequence(), inPipeline: false, pluginName: nil, body: body)
        attach(record)
        return ObservationToken(bus: self, record: record)
    }

    /// Observes events of one name with delivery on a `DispatchQueue` instead of the loop.
    /// Loop-confined.
    ///
    /// The observer's place in the order is still its registration order: at that point the event is
    /// handed to `queue` with `async`, and the post goes on without waiting (unlike Foundation, whose
    /// poster blocks until the queue has run, a deadlock hazard on an event loop). A serial queue
    /// therefore sees the events in the order they were posted.
    public func observe<Payload>(
        _ name: EventName<Payload>, sender: AnyObject? = nil, on queue: DispatchQueue,
        _ body: @escaping @Sendable (SendableEvent<Payload>) -> Void
    ) -> ObservationToken {
        observe(name, sender: sender) { event in
            let sendable = SendableEvent(event)
            queue.async { body(sendable) }
        }
    }
}
