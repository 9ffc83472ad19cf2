import DequeModule

/// A notification-center-style event bus on an event loop, carrying typed keyboard and responder
/// events through a model of the screen to observers and plugins.
///
/// ## Delivery order
///
/// Every event posted on the bus goes through three stages, in this order:
///
/// ```
///   post(.keyboardWillShow, info)
///        │
///        ▼
///   ┌──────────────┐   ┌──────────────────────────────┐   ┌───────────────────────────────┐
///   │ screen model │ → │ plugin pipeline, in pipeline │ → │ listeners (observe / observe- │
///   │ (built in)   │   │ order (first … last)         │   │ All), in registration order    │
///   └──────────────┘   └──────────────────────────────┘   └───────────────────────────────┘
/// ```
///
/// 1. The built-in screen-model stage applies the events that change the model: `scene`,
///    `setFrame`, `screen`, `didBeginEditing`/`didEndEditing`, `focusChange`, `resign`,
///    `viewShift`, `scroll`. Plugins and observers therefore see the state *after* the event.
/// 2. Plugins, in pipeline order (see ``register(_:at:)``).
/// 3. Listeners, in registration order — always, across name-filtered and all-name observers
///    alike (Foundation on Linux does not keep any order).
///
/// ## Semantics
///
/// - **Synchronous.** ``post(_:_:sender:origin:)`` returns after every matching observer ran.
/// - **Run to completion.** An event posted from inside an observer is queued behind the current
///   one (FIFO) and delivered before the outermost `post` returns, so no observer is ever
///   re-entered in the middle of its callback. (Foundation's `NotificationCenter` delivers nested
///   posts depth-first instead.)
/// - **Removal takes effect at once**, even in the middle of a post: an observer removed by an
///   earlier observer of the same event is not called. An observer added during a post is not
///   called for that post.
/// - **Filters.** By name (or all names) and by sender (or any sender), independently. Senders are
///   compared by identity and held weakly: an observation filtered on a sender that has died never
///   matches again, not even a new object at the same address.
/// - **Type safety.** An ``EventName`` carries its payload type, so a payload of the wrong type can
///   never reach an observer; ``post(_:)-(AnyEvent)`` of an ``AnyEvent`` whose payload does not fit its name is
///   reported as a diagnostic, not a crash.
/// - **Errors.** A plugin that throws is reported as a ``EventName/diagnostic`` event; the other
///   plugins and observers still run.
///
/// ## Threading
///
/// The bus, its ``screen`` and its plugins are confined to the ``loop``: call everything on the
/// loop, except ``postFromAnyThread(_:_:sender:origin:)``, which is thread-safe, and
/// ``ObservationToken/cancel()``.
public final class Bus: @unchecked Sendable {
    /// The loop the bus delivers on.
    public let loop: any BusLoop
    /// The model of the screen the events are about. Loop-confined.
    public let screen: Screen

    // The delivery path below is `@inlinable`, so that a post is specialized for its payload type in
    // the caller's module: unspecialized, every post looked up `Event<Payload>`'s generic metadata at
    // run time and copied the payload through value witnesses (see Benchmarks/).
    // These are loop-confined and never accessed overlappingly (no inout access spans a callback),
    // so the run-time exclusivity checks, a quarter of a post's instructions, are turned off.
    @exclusivity(unchecked) @usableFromInline var routes: [Route] = []
    @exclusivity(unchecked) @usableFromInline var wildcard = Route()
    var nextSequence: UInt64 = 0
    @exclusivity(unchecked) @usableFromInline var isDispatching = false
    @exclusivity(unchecked) @usableFromInline var pending = Deque<(Bus) -> Void>()
    @exclusivity(unchecked) @usableFromInline var deadRecords: [ObserverRecord] = []

    var plugins: [PluginEntry] = []

    @exclusivity(unchecked) @usableFromInline var asapQueue = Deque<QueuedPost>()
    @exclusivity(unchecked) @usableFromInline var idleQueue = Deque<QueuedPost>()
    var asapDrainScheduled = false
    var idleDrainScheduled = false

    let inbox = Locked(CrossThreadInbox())
    /// The loop's empty queue, swapped with the inbox's at each drain. Loop-confined.
    var inboxSpare = Deque<@Sendable (Bus) -> Void>()

    /// Creates a bus on `loop` with a screen model (by default an empty 375×812 screen).
    public init(loop: any BusLoop, screen: Screen = Screen()) {
        self.loop = loop
        self.screen = screen
    }

    // MARK: Posting

    /// Posts an event now: the screen model, the plugins and the listeners that match see it before
    /// this returns. Loop-confined.
    ///
    /// From inside an observer, the event is queued behind the one being delivered and delivered
    /// before the outermost `post` returns.
    ///
    /// - Parameters:
    ///   - name: the event's name, which fixes the payload's type.
    ///   - payload: the payload.
    ///   - sender: the object posting it; observers filtered on a sender compare by identity.
    ///   - origin: ``EventOrigin/external`` for what the world did, `.derived(by:)` for a decision.
    @inlinable
    public func post<Payload>(
        _ name: EventName<Payload>, _ payload: Payload, sender: AnyObject? = nil,
        origin: EventOrigin = .external
    ) {
        loop.assertInLoop()
        if isDispatching {
            pending.append { bus in bus.dispatch(name, payload, sender: sender, origin: origin) }
            return
        }
        isDispatching = true
        dispatch(name, payload, sender: sender, origin: origin)
        if pending.isEmpty && deadRecords.isEmpty {
            isDispatching = false
        } else {
            drainPending()
        }
    }

    /// Posts an event whose payload type is known only at run time, such as one read from a log.
    /// Loop-confined.
    ///
    /// The payload must be of the type the name was created with; otherwise nothing is delivered and
    /// a ``EventName/diagnostic`` explains why.
    public func post(_ event: AnyEvent) {
        let kind = EventNameRegistry.shared.kind(of: event.name.id)
        if !kind.post(event, on: self) {
            post(
                .diagnostic,
                Diagnostic(
                    level: .error,
                    message: "dropped '\(event.name.rawValue)': its payload is a \(type(of: event.payload)), but the name carries \(kind.payloadType)"
                ), origin: .derived(by: "bus"))
        }
    }

    /// Posts a typed event value. Loop-confined.
    public func post<Payload>(_ event: Event<Payload>) {
        post(event.name, event.payload, sender: event.sender, origin: event.origin)
    }

    @usableFromInline
    func drainPending() {
        while let next = pending.popFirst() {
            next(self)
        }
        if !deadRecords.isEmpty {
            let dead = deadRecords
            deadRecords.removeAll()
            for record in dead { detach(record) }
        }
        isDispatching = false
    }

    // MARK: Dispatch

    @inlinable
    func dispatch<Payload>(_ name: EventName<Payload>, _ payload: Payload, sender: AnyObject?, origin: EventOrigin) {
        let event = Event(name, payload, sender: sender, origin: origin)
        // Only these ids change the model (keyboard events and returnKey do not): skip the call.
        if name.id >= Bus.firstModelEvent && name.id < Bus.modelEventLimit {
            applyToScreen(event)
        }
        var erased: AnyEvent?
        if name.id < routes.count {
            let route = routes[name.id]
            deliver(route.pipeline, wildcard.pipeline, event, &erased)
            deliver(route.listeners, wildcard.listeners, event, &erased)
        } else if !wildcard.pipeline.isEmpty || !wildcard.listeners.isEmpty {
            deliver([], wildcard.pipeline, event, &erased)
            deliver([], wildcard.listeners, event, &erased)
        }
    }

    /// Calls the records of `specific` and `all` that accept the event, merged by sort key.
    @inlinable
    func deliver<Payload>(
        _ specific: ContiguousArray<ObserverRecord>, _ all: ContiguousArray<ObserverRecord>,
        _ event: Event<Payload>, _ erased: inout AnyEvent?
    ) {
        if all.isEmpty {
            for record in specific {
                invoke(record, event, &erased)
            }
            return
        }
        var i = 0
        var j = 0
        while i < specific.count || j < all.count {
            if j == all.count || (i < specific.count && specific[i].sortKey < all[j].sortKey) {
                invoke(specific[i], event, &erased)
                i += 1
            } else {
                invoke(all[j], event, &erased)
                j += 1
            }
        }
    }

    @inlinable
    func invoke<Payload>(_ record: ObserverRecord, _ event: Event<Payload>, _ erased: inout AnyEvent?) {
        guard !record.isRemoved else { return }
        if record.senderID != nil {
            if record.sender == nil {
                // The sender died: this observation can never match again.
                if record.markRemoved() { deadRecords.append(record) }
                return
            }
            guard record.accepts(event.sender) else { return }
        }
        if record.isErased {
            if erased == nil { erased = event.erased }
            unsafeDowncast(record, to: ErasedRecord.self).body(erased!)
        } else {
            // Safe: a name id fixes its payload type, and typed records sit only under their own id.
            unsafeDowncast(record, to: TypedRecord<Payload>.self).body(event)
        }
    }

    // MARK: Records

    @usableFromInline
    func makeSequence() -> UInt64 {
        nextSequence &+= 1
        return nextSequence
    }

    func attach(_ record: ObserverRecord) {
        if let id = record.nameID {
            if id >= routes.count {
                routes.append(contentsOf: repeatElement(Route(), count: id - routes.count + 1))
            }
            insertSorted(record, into: &routes[id][pipeline: record.inPipeline])
        } else {
            insertSorted(record, into: &wildcard[pipeline: record.inPipeline])
        }
    }

    private func insertSorted(_ record: ObserverRecord, into list: inout ContiguousArray<ObserverRecord>) {
        if let last = list.last, last.sortKey > record.sortKey {
            let index = list.firstIndex { $0.sortKey > record.sortKey } ?? list.endIndex
            list.insert(record, at: index)
        } else {
            list.append(record)
        }
    }

    /// Takes a record out of the lists (it must already be marked removed).
    func detach(_ record: ObserverRecord) {
        if let id = record.nameID {
            guard id < routes.count else { return }
            routes[id][pipeline: record.inPipeline].removeAll { $0 === record }
        } else {
            wildcard[pipeline: record.inPipeline].removeAll { $0 === record }
        }
    }

    /// The number of live observations (listeners, not plugins), for tests and diagnostics.
    public var observationCount: Int {
        routes.reduce(0) { $0 + $1.listeners.count { !$0.isRemoved } } + wildcard.listeners.count { !$0.isRemoved }
    }
}

extension EventName {
    /// A name from an id already known to carry `Payload`. Internal: skips interning.
    init(unchecked id: Int) {
        self.id = id
    }
}

extension BuiltinEvent {
    /// Ids below this are the ones the screen-model stage may apply.
    static let modelEventLimit = BuiltinEvent.resign.rawValue + 1
}

extension Bus {
    /// The ids the screen-model stage may apply: `[firstModelEvent, modelEventLimit)`.
    @usableFromInline static let firstModelEvent = BuiltinEvent.didBeginEditing.rawValue
    @usableFromInline static let modelEventLimit = BuiltinEvent.modelEventLimit
}
