import EventLog
import ResponderBus

/// Records what a bus carries, for assertions: every event, with its time, name and origin.
///
/// ```swift
/// let recorder = RecordingObserver(bus: bus)
/// bus.post(.keyboardWillShow, info)
/// #expect(recorder.names == ["keyboardWillShow", "viewShift"])
/// ```
public final class RecordingObserver {
    /// One recorded event.
    public struct Entry {
        /// The loop's time, in seconds.
        public let t: Double
        /// The event.
        public let event: AnyEvent
        /// The event as a log record, when the format knows it.
        public var record: LogRecord? { LogEvent(event).map { LogRecord(t: t, event: $0, origin: event.origin) } }
    }

    /// Everything recorded so far, in delivery order.
    public private(set) var entries: [Entry] = []
    private var token: ObservationToken?

    /// Starts recording every event on `bus` (or only those named in `names`). Loop-confined.
    public init(bus: Bus, names: Set<AnyEventName>? = nil) {
        token = bus.observeAll { [weak self, unowned bus] event in
            if let names, !names.contains(event.name) { return }
            self?.entries.append(Entry(t: bus.loop.now.seconds, event: event))
        }
    }

    /// The raw names of everything recorded, in order.
    public var names: [String] { entries.map(\.event.name.rawValue) }
    /// The derived events, in order.
    public var derived: [Entry] { entries.filter { $0.event.origin != .external } }
    /// The derived events the log format knows, as records.
    public var derivedRecords: [LogRecord] { derived.compactMap(\.record) }

    /// Forgets what was recorded.
    public func clear() { entries.removeAll() }

    /// Stops recording.
    public func stop() {
        token?.cancel()
        token = nil
    }
}
