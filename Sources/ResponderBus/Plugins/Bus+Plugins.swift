/// A plugin in a bus's pipeline, with the records that route events to it.
struct PluginEntry {
    let plugin: any ResponderPlugin
    let name: String
    let records: [ObserverRecord]
    let registration: PluginRegistration
    /// The context its callbacks and its ``ResponderPlugin`` hooks get.
    let context: PluginContext
}

extension Bus {
    /// Adds a plugin to the pipeline, routing it the events of every capability protocol it conforms
    /// to. Loop-confined.
    ///
    /// - ``KeyboardObserving``: the keyboard events.
    /// - ``EditingObserving``: `didBeginEditing` and `didEndEditing`.
    /// - ``ReturnKeyObserving``: `returnKey`.
    /// - ``EventObserving``: the names in its ``EventObserving/observedEvents`` (every name when `nil`).
    ///
    /// A plugin registered during a post starts with the next event. The bus keeps the plugin until
    /// ``unregister(named:)``. Once it is in the pipeline, its
    /// ``ResponderPlugin/didRegister(context:)`` is called.
    ///
    /// Without `position`, the plugin goes where its ``ResponderPlugin/preferredPosition`` says, or
    /// last.
    ///
    /// - Throws: ``PluginRegistrationError`` when the name is taken, the anchor of `.before`/`.after`
    ///   is not registered (the message suggests the nearest registered name), or the plugin
    ///   conforms to no capability protocol.
    public func register(_ plugin: any ResponderPlugin, at position: PluginPosition? = nil) throws(PluginRegistrationError) {
        loop.preconditionInLoop()
        let name = plugin.name
        let position = position ?? plugin.preferredPosition ?? .last
        if plugins.contains(where: { $0.name == name }) {
            throw PluginRegistrationError(
                code: .duplicateName,
                message: "a plugin named '\(name)' is already registered; give each plugin a unique name or unregister the other first")
        }
        let index: Int
        switch position {
        case .first: index = 0
        case .last: index = plugins.count
        case .before(let anchor), .after(let anchor):
            guard let at = plugins.firstIndex(where: { $0.name == anchor }) else {
                throw PluginRegistrationError(
                    code: .unknownAnchor,
                    message:
                        "cannot place '\(name)' \(position): no plugin named '\(anchor)' is registered\(PluginNames.suggestion(for: anchor, among: pluginNames)) (registered: \(pluginNames.isEmpty ? "none" : pluginNames.joined(separator: ", ")))"
                )
            }
            if case .before = position { index = at } else { index = at + 1 }
        }
        let registration = PluginRegistration()
        let context = PluginContext(pluginName: name, bus: self, registration: registration)
        let records = makeRecords(for: plugin, name: name, registration: registration, context: context)
        guard !records.isEmpty || plugin is any TurnObserving else {
            throw PluginRegistrationError(
                code: .noCapability,
                message:
                    "'\(name)' conforms to none of KeyboardObserving, EditingObserving, ReturnKeyObserving, EventObserving or TurnObserving, so it would never be called"
            )
        }
        plugins.insert(
            PluginEntry(plugin: plugin, name: name, records: records, registration: registration, context: context), at: index)
        renumberPipeline()
        for record in records { attach(record) }
        plugin.didRegister(context: context)
    }

    /// Removes the plugin with this name from the pipeline, at once (also in the middle of a post):
    /// its ``ResponderPlugin/willUnregister(context:)`` is called first; then it is called no more,
    /// and what it posts through its context from then on (from a timer it left behind, say) is
    /// dropped. Loop-confined.
    ///
    /// - Returns: whether such a plugin was registered.
    @discardableResult
    public func unregister(named name: String) -> Bool {
        loop.preconditionInLoop()
        guard let found = plugins.first(where: { $0.name == name }) else { return false }
        found.plugin.willUnregister(context: found.context)
        // The hook may have unregistered it (or others) itself.
        guard let index = plugins.firstIndex(where: { $0.registration === found.registration }) else { return true }
        let entry = plugins.remove(at: index)
        entry.registration.isActive = false
        // Its contexts may outlive it (in a timer, say); the bus tells them when it goes too.
        var retired = retiredRegistrations.startIndex
        while retired < retiredRegistrations.endIndex {
            if isKnownUniquelyReferenced(&retiredRegistrations[retired]) {
                retiredRegistrations.remove(at: retired)
            } else {
                retired += 1
            }
        }
        retiredRegistrations.append(entry.registration)
        for record in entry.records {
            record.markRemoved()
            detach(record)
        }
        renumberPipeline()
        return true
    }

    /// The names of the registered plugins, in pipeline order.
    public var pluginNames: [String] { plugins.map(\.name) }

    /// The registered plugin with this name, if any.
    public func plugin(named name: String) -> (any ResponderPlugin)? {
        plugins.first { $0.name == name }?.plugin
    }

    /// Gives each plugin's records sort keys in pipeline order and re-sorts the pipeline lists.
    private func renumberPipeline() {
        updateTurnObservers()
        var settlerSeen = false
        for entry in plugins {
            entry.registration.turnsAreSettled = settlerSeen
            if entry.plugin is any TurnSettling { settlerSeen = true }
        }
        for (rank, entry) in plugins.enumerated() {
            for (local, record) in entry.records.enumerated() {
                record.sortKey = UInt64(rank) << 32 | UInt64(local)
            }
        }
        for id in state.routes.indices where state.routes[id].pipeline.count > 1 {
            state.routes[id].pipeline.sort { $0.sortKey < $1.sortKey }
        }
        state.wildcard.pipeline.sort { $0.sortKey < $1.sortKey }
        rebuildAllDeliveries()
    }

    private func makeRecords(
        for plugin: any ResponderPlugin, name: String, registration: PluginRegistration, context: PluginContext
    ) -> [ObserverRecord] {
        var records: [ObserverRecord] = []

        // Each record's body calls the plugin's method itself (through `deliver`, inlined), rather
        // than a closure that calls it: one closure call fewer per event delivered to a plugin.
        func route<P>(_ event: EventName<P>, _ body: @escaping (Event<P>) -> Void) {
            records.append(TypedRecord(nameID: event.id, sender: nil, sortKey: 0, inPipeline: true, pluginName: name, body: body))
        }
        /// Calls `method` unless the plugin may not be called now; a throw becomes a diagnostic.
        @inline(__always)
        func deliver<P>(_ delivered: Event<P>, _ method: () throws -> Void) {
            guard registration.isCallable else { return }
            do {
                try method()
            } catch {
                context.reportFailure(error, handling: delivered.name.rawValue)
            }
        }

        if let keyboard = plugin as? any KeyboardObserving {
            // Each keyboard event to its own callback, chosen here rather than on each delivery; an
            // event with no callback of its own to `keyboardEvent`.
            for event in EventName<KeyboardInfo>.allKeyboardEvents {
                switch BuiltinEvent(rawValue: event.id) {
                case .keyboardWillShow: route(event) { e in deliver(e) { try keyboard.keyboardWillShow(e, context: context) } }
                case .keyboardDidShow: route(event) { e in deliver(e) { try keyboard.keyboardDidShow(e, context: context) } }
                case .keyboardWillHide: route(event) { e in deliver(e) { try keyboard.keyboardWillHide(e, context: context) } }
                case .keyboardDidHide: route(event) { e in deliver(e) { try keyboard.keyboardDidHide(e, context: context) } }
                case .keyboardWillChangeFrame: route(event) { e in deliver(e) { try keyboard.keyboardWillChangeFrame(e, context: context) } }
                case .keyboardDidChangeFrame: route(event) { e in deliver(e) { try keyboard.keyboardDidChangeFrame(e, context: context) } }
                default: route(event) { e in deliver(e) { try keyboard.keyboardEvent(e, context: context) } }
                }
            }
        }
        if let editing = plugin as? any EditingObserving {
            route(.didBeginEditing) { e in deliver(e) { try editing.didBeginEditing(e, context: context) } }
            route(.didEndEditing) { e in deliver(e) { try editing.didEndEditing(e, context: context) } }
        }
        if let returnKey = plugin as? any ReturnKeyObserving {
            route(.returnKey) { e in deliver(e) { try returnKey.returnKey(e, context: context) } }
        }
        if let settled = plugin as? any TurnSettledObserving {
            route(.turnSettled) { e in deliver(e) { try settled.turnSettled(e, context: context) } }
        }
        if let generic = plugin as? any EventObserving {
            let body: (AnyEvent) -> Void = { event in
                guard registration.isCallable else { return }
                do {
                    try generic.observe(event, context: context)
                } catch {
                    context.reportFailure(error, handling: event.name.rawValue)
                }
            }
            if let names = generic.observedEvents {
                for eventName in names.sorted(by: { $0.id < $1.id }) {
                    records.append(
                        ErasedRecord(nameID: eventName.id, sender: nil, sortKey: 0, inPipeline: true, pluginName: name, body: body))
                }
            } else {
                records.append(ErasedRecord(nameID: nil, sender: nil, sortKey: 0, inPipeline: true, pluginName: name, body: body))
            }
        }
        return records
    }
}

extension PluginContext {
    /// Reports an error a callback threw as an error diagnostic derived by the plugin (see
    /// ``Bus/pluginFailureLimit``).
    func reportFailure(_ error: any Error, handling eventName: String) {
        guard registration.isActive else { return }
        withBus { $0.reportFailure(of: registration, named: pluginName, error: error, handling: eventName) }
    }
}

extension Bus {
    /// How many times one plugin may throw during one outermost post (the event and everything it
    /// cascades into) before it is suspended until that post returns.
    ///
    /// Each throw is reported as an error ``EventName/diagnostic`` derived by the plugin, delivered
    /// to every other plugin and listener but **not back to the plugin that threw** (so a plugin
    /// that throws on every event, diagnostics included, cannot feed itself). The throw that
    /// reaches this limit is reported with a diagnostic saying that the plugin is suspended; the
    /// plugin is then not called again until the outermost post returns, and is called as usual
    /// for the next one.
    public static let pluginFailureLimit = 8

    /// Reports a plugin's throw: an error diagnostic derived by it, which it does not receive.
    func reportFailure(of registration: PluginRegistration, named plugin: String, error: any Error, handling eventName: String) {
        registration.failures += 1
        if registration.failures == 1 { failingRegistrations.append(registration) }
        let message =
            registration.failures < Bus.pluginFailureLimit
            ? "plugin '\(plugin)' threw while handling '\(eventName)': \(error)"
            : "plugin '\(plugin)' threw \(registration.failures) times during one post (the last while handling '\(eventName)': \(error)); it is suspended until that post's events have all been delivered"
        let diagnostic = Diagnostic(
            level: .error, message: message, failure: registration.failures < Bus.pluginFailureLimit ? .pluginThrew : .pluginSuspended)
        let origin = EventOrigin.derived(by: plugin)
        let delivery = PendingDelivery { bus in
            registration.isMuted = true
            bus.dispatch(.diagnostic, diagnostic, sender: nil, origin: origin)
            registration.isMuted = false
        }
        if state.isDispatching {
            state.pending.append(delivery)
        } else {
            state.isDispatching = true
            delivery.run(self)
            drainPending()
        }
    }

    /// Lets the plugins that threw during the post that just ended be called again.
    func forgiveFailures() {
        for registration in failingRegistrations { registration.failures = 0 }
        failingRegistrations.removeAll()
    }
}
