/// What an event stream does when its consumer falls behind.
///
/// There is no default: a stream from ``Bus/events(_:sender:buffering:)`` says what it does under
/// load. (Darwin's `notifications(named:)` silently drops beyond an undocumented limit.) Suspending
/// the poster is not offered: posts run synchronously on the event loop, which must never wait for
/// a consumer.
public enum EventBuffering: Hashable, Sendable {
    /// Keep every event until it is consumed. Memory grows while the consumer lags.
    case unbounded
    /// Keep at most this many; when full, drop the newest (the incoming event).
    case dropNewest(keeping: Int)
    /// Keep at most this many; when full, drop the oldest buffered event.
    case dropOldest(keeping: Int)
}

extension Bus {
    /// An asynchronous sequence of the events of one name, optionally from one sender only.
    /// Loop-confined.
    ///
    /// The observation starts at once, so nothing posted after this call is missed. Events are
    /// buffered according to `buffering` until the consumer takes them.
    ///
    /// The sequence ends — a `for await` over it leaves its loop normally, after taking every event
    /// still buffered — when the bus goes away (its `deinit`), or when its loop shuts down
    /// (`UVEventLoop.shutdown()`, `shutdownGracefully()` or its release), once every event posted
    /// before the shutdown was delivered. A consumer therefore need not cancel its task to stop
    /// waiting. (A ``VirtualTimeLoop`` never ends while a bus holds it: there, releasing the bus
    /// ends the sequence.) The observation ends with the sequence, and also when its iteration
    /// ends or its task is cancelled.
    ///
    /// The consumer must not run on the loop's own executor (an actor on a `UVEventLoop`, say)
    /// when the loop shuts down: resuming it then would enqueue a job on a loop that runs no more.
    ///
    /// ```swift
    /// let shows = bus.events(.keyboardWillShow, buffering: .dropOldest(keeping: 16))
    /// Task { for await event in shows { print(event.payload.end ?? .null) } }
    /// ```
    ///
    /// - Parameters:
    ///   - name: the name to observe.
    ///   - sender: when given, only events posted by this object (by identity) are delivered; it is
    ///     held weakly. Its death does not end the sequence.
    ///   - buffering: what the stream does when its consumer falls behind.
    public func events<Payload>(
        _ name: EventName<Payload>, sender: AnyObject? = nil, buffering: EventBuffering
    ) -> AsyncStream<SendableEvent<Payload>> {
        let policy: AsyncStream<SendableEvent<Payload>>.Continuation.BufferingPolicy =
            switch buffering {
            case .unbounded: .unbounded
            case .dropNewest(let n): .bufferingOldest(max(n, 1))
            case .dropOldest(let n): .bufferingNewest(max(n, 1))
            }
        let (stream, continuation) = AsyncStream.makeStream(of: SendableEvent<Payload>.self, bufferingPolicy: policy)
        let token = observe(name, sender: sender) { event in
            continuation.yield(SendableEvent(event))
        }
        let streams = eventStreams
        let id = streams.add { continuation.finish() }
        continuation.onTermination = { _ in
            token.cancel()
            if let id { streams.remove(id) }
        }
        // The loop has ended already: the sequence is over before it began.
        if id == nil { continuation.finish() }
        return stream
    }

    /// The open streams, made on first use and then registered to be finished when the loop ends
    /// (on a loop that ends; see `BusLoopEndNotifying`). Loop-confined.
    var eventStreams: EventStreams {
        if let eventStreamsIfMade { return eventStreamsIfMade }
        let made = EventStreams()
        eventStreamsIfMade = made
        if let loop = loop as? any BusLoopEndNotifying, !loop.notifyWhenEnded(made) {
            made.finishAll()
        }
        return made
    }
}
