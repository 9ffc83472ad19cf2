import ResponderBus

/// One line of a log after the header: an event at a time, external or derived.
public struct LogRecord: Hashable, Sendable {
    /// Seconds from the start of the log.
    public var t: Double
    /// The event and its payload.
    public var event: LogEvent
    /// `external`, or derived by a named plugin.
    public var origin: EventOrigin

    /// Creates a record.
    public init(t: Double, event: LogEvent, origin: EventOrigin = .external) {
        self.t = t
        self.event = event
        self.origin = origin
    }
}
