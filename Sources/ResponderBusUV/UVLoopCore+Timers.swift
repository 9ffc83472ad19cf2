import CLibUV
import DequeModule
import ResponderBus
import ResponderBusPlatform
import Synchronization

extension UVLoopCore {
    // MARK: Timers

    func schedule(after delay: Duration, _ work: @escaping () -> Void) -> ScheduledWork {
        requireInLoop("schedule(after:_:)")
        guard onLoop.lifecycle.acceptsTimersAndWatchers else {
            let refused = ScheduledWork()
            refused.cancel()
            return refused
        }
        let delay = max(delay, .zero)
        let timer = UVTimer(core: self, deadline: now + delay, work: work)
        let scheduled = ScheduledWork(onCancel: { [weak timer] in
            if let timer { timer.core.cancel(timer) }
        })
        timer.scheduled = scheduled
        Self.check(uv_timer_init(loop.pointer, timer.handle.pointer), "uv_timer_init")
        timer.handle.attach(retained: timer)
        timers[ObjectIdentifier(timer)] = timer
        uv_timer_start(timer.handle.pointer, UVCallbacks.timerFired, timeout(until: timer.deadline), 0)
        return scheduled
    }

    /// Stops and closes `timer` unless it already fired or was cancelled.
    func cancel(_ timer: UVTimer) {
        requireInLoop("ScheduledWork.cancel()")
        guard timers.removeValue(forKey: ObjectIdentifier(timer)) != nil else { return }
        timer.work = nil
        uv_timer_stop(timer.handle.pointer)
        close(timer)
    }

    func close(_ timer: UVTimer) {
        timer.handle.close(UVCallbacks.timerClosed)
    }

    /// Timer callback.
    func timerFired(_ timer: UVTimer) {
        onLoop.phase = .beforePoll
        defer { onLoop.phase = .pollOrLater }
        if onLoop.lifecycle.acceptsTimersAndWatchers, inbox.withLock({ $0.stopRequested }) {
            beginStop()  // no timer fires once shutdown was asked for; this cancels `timer` too
        }
        guard timers[ObjectIdentifier(timer)] != nil else { return }
        let remaining = timer.deadline - now
        if remaining > .zero {
            // Not expected (see `timeout(until:)`); never run work early all the same.
            uv_timer_start(timer.handle.pointer, UVCallbacks.timerFired, timeout(until: timer.deadline), 0)
            return
        }
        timers.removeValue(forKey: ObjectIdentifier(timer))
        close(timer)
        let work = timer.work
        timer.work = nil
        timer.scheduled?.fire { work?() }
    }

    /// The libuv timeout, in milliseconds from the loop's current time, for a timer due at
    /// `deadline` on ``now``'s clock.
    ///
    /// libuv's clock (`uv_now`) counts whole milliseconds of the same monotonic clock as
    /// `uv_hrtime`, truncated, and may lag it. The timer is due at the first whole millisecond at or
    /// after the deadline, so it never fires before ``now`` reaches the deadline; the loop's clock
    /// is refreshed first so that the timeout counts from the present, not from the start of the
    /// iteration. Deadlines within the same millisecond fire in the order they were scheduled.
    func timeout(until deadline: Duration) -> UInt64 {
        uv_update_time(loop.pointer)
        let (due, overflow) = startTime.addingReportingOverflow(Self.nanoseconds(deadline))
        guard !overflow else { return .max }
        let dueMilliseconds = due / 1_000_000 + (due % 1_000_000 == 0 ? 0 : 1)
        let loopMilliseconds = uv_now(loop.pointer)
        return dueMilliseconds > loopMilliseconds ? dueMilliseconds - loopMilliseconds : 0
    }

    /// `duration` in nanoseconds, rounded up; zero for negative durations, saturating.
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let attosecondsPerNanosecond: Int64 = 1_000_000_000
        var fraction = attoseconds / attosecondsPerNanosecond
        if attoseconds % attosecondsPerNanosecond != 0 { fraction += 1 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflow2) = whole.addingReportingOverflow(UInt64(fraction))
        return overflow || overflow2 ? .max : total
    }

    // MARK: Watchers

    /// How many watchers are running. Loop-confined.
    var watcherCount: Int {
        requireInLoop("watcherCount")
        return watchers.count
    }

    /// Starts watching `path` with inotify (`uv_fs_event_t`, unless `usingInotify` is `false`) and
    /// with `stat` every `pollInterval` (`uv_fs_poll_t`). Loop-confined.
    ///
    /// While the loop is stopping, returns a watcher that is already stopped.
    func watchFile(
        atPath path: String,
        pollInterval: Duration,
        usingInotify: Bool,
        _ onChange: @escaping () -> Void
    ) throws(UVWatchError) -> UVWatcher {
        requireInLoop("watchFile(atPath:pollInterval:_:)")
        let watcher = UVWatcher(core: self, action: .fileChanged(onChange))
        guard onLoop.lifecycle.acceptsTimersAndWatchers else {
            watcher.stop()
            return watcher
        }
        watchers[ObjectIdentifier(watcher)] = watcher
        let nanoseconds = Self.nanoseconds(pollInterval)
        let milliseconds = nanoseconds / 1_000_000 + (nanoseconds % 1_000_000 == 0 ? 0 : 1)
        let interval = UInt32(clamping: max(1, milliseconds))  // libuv's unit; at least 1 ms
        do throws(UVLibError) {
            if usingInotify {
                let event = try watcher.addHandle(uv_fs_event_t(), operation: "uv_fs_event_init") { uv_fs_event_init(loop.pointer, $0.pointer) }
                try UVLibError.check(uv_fs_event_start(event.pointer, UVCallbacks.fileEvent, path, 0), "uv_fs_event_start")
            }
            let poll = try watcher.addHandle(uv_fs_poll_t(), operation: "uv_fs_poll_init") { uv_fs_poll_init(loop.pointer, $0.pointer) }
            try UVLibError.check(uv_fs_poll_start(poll.pointer, UVCallbacks.filePolled, path, interval), "uv_fs_poll_start")
        } catch {
            watcher.stop()  // closes the handles initialised so far
            throw UVWatchError(path: path, operation: "\(error.operation)", code: error.code)
        }
        return watcher
    }

    /// Starts one `uv_signal_t` per distinct signal in `signals`. Loop-confined.
    ///
    /// While the loop is stopping, returns a watcher that is already stopped. Stops the process with
    /// a message if libuv refuses a signal.
    func watchSignals(_ signals: [Int32], _ handler: @escaping (Int32) -> Void) -> UVWatcher {
        requireInLoop("watchSignals(_:_:)")
        let watcher = UVWatcher(core: self, action: .signal(handler))
        guard onLoop.lifecycle.acceptsTimersAndWatchers else {
            watcher.stop()
            return watcher
        }
        watchers[ObjectIdentifier(watcher)] = watcher
        var seen = Set<Int32>()
        var watched = sigset_t()
        sigemptyset(&watched)
        for signal in signals where seen.insert(signal).inserted {
            do throws(UVLibError) {
                let handle = try watcher.addHandle(uv_signal_t(), operation: "uv_signal_init") { uv_signal_init(loop.pointer, $0.pointer) }
                try UVLibError.check(uv_signal_start(handle.pointer, UVCallbacks.signalReceived, signal), "uv_signal_start")
            } catch {
                watcher.stop()
                preconditionFailure(
                    "UVEventLoop.watchSignals: cannot watch signal \(signal): \(error.operation) failed: \(UVWatchError.message(for: error.code))")
            }
            sigaddset(&watched, signal)
        }
        // The loop thread inherited the signal mask of the thread that created it, and threads of
        // Dispatch and of the Swift concurrency pool block nearly every signal. Accepting the
        // watched signals here guarantees that one thread of the process does: the kernel delivers
        // a signal sent to the process only to a thread that does not block it.
        pthread_sigmask(SIG_UNBLOCK, &watched, nil)
        watcher.watching(seen.sorted())
        return watcher
    }

    /// Called by a watcher when it stops.
    func watcherStopped(_ watcher: UVWatcher) {
        watchers.removeValue(forKey: ObjectIdentifier(watcher))
    }

    /// Called first by every watcher callback (they run in the poll phase, or in the check phase
    /// for coalesced file changes); `false` once shutdown was requested, in which case every
    /// watcher has been stopped and the callback must not run.
    func watcherCallbackMayRun() -> Bool {
        onLoop.phase = .pollOrLater
        if onLoop.lifecycle.acceptsTimersAndWatchers, inbox.withLock({ $0.stopRequested }) {
            beginStop()  // no watcher callback runs once shutdown was asked for, as for timers
        }
        return onLoop.lifecycle.acceptsTimersAndWatchers
    }

}
