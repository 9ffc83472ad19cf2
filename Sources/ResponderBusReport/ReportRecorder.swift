import EventLog
import ResponderBus

/// Takes snapshots of the screen model during a replay, for the report and for a frame at a time:
/// at each external event and each decision, the record and the state of the screen after it.
///
/// It listens to every event on the bus (through a `LogRecorder`, so records are exactly those
/// `--record` writes), after the screen model and the plugins have handled it. Identical states are
/// stored once: records refer to them by index, so a long session that goes through the same few
/// states stays small.
///
/// Start it on the bus before the replay, ``stop()`` it when the replay ends, then hand it to
/// ``ReportDocument`` for the page or ask it for ``frame(at:)``. It is confined to the bus's loop,
/// like the bus.
public final class ReportRecorder {
    /// One record of the replay and the state of the screen before and after it.
    package struct Item {
        package var record: LogRecord
        /// Indexes into ``ReportRecorder/states``.
        package var before: Int
        package var after: Int
    }

    /// A violation `CoverageCheck` found, as ``note(_:)`` was told it.
    public struct Violation: Sendable {
        /// What the check found.
        public let violation: CoverageViolation
        /// When, in seconds of the log's clock.
        public let t: Double
        /// The index of the state when it was found.
        package let state: Int
    }

    /// The distinct states, in the order they first appeared; the first is the state before any
    /// record.
    package private(set) var states: [ScreenState] = []
    /// Every record, in the order the bus carried them.
    package private(set) var items: [Item] = []
    /// The violations ``note(_:)`` was told of, in order.
    public private(set) var violations: [Violation] = []
    /// The state now.
    package private(set) var current = 0

    private let bus: Bus
    private let clock: () -> Double
    private var indexes: [ScreenState: Int] = [:]
    private var recorder: LogRecorder?

    /// Starts taking snapshots of a bus. Loop-confined.
    ///
    /// - Parameters:
    ///   - bus: The bus the replay posts on, with its plugins registered.
    ///   - clock: The log's time now, in seconds: `Replayer/logClock` during a replay.
    public init(bus: Bus, clock: @escaping () -> Double) {
        self.bus = bus
        self.clock = clock
        current = intern(ScreenState(bus.screen))
        recorder = LogRecorder(bus: bus, selection: .all, clock: clock) { [unowned self] record in
            take(record)
        }
    }

    /// Notes a violation `CoverageCheck` found, with the state at that moment: the report shows the
    /// screen then. Loop-confined.
    ///
    /// - Parameter violation: What the check found (its `onViolation` handler's argument).
    public func note(_ violation: CoverageViolation) {
        current = intern(ScreenState(bus.screen))
        violations.append(Violation(violation: violation, t: clock(), state: current))
    }

    /// A copy of what was taken so far, which takes nothing more: the report of a session still
    /// running, which its later turns do not change. Loop-confined.
    public func snapshot() -> ReportRecorder {
        ReportRecorder(copying: self)
    }

    private init(copying other: ReportRecorder) {
        bus = other.bus
        clock = other.clock
        states = other.states
        items = other.items
        violations = other.violations
        current = other.current
        indexes = other.indexes
    }

    /// Stops taking snapshots: call it when the replay ends. Loop-confined.
    public func stop() {
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

    /// The time of the last record, or of the last violation when the check found one after it:
    /// the end of the session the report shows (0 with neither).
    package var sessionEnd: Double {
        max(items.last?.record.t ?? 0, violations.last?.t ?? 0)
    }

    /// Every record the bus carried, in order: the external events and the plugins' decisions.
    public var records: [LogRecord] { items.map(\.record) }

    /// The screen as it was at a moment of the log: after the last record at or before `t`, or
    /// before any record.
    ///
    /// - Parameter t: The moment, in seconds of the log's clock.
    public func frame(at t: Double) -> ReportFrame {
        let (state, item) = state(at: t)
        return ReportFrame(t: t, stateIndex: state, recordIndex: item, record: item.map { items[$0].record }, state: states[state])
    }

    private func take(_ record: LogRecord) {
        let before = current
        // The keyboard as the bus's model has it (noted before anyone saw the event).
        var state = ScreenState(bus.screen)
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
