import CLibUV
import ResponderBus

/// One piece of work scheduled with ``UVEventLoop/schedule(after:_:)``, and the `uv_timer_t` that
/// runs it.
///
/// Loop-confined. The handle's `data` holds a retained reference to this object from the moment the
/// timer is initialised until its close callback, which also frees the handle; the timer is closed
/// when it fires or is cancelled.
final class UVTimer {
    /// The libuv handle; freed in ``UVCallbacks/timerClosed``.
    let handle: UVMemory<uv_timer_t>
    /// The loop the timer belongs to.
    unowned let core: UVLoopCore
    /// When the work is due, on the loop's clock (``UVLoopCore/now``).
    let deadline: Duration
    /// The work; dropped as soon as it has run or been cancelled.
    var work: (() -> Void)?
    /// The caller's handle: `fire` runs the work through it, its `cancel()` cancels this timer.
    var scheduled: ScheduledWork?

    init(core: UVLoopCore, deadline: Duration, work: @escaping () -> Void) {
        self.core = core
        self.deadline = deadline
        self.work = work
        handle = UVMemory(uv_timer_t())
    }
}
