/// An event waiting in the bus's as-soon-as-possible or when-idle queue.
struct QueuedPost {
    let nameID: Int
    let senderID: ObjectIdentifier?
    let sequence: UInt64
    let deliver: (Bus) -> Void

    func matches(nameID: Int, senderID: ObjectIdentifier?, _ mask: Coalescing) -> Bool {
        (!mask.contains(.onName) || self.nameID == nameID) && (!mask.contains(.onSender) || self.senderID == senderID)
    }
}

extension Bus {
    /// Posts an event in a posting style, replacing queued events that match it. Loop-confined.
    ///
    /// - ``PostingStyle/now`` delivers at once (after removing matching queued events), like
    ///   ``post(_:_:sender:origin:)``; immediate posts are never merged with each other.
    /// - ``PostingStyle/asap`` delivers at the end of the current loop turn.
    /// - ``PostingStyle/whenIdle`` delivers when the loop has nothing else due.
    ///
    /// Queued events go out FIFO. With a non-empty `coalescing` mask, every queued event (of either
    /// style) that matches is removed first and the new one joins the back: latest wins.
    public func post<Payload>(
        _ name: EventName<Payload>, _ payload: Payload, sender: AnyObject? = nil,
        origin: EventOrigin = .external, style: PostingStyle, coalescing: Coalescing = .none
    ) {
        loop.assertInLoop()
        let senderID = sender.map(ObjectIdentifier.init)
        if !coalescing.isEmpty {
            removeQueued(nameID: name.id, senderID: senderID, coalescing)
        }
        let queued = QueuedPost(nameID: name.id, senderID: senderID, sequence: makeSequence()) { bus in
            bus.post(name, payload, sender: sender, origin: origin)
        }
        switch style {
        case .now:
            post(name, payload, sender: sender, origin: origin)
        case .asap:
            asapQueue.append(queued)
            if !asapDrainScheduled {
                asapDrainScheduled = true
                loop.runAtEndOfTurn { [self] in drainASAP() }
            }
        case .whenIdle:
            idleQueue.append(queued)
            if !idleDrainScheduled {
                idleDrainScheduled = true
                loop.runWhenIdle { [self] in drainIdle() }
            }
        }
    }

    /// Removes queued (asap and when-idle) events that match `name` and `sender` under `coalescing`;
    /// an empty mask removes every queued event of that name and sender. Loop-confined.
    ///
    /// - Returns: how many were removed.
    @discardableResult
    public func removeQueuedEvents<Payload>(
        _ name: EventName<Payload>, sender: AnyObject? = nil, coalescing: Coalescing = [.onName, .onSender]
    ) -> Int {
        loop.assertInLoop()
        let mask: Coalescing = coalescing.isEmpty ? [.onName, .onSender] : coalescing
        return removeQueued(nameID: name.id, senderID: sender.map(ObjectIdentifier.init), mask)
    }

    /// The number of events waiting in the asap and when-idle queues.
    public var queuedEventCount: Int { asapQueue.count + idleQueue.count }

    @discardableResult
    private func removeQueued(nameID: Int, senderID: ObjectIdentifier?, _ mask: Coalescing) -> Int {
        let before = asapQueue.count + idleQueue.count
        asapQueue.removeAll { $0.matches(nameID: nameID, senderID: senderID, mask) }
        idleQueue.removeAll { $0.matches(nameID: nameID, senderID: senderID, mask) }
        return before - asapQueue.count - idleQueue.count
    }

    private func drainASAP() {
        // Events queued asap while draining join this drain, as end-of-turn work does; each is
        // taken from the queue only when its turn comes, so a later post can still coalesce it away.
        while let next = asapQueue.popFirst() { next.deliver(self) }
        asapDrainScheduled = false
    }

    private func drainIdle() {
        // Only what was queued when the loop went idle; what this queues waits for the next idle.
        let last = nextSequence
        while let first = idleQueue.first, first.sequence <= last {
            idleQueue.removeFirst()
            first.deliver(self)
        }
        idleDrainScheduled = false
        if !idleQueue.isEmpty {
            idleDrainScheduled = true
            loop.runWhenIdle { [self] in drainIdle() }
        }
    }
}
