import ResponderBus
import ResponderBusUV
import Testing

@Suite struct UVEventLoopShutdownTests {
    /// Counters written on the loop, read after shutdown (the thread's end orders the accesses).
    final class Counts: @unchecked Sendable {
        var executed = 0
        var endOfTurn = 0
        var idle = 0
    }

    @Test("shutdown runs everything posted before it, with the end-of-turn and idle work it queues")
    func shutdownDeliversEverything() {
        let loop = UVEventLoop()
        let counts = Counts()
        for _ in 0..<10_000 {
            loop.execute {
                counts.executed += 1
                loop.runAtEndOfTurn { counts.endOfTurn += 1 }
                loop.runWhenIdle {
                    loop.runWhenIdle { counts.idle += 1 }
                }
            }
        }
        loop.shutdown()
        #expect(counts.executed == 10_000)
        #expect(counts.endOfTurn == 10_000)
        #expect(counts.idle == 10_000)
        #expect(loop.closeResult == 0)
        #expect(loop.rejectedWorkCount == 0)
    }

    @Test("shutdown cancels pending timers: their work never runs and their handles say so")
    func shutdownCancelsTimers() throws {
        let loop = UVEventLoop()
        let fired = Box(false)
        let handles = Box<[ScheduledWork]>([])
        try loop.runAndWait {
            handles.value.append(loop.schedule(after: .seconds(30)) { fired.value = true })
            handles.value.append(loop.schedule(after: .milliseconds(200)) { fired.value = true })
        }
        loop.shutdown()
        #expect(!fired.value)
        #expect(handles.value.allSatisfy { $0.isCancelled && !$0.hasRun })
        #expect(loop.closeResult == 0)
    }

    @Test("work drained during shutdown cannot start timers, and posts made then are refused")
    func workDuringShutdown() throws {
        let loop = UVEventLoop()
        let gate = Latch()
        let started = Latch()
        let log = EventLog()
        let handles = Box<[String: ScheduledWork]>([:])
        let accepted = Box(0)
        let counts = Counts()
        loop.execute {
            started.countDown()
            // Hold the loop until the shutdown below has been requested: from then on, posts fail.
            while loop.submit({ counts.executed += 1 }) { accepted.value += 1 }
            gate.countDown()
            handles.value["in drain"] = loop.schedule(after: .zero) { log.append("timer from drain") }
            loop.runAtEndOfTurn {
                log.append("end of turn")
                handles.value["in end of turn"] = loop.schedule(after: .zero) { log.append("timer from end of turn") }
            }
            loop.runWhenIdle { log.append("idle") }
        }
        try #require(started.wait())
        let stopper = TestThread { loop.shutdown() }
        stopper.join()
        #expect(gate.wait(timeout: .zero))
        #expect(log.entries == ["end of turn", "idle"])
        #expect(handles.value.count == 2)
        #expect(handles.value.values.allSatisfy { $0.isCancelled && !$0.hasRun })
        #expect(loop.rejectedWorkCount == 1)
        #expect(counts.executed == accepted.value)
        #expect(loop.closeResult == 0)
    }

    @Test("after shutdown the loop thread has ended, inLoop is false and uv_loop_close returned 0")
    func shutdownEndsTheThread() throws {
        let exited = Latch()
        let loop = UVEventLoop(onThreadExit: { exited.countDown() })
        #expect(loop.closeResult == nil)
        let thread = try #require(try loop.runAndWait { CurrentThread.kernelID })
        // Darwin keeps no per-thread entry to look the id up in: checked where the system says.
        if let exists = CurrentThread.exists(kernelID: thread) { #expect(exists) }
        #expect(!exited.wait(timeout: .zero))
        loop.shutdown()
        // The thread ran its last statement and was joined before shutdown returned. (Its kernel
        // entry can outlive the join by a moment: the kernel wakes the joiner before reaping.)
        #expect(exited.wait(timeout: .zero))
        #expect(loop.closeResult == 0)
        #expect(!loop.inLoop)
    }

    @Test("execute and submit after shutdown refuse the work and count it")
    func executeAfterShutdown() {
        let loop = UVEventLoop()
        loop.shutdown()
        let ran = Box(false)
        #expect(loop.submit { ran.value = true } == false)
        loop.execute { ran.value = true }
        #expect(loop.rejectedWorkCount == 2)
        #expect(!ran.value)
    }

    @Test("shutdown is idempotent and may be called from several threads at once")
    func concurrentShutdown() {
        let loop = UVEventLoop()
        let counts = Counts()
        for _ in 0..<1000 { loop.execute { counts.executed += 1 } }
        let stoppers = (0..<3).map { _ in TestThread { loop.shutdown() } }
        loop.shutdown()
        for stopper in stoppers { stopper.join() }
        loop.shutdown()
        #expect(counts.executed == 1000)
        #expect(loop.closeResult == 0)
    }

    @Test("releasing the loop without shutdown stops its thread before deinit returns")
    func deinitShutsDown() throws {
        let exited = Latch()
        let counts = Counts()
        var loop: UVEventLoop? = UVEventLoop(onThreadExit: { exited.countDown() })
        for _ in 0..<100 { loop?.execute { counts.executed += 1 } }
        loop = nil
        #expect(exited.wait(timeout: .zero))
        #expect(counts.executed == 100)
    }

    @Test("releasing the last reference on the loop thread shuts the loop down in the background")
    func deinitOnTheLoopThread() throws {
        let exited = Latch()
        let gate = Latch()
        let counts = Counts()
        var loop: UVEventLoop? = UVEventLoop(onThreadExit: { exited.countDown() })
        loop?.execute { [loop] in
            _ = gate.wait()
            counts.executed += 1
            _ = loop  // this closure holds the last reference; it is released on the loop thread
        }
        loop = nil
        gate.countDown()
        #expect(exited.wait())
        #expect(counts.executed == 1)
    }
}
