import ResponderBus
import ResponderBusPlatform
import ResponderBusUV
import Testing

@Suite struct UVEventLoopTests {
    // MARK: - Thread and clock

    @Test("inLoop is true only on the loop's own thread, which is named responderbus.uv")
    func inLoopOnlyOnLoopThread() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        #expect(!loop.inLoop)

        let caller = CurrentThread.kernelID
        let (inLoop, name, thread) = try loop.runAndWait { (loop.inLoop, CurrentThread.name, CurrentThread.kernelID) }
        #expect(inLoop)
        #expect(name == UVEventLoop.threadName)
        #expect(thread != nil && thread != caller)

        let other = Box(true)
        let otherThread = TestThread { other.value = loop.inLoop }
        otherThread.join()
        #expect(other.value == false)

        let another = UVEventLoop()
        defer { another.shutdown() }
        #expect(try loop.runAndWait { another.inLoop } == false)
    }

    @Test("now starts near zero, never goes backwards and can be read from any thread")
    func nowIsMonotonic() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let first = loop.now
        #expect(first >= .zero && first < .seconds(5))
        let onLoop = try loop.runAndWait { loop.now }
        let last = loop.now
        #expect(first <= onLoop && onLoop <= last)
    }

    // MARK: - execute

    @Test("execute never runs work inline, even on the loop, and keeps the loop's own posts in order")
    func executeFromTheLoop() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let log = EventLog()
        let done = Latch()
        loop.execute {
            log.append("start")
            for index in 0..<1000 {
                loop.execute { log.append("\(index)") }
            }
            loop.execute { done.countDown() }
            log.append("end")
        }
        try #require(done.wait())
        #expect(log.entries == ["start", "end"] + (0..<1000).map { "\($0)" })
    }

    // MARK: - Timers

    @Test("timers fire in deadline order, never before their deadline")
    func timersFireInDeadlineOrder() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let fired = Box<[(Int, Duration)]>([])
        let done = Latch()
        loop.execute {
            let start = loop.now
            for delay in [30, 10, 45, 0, 20, 5] {
                loop.schedule(after: .milliseconds(delay)) {
                    fired.value.append((delay, loop.now - start))
                    if delay == 45 { done.countDown() }
                }
            }
        }
        try #require(done.wait())
        #expect(fired.value.map(\.0) == [0, 5, 10, 20, 30, 45])
        for (delay, elapsed) in fired.value {
            #expect(elapsed >= .milliseconds(delay), "the \(delay) ms timer fired after \(elapsed)")
        }
    }

    @Test("timers with the same delay fire in the order they were scheduled")
    func equalDelaysKeepOrder() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let log = EventLog()
        let done = Latch()
        loop.execute {
            for index in 0..<20 {
                loop.schedule(after: .milliseconds(3)) {
                    log.append("\(index)")
                    if index == 19 { done.countDown() }
                }
            }
        }
        try #require(done.wait())
        #expect(log.entries == (0..<20).map { "\($0)" })
    }

    @Test("a cancelled timer never fires; cancel is idempotent and a no-op after the timer fired")
    func cancelledTimersNeverFire() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let log = EventLog()
        let handles = Box<[String: ScheduledWork]>([:])
        let done = Latch()
        loop.execute {
            handles.value["cancelled"] = loop.schedule(after: .milliseconds(10)) { log.append("cancelled") }
            handles.value["fired"] = loop.schedule(after: .milliseconds(1)) { log.append("fired") }
            handles.value["cancelled"]?.cancel()
            handles.value["cancelled"]?.cancel()
            loop.schedule(after: .milliseconds(40)) {
                handles.value["fired"]?.cancel()
                log.append("sentinel")
                done.countDown()
            }
        }
        try #require(done.wait())
        #expect(log.entries == ["fired", "sentinel"])
        let cancelled = try #require(handles.value["cancelled"])
        let fired = try #require(handles.value["fired"])
        #expect(cancelled.isCancelled && !cancelled.hasRun)
        #expect(fired.hasRun && !fired.isCancelled)
    }

    @Test("a timer cancelled by an earlier timer due at the same time does not fire")
    func cancelFromAnotherTimer() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let log = EventLog()
        let victim = Box<ScheduledWork?>(nil)
        let done = Latch()
        loop.execute {
            loop.schedule(after: .milliseconds(5)) {
                log.append("first")
                victim.value?.cancel()
            }
            victim.value = loop.schedule(after: .milliseconds(5)) { log.append("victim") }
            loop.schedule(after: .milliseconds(25)) {
                log.append("sentinel")
                done.countDown()
            }
        }
        try #require(done.wait())
        #expect(log.entries == ["first", "sentinel"])
    }

    @Test("timers scheduled from a timer run after it, in deadline order")
    func timersFromTimers() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let log = EventLog()
        let done = Latch()
        loop.execute {
            loop.schedule(after: .milliseconds(1)) {
                log.append("outer start")
                loop.schedule(after: .milliseconds(15)) {
                    log.append("15 ms")
                    loop.schedule(after: .zero) {
                        log.append("0 ms after 15 ms")
                        done.countDown()
                    }
                }
                loop.schedule(after: .milliseconds(5)) { log.append("5 ms") }
                loop.schedule(after: .zero) { log.append("0 ms") }
                log.append("outer end")
            }
        }
        try #require(done.wait())
        #expect(log.entries == ["outer start", "outer end", "0 ms", "5 ms", "15 ms", "0 ms after 15 ms"])
    }

    // MARK: - End of turn and idle

    @Test("end-of-turn work runs after the current callback, FIFO, with work added during the drain, before idle work")
    func endOfTurnOrder() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let log = EventLog()
        let done = Latch()
        loop.execute {
            log.append("callback start")
            loop.runWhenIdle {
                log.append("idle")
                done.countDown()
            }
            loop.runAtEndOfTurn {
                log.append("end of turn 1")
                loop.runAtEndOfTurn { log.append("end of turn 3 (added during the drain)") }
            }
            loop.runAtEndOfTurn { log.append("end of turn 2") }
            log.append("callback end")
        }
        try #require(done.wait())
        #expect(
            log.entries == [
                "callback start", "callback end",
                "end of turn 1", "end of turn 2", "end of turn 3 (added during the drain)",
                "idle",
            ])
    }

    @Test("end-of-turn work queued by a timer runs at once, without waiting for another event")
    func endOfTurnFromTimer() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let log = EventLog()
        let done = Latch()
        loop.execute {
            loop.schedule(after: .milliseconds(1)) {
                loop.runAtEndOfTurn {
                    log.append("end of turn")
                    done.countDown()
                }
                log.append("timer")
            }
        }
        // Nothing else happens on this loop: timers run before the poll and the check phase after
        // it, so if the poll blocked, the end-of-turn work would wait forever.
        try #require(done.wait(timeout: .seconds(5)))
        #expect(log.entries == ["timer", "end of turn"])
    }

    @Test("end-of-turn work queued by idle work runs at once, without waiting for another event")
    func endOfTurnFromIdle() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let log = EventLog()
        let done = Latch()
        loop.execute {
            loop.runWhenIdle {
                loop.runAtEndOfTurn {
                    log.append("end of turn")
                    done.countDown()
                }
                log.append("idle")
            }
        }
        // The idle phase comes before the poll, the check phase after it.
        try #require(done.wait(timeout: .seconds(5)))
        #expect(log.entries == ["idle", "end of turn"])
    }

    @Test("idle work queued by a timer runs after the end-of-turn work the timer queued after it")
    func idleAfterEndOfTurnFromTimer() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let log = EventLog()
        let done = Latch()
        loop.execute {
            loop.schedule(after: .milliseconds(1)) {
                loop.runWhenIdle {
                    log.append("idle")
                    done.countDown()
                }
                loop.runAtEndOfTurn { log.append("end of turn") }
                log.append("timer")
            }
        }
        try #require(done.wait(timeout: .seconds(5)))
        #expect(log.entries == ["timer", "end of turn", "idle"])
    }

    @Test("idle work runs after end-of-turn work; idle work it queues waits for a later iteration")
    func idleOrder() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let log = EventLog()
        let done = Latch()
        loop.execute {
            loop.runWhenIdle {
                log.append("idle 1")
                loop.runWhenIdle {
                    log.append("idle 3 (queued by idle 1)")
                    done.countDown()
                }
                loop.runAtEndOfTurn { log.append("end of turn (queued by idle 1)") }
            }
            loop.runWhenIdle { log.append("idle 2") }
            loop.runAtEndOfTurn { log.append("end of turn") }
        }
        try #require(done.wait(timeout: .seconds(5)))
        #expect(
            log.entries == [
                "end of turn", "idle 1", "idle 2", "end of turn (queued by idle 1)", "idle 3 (queued by idle 1)",
            ])
    }

    @Test("idle work queued by end-of-turn work runs once that drain is over")
    func idleFromEndOfTurn() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let log = EventLog()
        let done = Latch()
        loop.execute {
            loop.runAtEndOfTurn {
                loop.runWhenIdle {
                    log.append("idle")
                    done.countDown()
                }
                loop.runAtEndOfTurn { log.append("end of turn 2") }
                log.append("end of turn 1")
            }
        }
        try #require(done.wait(timeout: .seconds(5)))
        #expect(log.entries == ["end of turn 1", "end of turn 2", "idle"])
    }
}
