import Dispatch
import ResponderBus
import Testing

extension EventName where Payload == Int {
    /// A payload type of its own (a trivial one), for the inbox's per-type channels.
    static let crossThreadNumber = EventName("test.crossThread.number")
}

extension EventName where Payload == String {
    /// A payload type that needs reference counting, for the inbox's per-type channels.
    static let crossThreadText = EventName("test.crossThread.text")
}

/// `Bus.postFromAnyThread` on the virtual-time loop: order across payload types, posts made while a
/// batch is delivered, lifetimes, and the inbox's buffers. CI runs this suite under
/// ThreadSanitizer as well (`--filter CrossThread`).
@Suite("Cross-thread inbox: order across payload types, lifetimes, buffers (CrossThread)")
struct CrossThreadInboxTests {
    /// An object posted as a sender; only its identity and lifetime matter.
    final class Sender: Sendable {}

    /// Holds a closure until the thread that runs it lets it go.
    final class Work: @unchecked Sendable {
        var body: (@Sendable () -> Void)?
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on another thread and waits for it; `body` and what it captured are released
    /// before this returns.
    private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let work = Work(body)
        DispatchQueue.global().async {
            work.body?()
            work.body = nil
            done.signal()
        }
        done.wait()
    }

    /// Posts `kind` (0: keyboard, 1: number, 2: text) carrying `value`; returns its log entry.
    @discardableResult
    private static func post(_ kind: Int, _ value: Int, on bus: Bus) -> String {
        switch kind {
        case 0:
            bus.postFromAnyThread(.keyboardWillChangeFrame, KeyboardInfo(curve: value))
            return "k\(value)"
        case 1:
            bus.postFromAnyThread(.crossThreadNumber, value)
            return "n\(value)"
        default:
            bus.postFromAnyThread(.crossThreadText, "text \(value)")
            return "t\(value)"
        }
    }

    /// Observes the three kinds, logging each delivery as `post(_:_:on:)` names it.
    private static func observeAll(_ bus: Bus, into log: @escaping (String) -> Void) -> [ObservationToken] {
        [
            bus.observe(.keyboardWillChangeFrame) { log("k\($0.payload.curve!)") },
            bus.observe(.crossThreadNumber) { log("n\($0.payload)") },
            bus.observe(.crossThreadText) { log("t\($0.payload.dropFirst(5))") },
        ]
    }

    @Test("one thread's posts of three payload types arrive in exactly the order it made them")
    func orderAcrossPayloadTypes() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        var log: [String] = []
        let tokens = Self.observeAll(bus) { log.append($0) }
        let expected = Locked([String]())
        onAnotherThread {
            // Runs of every length from 1 to 7, switching type after each, plus strict alternation.
            var random: UInt64 = 42
            var value = 0
            for _ in 0..<500 {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let kind = Int(random >> 33) % 3
                let length = 1 + Int(random >> 40) % 7
                for _ in 0..<length {
                    let entry = Self.post(kind, value, on: bus)
                    expected.withLock { $0.append(entry) }
                    value += 1
                }
            }
            for index in 0..<300 {
                let entry = Self.post(index % 3, value, on: bus)
                expected.withLock { $0.append(entry) }
                value += 1
            }
        }
        #expect(log.isEmpty, "nothing is delivered before the loop runs")
        loop.run()
        #expect(log == expected.withLock { $0 })
        _ = tokens
    }

    @Test("4 producers × 20,000 posts of mixed payload types: each producer's order kept across types, none lost or duplicated")
    func producersWithMixedPayloadTypes() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        let producers = 4
        let perProducer = 20_000
        var received: [[Int]] = Array(repeating: [], count: producers)
        func record(_ value: Int) { received[value / 1_000_000].append(value % 1_000_000) }
        let tokens = [
            bus.observe(.keyboardWillChangeFrame) { record($0.payload.curve!) },
            bus.observe(.crossThreadNumber) { record($0.payload) },
            bus.observe(.crossThreadText) { record(Int($0.payload)!) },
        ]
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for index in 0..<perProducer {
                let value = producer * 1_000_000 + index
                switch (index / (producer + 1) + producer) % 3 {
                case 0: bus.postFromAnyThread(.keyboardWillChangeFrame, KeyboardInfo(curve: value))
                case 1: bus.postFromAnyThread(.crossThreadNumber, value)
                default: bus.postFromAnyThread(.crossThreadText, String(value))
                }
            }
        }
        loop.run()
        for producer in 0..<producers {
            #expect(received[producer] == Array(0..<perProducer), "producer \(producer)")
        }
        _ = tokens
    }

    @Test("posts made while a batch is delivered, from the loop or from another thread, follow the batch in order")
    func postsDuringDrain() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        var log: [String] = []
        let producerGo = DispatchSemaphore(value: 0)
        let producerDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            producerGo.wait()
            for value in 100..<110 { Self.post(value % 2, value, on: bus) }
            producerDone.signal()
        }
        let tokens = Self.observeAll(bus) { entry in
            log.append(entry)
            switch entry {
            case "n1":
                // From the loop itself: queued, never delivered inline.
                bus.postFromAnyThread(.crossThreadText, "text 50")
                bus.postFromAnyThread(.crossThreadNumber, 51)
                log.append("posted from the loop")
            case "k3":
                // From another thread, while this batch is being delivered.
                producerGo.signal()
                producerDone.wait()
                log.append("posted from another thread")
            default:
                break
            }
        }
        onAnotherThread {
            for value in 0..<6 { Self.post(value % 3, value, on: bus) }
        }
        loop.run()
        let fromProducer = (100..<110).map { $0 % 2 == 0 ? "k\($0)" : "n\($0)" }
        #expect(
            log == ["k0", "n1", "posted from the loop", "t2", "k3", "posted from another thread", "n4", "t5", "t50", "n51"]
                + fromProducer)
        _ = tokens
    }

    @Test("an observer that runs the loop again in the middle of a batch: the rest of the batch, then the new posts")
    func nestedRunOfTheLoop() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        var log: [Int] = []
        let token = bus.observe(.crossThreadNumber) { event in
            log.append(event.payload)
            if event.payload == 1 {
                bus.postFromAnyThread(.crossThreadNumber, 100)
                loop.run()  // runs the drain that post scheduled, inside this one
                log.append(-1)
            }
        }
        onAnotherThread {
            for value in 0..<4 { bus.postFromAnyThread(.crossThreadNumber, value) }
        }
        loop.run()
        #expect(log == [0, 1, -1, 2, 3, 100])
        _ = token
    }

    @Test("the sender is held until its event is delivered, then released")
    func senderLifetime() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        weak var weakSender: Sender?
        var sawSender = false
        var token: ObservationToken?  // holds the sender weakly
        do {
            let sender = Sender()
            weakSender = sender
            token = bus.observe(.crossThreadText, sender: sender) { _ in sawSender = true }
            onAnotherThread { bus.postFromAnyThread(.crossThreadText, "text 0", sender: sender) }
        }
        #expect(weakSender != nil, "the queued event holds its sender")
        loop.run()
        #expect(sawSender)
        #expect(weakSender == nil, "delivered: the sender is let go")
        _ = token
    }

    @Test("a bus released while its events wait for the loop still delivers them, then goes")
    func busLifetime() {
        let loop = VirtualTimeLoop()
        weak var weakBus: Bus?
        var delivered: [Int] = []
        var token: ObservationToken?  // holds the bus weakly
        do {
            let bus = Bus(loop: loop)
            weakBus = bus
            token = bus.observe(.crossThreadNumber) { delivered.append($0.payload) }
            onAnotherThread {
                for value in 0..<3 { bus.postFromAnyThread(.crossThreadNumber, value) }
            }
        }
        #expect(weakBus != nil, "the pending drain holds the bus")
        loop.run()
        #expect(delivered == [0, 1, 2])
        #expect(weakBus == nil)
        _ = token
    }

    @Test("once warm, the inbox's buffers keep their capacity; after a burst, the oversized ones are given back")
    func buffersAreReused() throws {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        var received = 0
        var next = 0
        var inOrder = true
        let token = bus.observe(.crossThreadNumber) { event in
            if event.payload != next { inOrder = false }
            next = event.payload + 1
            received += 1
        }
        var value = 0
        func batch(_ count: Int) {
            let first = value
            onAnotherThread {
                for offset in 0..<count { bus.postFromAnyThread(.crossThreadNumber, first + offset) }
            }
            value += count
            loop.run()
        }
        batch(100)
        batch(100)
        let warm = bus.crossThreadBufferCapacities
        try #require(warm.count == 1)
        #expect(warm[0].pending >= 100 && warm[0].draining >= 100)
        for _ in 0..<50 { batch(100) }
        #expect(
            bus.crossThreadBufferCapacities.map { [$0.pending, $0.draining] } == warm.map { [$0.pending, $0.draining] },
            "batches that fit grow nothing")
        batch(200_000)
        let afterBurst = bus.crossThreadBufferCapacities[0]
        #expect(max(afterBurst.pending, afterBurst.draining) >= 200_000)
        batch(10)
        batch(10)
        let shrunk = bus.crossThreadBufferCapacities[0]
        #expect(max(shrunk.pending, shrunk.draining) < 200_000, "small batches give the burst's buffers back")
        #expect(received == value)
        #expect(inOrder)
        _ = token
    }
}
