import DequeModule

/// An event waiting in the bus's as-soon-as-possible or when-idle queue.
@usableFromInline
struct QueuedPost {
    @usableFromInline var nameID: Int
    @usableFromInline var senderID: ObjectIdentifier?
    @usableFromInline var sequence: UInt64
    /// What it delivers.
    @usableFromInline let event: any QueuedEvent

    @inlinable
    init(nameID: Int, senderID: ObjectIdentifier?, sequence: UInt64, event: any QueuedEvent) {
        self.nameID = nameID
        self.senderID = senderID
        self.sequence = sequence
        self.event = event
    }

    @usableFromInline
    func matches(nameID: Int, senderID: ObjectIdentifier?, _ mask: Coalescing) -> Bool {
        (!mask.contains(.onName) || self.nameID == nameID) && (!mask.contains(.onSender) || self.senderID == senderID)
    }
}

/// What a queued post delivers: an event of one payload type, posted when its turn comes.
@usableFromInline
protocol QueuedEvent: AnyObject {
    /// Posts the event on `bus`.
    func deliver(to bus: Bus)
    /// Lets the sender go, once delivered: the event is kept for the next post of its name.
    func dropSender()
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
    @inlinable
    public func post<Payload>(
        _ name: EventName<Payload>, _ payload: Payload, sender: AnyObject? = nil,
        origin: EventOrigin = .external, style: PostingStyle, coalescing: Coalescing = .none
    ) {
        // Inlinable, so that plugins' posts are specialised for their payload in their own module.
        loop.assertInLoop()
        if !coalescing.isEmpty && hasQueuedEvents {
            if style == .asap && replaceOnlyQueuedEvent(name, payload, sender: sender, origin: origin, coalescing) { return }
            removeQueued(nameID: name.id, senderID: sender.map(ObjectIdentifier.init), coalescing)
        }
        switch style {
        case .now:
            post(name, payload, sender: sender, origin: origin)
        case .asap, .whenIdle:
            let event: QueuedPayload<Payload>
            if let spare = state.takeSpareEvent(nameID: name.id) {
                // The name id fixes the payload type.
                event = assumingType(spare, QueuedPayload<Payload>.self)
                event.replace(payload, sender: sender, origin: origin)
            } else {
                event = QueuedPayload(name, payload, sender: sender, origin: origin)
            }
            enqueue(
                QueuedPost(nameID: name.id, senderID: sender.map(ObjectIdentifier.init), sequence: makeSequence(), event: event),
                whenIdle: style == .whenIdle)
        }
    }

    /// When the only queued event (of either queue) is an asap one that a coalesced asap post of
    /// `name` would remove, changes it in place into the new post and returns `true`: removing it
    /// and queueing the new one at the back leaves the same queue, one allocation later (a turn's
    /// settle is posted again after every event of the turn).
    @inlinable
    func replaceOnlyQueuedEvent<Payload>(
        _ name: EventName<Payload>, _ payload: Payload, sender: AnyObject?, origin: EventOrigin, _ coalescing: Coalescing
    ) -> Bool {
        let senderID = sender.map(ObjectIdentifier.init)
        guard state.idleQueue.isEmpty, state.asapQueue.rest.isEmpty, state.asapQueue.head?.nameID == name.id,
            state.asapQueue.head?.matches(nameID: name.id, senderID: senderID, coalescing) == true,
            let event = state.asapQueue.head?.event
        else { return false }
        // The name id fixes the payload type.
        assumingType(event, QueuedPayload<Payload>.self).replace(payload, sender: sender, origin: origin)
        state.asapQueue.head?.senderID = senderID
        state.asapQueue.head?.sequence = makeSequence()
        return true
    }

    /// Whether either queue holds an event.
    @usableFromInline
    var hasQueuedEvents: Bool { !state.asapQueue.isEmpty || !state.idleQueue.isEmpty }

    /// Adds a queued post to the asap or the when-idle queue and makes sure a drain is scheduled.
    @usableFromInline
    func enqueue(_ queued: consuming QueuedPost, whenIdle: Bool) {
        if whenIdle {
            state.idleQueue.append(queued)
            if !idleDrainScheduled {
                idleDrainScheduled = true
                loop.runWhenIdle { [self] in drainIdle() }
            }
        } else {
            state.asapQueue.append(queued)
            if !asapDrainScheduled {
                asapDrainScheduled = true
                // On the virtual-time loop the bus itself is the work (``LoopWork``), not a closure
                // capturing it.
                if let virtualTimeLoop {
                    virtualTimeLoop.runAtEndOfTurn(draining: self)
                } else {
                    loop.runAtEndOfTurn { [self] in drainASAP() }
                }
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
    public var queuedEventCount: Int { state.asapQueue.count + state.idleQueue.count }

    @usableFromInline @discardableResult
    func removeQueued(nameID: Int, senderID: ObjectIdentifier?, _ mask: Coalescing) -> Int {
        state.asapQueue.removeMatching(nameID: nameID, senderID: senderID, mask)
            + state.idleQueue.removeMatching(nameID: nameID, senderID: senderID, mask)
    }

    /// Delivers a post taken from its queue, then keeps its event for the next post of its name
    /// (``BusState/spareEvent``): a turn's settle, queued once per turn, then allocates nothing.
    private func deliverAndKeep(_ queued: consuming QueuedPost) {
        let (event, nameID) = (queued.event, queued.nameID)
        event.deliver(to: self)
        event.dropSender()
        state.spareEvent = (nameID, event)
    }

    private func drainASAP() {
        // Events queued asap while draining join this drain, as end-of-turn work does; each is
        // taken from the queue only when its turn comes, so a later post can still coalesce it away.
        while let next = state.asapQueue.popFirst() { deliverAndKeep(next) }
        asapDrainScheduled = false
    }

    private func drainIdle() {
        // Only what was queued when the loop went idle; what this queues waits for the next idle.
        let last = nextSequence
        while let sequence = state.idleQueue.firstSequence, sequence <= last, let first = state.idleQueue.popFirst() {
            deliverAndKeep(first)
        }
        idleDrainScheduled = false
        if !state.idleQueue.isEmpty {
            idleDrainScheduled = true
            loop.runWhenIdle { [self] in drainIdle() }
        }
    }
}

extension Bus: LoopWork {
    /// The end-of-turn drain of the asap queue, queued as the bus itself.
    package func runLoopWork() {
        drainASAP()
    }
}
