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
    /// An asynchronous sequence of the events of one name. Loop-confined.
    ///
    /// The observation starts at once, so nothing posted after this call is missed, and it ends
    /// when the sequence's iteration ends or its task is cancelled. Events are buffered according to
    /// `buffering` until the consumer takes them.
    ///
    /// ```swift
    /// let shows = bus.events(.keyboardWillShow, buffering: .dropOldest(keeping: 16))
    /// Task { for await event in shows { print(event.payload.end ?? .null) } }
    /// ```
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
        continuation.onTermination = { _ in token.cancel() }
        return stream
    }
}
