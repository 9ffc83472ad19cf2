import Dispatch
import ResponderBus
import ResponderBusUV
import Synchronization
import Testing

/// A plugin with plain, loop-confined state: no lock, no atomics.
private final class ShowTally: KeyboardObserving {
    var shows = 0
    var bumps = 0

    func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
        shows += 1
    }
}

/// An actor on the loop: it reads and changes the plugin's state directly.
private actor TallyKeeper {
    nonisolated let unownedExecutor: UnownedSerialExecutor
    let loop: UVEventLoop
    let tally = ShowTally()

    init(loop: UVEventLoop) {
        self.loop = loop
        unownedExecutor = loop.asUnownedSerialExecutor()
    }

    func register(on bus: Bus) throws {
        loop.preconditionIsolated("an actor on the loop runs on the loop thread")
        try bus.register(tally)
    }

    func bump() {
        #expect(loop.inLoop)
        tally.bumps += 1
    }

    var counts: (shows: Int, bumps: Int) { (tally.shows, tally.bumps) }
}

/// The suite's name has "CrossThread" in it: the README's ThreadSanitizer pass runs it.
@Suite("UVEventLoop as a Swift executor: actors on the loop, perform, async shutdown (CrossThread)")
struct UVExecutorCrossThreadTests {
    @Test("an actor on the loop changes a plugin's state with no lock while other threads post")
    func actorOnTheLoop() async throws {
        let loop = UVEventLoop()
        let bus = Bus(loop: loop)
        let keeper = TallyKeeper(loop: loop)
        try await keeper.register(on: bus)
        let producers = 4
        let perProducer = 5_000
        let threads = (0..<producers).map { _ in
            TestThread {
                for _ in 0..<perProducer { bus.postFromAnyThread(.keyboardWillShow, KeyboardInfo()) }
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<200 { group.addTask { await keeper.bump() } }
            try await group.waitForAll()
        }
        for thread in threads { thread.join() }
        // Work queued after the posts runs after them (the inbox keeps its place by ticket).
        try await loop.perform {}
        let counts = await keeper.counts
        #expect(counts.shows == producers * perProducer)
        #expect(counts.bumps == 200)
        await loop.shutdownGracefully()
        #expect(loop.closeResult == 0)
    }

    @Test("perform from many tasks at once: each body runs on the loop, once, and its value comes back")
    func performFromManyTasks() async throws {
        let loop = UVEventLoop()
        let counter = Box(0)
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 1...500 {
                group.addTask {
                    try await loop.perform {
                        precondition(loop.inLoop)
                        counter.value += 1
                        return index
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(total == 500 * 501 / 2)
        #expect(try await loop.perform { counter.value } == 500)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await loop.perform { throw Refused() } }
        await loop.shutdownGracefully()
    }

    @Test("a task preferring the loop runs there; executor checks hold on the loop")
    func taskPreference() async throws {
        let loop = UVEventLoop()
        let onLoop = await Task(executorPreference: loop) {
            loop.assertIsolated()
            loop.preconditionIsolated()
            return loop.inLoop
        }.value
        #expect(onLoop)
        #expect(!loop.inLoop)
        await loop.shutdownGracefully()
    }

    @Test("preconditionIsolated off the loop stops the process with a message")
    func checkOffTheLoop() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let loop = UVEventLoop()
            loop.preconditionIsolated()
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("expected to run on the loop thread"))
    }

    @Test("a task enqueued on the loop after shutdown stops the process with a message, rather than wait forever")
    func enqueueAfterShutdown() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let loop = UVEventLoop()
            loop.shutdown()
            await Task(executorPreference: loop) {}.value
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("enqueued after the loop began shutting down"))
    }

    @Test("shutdownGracefully returns once everything posted was delivered and libuv is closed; perform is refused after")
    func gracefulShutdown() async throws {
        let loop = UVEventLoop()
        let bus = Bus(loop: loop)
        let delivered = Mutex(0)
        let token = try await loop.perform {
            bus.observe(.keyboardDidShow) { _ in delivered.withLock { $0 += 1 } }
        }
        TestThread {
            for _ in 0..<10_000 { bus.postFromAnyThread(.keyboardDidShow, KeyboardInfo()) }
        }.join()
        await loop.shutdownGracefully()
        #expect(delivered.withLock { $0 } == 10_000)
        #expect(loop.closeResult == 0)
        await #expect(throws: UVLoopShutDownError.self) { try await loop.perform { 1 } }
        token.cancel()
    }
}
