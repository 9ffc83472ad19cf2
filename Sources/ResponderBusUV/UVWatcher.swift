import CLibUV
import ResponderBus

/// The libuv handles behind one ``UVWatch``, and the callback they feed.
///
/// Loop-confined, except ``isStopped``, which is guarded by a lock (`@unchecked Sendable` so that a
/// ``UVWatch`` released on another thread can post ``stop()`` to the loop). Each handle's `data`
/// holds a retained reference to this object from just after the handle is initialised until its
/// close callback, which drops the reference and frees the handle (``UVCallbacks/watchHandleClosed``).
/// The loop core tracks every running watcher, and shutdown stops them all.
final class UVWatcher: @unchecked Sendable {
    /// What the handles report to.
    enum Action {
        /// A file watch: coalesced to one call per loop iteration, at the end of the iteration.
        case fileChanged(() -> Void)
        /// A signal watch: one call per signal that libuv reports.
        case signal((Int32) -> Void)
    }

    /// The loop the handles belong to. The loop thread keeps the core alive while any callback of
    /// this watcher can run.
    unowned let core: UVLoopCore
    /// Set once, on the loop, when the watcher stops; read from any thread.
    private let stopped = Locked(false)
    /// The handles started so far and not yet closed, as `uv_handle_t` pointers.
    private var handles: [UVMemory<uv_handle_t>] = []
    /// The user's callback; dropped when the watcher stops.
    private var action: Action?
    /// Whether a coalesced file-change call is queued for the end of this loop iteration.
    private var changeQueued = false
    /// The signals a signal watch watches, listed in ``WatchedSignals`` until it stops.
    private var signals: [Int32] = []

    init(core: UVLoopCore, action: Action) {
        self.core = core
        self.action = action
    }

    /// Whether ``stop()`` ran (or the watcher was refused). Thread-safe.
    var isStopped: Bool { stopped.withLock { $0 } }

    /// Allocates a handle holding `blank`, initialises it with `initialise` (the libuv function
    /// named `operation`), and gives it a retained reference to this watcher. Loop-confined.
    ///
    /// - Throws: the libuv error from `initialise`; the memory is then freed, since the handle was
    ///   never registered with the loop.
    func addHandle<Handle: UVHandleStruct>(
        _ blank: Handle,
        operation: StaticString,
        initialise: (UVMemory<Handle>) -> Int32
    ) throws(UVLibError) -> UVMemory<Handle> {
        let handle = UVMemory(blank)
        let rc = initialise(handle)
        guard rc == 0 else {
            handle.free()
            throw UVLibError(operation: operation, code: rc)
        }
        handle.attach(retained: self)
        handles.append(handle.base)
        return handle
    }

    /// Stops the watcher: drops the callback and closes every handle. Loop-confined; idempotent.
    func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        core.watcherStopped(self)
        if !signals.isEmpty { WatchedSignals.ended(signals) }
        signals = []
        for handle in handles {
            // Closing stops the handle first; the close callback frees it.
            handle.close(UVCallbacks.watchHandleClosed)
        }
        handles.removeAll()
        // Last, as releasing the user's closure may run arbitrary deinitialisers (a `UVWatch` it
        // captured, for one, whose `deinit` then finds this watcher stopped).
        action = nil
    }

    // MARK: Callbacks (on the loop)

    /// `uv_fs_event_t` or `uv_fs_poll_t` callback: queues one call to the file callback for the end
    /// of this loop iteration, unless one is already queued.
    func fileMayHaveChanged() {
        guard core.watcherCallbackMayRun(), action != nil, !changeQueued else { return }
        changeQueued = true
        core.runAtEndOfTurn { [self] in
            changeQueued = false
            // Checked again: stop() or a shutdown request may have come since the change.
            guard core.watcherCallbackMayRun(), case .fileChanged(let onChange)? = action else { return }
            onChange()
        }
    }

    /// Lists the signals this watch watches in ``WatchedSignals`` (so that a wait that blocks the
    /// loop's thread, for an out-of-process plugin, ends when one arrives), until it stops.
    /// Loop-confined; once, after every handle has started.
    func watching(_ signals: [Int32]) {
        guard !isStopped, self.signals.isEmpty else { return }
        self.signals = signals
        WatchedSignals.began(signals)
    }

    /// `uv_signal_t` callback.
    func signalReceived(_ signal: Int32) {
        // This loop has the signal now: waits need not end on it any more.
        WatchedSignals.handled()
        guard core.watcherCallbackMayRun(), case .signal(let handler)? = action else { return }
        handler(signal)
    }
}

/// A failed libuv call, before it is given the context of a public error.
struct UVLibError: Error {
    /// The libuv function that failed.
    let operation: StaticString
    /// What it returned: a negative libuv error code.
    let code: Int32

    /// Throws unless `code` (returned by `operation`) is `0`.
    static func check(_ code: Int32, _ operation: StaticString) throws(UVLibError) {
        guard code == 0 else { throw UVLibError(operation: operation, code: code) }
    }
}
