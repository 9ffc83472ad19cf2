import CLibUV

/// The memory of one libuv handle, or of the libuv loop itself: a C struct at a fixed address,
/// which libuv is given and keeps.
///
/// Invariants (ResponderBusUV's audited layer, with ``UVCallbacks`` and ``UVLoopThread``):
/// - Allocated, and set to a blank value, by ``init(_:)``; it never moves. A copy of the value is
///   the same memory, not new memory (it is an address, as the pointer it holds is).
/// - Owned by the object that made it: the loop core (the loop, its async, check and idle
///   handles), a ``UVTimer``, a ``UVWakeUp``, a ``UVWatcher`` (each of its handles).
/// - Freed once, with ``free()``, and only when libuv is done with it: in the handle's close
///   callback (``UVCallbacks/timerClosed``, ``UVCallbacks/wakeUpClosed``,
///   ``UVCallbacks/watchHandleClosed``), by the loop thread after `uv_loop_close` succeeded (the
///   loop and its own handles), or at once when its initialisation failed (libuv never saw it).
///   libuv's structs are trivial: there is nothing to deinitialise.
/// - Used on the loop thread (the core's own handles are set up by `init` before that thread
///   starts), except `uv_async_send` on an async handle, which libuv allows from any thread (the
///   inbox lock, or a wake-up's target, keeps it from racing the close).
/// - ``pointer`` is passed to libuv calls only (the C boundary), never kept elsewhere and never
///   read or written through outside this layer: a handle's `data` is set here alone
///   (``attach(unretained:)``, ``attach(retained:)``) and read by ``UVCallbacks`` alone.
struct UVMemory<Value> {
    /// The address libuv is given.
    let pointer: UnsafeMutablePointer<Value>

    /// Allocates the memory and sets it to `blank`.
    init(_ blank: Value) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: blank)
    }

    private init(pointer: UnsafeMutablePointer<Value>) {
        self.pointer = pointer
    }

    /// Frees the memory (see the invariants: only once libuv is done with it).
    func free() {
        UnsafeMutableRawPointer(pointer).deallocate()
    }
}

/// A libuv handle type: its struct begins with `uv_handle_t`'s fields (libuv's own
/// "inheritance"), so its memory may be used as a `uv_handle_t`.
protocol UVHandleStruct {}

extension uv_handle_t: UVHandleStruct {}
extension uv_async_t: UVHandleStruct {}
extension uv_check_t: UVHandleStruct {}
extension uv_idle_t: UVHandleStruct {}
extension uv_timer_t: UVHandleStruct {}
extension uv_fs_event_t: UVHandleStruct {}
extension uv_fs_poll_t: UVHandleStruct {}
extension uv_signal_t: UVHandleStruct {}

extension UVMemory where Value: UVHandleStruct {
    /// The same handle as a `uv_handle_t`, for a list of handles of several types.
    var base: UVMemory<uv_handle_t> {
        UVMemory<uv_handle_t>(pointer: UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: uv_handle_t.self))
    }

    /// The handle a close callback was given (`handle`, which libuv made from this memory).
    init(closing handle: UnsafeMutablePointer<uv_handle_t>) {
        self.init(pointer: UnsafeMutableRawPointer(handle).assumingMemoryBound(to: Value.self))
    }

    /// `uv_close`: libuv calls `callback` once the handle is closed (on the loop, later); the
    /// memory is freed there, or once the loop is closed when `callback` is `nil`.
    func close(_ callback: uv_close_cb?) {
        uv_close(base.pointer, callback)
    }

    /// Points the handle's `data` at `object`, unretained: the owner keeps `object` alive while a
    /// callback of the handle can run (the loop core, for its own handles and its wake-ups').
    func attach<Object: AnyObject>(unretained object: Object) {
        base.pointer.pointee.data = Unmanaged.passUnretained(object).toOpaque()
    }

    /// Points the handle's `data` at `object`, retained: the handle's close callback takes the
    /// reference back (a timer, a watcher).
    func attach<Object: AnyObject>(retained object: Object) {
        base.pointer.pointee.data = Unmanaged.passRetained(object).toOpaque()
    }
}
