/// The signals this process watches through libuv (`UVEventLoop.watchSignals`), for code that
/// blocks a loop's thread in a wait of its own: an out-of-process plugin's host waiting for an
/// answer runs the plugin's own libuv loop, so the bus loop's signal callback cannot run until the
/// wait ends. Such a wait watches these signals on its own loop too and ends when one arrives.
///
/// Watching a signal that libuv already watches changes nothing for the rest of the process:
/// libuv keeps one handler per signal for all its loops and tells each loop that watches it. A
/// signal this registry does not list keeps whatever effect it has (ending the process, by
/// default), since watching it would take that effect away.
///
/// Thread-safe: loops on several threads may watch signals and wait at once.
package enum WatchedSignals {
    private struct State {
        /// How many running watches there are of each signal.
        var counts: [Int32: Int] = [:]
        /// Changes whenever the set of watched signals changes.
        var generation = 0
        /// A wait saw a signal that no loop's own watch has handled yet.
        var pending = false
    }

    private static let state = Locked(State())

    /// A watch of `signals` started.
    package static func began(_ signals: [Int32]) {
        state.withLock { state in
            for signal in signals { state.counts[signal, default: 0] += 1 }
            state.generation += 1
        }
    }

    /// A watch of `signals` stopped.
    package static func ended(_ signals: [Int32]) {
        state.withLock { state in
            for signal in signals {
                let left = (state.counts[signal] ?? 1) - 1
                state.counts[signal] = left > 0 ? left : nil
            }
            state.generation += 1
            if state.counts.isEmpty { state.pending = false }
        }
    }

    /// A number that changes whenever the set of ``signals`` does: a waiter compares it with the
    /// one it last saw rather than reading the set each time.
    package static var generation: Int { state.withLock { $0.generation } }

    /// The signals watched now, in ascending order.
    package static var signals: [Int32] { state.withLock { $0.counts.keys.sorted() } }

    /// A wait saw one of the signals arrive: every other wait ends at once too, until a loop's own
    /// watch has handled it (``handled()``).
    package static func arrived() {
        state.withLock { $0.pending = true }
    }

    /// A loop's own watch handled a signal: waits no longer end on the one a wait saw.
    package static func handled() {
        state.withLock { $0.pending = false }
    }

    /// Whether a wait saw a signal that no loop's own watch has handled yet.
    package static var isPending: Bool { state.withLock { $0.pending } }
}
