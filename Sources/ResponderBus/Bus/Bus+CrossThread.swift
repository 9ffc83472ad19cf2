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
        // Made outside the lock, so producers hold it only to append.
        let post: @Sendable (Bus) -> Void = { bus in bus.post(name, payload, sender: sender, origin: origin) }
        let needsWake = inbox.withLock { inbox -> Bool in
            inbox.posts.append(post)
            if inbox.wakeScheduled { return false }
            inbox.wakeScheduled = true
            return true
        }
        if needsWake {
            loop.execute { [self] in drainInbox() }
        }
    }

    private func drainInbox() {
        // Swap the queue with the loop's spare one: no copy, and both keep their capacity.
        var batch = inboxSpare
        inboxSpare = Deque()
        inbox.withLock { inbox in
            inbox.wakeScheduled = false
            swap(&inbox.posts, &batch)
        }
        for post in batch { post(self) }
        batch.removeAll(keepingCapacity: true)
        inboxSpare = batch
    }
}
