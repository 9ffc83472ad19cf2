import ResponderBus
import Testing

@Suite("Bus posting styles: now, as soon as possible, when idle, coalescing")
struct BusPostingStyleTests {
    /// Records the curve of every keyboard event delivered, tagged by name.
    final class Recorder {
        var log: [String] = []
        var tokens: [ObservationToken] = []
        init(_ bus: Bus) {
            for name in EventName<KeyboardInfo>.allKeyboardEvents {
                tokens.append(
                    bus.observe(name) { [unowned self] event in
                        log.append("\(event.name.rawValue):\(event.payload.curve ?? -1)")
                    })
            }
        }
    }

    @Test("asap events wait for the end of the loop turn; idle events come after them")
    func asapThenIdle() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        let recorder = Recorder(bus)
        loop.schedule(after: .zero) {
            bus.post(.keyboardDidShow, KeyboardInfo(curve: 1), style: .whenIdle)
            bus.post(.keyboardWillShow, KeyboardInfo(curve: 2), style: .asap)
            bus.post(.keyboardWillHide, KeyboardInfo(curve: 3))
            recorder.log.append("task end")
        }
        loop.run()
        #expect(recorder.log == ["keyboardWillHide:3", "task end", "keyboardWillShow:2", "keyboardDidShow:1"])
    }

    @Test("queued events go out FIFO")
    func fifo() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        let recorder = Recorder(bus)
        for curve in 0..<5 { bus.post(.keyboardWillChangeFrame, KeyboardInfo(curve: curve), style: .asap) }
        for curve in 5..<8 { bus.post(.keyboardDidChangeFrame, KeyboardInfo(curve: curve), style: .whenIdle) }
        #expect(bus.queuedEventCount == 8)
        #expect(recorder.log.isEmpty)
        loop.run()
        #expect(recorder.log == (0..<5).map { "keyboardWillChangeFrame:\($0)" } + (5..<8).map { "keyboardDidChangeFrame:\($0)" })
        #expect(bus.queuedEventCount == 0)
    }

    @Test("coalescing on name: the latest queued event of that name wins and goes to the back")
    func coalesceOnName() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        let recorder = Recorder(bus)
        bus.post(.keyboardWillChangeFrame, KeyboardInfo(curve: 1), style: .asap, coalescing: .onName)
        bus.post(.keyboardWillShow, KeyboardInfo(curve: 2), style: .asap, coalescing: .onName)
        bus.post(.keyboardWillChangeFrame, KeyboardInfo(curve: 3), style: .asap, coalescing: .onName)
        loop.run()
        #expect(recorder.log == ["keyboardWillShow:2", "keyboardWillChangeFrame:3"])
    }

    @Test("coalescing finds its match first, in the middle or last in the queue, and all matches when several", arguments: [0, 1, 2, 3])
    func coalesceAtAnyPosition(position: Int) {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        let recorder = Recorder(bus)
        // Three other events, with the one to replace at `position` (3: twice, first and last).
        var names: [EventName<KeyboardInfo>] = [.keyboardWillShow, .keyboardDidShow, .keyboardWillHide]
        if position < 3 {
            names.insert(.keyboardWillChangeFrame, at: position)
        } else {
            names.insert(.keyboardWillChangeFrame, at: 0)
            names.append(.keyboardWillChangeFrame)
        }
        for (curve, name) in names.enumerated() { bus.post(name, KeyboardInfo(curve: curve), style: .asap) }
        bus.post(.keyboardWillChangeFrame, KeyboardInfo(curve: 9), style: .asap, coalescing: .onName)
        #expect(bus.queuedEventCount == 4)
        loop.run()
        let others = names.enumerated().filter { $0.element != .keyboardWillChangeFrame }.map { "\($0.element.rawValue):\($0.offset)" }
        #expect(recorder.log == others + ["keyboardWillChangeFrame:9"])
    }

    @Test("coalescing on sender, and on both: both must match")
    func coalesceOnSenderAndBoth() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        let recorder = Recorder(bus)
        let a = Sender()
        let b = Sender()
        bus.post(.keyboardWillShow, KeyboardInfo(curve: 1), sender: a, style: .asap)
        bus.post(.keyboardWillHide, KeyboardInfo(curve: 2), sender: b, style: .asap)
        bus.post(.keyboardDidShow, KeyboardInfo(curve: 3), sender: a, style: .asap, coalescing: .onSender)
        loop.run()
        #expect(recorder.log == ["keyboardWillHide:2", "keyboardDidShow:3"])

        recorder.log.removeAll()
        bus.post(.keyboardWillShow, KeyboardInfo(curve: 1), sender: a, style: .asap)
        bus.post(.keyboardWillShow, KeyboardInfo(curve: 2), sender: b, style: .asap)
        bus.post(.keyboardDidShow, KeyboardInfo(curve: 3), sender: a, style: .asap)
        bus.post(.keyboardWillShow, KeyboardInfo(curve: 4), sender: a, style: .asap, coalescing: [.onName, .onSender])
        loop.run()
        #expect(recorder.log == ["keyboardWillShow:2", "keyboardDidShow:3", "keyboardWillShow:4"])
    }

    @Test("coalescing reaches across the asap and idle queues")
    func coalesceAcrossQueues() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        let recorder = Recorder(bus)
        bus.post(.keyboardWillShow, KeyboardInfo(curve: 1), style: .whenIdle)
        bus.post(.keyboardWillShow, KeyboardInfo(curve: 2), style: .asap, coalescing: .onName)
        loop.run()
        #expect(recorder.log == ["keyboardWillShow:2"])
    }

    @Test("now-style posts are never merged, but purge matching queued events")
    func nowPurgesButNeverMerges() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        let recorder = Recorder(bus)
        bus.post(.keyboardWillShow, KeyboardInfo(curve: 9), style: .asap)
        for curve in 0..<3 {
            bus.post(.keyboardWillShow, KeyboardInfo(curve: curve), style: .now, coalescing: .onName)
        }
        #expect(recorder.log == ["keyboardWillShow:0", "keyboardWillShow:1", "keyboardWillShow:2"])
        loop.run()
        #expect(recorder.log.count == 3)
    }

    @Test("an asap post made while the asap queue drains can still coalesce an event not yet delivered")
    func coalesceDuringDrain() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        let recorder = Recorder(bus)
        let token = bus.observe(.keyboardWillChangeFrame) { _ in
            bus.post(.keyboardDidShow, KeyboardInfo(curve: 99), style: .asap, coalescing: .onName)
        }
        bus.post(.keyboardWillChangeFrame, KeyboardInfo(curve: 1), style: .asap)
        bus.post(.keyboardDidShow, KeyboardInfo(curve: 2), style: .asap)
        loop.run()
        #expect(recorder.log == ["keyboardWillChangeFrame:1", "keyboardDidShow:99"])
        _ = token
    }

    @Test("removeQueuedEvents takes matching events out of the queues")
    func removeQueued() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        let recorder = Recorder(bus)
        bus.post(.keyboardWillShow, KeyboardInfo(curve: 1), style: .asap)
        bus.post(.keyboardDidShow, KeyboardInfo(curve: 2), style: .whenIdle)
        #expect(bus.removeQueuedEvents(.keyboardWillShow) == 1)
        loop.run()
        #expect(recorder.log == ["keyboardDidShow:2"])
    }

    @Test("coalescing takes out the oldest, a middle or the newest queued event and keeps the rest in order")
    func coalesceKeepsOrder() {
        // The oldest queued post sits in a slot of its own, ahead of the others: removing it moves
        // the next one up, and the order stays first-in, first-out.
        for removed in [EventName.keyboardWillShow, .keyboardDidShow, .keyboardWillHide] {
            let loop = VirtualTimeLoop()
            let bus = Bus(loop: loop)
            let recorder = Recorder(bus)
            bus.post(.keyboardWillShow, KeyboardInfo(curve: 1), style: .asap)
            bus.post(.keyboardDidShow, KeyboardInfo(curve: 2), style: .asap)
            bus.post(.keyboardWillHide, KeyboardInfo(curve: 3), style: .asap)
            bus.post(removed, KeyboardInfo(curve: 9), style: .asap, coalescing: .onName)
            #expect(bus.queuedEventCount == 3)
            loop.run()
            let kept = ["keyboardWillShow:1", "keyboardDidShow:2", "keyboardWillHide:3"].filter { !$0.hasPrefix(removed.rawValue + ":") }
            #expect(recorder.log == kept + ["\(removed.rawValue):9"])
            #expect(bus.queuedEventCount == 0)
        }
        // Everything queued, then everything removed: the queue is empty and takes posts again.
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        let recorder = Recorder(bus)
        for curve in 0..<4 { bus.post(.keyboardDidHide, KeyboardInfo(curve: curve), style: .whenIdle) }
        #expect(bus.removeQueuedEvents(.keyboardDidHide) == 4)
        #expect(bus.queuedEventCount == 0)
        bus.post(.keyboardDidHide, KeyboardInfo(curve: 5), style: .whenIdle)
        loop.run()
        #expect(recorder.log == ["keyboardDidHide:5"])
    }

    @Test("an idle observer that posts when idle again does not spin in the same drain")
    func idleRepostWaitsForNextIdle() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        var count = 0
        let token = bus.observe(.keyboardDidHide) { _ in
            count += 1
            if count < 3 { bus.post(.keyboardDidHide, KeyboardInfo(), style: .whenIdle) }
        }
        bus.post(.keyboardDidHide, KeyboardInfo(), style: .whenIdle)
        loop.run()
        #expect(count == 3)
        _ = token
    }
}

/// Counts each turn's keyboard events and re-posts the count after every one of them, coalesced on
/// its name, the way the text-view ordering plugin posts `turnSettled`.
final class RepeatingCounter: KeyboardObserving {
    static let counted = EventName<Int>("test.repeatedCount")
    let name = "RepeatingCounter"
    var style: PostingStyle = .asap
    private var count = 0
    private(set) var lastContext: PluginContext?

    func keyboardWillChangeFrame(_ event: Event<KeyboardInfo>, context: PluginContext) {
        lastContext = context
        count += 1
        context.post(Self.counted, count, style: style, coalescing: .onName)
    }
}

@Suite("Coalesced re-posts: the only queued event changed in place, delivered like any coalesced post")
struct CoalescedRepostTests {
    /// A bus with `counter` registered, and a log of the counts and the other queued events, in
    /// delivery order.
    final class Setup {
        let loop = VirtualTimeLoop()
        let bus: Bus
        var entries: [String] = []
        var tokens: [ObservationToken] = []

        init(_ counter: RepeatingCounter = RepeatingCounter()) throws {
            bus = Bus(loop: loop)
            try bus.register(counter)
            tokens = [
                bus.observe(RepeatingCounter.counted) { [unowned self] in
                    entries.append("count:\($0.payload) by \($0.origin.derivingPlugin ?? "-")")
                },
                bus.observe(.keyboardDidShow) { [unowned self] in entries.append("didShow:\($0.payload.curve ?? -1)") },
            ]
        }
    }

    @Test("re-posted through a turn, it is delivered once, at the back, with the latest payload, as the plugin's")
    func latestWinsAtTheBack() throws {
        let setup = try Setup()
        let (loop, bus) = (setup.loop, setup.bus)
        loop.runAsTurn {
            bus.post(.keyboardWillChangeFrame, KeyboardInfo())
            bus.post(.keyboardDidShow, KeyboardInfo(curve: 1), style: .asap)
            bus.post(.keyboardWillChangeFrame, KeyboardInfo())
            bus.post(.keyboardWillChangeFrame, KeyboardInfo())
            #expect(bus.queuedEventCount == 2)
        }
        loop.run()
        #expect(setup.entries == ["didShow:1", "count:3 by RepeatingCounter"])
        // The next turn posts it again, with the next payload.
        loop.runAsTurn { bus.post(.keyboardWillChangeFrame, KeyboardInfo()) }
        loop.run()
        #expect(setup.entries == ["didShow:1", "count:3 by RepeatingCounter", "count:4 by RepeatingCounter"])
    }

    @Test("re-posted while it is the only queued event: one entry, the latest payload; removed, it queues again")
    func onlyQueuedEntry() throws {
        let setup = try Setup()
        let (loop, bus) = (setup.loop, setup.bus)
        loop.runAsTurn {
            for _ in 0..<3 { bus.post(.keyboardWillChangeFrame, KeyboardInfo()) }
            #expect(bus.queuedEventCount == 1)
        }
        loop.run()
        #expect(setup.entries == ["count:3 by RepeatingCounter"])
        // Its entry removed from outside, a re-post queues it again rather than changing a payload
        // nothing will deliver.
        loop.runAsTurn {
            bus.post(.keyboardWillChangeFrame, KeyboardInfo())
            #expect(bus.removeQueuedEvents(RepeatingCounter.counted) == 1)
            bus.post(.keyboardWillChangeFrame, KeyboardInfo())
            #expect(bus.queuedEventCount == 1)
        }
        loop.run()
        #expect(setup.entries == ["count:3 by RepeatingCounter", "count:5 by RepeatingCounter"])
        // With a when-idle event also waiting, it still goes to the back of its queue.
        loop.runAsTurn {
            bus.post(.keyboardWillChangeFrame, KeyboardInfo())
            bus.post(.keyboardDidShow, KeyboardInfo(curve: 2), style: .whenIdle)
            bus.post(.keyboardWillChangeFrame, KeyboardInfo())
            #expect(bus.queuedEventCount == 2)
        }
        loop.run()
        #expect(
            setup.entries == [
                "count:3 by RepeatingCounter", "count:5 by RepeatingCounter", "count:7 by RepeatingCounter", "didShow:2",
            ])
    }

    @Test("a coalescing post of the same name from elsewhere replaces it, and it replaces that one")
    func coalescesWithOrdinaryPosts() throws {
        let setup = try Setup()
        let (loop, bus) = (setup.loop, setup.bus)
        loop.runAsTurn {
            bus.post(.keyboardWillChangeFrame, KeyboardInfo())
            bus.post(RepeatingCounter.counted, 99, style: .asap, coalescing: .onName)
        }
        loop.run()
        loop.runAsTurn {
            bus.post(RepeatingCounter.counted, 98, style: .asap, coalescing: .onName)
            bus.post(.keyboardWillChangeFrame, KeyboardInfo())
        }
        loop.run()
        #expect(setup.entries == ["count:99 by -", "count:2 by RepeatingCounter"])
    }

    @Test("posted now, it is delivered at once; once the plugin is removed, nothing is posted")
    func nowAndRemoved() throws {
        let counter = RepeatingCounter()
        counter.style = .now
        let setup = try Setup(counter)
        let (loop, bus) = (setup.loop, setup.bus)
        bus.post(.keyboardWillChangeFrame, KeyboardInfo())
        #expect(setup.entries == ["count:1 by RepeatingCounter"])
        counter.style = .asap
        loop.runAsTurn { bus.post(.keyboardWillChangeFrame, KeyboardInfo()) }
        #expect(bus.unregister(named: counter.name))
        loop.run()
        // Queued before the removal: delivered, as any queued post would be.
        #expect(setup.entries == ["count:1 by RepeatingCounter", "count:2 by RepeatingCounter"])
        // Posting through the removed plugin's context afterwards does nothing.
        let context = try #require(counter.lastContext)
        loop.runAsTurn { counter.keyboardWillChangeFrame(Event(.keyboardWillChangeFrame, KeyboardInfo()), context: context) }
        #expect(bus.queuedEventCount == 0)
        loop.run()
        #expect(setup.entries.count == 2)
    }

    /// Posts the count of its keyboard events, coalesced, under a name of its own.
    final class NamedCounter: KeyboardObserving {
        let name: String
        let counted: EventName<Int>
        private var count = 0

        init(_ name: String) {
            self.name = name
            counted = EventName<Int>("test.\(name)")
        }

        func keyboardWillChangeFrame(_ event: Event<KeyboardInfo>, context: PluginContext) {
            count += 1
            context.post(counted, count, style: .asap, coalescing: .onName)
        }
    }

    @Test("one plugin on two buses: each bus queues and coalesces its own posts")
    func twoBuses() throws {
        let shared = NamedCounter("shared")
        let first = NamedCounter("first")
        let (loopA, loopB) = (VirtualTimeLoop(), VirtualTimeLoop())
        let (busA, busB) = (Bus(loop: loopA), Bus(loop: loopB))
        try busA.register(shared)
        try busB.register(first)
        try busB.register(shared)
        var seen: [String] = []
        let tokens = [
            busA.observe(shared.counted) { seen.append("A \($0.payload) by \($0.origin.derivingPlugin ?? "-")") },
            busB.observe(shared.counted) { seen.append("B \($0.payload) by \($0.origin.derivingPlugin ?? "-")") },
            busB.observe(first.counted) { seen.append("B first \($0.payload)") },
        ]
        loopB.runAsTurn { busB.post(.keyboardWillChangeFrame, KeyboardInfo()) }
        loopB.run()
        loopA.runAsTurn { busA.post(.keyboardWillChangeFrame, KeyboardInfo()) }
        loopA.run()
        loopB.runAsTurn { busB.post(.keyboardWillChangeFrame, KeyboardInfo()) }
        loopB.run()
        #expect(seen == ["B first 1", "B 1 by shared", "A 2 by shared", "B first 2", "B 3 by shared"])
        _ = tokens
    }

    @Test("changed in place only when the new post would have removed it: another sender under .onSender queues beside it")
    func senderKept() throws {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        final class Sender {}
        let (first, second) = (Sender(), Sender())
        var seen: [String] = []
        let token = bus.observe(RepeatingCounter.counted) { event in
            seen.append("\(event.payload) from \(event.sender === first ? "first" : "second")")
        }
        loop.runAsTurn {
            bus.post(RepeatingCounter.counted, 1, sender: first, style: .asap, coalescing: [.onName, .onSender])
            bus.post(RepeatingCounter.counted, 2, sender: second, style: .asap, coalescing: [.onName, .onSender])
            #expect(bus.queuedEventCount == 2)
        }
        loop.run()
        #expect(seen == ["1 from first", "2 from second"])
        // On the name alone, the second sender's post takes the first's place, with its sender.
        seen = []
        loop.runAsTurn {
            bus.post(RepeatingCounter.counted, 3, sender: first, style: .asap, coalescing: .onName)
            bus.post(RepeatingCounter.counted, 4, sender: second, style: .asap, coalescing: .onName)
            #expect(bus.queuedEventCount == 1)
        }
        loop.run()
        #expect(seen == ["4 from second"])
        _ = token
    }

    @Test("once delivered, a queued event lets its sender go: the bus keeps no object a post named alive")
    func senderReleased() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        final class Sender {}
        var delivered = 0
        let token = bus.observe(RepeatingCounter.counted) { _ in delivered += 1 }
        weak var gone: Sender?
        do {
            let sender = Sender()
            gone = sender
            loop.runAsTurn { bus.post(RepeatingCounter.counted, 1, sender: sender, style: .asap, coalescing: .onName) }
        }
        loop.run()
        #expect(delivered == 1)
        #expect(gone == nil, "the sender of a delivered post is still alive")
        _ = token
    }

    @Test("an observer that posts the same name again while it is delivered gets a post of its own, delivered in the same drain")
    func repostFromDelivery() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        var seen: [Int] = []
        let token = bus.observe(RepeatingCounter.counted) { event in
            seen.append(event.payload)
            if event.payload < 3 { bus.post(RepeatingCounter.counted, event.payload + 1, style: .asap, coalescing: .onName) }
        }
        // Two turns: the second reuses the event the first delivered, while the first's re-posts run.
        loop.runAsTurn { bus.post(RepeatingCounter.counted, 1, style: .asap, coalescing: .onName) }
        loop.run()
        #expect(seen == [1, 2, 3])
        loop.runAsTurn { bus.post(RepeatingCounter.counted, 2, style: .asap, coalescing: .onName) }
        loop.run()
        #expect(seen == [1, 2, 3, 2, 3])
        _ = token
    }
}
