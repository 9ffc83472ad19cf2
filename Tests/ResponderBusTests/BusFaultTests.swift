import ResponderBus
import Testing

/// Throws on every event it gets: all names, diagnostics included.
private final class ThrowsOnEverything: EventObserving {
    let name: String
    var calls = 0
    init(name: String = "ThrowsOnEverything") { self.name = name }
    func observe(_ event: AnyEvent, context: PluginContext) throws {
        calls += 1
        throw Boom()
    }
}

/// Answers every event of `listensTo` with one of `answersWith`: two of them ping-pong forever.
private final class Echo: EventObserving {
    let name: String
    let listensTo: EventName<KeyboardNoise>
    let answersWith: EventName<KeyboardNoise>
    init(name: String, listensTo: EventName<KeyboardNoise>, answersWith: EventName<KeyboardNoise>) {
        self.name = name
        self.listensTo = listensTo
        self.answersWith = answersWith
    }
    var observedEvents: Set<AnyEventName>? { [listensTo.erased] }
    func observe(_ event: AnyEvent, context: PluginContext) {
        let shows = event.as(listensTo)?.payload.shows ?? 0
        context.post(answersWith, KeyboardNoise(shows: shows + 1))
    }
}

extension EventName where Payload == KeyboardNoise {
    fileprivate static let ping = EventName("test.ping")
    fileprivate static let pong = EventName("test.pong")
}

@Suite("Bus faults: throwing plugins, endless cascades, tokens that outlive what they observe")
struct BusFaultTests {
    let loop = VirtualTimeLoop()

    @Test("a plugin that throws on every event, diagnostics included, does not hang post; its failure is reported a bounded number of times")
    func throwingOnEverything() throws {
        let bus = Bus(loop: loop)
        let thrower = ThrowsOnEverything()
        let journal = Journal()
        try bus.register(thrower)
        try bus.register(KeyboardOnly(journal))
        var diagnostics: [Event<Diagnostic>] = []
        var shows = 0
        let tokens = [
            bus.observe(.diagnostic) { diagnostics.append($0) },
            bus.observe(.keyboardWillShow) { _ in shows += 1 },
        ]
        bus.post(.keyboardWillShow, KeyboardInfo())
        // Its own diagnostic is not delivered back to it: one call, one diagnostic.
        #expect(thrower.calls == 1)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.origin == .derived(by: "ThrowsOnEverything"))
        // Told by its type, not by its text.
        #expect(diagnostics.first?.payload.failure == .pluginThrew)
        #expect(journal.entries == ["KeyboardOnly:willShow"])
        #expect(shows == 1)

        // The next post calls it again.
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(thrower.calls == 2)
        #expect(diagnostics.count == 2)
        _ = tokens
    }

    @Test("two throwing plugins feeding on each other's diagnostics are suspended after the limit, with one diagnostic each saying so")
    func twoThrowersAreSuspended() throws {
        let bus = Bus(loop: loop)
        let first = ThrowsOnEverything(name: "First")
        let second = ThrowsOnEverything(name: "Second")
        try bus.register(first)
        try bus.register(second)
        var diagnostics: [Event<Diagnostic>] = []
        let token = bus.observe(.diagnostic) { diagnostics.append($0) }
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(first.calls == Bus.pluginFailureLimit)
        #expect(second.calls == Bus.pluginFailureLimit)
        #expect(diagnostics.count == 2 * Bus.pluginFailureLimit)
        let suspensions = diagnostics.filter { $0.payload.failure == .pluginSuspended }
        #expect(suspensions.count == 2)
        #expect(suspensions.allSatisfy { $0.payload.message.contains("suspended") })
        #expect(diagnostics.filter { $0.payload.failure == .pluginThrew }.count == 2 * Bus.pluginFailureLimit - 2)
        #expect(suspensions.contains { $0.origin == .derived(by: "First") })
        #expect(suspensions.contains { $0.origin == .derived(by: "Second") })

        // Suspension lasts until the post returns: the next post calls both again.
        bus.post(.returnKey, ReturnKeyInfo(view: "a"))
        #expect(first.calls > Bus.pluginFailureLimit)
        #expect(second.calls > Bus.pluginFailureLimit)
        _ = token
    }

    @Test("plugins that post to each other without end are cut at the cascade limit with one diagnostic by the bus")
    func endlessCascadeIsCut() throws {
        let bus = Bus(loop: loop)
        try bus.register(Echo(name: "Ping", listensTo: .pong, answersWith: .ping))
        try bus.register(Echo(name: "Pong", listensTo: .ping, answersWith: .pong))
        var pings = 0
        var diagnostics: [Event<Diagnostic>] = []
        let tokens = [
            bus.observe(.ping) { _ in pings += 1 },
            bus.observe(.diagnostic) { diagnostics.append($0) },
        ]
        bus.post(.pong, KeyboardNoise(shows: 0))
        #expect(pings == Bus.cascadeLimit / 2)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.origin == .derived(by: "bus"))
        #expect(diagnostics.first?.payload.failure == .cascadeCut)
        #expect(diagnostics.first?.payload.message.contains("\(Bus.cascadeLimit)") == true)

        // The bus works on afterwards.
        let journal = Journal()
        try bus.register(KeyboardOnly(journal))
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(journal.entries == ["KeyboardOnly:willShow"])
        _ = tokens
    }

    @Test("cancel() releases the observer's closure and what it captured, though the token is still held")
    func cancelReleasesTheClosure() {
        final class Owner {
            var token: ObservationToken?
            var shows = 0
        }
        let bus = Bus(loop: loop)
        weak var weakOwner: Owner?
        var token: ObservationToken?
        do {
            let owner = Owner()
            owner.token = bus.observe(.keyboardWillShow) { _ in owner.shows += 1 }
            token = owner.token
            weakOwner = owner
        }
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(weakOwner?.shows == 1)
        token?.cancel()
        #expect(weakOwner == nil, "the cancelled observation still holds its closure, and the closure the owner")
        #expect(token?.isActive == false)
        #expect(bus.observationCount == 0)
    }

    @Test("a token cancelled from inside its own callback releases the closure once the callback returns")
    func cancelInsideCallback() {
        final class Owner {
            var token: ObservationToken?
        }
        let bus = Bus(loop: loop)
        weak var weakOwner: Owner?
        var token: ObservationToken?
        do {
            let owner = Owner()
            owner.token = bus.observe(.keyboardWillShow) { _ in owner.token?.cancel() }
            token = owner.token
            weakOwner = owner
        }
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(weakOwner == nil)
        #expect(token?.isActive == false)
    }

    @Test("a token that outlives its bus says it is no longer active")
    func tokenOutlivesBus() {
        var token: ObservationToken?
        var filtered: ObservationToken?
        let sender = Journal()
        do {
            let bus = Bus(loop: loop)
            token = bus.observe(.keyboardWillShow) { _ in }
            filtered = bus.observe(.keyboardWillShow, sender: sender) { _ in }
            #expect(token?.isActive == true)
        }
        #expect(token?.isActive == false)
        #expect(filtered?.isActive == false)
        token?.cancel()  // still harmless
    }
}
