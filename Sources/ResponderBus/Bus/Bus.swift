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
///   plugins and observers still run. The diagnostic is not delivered back to the plugin that
///   threw, and a plugin that throws ``pluginFailureLimit`` times during one post is suspended until
///   that post returns.
/// - **Bounded cascades.** One post and everything posted while it is delivered stop at
///   ``cascadeLimit`` events; the rest are dropped with a diagnostic, so `post` always returns.
///
/// ## Threading
///
/// The bus, its ``screen`` and its plugins are confined to the ``loop``: call everything on the
/// loop, except ``postFromAnyThread(_:_:sender:origin:)``, which is thread-safe, and
/// ``ObservationToken/cancel()``. Set-up calls (`observe`, `register`, `unregister`) check it in
/// every build (``BusLoop/preconditionInLoop(file:line:)``), `post` in debug builds.
///
/// The bus opts out of the compiler's `Sendable` checking for those two thread-safe entries only:
/// other threads must be able to hold it to post from anywhere and to cancel a token, and both go
/// through a lock (the cross-thread inbox's, a token's anchor) before anything of the bus is
/// touched; everything else is loop-confined, as said above.
public final class Bus: @unchecked Sendable {
    /// The loop the bus delivers on.
    public let loop: any BusLoop
    /// ``loop``, when it is a ``VirtualTimeLoop``.
    let virtualTimeLoop: VirtualTimeLoop?
    /// The model of the screen the events are about. Loop-confined.
    public let screen: Screen

    // The delivery path below is `@inlinable`, so that a post is specialized for its payload type in
    // the caller's module (no generic metadata looked up, no payload copied through value witnesses).
    /// What every post reads and changes; the audited layer's one opt-out in the bus (see
    /// ``BusState`` for its invariant and why it is stored in place).
    @exclusivity(unchecked) @usableFromInline var state = BusState()
    var nextSequence: UInt64 = 0

    var plugins: [PluginEntry] = []
    /// The registrations that threw during the current outermost post (in ``state``: read after
    /// every cascade, without a run-time exclusivity check).
    var failingRegistrations: [PluginRegistration] {
        get { state.failingRegistrations }
        set { state.failingRegistrations = newValue }
    }
    /// Registrations of unregistered plugins whose contexts may still be held somewhere.
    var retiredRegistrations: [PluginRegistration] = []

    var asapDrainScheduled = false
    var idleDrainScheduled = false

    /// Events posted from other threads, waiting for the loop (see `postFromAnyThread`).
    @usableFromInline let inbox = CrossThreadInbox()

    /// What observation tokens hold instead of a `weak` reference to the bus (see `BusAnchor`).
    var anchor: BusAnchor {
        if let _anchor { return _anchor }
        let made = BusAnchor(self)
        _anchor = made
        return made
    }
    private var _anchor: BusAnchor?

    /// The open streams from ``events(_:sender:buffering:)``, once one was made (see
    /// `eventStreams`); finished in `deinit`.
    var eventStreamsIfMade: EventStreams?

    /// Creates a bus on `loop` with a screen model (by default an empty 375×812 screen).
    public init(loop: any BusLoop, screen: Screen = Screen()) {
        self.loop = loop
        virtualTimeLoop = loop as? VirtualTimeLoop
        self.screen = screen
    }

    deinit {
        // Tokens first: one cancelled on another thread right now waits for this, or sees the bus gone.
        _anchor?.busIsGoing()
        // The event streams end: what was posted was yielded to them already (posts are synchronous),
        // and cancelling their tokens now finds the bus gone.
        eventStreamsIfMade?.finishAll()
        // Plugin contexts reach the bus without counting it: from now on they must not.
        for registration in plugins.map(\.registration) + retiredRegistrations {
            registration.isActive = false
            registration.busIsAlive = false
        }
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
        if state.isDispatching {
            state.pending.append(PendingDelivery { bus in bus.dispatch(name, payload, sender: sender, origin: origin) })
            return
        }
        state.isDispatching = true
        dispatch(name, payload, sender: sender, origin: origin)
        if state.pending.isEmpty && state.deadRecords.isEmpty && state.pinnedDeliveries.isEmpty {
            state.isDispatching = false
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
                    message:
                        "dropped '\(event.name.rawValue)': its payload is a \(type(of: event.payload)), but the name carries \(kind.payloadType)",
                    failure: .wrongPayload
                ), origin: .derived(by: "bus"))
        }
    }

    /// Posts a typed event value. Loop-confined.
    public func post<Payload>(_ event: Event<Payload>) {
        post(event.name, event.payload, sender: event.sender, origin: event.origin)
    }

    /// How many events one outermost post may cascade into (events posted by observers and plugins
    /// while it is delivered, and what those post in turn) before the rest are dropped.
    ///
    /// A cascade that reaches the limit — two plugins that answer each other's events forever, say —
    /// is cut: the events still queued are dropped, one error ``EventName/diagnostic`` derived by
    /// `"bus"` says how many, and whatever that diagnostic's observers post is dropped too. The
    /// outermost `post` then returns.
    public static let cascadeLimit = 10_000

    @usableFromInline
    func drainPending() {
        var delivered = 0
        while let next = state.pending.popFirst() {
            delivered += 1
            if delivered > Bus.cascadeLimit {
                cutCascade(dropping: state.pending.count + 1)
                break
            }
            next.deliver(to: self)
        }
        if !state.deadRecords.isEmpty {
            let dead = state.deadRecords
            state.deadRecords.removeAll()
            for record in dead { detach(record) }
        }
        if !state.failingRegistrations.isEmpty { forgiveFailures() }
        state.isDispatching = false
        if !state.pinnedDeliveries.isEmpty { state.unpinDeliveries() }
    }

    /// Drops the events still queued by a cascade that reached ``cascadeLimit``, and says so.
    private func cutCascade(dropping dropped: Int) {
        state.pending.removeAll()
        dispatch(
            .diagnostic,
            Diagnostic(
                level: .error,
                message:
                    "one post cascaded into more than \(Bus.cascadeLimit) events (observers posting to each other without end?); the \(dropped) still queued were dropped",
                failure: .cascadeCut),
            sender: nil, origin: .derived(by: "bus"))
        state.pending.removeAll()
    }

    // MARK: Dispatch

    @inlinable
    func dispatch<Payload>(_ name: EventName<Payload>, _ payload: Payload, sender: AnyObject?, origin: EventOrigin) {
        let event = Event(name, payload, sender: sender, origin: origin)
        // The keyboard events are noted in the model here, inlined (the benchmark case "bus.post,
        // 1 observer" posts keyboardWillShow); the ids of the range that change the screen go through
        // the model stage; the others of the range (returnKey, action, diagnostic, turnSettled) only
        // count as turn activity, which is noted here without the call. The rest skip it all.
        // The payload casts are decided where the post is compiled for its payload type: a
        // keyboard event's `KeyboardInfo` is read as it is, with no check at run time.
        if name.id < Bus.firstScreenEvent {
            if let info = payload as? KeyboardInfo {
                screen._storage.value.keyboard.note(info, isHide: Bus.isKeyboardHide(name.id))
            }
            if state.turnWatch.hasObservers { noteTurnActivity() }
        } else if name.id < Bus.modelEventLimit {
            if Bus.screenChangingEvents & (1 << name.id) != 0 {
                if let change = ModelChange(payload) { applyToScreen(nameID: name.id, change, origin: origin) }
            } else if state.turnWatch.hasObservers && name.id != Bus.diagnosticEvent {
                noteTurnActivity()
            }
        }
        // One array per name lists everything to call, in order (see `Route.delivery`). It is a
        // snapshot: an observer added or removed meanwhile changes the bus's copy, not this one
        // (the audited layer's `deliveryRecords(for:)` keeps it), and removal still takes effect
        // at once through `isRemoved`.
        let (records, hasErased) = state.deliveryRecords(for: name.id)
        guard !records.isEmpty else { return }
        if !hasErased {
            // Typed records only (the usual case): no erased form of the event is ever needed.
            for index in records.indices {
                // The walked list keeps every record alive for the whole loop (see `Unretained`).
                Unretained(records[index]).with { invokeTyped($0, event) }
            }
            return
        }
        // Erased once, up front, and lent to every erased record.
        let erased = event.erased
        for index in records.indices {
            Unretained(records[index]).with { invoke($0, event, erased) }
        }
    }

    /// ``invoke(_:_:_:)`` for a record known to be typed.
    @inlinable
    func invokeTyped<Payload>(_ record: ObserverRecord, _ event: Event<Payload>) {
        guard !record.isRemoved else { return }
        if record.isFiltered && !passesFilters(record, sender: event.sender, origin: event.origin) { return }
        // Safe: a name id fixes its payload type, and typed records sit only under their own id.
        assumingType(record, TypedRecord<Payload>.self).body(event)
    }

    @inlinable
    func invoke<Payload>(_ record: ObserverRecord, _ event: Event<Payload>, _ erased: AnyEvent) {
        guard !record.isRemoved else { return }
        if record.isFiltered && !passesFilters(record, sender: event.sender, origin: event.origin) { return }
        if record.isErased {
            assumingType(record, ErasedRecord.self).body(erased)
        } else {
            // Safe: a name id fixes its payload type, and typed records sit only under their own id.
            assumingType(record, TypedRecord<Payload>.self).body(event)
        }
    }

    /// Whether a record that filters (``ObserverRecord/isFiltered``) takes a post from `sender` of
    /// `origin`.
    @inlinable
    func passesFilters(_ record: ObserverRecord, sender: AnyObject?, origin: EventOrigin) -> Bool {
        if record.senderID != nil {
            if record.sender == nil {
                // The sender died: this observation can never match again.
                if record.markRemoved() { state.deadRecords.append(record) }
                return false
            }
            guard record.accepts(sender) else { return false }
        }
        return record.origins.accepts(origin)
    }

    // MARK: Records

    @usableFromInline
    func makeSequence() -> UInt64 {
        nextSequence &+= 1
        return nextSequence
    }

    func attach(_ record: ObserverRecord) {
        state.pinDeliveriesBeforeChange(of: record.nameID)
        if let id = record.nameID {
            if id >= state.routes.count {
                var fresh = Route()
                fresh.delivery = state.wildcard.delivery
                fresh.deliveryHasErased = state.wildcard.deliveryHasErased
                state.routes.append(contentsOf: repeatElement(fresh, count: id - state.routes.count + 1))
            }
            let appendsAtEnd = insertSorted(record, into: &state.routes[id][pipeline: record.inPipeline])
            if appendsAtEnd && !record.inPipeline && (state.wildcard.listeners.last?.sortKey ?? 0) < record.sortKey {
                // The usual case, a new listener: it goes last, so the delivery list just grows.
                state.routes[id].appendToDelivery(record)
                if record.isErased { state.routes[id].deliveryHasErased = true }
            } else {
                state.routes[id].rebuildDelivery(wildcard: state.wildcard)
            }
        } else {
            insertSorted(record, into: &state.wildcard[pipeline: record.inPipeline])
            rebuildAllDeliveries()
        }
    }

    /// Inserts by sort key; returns whether the record went at the end.
    @discardableResult
    private func insertSorted(_ record: ObserverRecord, into list: inout ContiguousArray<ObserverRecord>) -> Bool {
        if let last = list.last, last.sortKey > record.sortKey {
            let index = list.firstIndex { $0.sortKey > record.sortKey } ?? list.endIndex
            list.insert(record, at: index)
            return false
        }
        list.append(record)
        return true
    }

    /// Takes a record out of the lists (it must already be marked removed).
    func detach(_ record: ObserverRecord) {
        state.pinDeliveriesBeforeChange(of: record.nameID)
        if let id = record.nameID {
            guard id < state.routes.count else { return }
            state.routes[id][pipeline: record.inPipeline].removeAll { $0 === record }
            state.routes[id].removeFromDelivery(record)
        } else {
            state.wildcard[pipeline: record.inPipeline].removeAll { $0 === record }
            rebuildAllDeliveries()
        }
    }

    /// Recomputes every name's delivery list (after an all-names record came or went, or the
    /// pipeline was reordered).
    func rebuildAllDeliveries() {
        state.pinDeliveriesBeforeChange(of: nil)
        let all = state.wildcard
        state.wildcard.rebuildDelivery(wildcard: Route())
        for id in state.routes.indices {
            state.routes[id].rebuildDelivery(wildcard: all)
        }
    }

    /// The number of live observations (listeners, not plugins), for tests and diagnostics.
    public var observationCount: Int {
        state.routes.reduce(0) { $0 + $1.listeners.count { !$0.isRemoved } } + state.wildcard.listeners.count { !$0.isRemoved }
    }
}

/// An event posted from inside a callback, waiting for the one being delivered to finish.
///
/// A struct around the closure, so that the `Deque` stores it as it is (see `QueuedWork`).
@usableFromInline
struct PendingDelivery {
    @usableFromInline let run: (Bus) -> Void

    @inlinable
    init(_ run: @escaping (Bus) -> Void) {
        self.run = run
    }

    /// Delivers the event. Consuming: the delivery is taken from its queue, and a copy would
    /// retain the closure's context around the call.
    consuming func deliver(to bus: Bus) {
        run(bus)
    }
}

extension EventName {
    /// A name from an id already known to carry `Payload`. Internal: skips interning.
    init(unchecked id: Int) {
        self.id = id
    }
}

extension BuiltinEvent {
    /// Ids below this are the ones the screen-model stage looks at (it applies those that change the
    /// model, and notes turn activity for ``TurnObserving`` plugins).
    static let modelEventLimit = BuiltinEvent.turnSettled.rawValue + 1
}

extension Bus {
    // The ids the screen-model stage may apply, `[firstModelEvent, modelEventLimit)`, and the rest
    // of what `dispatch` asks of an id: derived from `BuiltinEvent`, as constants a post compares
    // with (inlinable, so they fold in the posting module).
    @inlinable package static var firstModelEvent: Int { BuiltinEvent.keyboardWillShow.rawValue }
    /// The first id after the keyboard's events (`didBeginEditing`), which the keyboard's ids precede.
    @inlinable package static var firstScreenEvent: Int { BuiltinEvent.didBeginEditing.rawValue }
    @inlinable package static var modelEventLimit: Int { BuiltinEvent.turnSettled.rawValue + 1 }
    /// The ids of the range that change the screen (`applyToScreen` has a case for each), as bits.
    @inlinable package static var screenChangingEvents: Int { BuiltinEvent.screenChangingMask }
    /// The id of `diagnostic`, which never counts as turn activity.
    @inlinable package static var diagnosticEvent: Int { BuiltinEvent.diagnostic.rawValue }
    /// Whether `id` is a keyboard event after which the model holds the keyboard hidden.
    @inlinable package static func isKeyboardHide(_ id: Int) -> Bool { BuiltinEvent.keyboardHideMask & (1 << id) != 0 }
}
