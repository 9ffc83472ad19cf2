import ResponderBus
import Testing

/// An actor on a virtual-time loop, keeping a trace of what happened when.
private actor Recorder {
    nonisolated let unownedExecutor: UnownedSerialExecutor
    let loop: VirtualTimeLoop
    var trace: [String] = []

    init(loop: VirtualTimeLoop) {
        self.loop = loop
        unownedExecutor = loop.asUnownedSerialExecutor()
    }

    func note(_ what: String) {
        loop.preconditionIsolated()
        trace.append("\(what) at \(loop.now)")
    }

    /// Observes the bus from the actor (on the loop): the observer notes into the trace directly.
    func watch(_ bus: Bus) -> ObservationToken {
        bus.observe(.keyboardWillShow) { [unowned self] event in
            let height = event.payload.end?.height ?? 0
            self.assumeIsolated { $0.trace.append("show \(height) at \($0.loop.now)") }
        }
    }
}

@Suite("VirtualTimeLoop as a Swift executor: deterministic async tests")
struct VirtualTimeLoopAsyncTests {
    /// One scripted async session: actors, posts, timers and explicit time.
    static func session() throws -> [String] {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        return try loop.runAsync {
            #expect(loop.inLoop, "the operation runs on the thread driving the loop")
            let recorder = Recorder(loop: loop)
            let token = await recorder.watch(bus)
            await recorder.note("start")
            loop.schedule(after: .milliseconds(250)) {
                bus.post(.keyboardWillShow, KeyboardInfo(end: Rect(x: 0, y: 521, width: 375, height: 291)))
            }
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<3 { group.addTask { await recorder.note("task \(index)") } }
            }
            #expect(await recorder.trace.count == 4, "the timer has not fired: time has not moved")
            loop.advance(by: .seconds(1))
            await recorder.note("after a second")
            token.cancel()
            return await recorder.trace
        }
    }

    @Test("an actor on the loop and the operation run on the driving thread; time moves only when advanced")
    func runsOnTheLoop() throws {
        let trace = try Self.session()
        #expect(trace.first == "start at 0.0 seconds")
        #expect(trace.contains("show 291.0 at 0.25 seconds"))
        #expect(trace.last == "after a second at 1.0 seconds")
        #expect(trace.count == 6)
    }

    @Test("two runs of the same async session do exactly the same, in the same order")
    func deterministic() throws {
        let first = try Self.session()
        for _ in 0..<20 { #expect(try Self.session() == first) }
    }

    @Test("perform runs on the loop; errors come back out of runAsync")
    func performAndErrors() throws {
        let loop = VirtualTimeLoop()
        let value = try loop.runAsync { try await loop.perform { loop.inLoop ? 42 : 0 } }
        #expect(value == 42)
        struct Failed: Error {}
        #expect(throws: Failed.self) { try loop.runAsync { () async throws -> Int in throw Failed() } }
    }

    @Test("an operation waiting on another thread's work sleeps until it arrives, then finishes")
    func waitsForOtherThreads() throws {
        let loop = VirtualTimeLoop()
        let result = try loop.runAsync {
            // Hops off the loop (a detached task) and back.
            let value = await Task.detached { () -> Int in
                try? await Task.sleep(for: .milliseconds(20))
                return 7
            }.value
            return value * 6
        }
        #expect(result == 42)
    }
}
