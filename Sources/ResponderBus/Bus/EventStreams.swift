/// The streams a bus handed out with ``Bus/events(_:sender:buffering:)`` that have not ended, so
/// that they can be finished when the bus goes away or its loop ends.
///
/// Thread-safe, through its lock: a stream is added on the loop, removed wherever its consumer
/// stopped (the stream's `onTermination`), and finished from the bus's `deinit` (on any thread) or
/// on the loop when it ends. A stream's `finish` is called outside the lock, as it calls the
/// stream's `onTermination`, which removes the stream.
final class EventStreams: BusLoopEndTarget {
    private struct State {
        /// Each open stream's `finish`, by the number it was added with.
        var finishers: [Int: @Sendable () -> Void] = [:]
        var lastID = 0
        /// Set by ``finishAll()``: streams added later are refused.
        var isFinished = false
    }

    private let state = Locked(State())

    /// Adds a stream's `finish`; returns its number for ``remove(_:)``, or `nil` when the streams
    /// were finished already (the caller then finishes its stream itself).
    func add(_ finish: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state in
            guard !state.isFinished else { return nil }
            state.lastID += 1
            state.finishers[state.lastID] = finish
            return state.lastID
        }
    }

    /// Forgets a stream that ended. Idempotent.
    func remove(_ id: Int) {
        let finish = state.withLock { $0.finishers.removeValue(forKey: id) }
        _ = finish  // released here, outside the lock
    }

    /// Finishes every open stream, in the order they were made, and every stream added later.
    /// Each `for await` over them ends once it has taken what was buffered.
    func finishAll() {
        let finishers = state.withLock { state in
            state.isFinished = true
            defer { state.finishers = [:] }
            return state.finishers
        }
        for id in finishers.keys.sorted() { finishers[id]?() }
    }

    /// The loop is ending: everything posted before its shutdown has been delivered.
    func loopEnded() {
        finishAll()
    }
}
