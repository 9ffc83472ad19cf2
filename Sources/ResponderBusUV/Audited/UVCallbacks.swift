import CLibUV
import ResponderBusPlatform

/// The C callbacks libuv calls into.
///
/// Each one is a closure that captures nothing, so it converts to a C function pointer, and each is
/// a static member of a type rather than top-level code (a callback written at the top level of
/// `main.swift` would be inferred `@MainActor` and trap when called on the loop thread). State is
/// reached through the handle's `data` pointer: an unretained ``UVLoopCore`` for the loop's own
/// handles, a retained ``UVTimer`` for each timer, a retained ``UVWatcher`` for each handle of a
/// file or signal watch.
///
/// Invariants (ResponderBusUV's audited layer, with ``UVMemory`` and ``UVLoopThread``): each
/// callback is given only to handles whose `data` was set, through ``UVMemory``, to the object it
/// reads it as (``wakeup``, ``wakeUpSignalled``, ``check``, ``idle``: the core, unretained, which
/// its loop thread keeps alive; ``timerFired``: the timer, retained; the watch callbacks: the
/// watcher, retained). A retained reference is taken back once, by the handle's close callback,
/// which then frees the handle's memory: libuv calls it last, after every other callback of the
/// handle. All run on the loop thread.
enum UVCallbacks {
    /// `uv_async_t`: another thread posted work or asked the loop to stop.
    static let wakeup: uv_async_cb = { handle in
        guard let data = handle?.pointee.data else { return }
        Unmanaged<UVLoopCore>.fromOpaque(data).takeUnretainedValue().drainInbox()
    }

    /// `uv_async_t` of a wake-up (``UVWakeUp``): its target was signalled. Drains like ``wakeup``,
    /// so that the signal keeps its place among the work posted with `execute`.
    static let wakeUpSignalled: uv_async_cb = { handle in
        guard let data = handle?.pointee.data else { return }
        Unmanaged<UVLoopCore>.fromOpaque(data).takeUnretainedValue().drainInbox()
    }

    /// Close callback of a wake-up's handle: frees it (nothing else refers to it any more).
    static let wakeUpClosed: uv_close_cb = { handle in
        guard let handle else { return }
        UVMemory<uv_async_t>(closing: handle).free()
    }

    /// `uv_check_t`: the end of a loop iteration's callbacks.
    static let check: uv_check_cb = { handle in
        guard let data = handle?.pointee.data else { return }
        Unmanaged<UVLoopCore>.fromOpaque(data).takeUnretainedValue().runEndOfTurnWork()
    }

    /// `uv_idle_t`: the idle phase of a loop iteration.
    static let idle: uv_idle_cb = { handle in
        guard let data = handle?.pointee.data else { return }
        Unmanaged<UVLoopCore>.fromOpaque(data).takeUnretainedValue().runIdleWork()
    }

    /// `uv_timer_t`: a scheduled timer is due.
    static let timerFired: uv_timer_cb = { handle in
        guard let data = handle?.pointee.data else { return }
        let timer = Unmanaged<UVTimer>.fromOpaque(data).takeUnretainedValue()
        timer.core.timerFired(timer)
    }

    /// Close callback of a timer: drops the reference `data` held, then frees the handle.
    static let timerClosed: uv_close_cb = { handle in
        guard let handle, let data = handle.pointee.data else { return }
        handle.pointee.data = nil
        let timer = Unmanaged<UVTimer>.fromOpaque(data).takeRetainedValue()
        timer.handle.free()
    }

    /// `uv_fs_event_t` (inotify): the watched file changed.
    static let fileEvent: uv_fs_event_cb = { handle, _, _, _ in
        guard let data = handle?.pointee.data else { return }
        Unmanaged<UVWatcher>.fromOpaque(data).takeUnretainedValue().fileMayHaveChanged()
    }

    /// `uv_fs_poll_t`: the watched file's `stat` differs from the previous poll, or `stat` started
    /// failing or failing differently (the file went away, say).
    static let filePolled: uv_fs_poll_cb = { handle, _, _, _ in
        guard let data = handle?.pointee.data else { return }
        Unmanaged<UVWatcher>.fromOpaque(data).takeUnretainedValue().fileMayHaveChanged()
    }

    /// `uv_signal_t`: a watched signal arrived.
    static let signalReceived: uv_signal_cb = { handle, signal in
        guard let data = handle?.pointee.data else { return }
        Unmanaged<UVWatcher>.fromOpaque(data).takeUnretainedValue().signalReceived(signal)
    }

    /// Close callback of every watch handle: drops the reference `data` held, then frees the
    /// handle (a C struct, trivially destroyed, whatever its type).
    static let watchHandleClosed: uv_close_cb = { handle in
        guard let handle else { return }
        if let data = handle.pointee.data {
            handle.pointee.data = nil
            Unmanaged<UVWatcher>.fromOpaque(data).release()
        }
        UVMemory<uv_handle_t>(closing: handle).free()
    }
}
