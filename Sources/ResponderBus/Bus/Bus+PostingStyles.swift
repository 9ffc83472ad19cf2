import DequeModule

/// An event waiting in the bus's as-soon-as-possible or when-idle queue.
@usableFromInline
struct QueuedPost {
    let nameID: Int
    let senderID: ObjectIdentifier?
    let sequence: UInt64
    /// What delivers it; `nil` for a repeated post, which the bus's table delivers.
    let deliver: ((Bus) -> Void)?
    /// A repeated post's index in the bus's table of repeated deliveries.
    let repeatedIndex: Int

    @usableFromInline
    init(nameID: Int, senderID: ObjectIdentifier?, sequence: UInt64, deliver: @escaping (Bus) -> Void) {
        self.nameID = nameID
        self.senderID = senderID
        self.sequence = sequence
        self.deliver = deliver
        repeatedIndex = -1
    }

    /// A repeated post (``RepeatedPost``), delivered by the bus's delivery at `repeatedIndex`.
    @usableFromInline
    init(nameID: Int, sequence: UInt64, repeatedIndex: Int) {
        self.nameID = nameID
        senderID = nil
        self.sequence = sequence
        deliver = nil
        self.repeatedIndex = repeatedIndex
    }

    /// Delivers the event. Consuming: the post is taken from its queue, and a copy would retain
    /// the closure's context around the call.
    consuming func deliver(to bus: Bus) {
        if let deliver {
            deliver(bus)
        } else {
            bus.state.repeatedDelivery(at: repeatedIndex).with { $0.deliver(bus) }
        }
    }

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
    @inlinable
    public func post<Payload>(
        _ name: EventName<Payload>, _ payload: Payload, sender: AnyObject? = nil,
        origin: EventOrigin = .external, style: PostingStyle, coalescing: Coalescing = .none
    ) {
        // Inlinable, so that plugins' posts are specialised for their payload in their own module.
        loop.assertInLoop()
        if !coalescing.isEmpty && hasQueuedEvents {
            removeQueued(nameID: name.id, senderID: sender.map(ObjectIdentifier.init), coalescing)
        }
        switch style {
        case .now:
            post(name, payload, sender: sender, origin: origin)
        case .asap, .whenIdle:
            let queued = QueuedPost(nameID: name.id, senderID: sender.map(ObjectIdentifier.init), sequence: makeSequence()) { bus in
                bus.post(name, payload, sender: sender, origin: origin)
            }
            enqueue(queued, whenIdle: style == .whenIdle)
        }
    }

    /// Whether the only queued event (of either queue) is the asap one with `sequence`.
    @usableFromInline
    func isOnlyQueuedEvent(sequence: UInt64) -> Bool {
        sequence != 0 && state.idleQueue.isEmpty && state.asapQueue.holdsOnly(sequence: sequence)
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
                // On the virtual-time loop the bus itself is the work (``LoopWork``): one retain
                // and one release a turn, where a closure capturing it cost two of each.
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

    private func drainASAP() {
        // Events queued asap while draining join this drain, as end-of-turn work does; each is
        // taken from the queue only when its turn comes, so a later post can still coalesce it away.
        while let next = state.asapQueue.popFirst() { next.deliver(to: self) }
        asapDrainScheduled = false
    }

    private func drainIdle() {
        // Only what was queued when the loop went idle; what this queues waits for the next idle.
        let last = nextSequence
        while let sequence = state.idleQueue.firstSequence, sequence <= last, let first = state.idleQueue.popFirst() {
            first.deliver(to: self)
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
