import ResponderBus

/// Records what a running bus carries as log records: external events as they came, derived events
/// with their plugin. Works on any loop, the libuv one included; times are the loop's clock.
///
/// Events the format does not know (such as `turnSettled` or a plugin's own events) are passed to
/// ``onUnknown`` instead, if set.
public final class LogRecorder {
    /// Whether to record external events, derived events, or both.
    public struct Selection: OptionSet, Sendable {
        /// The raw bits.
        public let rawValue: Int
        /// Creates a selection from its bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// What the world did.
        public static let external = Selection(rawValue: 1)
        /// What plugins decided.
        public static let derived = Selection(rawValue: 2)
        /// Everything.
        public static let all: Selection = [.external, .derived]
    }

    private var token: ObservationToken?
    /// Called with each event the format does not know, with its time in seconds.
    public var onUnknown: ((AnyEvent, Double) -> Void)?

    /// Starts recording `bus`, calling `sink` with each record. Loop-confined.
    ///
    /// - Parameters:
    ///   - bus: the bus to record.
    ///   - selection: what to record.
    ///   - clock: the time of a record in seconds; the loop's clock by default. A real-time replay
    ///     passes the log's own time (the loop's time since the replay began, times the speed).
    ///   - sink: receives each record, on the loop.
    public init(
        bus: Bus, selection: Selection = .all, clock: (() -> Double)? = nil, sink: @escaping (LogRecord) -> Void
    ) {
        let clock = clock ?? { [unowned bus] in bus.loop.now.seconds }
        token = bus.observeAll { [weak self] event in
            let isDerived = event.origin != .external
            guard isDerived ? selection.contains(.derived) : selection.contains(.external) else { return }
            let t = clock()
            if let logEvent = LogEvent(event) {
                sink(LogRecord(t: t, event: logEvent, origin: event.origin))
            } else {
                self?.onUnknown?(event, t)
            }
        }
    }

    /// Stops recording.
    public func stop() {
        token?.cancel()
        token = nil
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    public var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }

    /// A duration from seconds, rounded to the nanosecond.
    public static func seconds(_ value: Double) -> Duration {
        .nanoseconds(Int64((value * 1e9).rounded()))
    }
}
