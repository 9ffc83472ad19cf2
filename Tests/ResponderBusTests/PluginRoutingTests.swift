import ResponderBus
import Testing

/// Appends "<name>:<event>" to a shared journal for every callback it gets.
final class Journal {
    var entries: [String] = []
}

final class KeyboardOnly: KeyboardObserving {
    let journal: Journal
    let name: String
    init(_ journal: Journal, name: String = "KeyboardOnly") {
        self.journal = journal
        self.name = name
    }
    func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
        journal.entries.append("\(name):willShow")
    }
}

final class KeyboardAndReturn: KeyboardObserving, ReturnKeyObserving {
    let journal: Journal
    init(_ journal: Journal) { self.journal = journal }
    func keyboardDidHide(_ event: Event<KeyboardInfo>, context: PluginContext) {
        journal.entries.append("both:didHide")
    }
    func returnKey(_ event: Event<ReturnKeyInfo>, context: PluginContext) {
        journal.entries.append("both:return:\(event.payload.view)")
    }
}

final class EditingWatcher: EditingObserving {
    let journal: Journal
    init(_ journal: Journal) { self.journal = journal }
    func didBeginEditing(_ event: Event<EditingInfo>, context: PluginContext) {
        journal.entries.append("editing:begin:\(event.payload.view):fr=\(context.firstResponder?.id.rawValue ?? "none")")
    }
    func didEndEditing(_ event: Event<EditingInfo>, context: PluginContext) {
        journal.entries.append("editing:end:\(event.payload.view)")
    }
}

struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
}

final class Thrower: KeyboardObserving {
    func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) throws { throw Boom() }
}

/// A plugin-defined event, posted by one plugin and observed by another through EventObserving.
struct KeyboardNoise: Sendable, Equatable {
    var shows: Int
}

extension EventName where Payload == KeyboardNoise {
    static let keyboardNoise = EventName("test.keyboardNoise")
}

final class NoiseCounter: KeyboardObserving {
    var shows = 0
    func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
        shows += 1
        context.post(.keyboardNoise, KeyboardNoise(shows: shows))
    }
}

final class NoiseListener: EventObserving {
    var received: [(KeyboardNoise, EventOrigin)] = []
    var observedEvents: Set<AnyEventName>? { [EventName.keyboardNoise.erased] }
    func observe(_ event: AnyEvent, context: PluginContext) {
        if let noise = event.as(.keyboardNoise) { received.append((noise.payload, noise.origin)) }
    }
}

final class EverythingCounter: EventObserving {
    var names: [String] = []
    func observe(_ event: AnyEvent, context: PluginContext) { names.append(event.name.rawValue) }
}

final class Inert: ResponderPlugin {}

@Suite("Plugins: routing by protocol, order, errors, context")
struct PluginRoutingTests {
    let loop = VirtualTimeLoop()

    @Test("a plugin gets exactly the routes of the protocols it conforms to")
    func routesByProtocol() throws {
        let bus = Bus(loop: loop)
        let journal = Journal()
        try bus.register(KeyboardOnly(journal))
        try bus.register(KeyboardAndReturn(journal))
        bus.post(.keyboardWillShow, KeyboardInfo())
        bus.post(.keyboardDidHide, KeyboardInfo())
        bus.post(.returnKey, ReturnKeyInfo(view: "email"))
        bus.post(.didBeginEditing, EditingInfo(view: "email"))
        #expect(journal.entries == ["KeyboardOnly:willShow", "both:didHide", "both:return:email"])
    }

    @Test("editing observers run after the screen model applied the event")
    func editingSeesModel() throws {
        let bus = Bus(loop: loop)
        let journal = Journal()
        try bus.register(EditingWatcher(journal))
        bus.post(
            .scene,
            SceneInfo(
                root: ViewSpec(
                    id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812),
                    children: [
                        ViewSpec(id: "email", kind: .textField, frame: Rect(x: 20, y: 100, width: 335, height: 44), tag: 1)
                    ])))
        bus.post(.didBeginEditing, EditingInfo(view: "email"))
        bus.post(.didEndEditing, EditingInfo(view: "email"))
        #expect(journal.entries == ["editing:begin:email:fr=email", "editing:end:email"])
        #expect(bus.screen.firstResponder == nil)
    }

    @Test("explicit order: first, last, before and after a named plugin")
    func explicitOrder() throws {
        let bus = Bus(loop: loop)
        let journal = Journal()
        try bus.register(KeyboardOnly(journal, name: "B"))
        try bus.register(KeyboardOnly(journal, name: "D"), at: .last)
        try bus.register(KeyboardOnly(journal, name: "A"), at: .first)
        try bus.register(KeyboardOnly(journal, name: "C"), at: .before("D"))
        try bus.register(KeyboardOnly(journal, name: "E"), at: .after("D"))
        #expect(bus.pluginNames == ["A", "B", "C", "D", "E"])
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(journal.entries == ["A:willShow", "B:willShow", "C:willShow", "D:willShow", "E:willShow"])
    }

    @Test("plugins run before listeners, whatever the registration order")
    func pluginsBeforeListeners() throws {
        let bus = Bus(loop: loop)
        let journal = Journal()
        let token = bus.observe(.keyboardWillShow) { _ in journal.entries.append("listener") }
        try bus.register(KeyboardOnly(journal))
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(journal.entries == ["KeyboardOnly:willShow", "listener"])
        _ = token
    }

    @Test("registration errors: duplicate name, unknown anchor, no capability")
    func registrationErrors() throws {
        let bus = Bus(loop: loop)
        let journal = Journal()
        try bus.register(KeyboardOnly(journal))
        let duplicate = #expect(throws: PluginRegistrationError.self) { try bus.register(KeyboardOnly(journal)) }
        #expect(duplicate?.code == .duplicateName)
        #expect(duplicate?.message.contains("KeyboardOnly") == true)
        let anchor = #expect(throws: PluginRegistrationError.self) {
            try bus.register(KeyboardOnly(journal, name: "X"), at: .after("Nope"))
        }
        #expect(anchor?.code == .unknownAnchor)
        #expect(anchor?.message.contains("Nope") == true)
        let inert = #expect(throws: PluginRegistrationError.self) { try bus.register(Inert()) }
        #expect(inert?.code == .noCapability)
        #expect(bus.pluginNames == ["KeyboardOnly"])
    }

    @Test("a plugin that throws becomes an error diagnostic by that plugin; the others still run")
    func throwingPlugin() throws {
        let bus = Bus(loop: loop)
        let journal = Journal()
        try bus.register(Thrower())
        try bus.register(KeyboardOnly(journal))
        var diagnostics: [Event<Diagnostic>] = []
        let token = bus.observe(.diagnostic) { diagnostics.append($0) }
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(journal.entries == ["KeyboardOnly:willShow"])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.payload.level == .error)
        #expect(diagnostics.first?.payload.message.contains("Thrower") == true)
        #expect(diagnostics.first?.payload.message.contains("boom") == true)
        #expect(diagnostics.first?.origin == .derived(by: "Thrower"))
        _ = token
    }

    @Test("plugins define their own events; derived events carry the poster's name")
    func pluginDefinedEvents() throws {
        let bus = Bus(loop: loop)
        let listener = NoiseListener()
        try bus.register(NoiseCounter())
        try bus.register(listener)
        bus.post(.keyboardWillShow, KeyboardInfo())
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(listener.received.map(\.0) == [KeyboardNoise(shows: 1), KeyboardNoise(shows: 2)])
        #expect(listener.received.allSatisfy { $0.1 == .derived(by: "NoiseCounter") })
    }

    @Test("a generic plugin with no name filter sees every event, derived ones included")
    func genericSeesEverything() throws {
        let bus = Bus(loop: loop)
        let everything = EverythingCounter()
        try bus.register(NoiseCounter())
        try bus.register(everything)
        bus.post(.keyboardWillShow, KeyboardInfo())
        bus.post(.returnKey, ReturnKeyInfo(view: "a"))
        #expect(everything.names == ["keyboardWillShow", "test.keyboardNoise", "returnKey"])
    }

    @Test("unregistering in the middle of a post takes effect at once; the others keep working")
    func unregisterMidPost() throws {
        let bus = Bus(loop: loop)
        let journal = Journal()
        try bus.register(KeyboardOnly(journal, name: "A"))
        try bus.register(KeyboardOnly(journal, name: "B"))
        let token = bus.observe(.keyboardWillShow) { _ in journal.entries.append("listener") }
        final class Remover: KeyboardObserving {
            func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {}
        }
        let remover = bus.observe(.keyboardWillChangeFrame) { _ in bus.unregister(named: "B") }
        bus.post(.keyboardWillChangeFrame, KeyboardInfo())
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(journal.entries == ["A:willShow", "listener"])
        #expect(bus.unregister(named: "B") == false)
        #expect(bus.pluginNames == ["A"])
        _ = (token, remover)
    }

    @Test("protocol extensions supply no-op defaults: an empty conformance compiles and is silent")
    func defaultsAreSilent() throws {
        final class Silent: KeyboardObserving, EditingObserving, ReturnKeyObserving {}
        let bus = Bus(loop: loop)
        try bus.register(Silent())
        var diagnostics = 0
        let token = bus.observe(.diagnostic) { _ in diagnostics += 1 }
        for name in EventName<KeyboardInfo>.allKeyboardEvents { bus.post(name, KeyboardInfo()) }
        bus.post(.returnKey, ReturnKeyInfo(view: "x"))
        #expect(diagnostics == 0)
        #expect(bus.pluginNames == ["Silent"])
        _ = token
    }

    @Test("the context posts asap: a plugin sees the whole loop turn before deciding")
    func contextPostsAsap() throws {
        final class Deferring: EditingObserving, KeyboardObserving {
            func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
                context.post(.diagnostic, Diagnostic(level: .info, message: "decide"), style: .asap, coalescing: .onName)
            }
        }
        let bus = Bus(loop: loop)
        try bus.register(Deferring())
        var log: [String] = []
        let t1 = bus.observe(.diagnostic) { log.append("\($0.payload.message) by \($0.origin.derivingPlugin ?? "-")") }
        let t2 = bus.observe(.keyboardWillShow) { _ in log.append("show") }
        loop.schedule(after: .zero) {
            bus.post(.keyboardWillShow, KeyboardInfo())
            bus.post(.keyboardWillShow, KeyboardInfo())
        }
        loop.run()
        #expect(log == ["show", "show", "decide by Deferring"])
        _ = (t1, t2)
    }

    @Test("a removed plugin's context posts nothing, even from a timer it left behind")
    func removedPluginIsSilenced() throws {
        final class Ticker: KeyboardObserving {
            func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
                context.loop.schedule(after: .seconds(1)) {
                    #expect(context.isRegistered == false)
                    context.diagnose(.info, "too late")
                }
            }
        }
        let bus = Bus(loop: loop)
        try bus.register(Ticker())
        var diagnostics = 0
        let token = bus.observe(.diagnostic) { _ in diagnostics += 1 }
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(bus.unregister(named: "Ticker"))
        loop.advance(by: .seconds(2))
        #expect(diagnostics == 0)
        _ = token
    }

    @Test("a context whose bus has gone is unregistered and posts nothing, registered or retired")
    func contextOutlivesItsBus() throws {
        final class Ticker: KeyboardObserving {
            let name: String
            var fired = 0
            init(name: String) { self.name = name }
            func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
                let loop = context.loop
                loop.schedule(after: .seconds(1)) { [self] in
                    fired += 1
                    #expect(context.isRegistered == false)
                    context.diagnose(.info, "too late")  // dropped, without touching the bus
                }
            }
        }
        let kept = Ticker(name: "Kept")
        let retired = Ticker(name: "Retired")
        do {
            let bus = Bus(loop: loop)
            try bus.register(kept)
            try bus.register(retired)
            bus.post(.keyboardWillShow, KeyboardInfo())
            #expect(bus.unregister(named: "Retired"))
        }
        loop.advance(by: .seconds(2))
        #expect(kept.fired == 1)
        #expect(retired.fired == 1)
    }

    @Test("didRegister runs once the plugin is in the pipeline, willUnregister just before it leaves; both may post")
    func lifecycleHooks() throws {
        final class Lifecycle: KeyboardObserving {
            let journal: Journal
            init(_ journal: Journal) { self.journal = journal }
            func didRegister(context: PluginContext) {
                journal.entries.append("didRegister:registered=\(context.isRegistered):pipeline=\(context.pluginNames)")
                context.diagnose(.info, "hello")
            }
            func willUnregister(context: PluginContext) {
                journal.entries.append("willUnregister:registered=\(context.isRegistered)")
                context.diagnose(.info, "goodbye")
            }
            func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
                journal.entries.append("willShow")
            }
        }
        let bus = Bus(loop: loop)
        let journal = Journal()
        var said: [String] = []
        let token = bus.observe(.diagnostic) { said.append("\($0.origin.derivingPlugin ?? ""): \($0.payload.message)") }
        try bus.register(KeyboardOnly(journal))
        try bus.register(Lifecycle(journal), at: .first)
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(bus.unregister(named: "Lifecycle"))
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(
            journal.entries == [
                "didRegister:registered=true:pipeline=[\"Lifecycle\", \"KeyboardOnly\"]",
                "willShow", "KeyboardOnly:willShow",
                "willUnregister:registered=true",
                "KeyboardOnly:willShow",
            ])
        #expect(said == ["Lifecycle: hello", "Lifecycle: goodbye"])
        // A plugin that fails to register (a taken name) is not told it joined.
        let second = Lifecycle(journal)
        #expect(throws: PluginRegistrationError.self) { try bus.register(second, at: .before("Nobody")) }
        #expect(journal.entries.count == 5)
        _ = token
    }

    @Test("willUnregister runs once, on the loop; a second unregister finds nothing and calls nothing")
    func willUnregisterOnce() throws {
        final class Leaver: KeyboardObserving {
            var hooks = 0
            func willUnregister(context: PluginContext) {
                hooks += 1
                context.loop.assertInLoop()
            }
        }
        let bus = Bus(loop: loop)
        let leaver = Leaver()
        try bus.register(leaver)
        #expect(bus.unregister(named: "Leaver"))
        #expect(!bus.unregister(named: "Leaver"))
        #expect(leaver.hooks == 1)
        #expect(bus.pluginNames.isEmpty)
    }
}

/// Writes down each `turnSettled` it gets, typed, and throws when asked to.
final class SettledWatcher: TurnSettledObserving {
    let journal: Journal
    let name: String
    var throwsOnSettle = false
    init(_ journal: Journal, name: String) {
        self.journal = journal
        self.name = name
    }
    func turnSettled(_ event: Event<TurnSettled>, context: PluginContext) throws {
        if throwsOnSettle { throw Boom() }
        let by = event.origin.derivingPlugin ?? "external"
        journal.entries.append("\(name):settled:\(event.payload.collapsedEvents):\(event.payload.firstResponder?.rawValue ?? "-"):\(by)")
    }
}

@Suite("Plugins: turnSettled, typed (TurnSettledObserving)")
struct TurnSettledObservingTests {
    @Test("every turnSettled reaches the typed callback once, in pipeline order, and nothing else does")
    func typedDelivery() throws {
        let bus = Bus(loop: VirtualTimeLoop())
        let journal = Journal()
        try bus.register(SettledWatcher(journal, name: "second"))
        try bus.register(SettledWatcher(journal, name: "first"), at: .first)
        bus.post(.keyboardWillShow, KeyboardInfo())
        bus.post(.didBeginEditing, EditingInfo(view: "nowhere"))
        #expect(journal.entries.isEmpty)
        bus.post(.turnSettled, TurnSettled(collapsedEvents: 3, firstResponder: "email"), origin: .derived(by: "Settler"))
        #expect(journal.entries == ["first:settled:3:email:Settler", "second:settled:3:email:Settler"])
    }

    @Test("a throw in turnSettled is an error diagnostic by that plugin; the next plugin still gets the event")
    func throwingSettle() throws {
        let bus = Bus(loop: VirtualTimeLoop())
        let journal = Journal()
        let thrower = SettledWatcher(journal, name: "thrower")
        thrower.throwsOnSettle = true
        try bus.register(thrower)
        try bus.register(SettledWatcher(journal, name: "after"))
        var diagnostics: [Diagnostic] = []
        let token = bus.observe(.diagnostic) { diagnostics.append($0.payload) }
        bus.post(.turnSettled, TurnSettled(collapsedEvents: 1, firstResponder: nil))
        #expect(journal.entries == ["after:settled:1:-:external"])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message.contains("'thrower' threw while handling 'turnSettled'") == true)
        _ = token
    }

    @Test("an empty conformance compiles and is silent")
    func emptyConformance() throws {
        final class Quiet: TurnSettledObserving {}
        let bus = Bus(loop: VirtualTimeLoop())
        try bus.register(Quiet())
        bus.post(.turnSettled, TurnSettled(collapsedEvents: 1, firstResponder: nil))
        #expect(bus.pluginNames == ["Quiet"])
    }
}
