import ResponderBus
import Testing

/// A sender object for filter tests.
final class Sender {}

@Suite("Bus delivery: order, removal, run-to-completion, filters")
struct BusDeliveryTests {
    let loop = VirtualTimeLoop()
    var bus: Bus { Bus(loop: loop) }

    @Test("post is synchronous: every matching observer ran before post returns")
    func synchronousPost() {
        let bus = self.bus
        var seen: [Double?] = []
        let token = bus.observe(.keyboardWillShow) { seen.append($0.payload.duration) }
        bus.post(.keyboardWillShow, KeyboardInfo(duration: 0.25))
        #expect(seen == [0.25])
        _ = token
    }

    @Test("observers run in registration order, name-filtered and all-names alike")
    func registrationOrderAcrossFilters() {
        let bus = self.bus
        var order: [String] = []
        var tokens: [ObservationToken] = []
        for index in 0..<8 {
            if index.isMultiple(of: 3) {
                tokens.append(bus.observeAll { event in if event.name == EventName.keyboardWillShow { order.append("all\(index)") } })
            } else {
                tokens.append(bus.observe(.keyboardWillShow) { _ in order.append("kb\(index)") })
            }
        }
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(order == ["all0", "kb1", "kb2", "all3", "kb4", "kb5", "all6", "kb7"])
        // And the same order again: it is not a hash order that changes between posts.
        order.removeAll()
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(order == ["all0", "kb1", "kb2", "all3", "kb4", "kb5", "all6", "kb7"])
        _ = tokens
    }

    @Test("registering twice delivers twice")
    func duplicateRegistrations() {
        let bus = self.bus
        var count = 0
        let a = bus.observe(.keyboardDidShow) { _ in count += 1 }
        let b = bus.observe(.keyboardDidShow) { _ in count += 1 }
        bus.post(.keyboardDidShow, KeyboardInfo())
        #expect(count == 2)
        _ = (a, b)
    }

    @Test("removal in the middle of a post takes effect at once")
    func removalMidPost() {
        let bus = self.bus
        var calls: [String] = []
        var later: [ObservationToken] = []
        let first = bus.observe(.keyboardWillHide) { _ in
            calls.append("A")
            for token in later { token.cancel() }
        }
        for index in 0..<8 {
            later.append(bus.observe(.keyboardWillHide) { _ in calls.append("B\(index)") })
        }
        bus.post(.keyboardWillHide, KeyboardInfo())
        #expect(calls == ["A"])
        calls.removeAll()
        bus.post(.keyboardWillHide, KeyboardInfo())
        #expect(calls == ["A"])
        #expect(bus.observationCount == 1)
        _ = first
    }

    @Test("an observer removing itself is not called again; removal is idempotent")
    func oneShotObserver() {
        let bus = self.bus
        var count = 0
        var token: ObservationToken?
        token = bus.observe(.returnKey) { _ in
            count += 1
            token?.cancel()
            token?.cancel()
        }
        bus.post(.returnKey, ReturnKeyInfo(view: "email"))
        bus.post(.returnKey, ReturnKeyInfo(view: "email"))
        #expect(count == 1)
        #expect(token?.isActive == false)
        token?.cancel()
        #expect(bus.observationCount == 0)
    }

    @Test("an observer added during a post is not called for that post, only for the next")
    func additionMidPost() {
        let bus = self.bus
        var calls: [String] = []
        var added: [ObservationToken] = []
        let outer = bus.observe(.keyboardWillShow) { _ in
            calls.append("outer")
            if added.isEmpty {
                added.append(bus.observe(.keyboardWillShow) { _ in calls.append("added") })
            }
        }
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(calls == ["outer"])
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(calls == ["outer", "outer", "added"])
        _ = outer
    }

    @Test("a post walks the observers as they were when it began, whatever its callbacks add and remove")
    func walkIsASnapshot() {
        // The delivery list is walked in place (no copy per post); a change made from a callback
        // must copy it first. Removing the middle observer would otherwise shift the last one into
        // its place (called twice, or a freed slot read), and adding many would move the list.
        let bus = self.bus
        var calls: [String] = []
        var tokens: [String: ObservationToken] = [:]
        var added: [ObservationToken] = []
        tokens["A"] = bus.observe(.keyboardWillHide) { _ in
            calls.append("A")
            tokens["B"]?.cancel()
            if added.isEmpty {
                for index in 0..<64 { added.append(bus.observe(.keyboardWillHide) { _ in calls.append("N\(index)") }) }
                // An all-names observer (every list rebuilt) and a name no route has yet.
                added.append(bus.observeAll { event in if event.name == EventName.keyboardWillHide { calls.append("all") } })
                added.append(bus.observe(EventName<Int>("test.snapshot.fresh")) { _ in calls.append("fresh") })
            }
        }
        tokens["B"] = bus.observe(.keyboardWillHide) { _ in calls.append("B") }
        tokens["C"] = bus.observe(.keyboardWillHide) { _ in calls.append("C") }
        bus.post(.keyboardWillHide, KeyboardInfo())
        #expect(calls == ["A", "C"])
        calls.removeAll()
        bus.post(.keyboardWillHide, KeyboardInfo())
        #expect(calls == ["A", "C"] + (0..<64).map { "N\($0)" } + ["all"])
        // And from a nested post, delivered while the outer post is still under way.
        calls.removeAll()
        var nested: ObservationToken?
        let outer = bus.observe(.keyboardDidHide) { _ in
            calls.append("outer")
            bus.post(.keyboardWillHide, KeyboardInfo())
            tokens["C"]?.cancel()
        }
        bus.post(.keyboardDidHide, KeyboardInfo())
        #expect(calls == ["outer", "A"] + (0..<64).map { "N\($0)" } + ["all"])
        nested = bus.observe(.keyboardWillHide) { _ in calls.append("late") }
        calls.removeAll()
        bus.post(.keyboardWillHide, KeyboardInfo())
        #expect(calls == ["A"] + (0..<64).map { "N\($0)" } + ["all", "late"])
        _ = (outer, nested, added)
    }

    @Test("nested posts run to completion: queued FIFO behind the current event, never re-entering")
    func runToCompletion() {
        let bus = self.bus
        var log: [String] = []
        var depth = 0
        var maxDepth = 0
        let a = bus.observe(.keyboardWillChangeFrame) { _ in
            depth += 1
            maxDepth = max(maxDepth, depth)
            log.append("frame:A")
            bus.post(.keyboardWillShow, KeyboardInfo())
            bus.post(.keyboardDidShow, KeyboardInfo())
            log.append("frame:A-end")
            depth -= 1
        }
        let b = bus.observe(.keyboardWillChangeFrame) { _ in log.append("frame:B") }
        let c = bus.observe(.keyboardWillShow) { _ in
            depth += 1
            maxDepth = max(maxDepth, depth)
            log.append("show")
            bus.post(.keyboardDidChangeFrame, KeyboardInfo())
            depth -= 1
        }
        let d = bus.observe(.keyboardDidShow) { _ in log.append("didShow") }
        let e = bus.observe(.keyboardDidChangeFrame) { _ in log.append("didChange") }
        bus.post(.keyboardWillChangeFrame, KeyboardInfo())
        log.append("returned")
        #expect(log == ["frame:A", "frame:A-end", "frame:B", "show", "didShow", "didChange", "returned"])
        #expect(maxDepth == 1)
        _ = (a, b, c, d, e)
    }

    @Test("name filter: an observer sees only its name")
    func nameFilter() {
        let bus = self.bus
        var shows = 0
        let token = bus.observe(.keyboardWillShow) { _ in shows += 1 }
        bus.post(.keyboardWillHide, KeyboardInfo())
        bus.post(.keyboardDidShow, KeyboardInfo())
        #expect(shows == 0)
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(shows == 1)
        _ = token
    }

    @Test("sender filter: by identity; a post with no sender reaches only unfiltered observers")
    func senderFilter() {
        let bus = self.bus
        let a = Sender()
        let b = Sender()
        var seen: [String] = []
        let t1 = bus.observe(.returnKey, sender: a) { _ in seen.append("a") }
        let t2 = bus.observe(.returnKey) { _ in seen.append("any") }
        let t3 = bus.observeAll(sender: b) { _ in seen.append("b-all") }
        bus.post(.returnKey, ReturnKeyInfo(view: "x"), sender: a)
        #expect(seen == ["a", "any"])
        seen.removeAll()
        bus.post(.returnKey, ReturnKeyInfo(view: "x"), sender: b)
        #expect(seen == ["any", "b-all"])
        seen.removeAll()
        bus.post(.returnKey, ReturnKeyInfo(view: "x"))
        #expect(seen == ["any"])
        _ = (t1, t2, t3)
    }

    @Test("a dead sender's reused address never matches, and the observation is dropped")
    func deadSenderNeverMatches() {
        let bus = self.bus
        var hits = 0
        var victim: Sender? = Sender()
        let victimID = ObjectIdentifier(victim!)
        let token = bus.observe(.keyboardWillShow, sender: victim) { _ in hits += 1 }
        bus.post(.keyboardWillShow, KeyboardInfo(), sender: victim)
        #expect(hits == 1)
        victim = nil
        var reused = 0
        var keep: [Sender] = []
        for _ in 0..<2000 {
            let fresh = Sender()
            if ObjectIdentifier(fresh) == victimID { reused += 1 }
            bus.post(.keyboardWillShow, KeyboardInfo(), sender: fresh)
            if keep.count < 50 { keep.append(fresh) }
        }
        #expect(hits == 1)
        #expect(token.isActive == false)
        #expect(bus.observationCount == 0)
        // The allocator normally hands the address straight back; either way nothing matched.
        print("reused address \(reused) times")
    }

    @Test("the last copy of a token going away ends the observation; copies keep it alive")
    func tokenLifetime() {
        let bus = self.bus
        var count = 0
        var copyA: ObservationToken? = bus.observe(.keyboardDidHide) { _ in count += 1 }
        var copyB = copyA
        bus.post(.keyboardDidHide, KeyboardInfo())
        copyA = nil
        bus.post(.keyboardDidHide, KeyboardInfo())
        #expect(count == 2)
        #expect(copyB?.isActive == true)
        copyB = nil
        bus.post(.keyboardDidHide, KeyboardInfo())
        #expect(count == 2)
        #expect(bus.observationCount == 0)
    }

    @Test("tokens are hashable by identity")
    func tokenIdentity() {
        let bus = self.bus
        let a = bus.observe(.keyboardDidHide) { _ in }
        let b = bus.observe(.keyboardDidHide) { _ in }
        let set: Set<ObservationToken> = [a, a, b]
        #expect(set.count == 2)
    }

    @Test("the same raw name with another payload type is another name; no crash, no cross-delivery")
    func payloadTypeIsPartOfTheName() {
        let bus = self.bus
        let asString = EventName<String>("keyboardWillShow")
        #expect(asString != EventName<String>("other"))
        #expect(asString.id != EventName.keyboardWillShow.id)
        #expect(EventName<KeyboardInfo>("keyboardWillShow") == .keyboardWillShow)
        var strings: [String] = []
        var infos = 0
        let t1 = bus.observe(asString) { strings.append($0.payload) }
        let t2 = bus.observe(.keyboardWillShow) { _ in infos += 1 }
        bus.post(asString, "hello")
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(strings == ["hello"])
        #expect(infos == 1)
        _ = (t1, t2)
    }

    @Test("an AnyEvent whose payload does not fit its name is dropped with a diagnostic, never a crash")
    func mismatchedAnyEvent() {
        let bus = self.bus
        var diagnostics: [Diagnostic] = []
        var shows = 0
        let t1 = bus.observe(.diagnostic) { diagnostics.append($0.payload) }
        let t2 = bus.observe(.keyboardWillShow) { _ in shows += 1 }
        bus.post(AnyEvent(name: EventName.keyboardWillShow.erased, payload: "not a keyboard"))
        #expect(shows == 0)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.level == .error)
        #expect(diagnostics.first?.message.contains("keyboardWillShow") == true)
        bus.post(AnyEvent(name: EventName.keyboardWillShow.erased, payload: KeyboardInfo(curve: 7)))
        #expect(shows == 1)
        _ = (t1, t2)
    }

    @Test("AnyEvent.as and payload(as:) return nil for the wrong type instead of trapping")
    func anyEventCasts() {
        let event = Event(.keyboardWillShow, KeyboardInfo(curve: 7)).erased
        #expect(event.as(.keyboardWillShow)?.payload.curve == 7)
        #expect(event.as(.keyboardDidShow) == nil)
        #expect(event.payload(as: String.self) == nil)
        #expect(event.name.rawValue == "keyboardWillShow")
    }

    @Test("raw names are exactly the log format's")
    func rawNames() {
        let names = EventName<KeyboardInfo>.allKeyboardEvents.map(\.rawValue)
        #expect(
            names == [
                "keyboardWillShow", "keyboardDidShow", "keyboardWillHide", "keyboardDidHide",
                "keyboardWillChangeFrame", "keyboardDidChangeFrame",
            ])
        let others = [
            EventName.didBeginEditing.rawValue, EventName.didEndEditing.rawValue, EventName.returnKey.rawValue,
            EventName.scene.rawValue, EventName.setFrame.rawValue, EventName.screen.rawValue,
            EventName.viewShift.rawValue, EventName.scroll.rawValue, EventName.focusChange.rawValue,
            EventName.action.rawValue, EventName.resign.rawValue, EventName.diagnostic.rawValue,
        ]
        #expect(
            others == [
                "didBeginEditing", "didEndEditing", "returnKey", "scene", "setFrame", "screen",
                "viewShift", "scroll", "focusChange", "action", "resign", "diagnostic",
            ])
        #expect(AnyEventName.named("scroll").contains(EventName.scroll.erased))
    }
}

@Suite("Bus instances and convenience posts")
struct BusInstanceTests {
    @Test("separate buses are isolated: posts, observers and tokens do not cross")
    func isolation() {
        let loop = VirtualTimeLoop()
        let first = Bus(loop: loop)
        let second = Bus(loop: loop)
        var seen: [String] = []
        let a = first.observe(.keyboardWillShow) { _ in seen.append("first") }
        let b = second.observe(.keyboardWillShow) { _ in seen.append("second") }
        first.post(.keyboardWillShow, KeyboardInfo())
        #expect(seen == ["first"])
        a.cancel()
        #expect(second.observationCount == 1)
        second.post(.keyboardWillShow, KeyboardInfo())
        #expect(seen == ["first", "second"])
        _ = b
    }

    @Test("posting an Event value is the same as posting its parts")
    func postEventValue() {
        let bus = Bus(loop: VirtualTimeLoop())
        let sender = Sender()
        var received: [Event<ReturnKeyInfo>] = []
        let token = bus.observe(.returnKey, sender: sender) { received.append($0) }
        bus.post(Event(.returnKey, ReturnKeyInfo(view: "email"), sender: sender, origin: .derived(by: "Test")))
        #expect(received.count == 1)
        #expect(received.first?.payload.view == "email")
        #expect(received.first?.sender === sender)
        #expect(received.first?.origin == .derived(by: "Test"))
        _ = token
    }

    @Test("a token outliving its bus can still be cancelled harmlessly")
    func tokenOutlivesBus() {
        var bus: Bus? = Bus(loop: VirtualTimeLoop())
        let token = bus!.observe(.keyboardWillShow) { _ in }
        bus = nil
        token.cancel()
        token.cancel()
        #expect(token.isActive == false)
    }
}
