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

    private var tokens: [ObservationToken] = []
    private var unknownToken: ObservationToken?
    private let bus: Bus
    private let clock: () -> Double

    /// Called with each event the format does not know, with its time in seconds.
    ///
    /// Setting it observes every name (which boxes each payload into an `AnyEvent`); leave it `nil`
    /// when unknown events do not matter.
    public var onUnknown: ((AnyEvent, Double) -> Void)? {
        didSet {
            guard (onUnknown == nil) != (unknownToken == nil), !stopped else { return }
            if onUnknown == nil {
                unknownToken = nil
                return
            }
            let clock = clock
            unknownToken = bus.observeAll { [weak self] event in
                guard !LogEvent.knows(event.name.id), let onUnknown = self?.onUnknown else { return }
                onUnknown(event, clock())
            }
        }
    }
    private var stopped = false

    /// Starts recording `bus`, calling `sink` with each record. Loop-confined.
    ///
    /// - Parameters:
    ///   - bus: the bus to record.
    ///   - selection: what to record.
    ///   - clock: the time of a record in seconds; the loop's clock by default. A replay passes
    ///     the log's own time (`Replayer.logClock`: a turn's `t` exactly as read).
    ///   - sink: receives each record, on the loop.
    public convenience init(
        bus: Bus, selection: Selection = .all, clock: (() -> Double)? = nil, sink: @escaping (consuming LogRecord) -> Void
    ) {
        self.init(bus: bus, selection: selection, clock: clock ?? { [unowned bus] in bus.loop.now.seconds }, sink: sink)
    }

    /// Starts recording `bus` with the times `clock` gives, calling `sink` with each record.
    /// Loop-confined.
    ///
    /// The same as the initializer whose clock is optional, given a clock, which is called as it is
    /// for every record (a replay times every derived record).
    ///
    /// - Parameters:
    ///   - bus: the bus to record.
    ///   - selection: what to record.
    ///   - clock: the time of a record in seconds.
    ///   - sink: receives each record, on the loop.
    public init(
        bus: Bus, selection: Selection = .all, clock: @escaping () -> Double, sink: @escaping (consuming LogRecord) -> Void
    ) {
        self.bus = bus
        self.clock = clock
        // One typed observer per name the format knows: no boxing of payloads, no casts. The bus
        // leaves out the origins not selected, so a replay's recorder of derived events is not
        // called for each external one.
        let origins: OriginFilter? =
            switch (selection.contains(.external), selection.contains(.derived)) {
            case (true, true): .any
            case (true, false): .external
            case (false, true): .derived
            case (false, false): nil
            }
        guard let origins else { return }
        func record<Payload>(_ name: EventName<Payload>, _ make: @escaping (Payload) -> LogEvent) -> ObservationToken {
            bus.observe(name, origins: origins) { event in
                sink(LogRecord(t: clock(), event: make(event.payload), origin: event.origin))
            }
        }
        for name in EventName<KeyboardInfo>.allKeyboardEvents {
            tokens.append(record(name) { .keyboard(name, $0) })
        }
        tokens += [
            record(.didBeginEditing) { .didBeginEditing($0) },
            record(.didEndEditing) { .didEndEditing($0) },
            record(.returnKey) { .returnKey($0) },
            record(.scene) { .scene($0) },
            record(.setFrame) { .setFrame($0) },
            record(.screen) { .screen($0) },
            record(.viewShift) { .viewShift($0) },
            record(.scroll) { .scroll($0) },
            record(.focusChange) { .focusChange($0) },
            record(.action) { .action($0) },
            record(.resign) { .resign($0) },
            record(.viewSettings) { .viewSettings($0) },
            record(.viewMove) { .viewMove($0) },
            record(.diagnostic) { .diagnostic($0) },
        ]
    }

    /// Stops recording.
    public func stop() {
        stopped = true
        for token in tokens { token.cancel() }
        tokens = []
        unknownToken?.cancel()
        unknownToken = nil
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`: the nearest to its exact value when it is a whole
    /// number of nanoseconds under about 104 days (one correctly rounded division), so that a time
    /// read from a log (at most nine decimals) and turned into a duration comes back as it was read.
    public var seconds: Double {
        let (whole, fraction) = components
        if fraction % 1_000_000_000 == 0, whole.magnitude < 9_007_199 {
            // Below 2⁵³ nanoseconds: the count is exact as a Double, and so is 10⁹.
            return Double(whole * 1_000_000_000 + fraction / 1_000_000_000) / 1e9
        }
        return Double(whole) + Double(fraction) / 1e18
    }

    /// A duration from seconds, rounded to the nanosecond; never traps: a value beyond what a
    /// `Duration` holds (about ±292 years) gives the nearest one it does, and NaN gives zero. Logs
    /// never hold such values (``LogLimits/maximumSeconds``); this guards what is computed from them.
    /// (Named apart from the standard library's `Duration.seconds(_:)`, which traps, so that importing
    /// this module changes no call of it.)
    public static func saturating(seconds value: Double) -> Duration {
        .nanoseconds(saturatingNanoseconds(value))
    }

    /// The whole nanoseconds ``saturating(seconds:)`` makes of `value`.
    static func saturatingNanoseconds(_ value: Double) -> Int64 {
        let nanoseconds = (value * 1e9).rounded()
        if nanoseconds.isNaN { return 0 }
        // Double(Int64.max) rounds up past Int64.max: compare with a bound just below it.
        if nanoseconds >= 9.2e18 { return Int64.max }
        if nanoseconds <= -9.2e18 { return Int64.min }
        return Int64(nanoseconds)
    }

}

/// The bounds a log's values must keep so that a replay can pace them.
public enum LogLimits {
    /// The largest `t` and keyboard or shift `duration`, in seconds, a log may hold: 4·10⁹ s
    /// (about 127 years), so that a time plus a duration still fits the loop's clock, a `Duration`
    /// of at most about 9.2·10⁹ s. Larger values are rejected where they are read, with a hint:
    /// they are usually times written in milliseconds (`1700000000000`).
    public static let maximumSeconds: Double = 4e9

    /// The longest keyboard animation a log is expected to hold, in seconds: 2. iOS animates the
    /// keyboard in 0.25 s; a keyboard event's `duration` above this is read as written, with a
    /// warning (``LogReadError/Code/implausibleValue``) that asks whether it was meant in
    /// milliseconds (`250` for 0.25 s). ``SessionSketch`` writes no longer one.
    public static let longestKeyboardAnimation: Double = 2

    /// What the reader says of a keyboard event whose `duration` is longer than
    /// ``longestKeyboardAnimation``: `duration 250 s is not a keyboard animation; did you mean 0.25
    /// (seconds)?`, the suggestion given when the value in milliseconds would be one.
    static func implausibleDurationMessage(_ duration: Double) -> String {
        let text = "duration \(JSONText.number(duration)) s is not a keyboard animation"
        let seconds = duration / 1000
        guard seconds <= longestKeyboardAnimation else {
            return text + " (iOS animates the keyboard in 0.25 s); durations are seconds. Read as written"
        }
        return text + "; did you mean \(JSONText.number(seconds)) (seconds)? Read as written"
    }

    /// The longest line a log may have, in bytes: 64 MiB. A scene is one line, about 150 bytes a
    /// view, so a scene of some 400,000 views fits. ``LogReader`` reads lines up to this length by
    /// default; a longer one is a ``LogReadError/Code/lineTooLong`` problem, skipped without being
    /// held (it is not a record of any log), and the console importer refuses to write one.
    public static let maximumLineLength = 64 << 20
}
