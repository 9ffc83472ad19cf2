import DequeModule

/// Events posted from other threads, waiting for the loop.
struct CrossThreadInbox {
    var posts = Deque<@Sendable (Bus) -> Void>()
    var wakeScheduled = false
}

extension Bus {
    /// Posts an event from any thread. Thread-safe.
    ///
    /// The event is queued and delivered on the loop as if ``post(_:_:sender:origin:)`` had been
    /// called there: exactly once, and in the order this thread posted it relative to its other
    /// posts. Never delivered inline, even when called on the loop. Posts from many threads share one
    /// wake-up of the loop per batch, so bursts are cheap.
    public func postFromAnyThread<Payload>(
        _ name: EventName<Payload>, _ payload: Payload, sender: (any AnyObject & Sendable)? = nil,
        origin: EventOrigin = .external
    ) {
        let needsWake = inbox.withLock { inbox -> Bool in
            inbox.posts.append { bus in bus.post(name, payload, sender: sender, origin: origin) }
            if inbox.wakeScheduled { return false }
            inbox.wakeScheduled = true
            return true
        }
        if needsWake {
            loop.execute { [self] in drainInbox() }
        }
    }

    private func drainInbox() {
        let batch = inbox.withLock { inbox -> Deque<@Sendable (Bus) -> Void> in
            inbox.wakeScheduled = false
            defer { inbox.posts.removeAll(keepingCapacity: true) }
            return inbox.posts
        }
        for post in batch { post(self) }
    }
}
