import CLibUV
import DequeModule
import ResponderBus
import ResponderBusPlatform
import Synchronization

extension UVLoopCore {
    // MARK: Wake-ups

    /// Registers `target`: a `uv_async_t` of its own, whose callback drains like the loop's.
    /// Loop-confined. `nil` once the stop request was seen.
    func makeWakeUp(for target: any BusLoopWakeUpTarget) -> (any BusLoopWakeUp)? {
        requireInLoop("makeWakeUp(for:)")
        guard onLoop.lifecycle.acceptsWakeUps else { return nil }
        let handle = UVMemory(uv_async_t())
        Self.check(uv_async_init(loop.pointer, handle.pointer, UVCallbacks.wakeUpSignalled), "uv_async_init")
        handle.attach(unretained: self)
        let wakeUp = UVWakeUp(core: self, handle: handle, target: target)
        onLoop.wakeUps.append(wakeUp)
        return wakeUp
    }

    /// The stop request was seen: handles a signal that arrived since the drain looked, then tells
    /// every target that no signal is taken any more.
    func endWakeUps() {
        for wakeUp in onLoop.wakeUps {
            guard let target = wakeUp.target else { continue }
            if target.pendingWakeUpTicket != 0 { target.loopDidWake() }
            target.loopEndedWakeUps()
        }
    }

    /// Unregisters a cancelled wake-up and closes its handle. Loop-confined.
    func remove(_ wakeUp: UVWakeUp) {
        guard let index = onLoop.wakeUps.firstIndex(where: { $0 === wakeUp }) else { return }
        onLoop.wakeUps.remove(at: index)
        wakeUp.close()
    }

    /// Cancels every pending timer, stops every watcher, and refuses new ones.
    func beginStop() {
        guard onLoop.lifecycle.beginStop() else { return }
        for timer in Array(timers.values) {
            timer.scheduled?.cancel()
            cancel(timer)  // already done through the handle's onCancel; a no-op then
        }
        // Closes their handles; `uv_run` does not return before the close callbacks have run.
        for watcher in Array(watchers.values) {
            watcher.stop()
        }
    }

    /// Registers `target` to be told when the loop ends (``finishIfDrained()``). Loop-confined.
    /// `false` once the loop's handles are closed.
    func notifyWhenEnded(_ target: any BusLoopEndTarget) -> Bool {
        requireInLoop("notifyWhenEnded(_:)")
        guard onLoop.lifecycle.stage < .handlesClosed else { return false }
        onLoop.endTargets.removeAll { $0.target == nil }
        onLoop.endTargets.append(UVEndTarget(target: target))
        return true
    }

    /// Closes the loop's handles once the stop request was drained and no hook work is left;
    /// `uv_run` then returns as soon as the close callbacks have run.
    ///
    /// Just before, the end targets are told (a bus finishes its event streams then, after every
    /// event posted before the stop was delivered). What they queue runs first, and brings the
    /// loop back here.
    func finishIfDrained() {
        guard onLoop.lifecycle.stage == .inboxClosed, onLoop.endOfTurnWork.isEmpty, onLoop.idleWork.isEmpty else { return }
        if !onLoop.endTargets.isEmpty {
            // Taken out first: no access to `onLoop` spans the calls, which may register more.
            let targets = onLoop.endTargets
            onLoop.endTargets.removeAll()
            for entry in targets { entry.target?.loopEnded() }
            guard onLoop.endOfTurnWork.isEmpty, onLoop.idleWork.isEmpty, onLoop.endTargets.isEmpty else {
                // The idle handle keeps the poll from blocking until that is done.
                startIdle()
                return
            }
        }
        guard onLoop.lifecycle.closeHandles() else { return }
        checkActive = false
        idleActive = false
        wakeupHandle.close(nil)
        checkHandle.close(nil)
        idleHandle.close(nil)
        // Their targets were told at the stop request (or are gone): nothing signals them now.
        for wakeUp in onLoop.wakeUps { wakeUp.close() }
        onLoop.wakeUps.removeAll()
    }

}

/// A target to tell when the loop ends (``UVLoopCore/notifyWhenEnded(_:)``), held weakly: a bus
/// that goes away first is not kept for it.
struct UVEndTarget {
    weak var target: (any BusLoopEndTarget)?
}

/// A wake-up of ``UVLoopCore``: a `uv_async_t` of its own, whose callback drains the loop's inbox
/// and the signalled targets in ticket order (``UVLoopCore/drainInbox()``).
///
/// The handle is closed on the loop, when the loop shuts down or after ``cancel()``; its target
/// guarantees that ``signal()`` is never called after either (see ``BusLoopWakeUp``).
final class UVWakeUp: BusLoopWakeUp, @unchecked Sendable {
    /// Strong: the core keeps its libuv loop until every wake-up is closed; the core drops its
    /// reference to the wake-up then, which ends the cycle.
    let core: UVLoopCore
    /// The core's ticket counter, kept here so that signalling touches nothing of the core.
    private let tickets: UVPaddedAtomic<UInt64>
    private let handle: UVMemory<uv_async_t>
    /// Weak: a target going away cancels its wake-up, but the loop may look first.
    weak var target: (any BusLoopWakeUpTarget)?
    /// Loop-confined.
    private var closed = false

    init(core: UVLoopCore, handle: UVMemory<uv_async_t>, target: any BusLoopWakeUpTarget) {
        self.core = core
        self.tickets = core.lastTicket
        self.handle = handle
        self.target = target
    }

    func takeTicket() -> UInt64 {
        UVLoopCore.takeTicket(from: tickets)
    }

    func signal() {
        uv_async_send(handle.pointer)
    }

    func cancel() {
        if core.inLoop {
            core.remove(self)
        } else {
            // If refused, the loop is stopping and closes every registered handle itself.
            _ = core.submit(countingRefusal: false) { [core, self] in core.remove(self) }
        }
    }

    /// Closes the handle; its memory is freed by the close callback. Loop-confined; idempotent.
    func close() {
        guard !closed else { return }
        closed = true
        handle.close(UVCallbacks.wakeUpClosed)
    }
}

/// An atomic value alone on its cache line: one that producers write and the loop reads (or the
/// reverse) must not share a line with state the other side keeps writing.
final class UVPaddedAtomic<Value: AtomicRepresentable & Sendable>: Sendable {
    // 56 bytes on each side: whatever 64-byte line holds `value`, nothing else lives on it.
    private let before: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
    let value: Atomic<Value>
    private let after: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)

    init(_ value: Value) {
        self.value = Atomic(value)
    }
}
