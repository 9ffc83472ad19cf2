import CLibUV
import DequeModule
import ResponderBus
import ResponderBusPlatform
import Synchronization

extension UVLoopCore {
    // MARK: End of turn and idle

    func runAtEndOfTurn(_ work: @escaping () -> Void) {
        requireInLoop("runAtEndOfTurn(_:)")
        onLoop.endOfTurnWork.append(QueuedWork(work))
        if !checkActive {
            checkActive = true
            uv_check_start(checkHandle.pointer, UVCallbacks.check)
        }
        if onLoop.phase == .beforePoll {
            // The check phase follows this iteration's poll, which would block until some other
            // event arrives; an active idle handle makes it return at once. (A timer that fired is
            // being closed, which already keeps the poll from blocking, and the idle callback keeps
            // its handle active while end-of-turn work is pending; this does not rely on either.)
            startIdle()
        }
    }

    func runWhenIdle(_ work: @escaping () -> Void) {
        requireInLoop("runWhenIdle(_:)")
        onLoop.idleWork.append(QueuedWork(work))
        startIdle()
    }

    func startIdle() {
        guard !idleActive else { return }
        idleActive = true
        uv_idle_start(idleHandle.pointer, UVCallbacks.idle)
    }

    /// Check callback: drains the end-of-turn queue, including work added while draining.
    func runEndOfTurnWork() {
        onLoop.phase = .pollOrLater
        while let work = onLoop.endOfTurnWork.popFirst() { work.run() }
        onLoop.turnsEnded &+= 1
        checkActive = false
        uv_check_stop(checkHandle.pointer)
        finishIfDrained()
    }

    /// Idle callback: runs the idle work queued so far, unless end-of-turn work is still pending
    /// (it runs first, in this iteration's check phase; the idle work waits for the next one).
    func runIdleWork() {
        onLoop.phase = .beforePoll
        if onLoop.endOfTurnWork.isEmpty {
            var batch = Deque<QueuedWork>()
            swap(&batch, &onLoop.idleWork)
            while let work = batch.popFirst() { work.run() }
        }
        // Stay active while anything is pending, so that the poll does not block before the
        // check phase or the next idle phase.
        if onLoop.idleWork.isEmpty, onLoop.endOfTurnWork.isEmpty {
            idleActive = false
            uv_idle_stop(idleHandle.pointer)
        }
        onLoop.phase = .pollOrLater
        finishIfDrained()
    }
}
