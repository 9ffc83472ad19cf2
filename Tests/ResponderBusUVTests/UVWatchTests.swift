import ResponderBus
import ResponderBusPlatform
import ResponderBusUV
import Testing

/// File and signal watches on ``UVEventLoop``.
///
/// Serialized: the signal tests send SIGUSR1 and SIGUSR2 to the whole process, and libuv routes a
/// signal to every watcher of it in the process.
@Suite(.serialized) struct UVWatchTests {
    /// What a watch callback saw; written on the loop, read on the loop or after a latch.
    final class Calls: @unchecked Sendable {
        var count = 0
        var offLoop = 0
        var signals: [Int32] = []
        /// Counted down by each call, replaced by the test (on the loop) between phases.
        var latch = Latch()
    }

    // MARK: - Files

    @Test("appending to a file calls onChange once, on the loop, well before the poll would")
    func appendCallsOnChange() throws {
        let file = try TemporaryFile()
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let calls = Calls()
        // A poll interval far beyond the test: only inotify can report this append in time.
        let watch = try loop.runAndWait {
            Result { () throws(UVWatchError) in
                try loop.watchFile(atPath: file.path, pollInterval: .seconds(60)) {
                    calls.count += 1
                    if !loop.inLoop { calls.offLoop += 1 }
                    calls.latch.countDown()
                }
            }
        }.get()
        #expect(!watch.isStopped)

        file.append("first line\n")
        #expect(calls.latch.wait(timeout: .seconds(3)), "onChange was not called within 3 s")
        let (count, offLoop) = try loop.runAndWait { (calls.count, calls.offLoop) }
        #expect(count == 1)
        #expect(offLoop == 0)
        try loop.runAndWait { watch.stop() }
        #expect(watch.isStopped)
    }

    @Test("the stat poll alone notices appends (the fallback for files inotify cannot watch)")
    func pollFallbackNoticesAppends() throws {
        let file = try TemporaryFile()
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let calls = Calls()
        let watch = try loop.runAndWait {
            Result { () throws(UVWatchError) in
                try loop.watchFile(atPath: file.path, pollInterval: .milliseconds(10), usingInotify: false) {
                    calls.count += 1
                    calls.latch.countDown()
                }
            }
        }.get()
        // The poll takes its reference `stat` asynchronously after starting; an append before it
        // completes is part of the reference. Keep appending until one is noticed.
        var noticed = false
        for _ in 0..<100 where !noticed {
            file.append("line\n")
            noticed = calls.latch.wait(timeout: .milliseconds(30))
        }
        #expect(noticed, "the poll did not notice appends within 3 s")
        try loop.runAndWait { watch.stop() }
    }

    @Test("changes reported together in one loop iteration lead to a single call")
    func changesInOneIterationCoalesce() throws {
        let file = try TemporaryFile()
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let calls = Calls()
        let watch = try loop.runAndWait {
            Result { () throws(UVWatchError) in
                let watch = try loop.watchFile(atPath: file.path, pollInterval: .seconds(60)) {
                    calls.count += 1
                    calls.latch.countDown()
                }
                // Distinct inotify events (IN_MODIFY, IN_ATTRIB, IN_MODIFY), all queued before the
                // loop reads any, so libuv reports them in one iteration.
                file.append("a\n")
                chmod(file.path, 0o640)
                file.append("b\n")
                return watch
            }
        }.get()
        #expect(calls.latch.wait(timeout: .seconds(3)), "onChange was not called within 3 s")
        // Let several more iterations go by before looking at the count.
        let later = Latch()
        try loop.runAndWait { _ = loop.schedule(after: .milliseconds(50)) { later.countDown() } }
        #expect(later.wait())
        #expect(try loop.runAndWait { calls.count } == 1)
        try loop.runAndWait { watch.stop() }
    }

    @Test("stop() ends the calls, even with a change already pending")
    func stopEndsCalls() throws {
        let file = try TemporaryFile()
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let stopped = Calls()
        let control = Calls()
        let watches = try loop.runAndWait {
            Result { () throws(UVWatchError) in
                let a = try loop.watchFile(atPath: file.path, pollInterval: .milliseconds(10)) {
                    stopped.count += 1
                    stopped.latch.countDown()
                }
                let b = try loop.watchFile(atPath: file.path, pollInterval: .milliseconds(10)) {
                    control.count += 1
                    control.latch.countDown()
                }
                return (a, b)
            }
        }.get()

        file.append("before stop\n")
        #expect(stopped.latch.wait(timeout: .seconds(3)))
        #expect(control.latch.wait(timeout: .seconds(3)))

        let countAtStop = try loop.runAndWait {
            // A change made on the loop right before stop() is already queued for libuv.
            file.append("queued\n")
            watches.0.stop()
            watches.0.stop()  // idempotent
            control.latch = Latch()
            return stopped.count
        }
        #expect(watches.0.isStopped)
        file.append("after stop\n")
        // The other watch of the same file sees the changes...
        #expect(control.latch.wait(timeout: .seconds(3)))
        // ...and several poll intervals later, the stopped one still has not been called.
        let later = Latch()
        try loop.runAndWait { _ = loop.schedule(after: .milliseconds(60)) { later.countDown() } }
        #expect(later.wait())
        #expect(try loop.runAndWait { stopped.count } == countAtStop)
        #expect(try loop.runAndWait { loop.runningWatchCount } == 1)
        watches.0.stop()  // stopped: allowed on any thread, does nothing
        try loop.runAndWait { watches.1.stop() }
        #expect(try loop.runAndWait { loop.runningWatchCount } == 0)
    }

    @Test("watching a missing file throws libuv's ENOENT with the path, and leaves nothing open")
    func missingFileThrows() throws {
        let file = try TemporaryFile()
        let missing = file.path + ".missing"
        let loop = UVEventLoop()
        let result = try loop.runAndWait {
            Result { () throws(UVWatchError) in try loop.watchFile(atPath: missing) {} }
        }
        #expect(throws: UVWatchError.self) { try result.get() }
        guard case .failure(let error) = result else { return }
        #expect(error.path == missing)
        #expect(error.name == "ENOENT")
        #expect(error.code == -ENOENT)
        #expect(error.message == "no such file or directory")
        #expect(error.operation == "uv_fs_event_start")
        #expect(error.description == "cannot watch \(missing): uv_fs_event_start failed: no such file or directory (ENOENT)")
        #expect(try loop.runAndWait { loop.runningWatchCount } == 0)
        loop.shutdown()
        #expect(loop.closeResult == 0)
    }

    // MARK: - Signals

    @Test("a signal sent to the process reaches the handler on the loop")
    func signalReachesHandler() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let calls = Calls()
        let watch = try loop.runAndWait {
            loop.watchSignals([SIGUSR1]) { signal in
                calls.signals.append(signal)
                if !loop.inLoop { calls.offLoop += 1 }
                calls.latch.countDown()
            }
        }
        // Sent to the process, not with `raise`: test code runs on threads of the Swift concurrency
        // pool, which block SIGUSR1, so a signal raised on such a thread stays pending there.
        kill(getpid(), SIGUSR1)
        #expect(calls.latch.wait(timeout: .seconds(3)), "the handler was not called within 3 s")
        let (signals, offLoop) = try loop.runAndWait { (calls.signals, calls.offLoop) }
        #expect(signals == [SIGUSR1])
        #expect(offLoop == 0)
        try loop.runAndWait { watch.stop() }
    }

    @Test("one watch serves several signals; a stopped watch no longer hears its signal")
    func severalSignalsAndStop() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let stopped = Calls()
        let both = Calls()
        let watches = try loop.runAndWait {
            let a = loop.watchSignals([SIGUSR2]) { stopped.signals.append($0) }
            let b = loop.watchSignals([SIGUSR1, SIGUSR2, SIGUSR1]) { signal in
                both.signals.append(signal)
                both.latch.countDown()
            }
            a.stop()
            return (a, b)
        }
        // Still watched by `b`, so neither signal has its default (fatal) effect.
        kill(getpid(), SIGUSR2)
        #expect(both.latch.wait(timeout: .seconds(3)))
        try loop.runAndWait { both.latch = Latch() }
        kill(getpid(), SIGUSR1)
        #expect(both.latch.wait(timeout: .seconds(3)))
        // libuv reports a signal to all of a loop's watchers of it in the same iteration.
        let (heard, heardByStopped) = try loop.runAndWait { (both.signals, stopped.signals) }
        #expect(heard == [SIGUSR2, SIGUSR1])
        #expect(heardByStopped.isEmpty)
        try loop.runAndWait { watches.1.stop() }
    }

    // MARK: - Lifetime and shutdown

    @Test("shutdown with running watches stops them and still closes the loop cleanly")
    func shutdownWithRunningWatches() throws {
        let file = try TemporaryFile()
        let loop = UVEventLoop()
        let calls = Calls()
        let watches = try loop.runAndWait {
            Result { () throws(UVWatchError) in
                let fileWatch = try loop.watchFile(atPath: file.path, pollInterval: .milliseconds(1)) {
                    calls.count += 1
                }
                let signalWatch = loop.watchSignals([SIGUSR1, SIGUSR2]) { calls.signals.append($0) }
                // Leave work in flight: inotify events, and poll `stat`s on libuv's thread pool.
                file.append("pending\n")
                return [fileWatch, signalWatch]
            }
        }.get()
        #expect(watches.allSatisfy { !$0.isStopped })
        loop.shutdown()
        #expect(loop.closeResult == 0)
        #expect(watches.allSatisfy { $0.isStopped })
        for watch in watches { watch.stop() }  // after shutdown: a no-op on any thread
    }

    @Test("watches started while the loop shuts down are refused: already stopped")
    func watchesDuringShutdownAreRefused() throws {
        let file = try TemporaryFile()
        let loop = UVEventLoop()
        let started = Latch()
        let gate = Latch()
        let refused = Box<[Bool]>([])
        let held = Box<UVWatch?>(nil)
        held.value = try loop.runAndWait { try? loop.watchFile(atPath: file.path) {} }
        loop.execute {
            started.countDown()
            _ = gate.wait()
        }
        try #require(started.wait())
        // Taken by the same drain as the stop request below: runs, then the drain starts the
        // shutdown, then the end-of-turn work runs.
        loop.execute {
            loop.runAtEndOfTurn {
                refused.value.append(loop.watchSignals([SIGUSR1]) { _ in }.isStopped)
                refused.value.append((try? loop.watchFile(atPath: file.path) {})?.isStopped ?? false)
                refused.value.append(loop.runningWatchCount == 0)
            }
        }
        let stopper = TestThread { loop.shutdown() }
        while loop.submit({}) {}  // until the stop request is in
        // Released off the loop now, the watch cannot post its stop; shutdown stops it instead,
        // and that refusal is not counted as refused work.
        held.value = nil
        gate.countDown()
        stopper.join()
        #expect(refused.value == [true, true, true])
        #expect(loop.rejectedWorkCount == 1)  // the `submit` that ended the loop above
        #expect(loop.closeResult == 0)
    }

    @Test("releasing the last reference to a watch stops it, on the loop or off it")
    func releasingAWatchStopsIt() throws {
        let file = try TemporaryFile()
        let loop = UVEventLoop()
        // Released on the loop: stopped at once.
        let countAfterDrop = try loop.runAndWait {
            _ = loop.watchSignals([SIGUSR1]) { _ in }
            _ = try? loop.watchFile(atPath: file.path) {}
            return loop.runningWatchCount
        }
        #expect(countAfterDrop == 0)

        // Released on another thread: stopped through the loop's queue, ahead of later work.
        let held = Box<UVWatch?>(nil)
        let running = try loop.runAndWait {
            held.value = try? loop.watchFile(atPath: file.path) {}
            return loop.runningWatchCount
        }
        #expect(running == 1)
        held.value = nil
        #expect(try loop.runAndWait { loop.runningWatchCount } == 0)

        // Released off the loop after shutdown: nothing left to do.
        let late = try loop.runAndWait { loop.watchSignals([SIGUSR2]) { _ in } }
        loop.shutdown()
        #expect(late.isStopped)
        #expect(loop.closeResult == 0)
    }
}

/// A file created empty in the temporary directory, removed when the value is released.
private final class TemporaryFile: Sendable {
    let path: String

    struct CreationFailed: Error {
        let errno: Int32
    }

    init() throws {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(directory)/uvwatch-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw CreationFailed(errno: errno) }
        close(fd)
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    deinit {
        unlink(path)
    }

    /// Appends `text` with one `write`.
    func append(_ text: String) {
        let fd = open(path, O_WRONLY | O_APPEND)
        precondition(fd >= 0, "cannot open \(path): errno \(errno)")
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        precondition(written == bytes.count, "cannot append to \(path): errno \(errno)")
    }
}
