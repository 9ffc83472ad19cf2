import ResponderBus
import ResponderBusUV
import Testing

/// Cross-thread posting under load; CI also runs these under ThreadSanitizer
/// (`swift test --sanitize=thread --filter CrossThread`).
@Suite struct UVEventLoopCrossThreadTests {
    /// Checks, on the loop, that each producer's sequence numbers arrive as 0, 1, 2, … exactly once.
    final class Tally: @unchecked Sendable {
        private(set) var next: [Int]
        private(set) var outOfOrder = 0
        private(set) var total = 0
        private let expectedTotal: Int
        private let complete: Latch

        init(producers: Int, expectedTotal: Int = .max, complete: Latch = Latch()) {
            next = Array(repeating: 0, count: producers)
            self.expectedTotal = expectedTotal
            self.complete = complete
        }

        func record(_ producer: Int, _ sequence: Int) {
            if sequence != next[producer] { outOfOrder += 1 }
            next[producer] = sequence + 1
            total += 1
            if total == expectedTotal { complete.countDown() }
        }
    }

    @Test("4 producer threads × 100,000 events plus posts from the loop: none lost, none duplicated, each producer's order kept")
    func producersKeepTheirOrder() throws {
        let producers = 4
        let perProducer = 100_000
        let fromLoop = 10_000
        let loopProducer = producers
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let complete = Latch()
        let tally = Tally(producers: producers + 1, expectedTotal: producers * perProducer + fromLoop, complete: complete)
        let go = Latch()

        let threads = (0..<producers).map { producer in
            TestThread {
                _ = go.wait()
                for sequence in 0..<perProducer {
                    loop.execute { tally.record(producer, sequence) }
                }
            }
        }
        go.countDown()
        loop.execute {
            for sequence in 0..<fromLoop {
                loop.execute { tally.record(loopProducer, sequence) }
            }
        }
        for thread in threads { thread.join() }

        try #require(
            complete.wait(timeout: .seconds(30)),
            "only \(producers * perProducer + fromLoop) events were expected; the loop did not receive them all in time")
        #expect(tally.next == Array(repeating: perProducer, count: producers) + [fromLoop])
        #expect(tally.outOfOrder == 0)
        #expect(tally.total == producers * perProducer + fromLoop)
    }

    @Test("producers racing shutdown: every accepted post runs once, in order; every refused one is counted")
    func producersRacingShutdown() throws {
        let producers = 4
        let perProducer = 50_000
        let loop = UVEventLoop()
        let tally = Tally(producers: producers)
        let accepted = (0..<producers).map { _ in Box(0) }
        let underWay = Latch(producers)

        let threads = (0..<producers).map { producer in
            TestThread {
                for sequence in 0..<perProducer {
                    if loop.submit({ tally.record(producer, sequence) }) { accepted[producer].value += 1 }
                    if sequence == 1_000 { underWay.countDown() }
                }
            }
        }
        try #require(underWay.wait())
        loop.shutdown()
        for thread in threads { thread.join() }

        let acceptedTotal = accepted.map(\.value).reduce(0, +)
        #expect(tally.next == accepted.map(\.value))
        #expect(tally.outOfOrder == 0)
        #expect(tally.total == acceptedTotal)
        #expect(acceptedTotal + loop.rejectedWorkCount == producers * perProducer)
        #expect(loop.closeResult == 0)
    }

    @Test("timers and end-of-turn work scheduled from cross-thread posts all run, each on the loop")
    func crossThreadPostsUsingLoopConfinedCalls() throws {
        let producers = 4
        let perProducer = 500
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let expected = producers * perProducer
        let complete = Latch(expected * 3)
        let offLoop = Box(0)

        let threads = (0..<producers).map { _ in
            TestThread {
                for index in 0..<perProducer {
                    loop.execute {
                        loop.schedule(after: .milliseconds(index % 3)) {
                            if !loop.inLoop { offLoop.value += 1 }
                            complete.countDown()
                        }
                        loop.runAtEndOfTurn {
                            if !loop.inLoop { offLoop.value += 1 }
                            complete.countDown()
                        }
                        loop.runWhenIdle {
                            if !loop.inLoop { offLoop.value += 1 }
                            complete.countDown()
                        }
                    }
                }
            }
        }
        for thread in threads { thread.join() }
        try #require(complete.wait())
        #expect(try loop.runAndWait { offLoop.value } == 0)
    }
}
