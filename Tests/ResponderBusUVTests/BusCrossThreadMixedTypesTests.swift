import ResponderBus
import ResponderBusPlatform
import ResponderBusUV
import Synchronization
import Testing

extension EventName where Payload == Int {
    /// A second payload type for the inbox's per-type channels.
    static let uvCrossThreadNumber = EventName("test.uv.crossThread.number")
}

extension EventName where Payload == String {
    /// A third payload type, one that needs reference counting.
    static let uvCrossThreadText = EventName("test.uv.crossThread.text")
}

/// `Bus.postFromAnyThread` onto the libuv loop with several payload types, and around shutdown. CI
/// runs this suite under ThreadSanitizer as well (`--filter CrossThread`).
@Suite("Bus on the libuv loop: mixed payload types and shutdown (CrossThread)")
struct BusCrossThreadMixedTypesTests {
    /// An object posted as a sender; only its lifetime matters.
    final class Sender: Sendable {}

    /// An atomic integer that closures can share.
    final class AtomicCell: Sendable {
        let value: Atomic<Int>
        init(_ value: Int) { self.value = Atomic(value) }
    }

    /// Per-producer bookkeeping, touched only on the loop thread (read after a latch or shutdown).
    final class Tally: @unchecked Sendable {
        var next: [Int]
        var outOfOrder = 0
        var total = 0
        var offLoop = 0
        var tokens: [ObservationToken] = []
        let expectedTotal: Int
        let complete = Latch()

        init(producers: Int, expectedTotal: Int = .max) {
            next = Array(repeating: 0, count: producers)
            self.expectedTotal = expectedTotal
        }

        func record(_ value: Int, on loop: UVEventLoop) {
            if !loop.inLoop { offLoop += 1 }
            let producer = value / 10_000_000
            let index = value % 10_000_000
            if index != next[producer] { outOfOrder += 1 }
            next[producer] = index + 1
            total += 1
            if total == expectedTotal { complete.countDown() }
        }

        /// Observes the three payload types on `bus`; call on the loop.
        func observe(_ bus: Bus, _ loop: UVEventLoop) {
            tokens = [
                bus.observe(.keyboardWillChangeFrame) { self.record($0.payload.curve!, on: loop) },
                bus.observe(.uvCrossThreadNumber) { self.record($0.payload, on: loop) },
                bus.observe(.uvCrossThreadText) { self.record(Int($0.payload)!, on: loop) },
            ]
        }
    }

    /// Posts `value` with one of three payload types, chosen by `kind`.
    static func post(_ value: Int, kind: Int, on bus: Bus) {
        switch kind % 3 {
        case 0: bus.postFromAnyThread(.keyboardWillChangeFrame, KeyboardInfo(curve: value))
        case 1: bus.postFromAnyThread(.uvCrossThreadNumber, value)
        default: bus.postFromAnyThread(.uvCrossThreadText, String(value))
        }
    }

    @Test("4 producers × 50,000 posts of three payload types: each producer's order kept across types, none lost or duplicated")
    func mixedTypesStress() throws {
        let producers = 4
        let perProducer = 50_000
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let bus = Bus(loop: loop)
        let tally = Tally(producers: producers, expectedTotal: producers * perProducer)
        _ = try loop.runAndWait { tally.observe(bus, loop) }
        let threads = (0..<producers).map { producer in
            TestThread {
                for index in 0..<perProducer {
                    // Runs of 1 to 4 posts of a type, different for each producer.
                    Self.post(producer * 10_000_000 + index, kind: index / (producer + 1), on: bus)
                }
            }
        }
        for thread in threads { thread.join() }
        try #require(tally.complete.wait(timeout: .seconds(60)), "not every event arrived within 60 s")
        let (total, outOfOrder, next, offLoop) = try loop.runAndWait { (tally.total, tally.outOfOrder, tally.next, tally.offLoop) }
        #expect(total == producers * perProducer)
        #expect(outOfOrder == 0)
        #expect(next == Array(repeating: perProducer, count: producers))
        #expect(offLoop == 0)
        _ = try loop.runAndWait { tally.tokens = [] }
    }

    @Test("shutdown delivers every event posted before it, of every payload type, and closes the loop cleanly")
    func shutdownDeliversEverything() throws {
        let producers = 3
        let perProducer = 30_000
        let loop = UVEventLoop()
        let bus = Bus(loop: loop)
        let tally = Tally(producers: producers)
        _ = try loop.runAndWait { tally.observe(bus, loop) }
        let threads = (0..<producers).map { producer in
            TestThread {
                for index in 0..<perProducer {
                    Self.post(producer * 10_000_000 + index, kind: index + producer, on: bus)
                }
            }
        }
        for thread in threads { thread.join() }
        loop.shutdown()  // without waiting for the deliveries first
        #expect(tally.total == producers * perProducer)
        #expect(tally.outOfOrder == 0)
        #expect(tally.next == Array(repeating: perProducer, count: producers))
        #expect(loop.closeResult == 0)
        #expect(loop.rejectedWorkCount == 0)
        tally.tokens = []
    }

    @Test("producers racing shutdown: every post that returned before shutdown began is delivered, once and in order")
    func producersRacingShutdown() throws {
        let producers = 3
        let loop = UVEventLoop()
        let bus = Bus(loop: loop)
        let tally = Tally(producers: producers)
        _ = try loop.runAndWait { tally.observe(bus, loop) }
        let stopping = AtomicCell(0)
        let started = Latch(producers)
        // For each producer, the last index whose post returned before `stopping` was seen set.
        let returnedBefore = (0..<producers).map { _ in AtomicCell(-1) }
        let threads = (0..<producers).map { producer in
            TestThread {
                started.countDown()
                var index = 0
                while index < 2_000_000 {
                    Self.post(producer * 10_000_000 + index, kind: index / 3 + producer, on: bus)
                    if stopping.value.load(ordering: .sequentiallyConsistent) != 0 { break }
                    returnedBefore[producer].value.store(index, ordering: .relaxed)
                    index += 1
                }
            }
        }
        try #require(started.wait())
        usleep(20_000)
        stopping.value.store(1, ordering: .sequentiallyConsistent)
        loop.shutdown()
        for thread in threads { thread.join() }
        for producer in 0..<producers {
            let mustHave = returnedBefore[producer].value.load(ordering: .relaxed) + 1
            #expect(tally.next[producer] >= mustHave, "producer \(producer): \(tally.next[producer]) delivered, \(mustHave) posted before shutdown")
        }
        #expect(tally.outOfOrder == 0, "each producer's events arrive as a gap-free prefix, in order")
        #expect(loop.closeResult == 0)
        #expect(loop.rejectedWorkCount <= 1, "the bus stops submitting once the loop refused a drain")
        tally.tokens = []
    }

    @Test("posts after shutdown are dropped, refused once, and let the bus and their senders go")
    func postsAfterShutdown() throws {
        let loop = UVEventLoop()
        weak var weakBus: Bus?
        weak var weakSender: Sender?
        let delivered = Box(0)
        do {
            let bus = Bus(loop: loop)
            weakBus = bus
            let token = try loop.runAndWait { bus.observe(.uvCrossThreadNumber) { _ in delivered.value += 1 } }
            loop.shutdown()
            let sender = Sender()
            weakSender = sender
            for value in 0..<3 {
                bus.postFromAnyThread(.uvCrossThreadNumber, value, sender: sender)
                bus.postFromAnyThread(.uvCrossThreadText, "dropped", sender: sender)
            }
            #expect(loop.rejectedWorkCount == 1)
            _ = token
        }
        #expect(delivered.value == 0)
        #expect(weakBus == nil, "nothing keeps a bus whose loop refused its drain")
        #expect(weakSender == nil, "the dropped events let their sender go")
    }

    @Test("an observer on the loop thread posting with postFromAnyThread: queued behind the current batch, then delivered")
    func postsFromTheLoopThread() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let bus = Bus(loop: loop)
        let log = EventLog()
        let done = Latch()
        let tokens = try loop.runAndWait {
            [
                bus.observe(.uvCrossThreadNumber) { event in
                    log.append("n\(event.payload)")
                    if event.payload == 0 {
                        bus.postFromAnyThread(.uvCrossThreadText, "from the loop")
                        log.append("posted")
                    }
                },
                bus.observe(.uvCrossThreadText) { event in
                    log.append(event.payload)
                    done.countDown()
                },
            ]
        }
        // The three numbers must make one batch: they are posted while the loop is held in a piece
        // of work, so its drain finds them all. (Posted freely, the loop may drain n0 alone, and the
        // text posted from the loop then rightly comes before n1 and n2.)
        let held = Latch()
        let gate = Latch()
        loop.execute {
            held.countDown()
            _ = gate.wait()
        }
        try #require(held.wait())
        for value in 0..<3 { bus.postFromAnyThread(.uvCrossThreadNumber, value) }
        gate.countDown()
        try #require(done.wait())
        let entries = try loop.runAndWait { log.entries }
        #expect(entries == ["n0", "posted", "n1", "n2", "from the loop"])
        _ = tokens
    }

    @Test("one thread mixing execute and postFromAnyThread: work after a post runs after its delivery; work before a post, before it")
    func orderWithExecute() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let bus = Bus(loop: loop)
        let log = EventLog()
        let lastDelivered = AtomicCell(-1)
        let token = try loop.runAndWait {
            bus.observe(.uvCrossThreadNumber) { event in
                log.append("e\(event.payload)")
                lastDelivered.value.store(event.payload, ordering: .releasing)
            }
        }
        // Work handed over before a post, with no batch pending, runs before the post is delivered
        // (the first batch goes through `submit`, the later ones through the bus's own wake-up).
        let roundTrips = 1_000
        for index in 0..<roundTrips {
            loop.execute { log.append("x\(index)") }
            bus.postFromAnyThread(.uvCrossThreadNumber, index)
            while lastDelivered.value.load(ordering: .acquiring) != index {}
        }
        // Work handed over after a post runs after the post is delivered, even in a burst (a
        // post that joins a batch already pending is delivered with that batch, earlier).
        let burst = 3_000
        for index in roundTrips..<(roundTrips + burst) {
            bus.postFromAnyThread(.uvCrossThreadNumber, index)
            loop.execute { log.append("x\(index)") }
        }
        let entries = try loop.runAndWait { log.entries }
        #expect(Array(entries.prefix(2 * roundTrips)) == (0..<roundTrips).flatMap { ["x\($0)", "e\($0)"] })
        let rest = Array(entries.dropFirst(2 * roundTrips))
        let position = Dictionary(uniqueKeysWithValues: rest.enumerated().map { ($1, $0) })
        #expect(rest.count == 2 * burst, "each event and each piece of work exactly once")
        #expect(rest.filter { $0.hasPrefix("e") } == (roundTrips..<(roundTrips + burst)).map { "e\($0)" })
        #expect(rest.filter { $0.hasPrefix("x") } == (roundTrips..<(roundTrips + burst)).map { "x\($0)" })
        let late = (roundTrips..<(roundTrips + burst)).filter { (position["e\($0)"] ?? .max) > (position["x\($0)"] ?? -1) }
        #expect(late.isEmpty, "delivered after the work handed over after them: \(late.prefix(5))")
        _ = token
    }

    @Test("several buses on one loop, released on and off the loop: the loop still closes cleanly")
    func busesGoingAway() throws {
        let loop = UVEventLoop()
        let delivered = Box(0)
        let holder = Box<[Bus]>([])
        let tokens = Box<[ObservationToken]>([])
        for _ in 0..<4 {
            let bus = Bus(loop: loop)
            tokens.value.append(try loop.runAndWait { bus.observe(.uvCrossThreadNumber) { _ in delivered.value += 1 } })
            for value in 0..<100 { bus.postFromAnyThread(.uvCrossThreadNumber, value) }
            holder.value.append(bus)
        }
        // Wait for every delivery (each bus is then registered for wake-ups), then post again.
        let allDelivered = Latch()
        loop.execute { if delivered.value == 400 { allDelivered.countDown() } }
        try #require(allDelivered.wait())
        for bus in holder.value { bus.postFromAnyThread(.uvCrossThreadNumber, 1) }
        // Two buses go on the loop thread, two on this one (their wake-ups close on the loop).
        _ = try loop.runAndWait { holder.value.removeLast(2) }
        weak let weakBus = holder.value.first
        holder.value.removeAll()
        #expect(weakBus == nil)
        loop.shutdown()
        #expect(delivered.value == 404)
        #expect(loop.closeResult == 0, "every wake-up's handle was closed")
        tokens.value = []
    }

    @Test("after shutdown, a bus that had its own wake-up drops its posts, refused once")
    func postsAfterShutdownWithWakeUp() throws {
        let loop = UVEventLoop()
        weak var weakBus: Bus?
        let delivered = Box(0)
        do {
            let bus = Bus(loop: loop)
            weakBus = bus
            let token = try loop.runAndWait { bus.observe(.uvCrossThreadNumber) { _ in delivered.value += 1 } }
            bus.postFromAnyThread(.uvCrossThreadNumber, 0)
            _ = try loop.runAndWait {}
            bus.postFromAnyThread(.uvCrossThreadNumber, 1)  // through the wake-up, registered by now
            loop.shutdown()
            #expect(delivered.value == 2)
            for value in 2..<5 { bus.postFromAnyThread(.uvCrossThreadNumber, value) }
            #expect(loop.rejectedWorkCount == 1)
            _ = token
        }
        #expect(delivered.value == 2)
        #expect(weakBus == nil)
        #expect(loop.closeResult == 0)
    }

    @Test("round trips in steady state reuse the inbox's buffers")
    func roundTripsReuseBuffers() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let bus = Bus(loop: loop)
        let last = AtomicCell(-1)
        let token = try loop.runAndWait { bus.observe(.uvCrossThreadNumber) { last.value.store($0.payload, ordering: .releasing) } }
        func roundTrip(_ value: Int) {
            bus.postFromAnyThread(.uvCrossThreadNumber, value)
            while last.value.load(ordering: .acquiring) != value {}
        }
        for value in 0..<100 { roundTrip(value) }
        let warm = try loop.runAndWait { bus.crossThreadBufferCapacities.map { [$0.pending, $0.draining] } }
        for value in 100..<5_100 { roundTrip(value) }
        let after = try loop.runAndWait { bus.crossThreadBufferCapacities.map { [$0.pending, $0.draining] } }
        #expect(after == warm, "one event per batch: the buffers never grow or move")
        _ = token
    }
}
