import EventLog
import ResponderBus

/// Takes snapshots of the screen model during a replay, for the report and for `render`: at each
/// external event and each decision, the record and the state of the screen after it.
///
/// It listens to every event on the bus (through a `LogRecorder`, so records are exactly those
/// `--record` writes), after the screen model and the plugins have handled it. Identical states are
/// stored once: items refer to them by index, so a long session that goes through the same few
/// states stays small.
package final class ReportRecorder {
    /// One record of the replay and the state of the screen before and after it.
    package struct Item {
        package var record: LogRecord
        /// Indexes into ``ReportRecorder/states``.
        package var before: Int
        package var after: Int
    }

    /// A `--check` violation and the state when it was found.
    package struct Violation {
        var violation: CoverageViolation
        /// The time in the log's clock.
        var t: Double
        var state: Int
    }

    /// The distinct states, in the order they first appeared; the first is the state before any
    /// record.
    package private(set) var states: [ScreenState] = []
    /// Every record, in the order the bus carried them.
    package private(set) var items: [Item] = []
    package private(set) var violations: [Violation] = []
    /// The state now.
    package private(set) var current = 0

    private let bus: Bus
    private let clock: () -> Double
    private var indexes: [ScreenState: Int] = [:]
    private var recorder: LogRecorder?

    /// Starts taking snapshots of `bus`; `clock` gives the log's time. Loop-confined.
    package init(bus: Bus, clock: @escaping () -> Double) {
        self.bus = bus
        self.clock = clock
        current = intern(ScreenState(screen: bus.screen, keyboard: bus.screen.keyboard.ownApp))
        recorder = LogRecorder(bus: bus, selection: .all, clock: clock) { [unowned self] record in
            take(record)
        }
    }

    /// Notes a violation `CoverageCheck` found, with the state at that moment. Loop-confined.
    package func note(_ violation: CoverageViolation) {
        current = intern(ScreenState(screen: bus.screen, keyboard: bus.screen.keyboard.ownApp))
        violations.append(Violation(violation: violation, t: clock(), state: current))
    }

    /// Stops taking snapshots.
    package func stop() {
        recorder?.stop()
        recorder = nil
    }

    /// The index of the state after the last record at or before `t`, or of the state before any
    /// record.
    package func state(at t: Double) -> (state: Int, item: Int?) {
        // Items are in time order: the last one at or before t.
        var low = 0
        var high = items.count
        while low < high {
            let middle = (low + high) / 2
            if items[middle].record.t <= t { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return (0, nil) }
        return (items[low - 1].after, low - 1)
    }

    private func take(_ record: LogRecord) {
        let before = current
        // The keyboard as the bus's model has it (noted before anyone saw the event).
        var state = ScreenState(screen: bus.screen, keyboard: bus.screen.keyboard.ownApp)
        if case .diagnostic(let diagnostic) = record.event { state.named = diagnostic.views.map(\.rawValue) }
        current = intern(state)
        items.append(Item(record: record, before: before, after: current))
    }

    private func intern(_ state: ScreenState) -> Int {
        if let index = indexes[state] { return index }
        states.append(state)
        indexes[state] = states.count - 1
        return states.count - 1
    }
}
