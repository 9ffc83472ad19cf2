import CLibUV
import ResponderBus

/// The C callbacks of a plugin's handles: closures that capture nothing, reaching their state
/// through the handle's `data` (a ``PipeInbox``, ``ChildExit``, ``PendingWrite`` or the signal
/// flag).
///
/// Invariants (the audited layer): each callback is given only to the handles
/// ``PluginProcessHandles`` made, whose `data` it set to the type the callback reads it as (a pipe
/// read: its ``PipeInbox``; the process: the ``ChildExit``; the write request: the
/// ``PendingWrite``; a signal handle: the `Bool` flag), allocated by the handles and alive until
/// their `deinit`, after the loop was closed. They run inside `uv_run`, on the thread of the plugin
/// that owns the handles, when no caller holds the state.
enum PluginProcessCallbacks {
    /// Lends the rest of the inbox's buffer to a read (none when it is full: libuv then reports
    /// `UV_ENOBUFS`).
    static let allocate: uv_alloc_cb = { handle, _, buffer in
        guard let handle, let buffer, let data = handle.pointee.data else { return }
        let inbox = data.assumingMemoryBound(to: PipeInbox.self)
        let free = inbox.pointee.capacity - inbox.pointee.count
        let base = UnsafeMutableRawPointer(inbox.pointee.bytes + inbox.pointee.count).assumingMemoryBound(to: CChar.self)
        buffer.pointee = uv_buf_init(base, UInt32(free))
    }

    /// Keeps what was read; stops reading at the end of the stream or when the buffer is full.
    static let received: uv_read_cb = { stream, count, _ in
        guard let stream, let data = stream.pointee.data else { return }
        let inbox = data.assumingMemoryBound(to: PipeInbox.self)
        if count > 0 {
            inbox.pointee.count += count
        } else if count == Int(UV_ENOBUFS.rawValue) {
            uv_read_stop(stream)
            inbox.pointee.stopped = true
        } else if count < 0 {
            uv_read_stop(stream)
            inbox.pointee.ended = true
        }
    }

    /// The process ended; libuv has just reaped it. What is left of its process group is killed
    /// at once (``PluginProcessHandles/endGroup(of:)`` says why now and not later).
    static let exited: uv_exit_cb = { process, status, signal in
        guard let process, let data = process.pointee.data else { return }
        PluginProcessHandles.endGroup(of: process.pointee.pid)
        data.assumingMemoryBound(to: ChildExit.self).pointee = ChildExit(exited: true, status: status, signal: signal)
    }

    /// A started write ended (written, failed, or cancelled by closing the input).
    static let written: uv_write_cb = { request, status in
        guard let data = request?.pointee.data else { return }
        let write = data.assumingMemoryBound(to: PendingWrite.self)
        write.pointee.buffer?.deallocate()
        write.pointee = PendingWrite(pending: false, status: status, buffer: nil)
    }

    /// A deadline passed: nothing to do but return from `uv_run`.
    static let deadline: uv_timer_cb = { _ in }

    /// A watched signal arrived: the wait ends, and so do the next ones until the host handles it.
    static let signalled: uv_signal_cb = { handle, _ in
        guard let data = handle?.pointee.data else { return }
        data.assumingMemoryBound(to: Bool.self).pointee = true
        WatchedSignals.arrived()
    }
}
