import Testing

@testable import ResponderBus

@Suite("Observing by origin (the package's filter, which log recorders use)")
struct OriginFilterTests {
    @Test("each filter takes exactly its origins, in delivery order with unfiltered observers")
    func filters() {
        let bus = Bus(loop: VirtualTimeLoop())
        var seen: [String] = []
        let tokens = [
            bus.observe(.returnKey) { seen.append("any:\($0.origin)") },
            bus.observe(.returnKey, origins: .external) { seen.append("external:\($0.origin)") },
            bus.observe(.returnKey, origins: .derived) { seen.append("derived:\($0.origin)") },
            bus.observe(.returnKey, origins: .any) { seen.append("any2:\($0.origin)") },
        ]
        bus.post(.returnKey, ReturnKeyInfo(view: "email"))
        bus.post(.returnKey, ReturnKeyInfo(view: "email"), origin: .derived(by: "Test"))
        #expect(
            seen == [
                "any:external", "external:external", "any2:external",
                "any:derived by Test", "derived:derived by Test", "any2:derived by Test",
            ])
        _ = tokens
    }

    @Test("a sender filter and an origin filter both apply")
    func senderAndOrigin() {
        let bus = Bus(loop: VirtualTimeLoop())
        let sender = Sender()
        var count = 0
        let token = bus.observe(.returnKey, origins: .derived) { _ in count += 1 }
        let filtered = bus.observe(.returnKey, sender: sender) { _ in count += 100 }
        bus.post(.returnKey, ReturnKeyInfo(view: "a"), sender: sender)
        #expect(count == 100)
        bus.post(.returnKey, ReturnKeyInfo(view: "a"), sender: sender, origin: .derived(by: "P"))
        #expect(count == 201)
        bus.post(.returnKey, ReturnKeyInfo(view: "a"), origin: .derived(by: "P"))
        #expect(count == 202)
        _ = (token, filtered)
    }

    @Test("OriginFilter.accepts")
    func accepts() {
        #expect(OriginFilter.any.accepts(.external) && OriginFilter.any.accepts(.derived(by: "P")))
        #expect(OriginFilter.external.accepts(.external) && !OriginFilter.external.accepts(.derived(by: "P")))
        #expect(!OriginFilter.derived.accepts(.external) && OriginFilter.derived.accepts(.derived(by: "")))
    }
}
