import CLibUV

/// A file or signal watch started with ``UVEventLoop/watchFile(atPath:pollInterval:_:)`` or
/// ``UVEventLoop/watchSignals(_:_:)``.
///
/// The watch runs until the first of:
/// - ``stop()``;
/// - the release of the last reference to this object, which stops the watch (on the loop: at
///   once; on another thread: through ``UVEventLoop/execute(_:)``, so soon rather than at once).
///   Keep the object for as long as the watch should run;
/// - the loop's shutdown, which closes every watch that is still running.
///
/// A callback that captures its own watch keeps it from being released, so that watch runs until
/// ``stop()`` or the shutdown (which drop the callback, and with it the reference).
///
/// Stopping closes the watch's libuv handles; their memory is freed by libuv's close callbacks on
/// the loop, before the loop is closed.
///
/// ## Threading
///
/// ``stop()`` is loop-confined while the watch runs: call it on the loop thread (from a callback, or
/// from work passed to ``UVEventLoop/execute(_:)``). Once the watch has stopped — in particular
/// after the loop has shut down — ``stop()`` does nothing, on any thread. ``isStopped`` and
/// releasing the object are thread-safe, so the object may be handed to other threads (it is
/// `Sendable`).
public final class UVWatch: Sendable {
    private let core: UVLoopCore
    let watcher: UVWatcher

    init(core: UVLoopCore, watcher: UVWatcher) {
        self.core = core
        self.watcher = watcher
    }

    deinit {
        guard !watcher.isStopped else { return }
        if core.inLoop {
            watcher.stop()
        } else {
            // Refused only once shutdown was requested, and shutdown stops every watch itself.
            let watcher = watcher
            _ = core.submit(countingRefusal: false) { watcher.stop() }
        }
    }

    /// Whether the watch has stopped: by ``stop()``, by the loop's shutdown, or because it was
    /// refused (started while the loop was shutting down). Thread-safe.
    ///
    /// Once `true`, the callback given when the watch started is never called again and has been
    /// released.
    public var isStopped: Bool { watcher.isStopped }

    /// Stops the watch: its callback is never called again (not even for a change or a signal that
    /// is already queued), it is released, and the libuv handles are closed. Idempotent.
    ///
    /// Loop-confined while the watch runs; calling it from another thread then stops the process
    /// with a message. Once the watch has stopped (see ``isStopped``), it does nothing on any
    /// thread.
    public func stop() {
        guard !watcher.isStopped else { return }
        precondition(core.inLoop, "UVWatch.stop() called off its loop thread; it is loop-confined (use UVEventLoop.execute(_:) from other threads)")
        watcher.stop()
    }
}

/// Why ``UVEventLoop/watchFile(atPath:pollInterval:_:)`` could not watch a file: a libuv call
/// failed.
///
/// Its ``description`` reads like
/// `cannot watch /var/log/x.jsonl: uv_fs_event_start failed: no such file or directory (ENOENT)`.
public struct UVWatchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path that was to be watched.
    public let path: String
    /// The libuv function that failed, such as `uv_fs_event_start`.
    public let operation: String
    /// The libuv error code: a negative value, `-errno` on Linux (`UV_ENOENT` is `-ENOENT`).
    public let code: Int32

    /// Creates an error for `code`, returned by `operation` when watching `path`.
    public init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    /// libuv's name for ``code`` (`uv_err_name`), such as `ENOENT`.
    public var name: String { UVErrorText.name(code) }

    /// libuv's message for ``code`` (`uv_strerror`), such as `no such file or directory`.
    public var message: String { UVErrorText.message(code) }

    /// libuv's message for the libuv error code `code`.
    static func message(for code: Int32) -> String {
        UVErrorText.message(code)
    }

    /// `cannot watch PATH: OPERATION failed: MESSAGE (NAME)`.
    public var description: String {
        "cannot watch \(path): \(operation) failed: \(message) (\(name))"
    }
}
