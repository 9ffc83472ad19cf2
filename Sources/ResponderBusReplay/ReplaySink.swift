import EventLog
import ResponderBus
import ResponderBusExternal

/// Where what a ``ReplaySession`` produces goes: its decisions, its recording, its timeline, the
/// problems it met, the checks' findings and its plugins' faults. Each requirement has a default
/// that does nothing, so a sink implements only what it uses, as a SwiftNIO `ChannelHandler` does.
///
/// A session calls its sinks on its own thread (the loop's), in the order they were given, each
/// event before the next: the session's own sinks first (its verifier, its decision streams), then
/// the caller's. A session holds its sinks until ``ReplaySession/finish(_:)``; a sink that holds its
/// session makes a cycle that `finish` breaks.
///
/// ```swift
/// final class Printer: ReplaySink {
///     func decided(_ record: consuming LogRecord) { print(LogWriter.line(for: record)) }
///     func problem(_ error: LogReadError) { print("line \(error.line): \(error.message)") }
/// }
/// let session = try ReplaySession(pipeline: pipeline, header: header, sinks: [Printer()])
/// ```
///
/// The package's own sinks: the verifier (`DerivedVerifier` takes the decisions and the log's
/// recorded ones), ``ReplaySession/decisions(bufferingPolicy:)``'s streams and the command's printer.
public protocol ReplaySink: AnyObject {
    /// Each record the bus saw, external and derived, in its order, with
    /// ``ReplaySession/Options/recording`` (a recording of the whole session); before
    /// ``decided(_:)`` for a derived one.
    func record(_ record: LogRecord)

    /// Each decision: a derived event the log format knows, in order.
    func decided(_ record: consuming LogRecord)

    /// Each line of the readable timeline, with ``ReplaySession/Options/timeline``: each external
    /// event before it is posted, each decision, a plugin's own events, each coverage violation.
    func timeline(_ line: String)

    /// Each decision recorded in the log (which is never posted), where it was read.
    func recordedDecision(_ record: LogRecord, at location: RecordLocation)

    /// Each rejected line, and each line read with a warning (`error.isWarning`).
    func problem(_ error: LogReadError)

    /// Each moment the focused field was left covered after the keyboard settled, with
    /// ``ReplaySession/Options/coverage``.
    func covered(_ violation: CoverageViolation)

    /// Each fault of an out-of-process or WebAssembly plugin (a restart, its disabling, a stop), as
    /// it happens; ``ReplayResult/pluginFaults`` lists them all at the end.
    func pluginFailed(_ fault: ExternalPlugin.Fault)

    /// An out-of-process or WebAssembly plugin failed under the `stop` policy, with its message: the
    /// replay stops after the turn under way.
    func pluginStopped(_ message: String)

    /// Now and then: the bytes of the log read so far, and the total when known.
    func progress(read: Int, of total: Int?)

    /// A real-time replay is about to wait `Replayer.longWait` (10 s) or more for its next turn or
    /// timer: the log time it waits for, and how long.
    func waitsLong(until logTime: Double, for wait: Duration)
}

extension ReplaySink {
    /// Does nothing.
    public func record(_ record: LogRecord) {}
    /// Does nothing.
    public func decided(_ record: consuming LogRecord) {}
    /// Does nothing.
    public func timeline(_ line: String) {}
    /// Does nothing.
    public func recordedDecision(_ record: LogRecord, at location: RecordLocation) {}
    /// Does nothing.
    public func problem(_ error: LogReadError) {}
    /// Does nothing.
    public func covered(_ violation: CoverageViolation) {}
    /// Does nothing.
    public func pluginFailed(_ fault: ExternalPlugin.Fault) {}
    /// Does nothing.
    public func pluginStopped(_ message: String) {}
    /// Does nothing.
    public func progress(read: Int, of total: Int?) {}
    /// Does nothing.
    public func waitsLong(until logTime: Double, for wait: Duration) {}
}

/// The verifier is a sink: it compares the decisions with those the log recorded.
extension DerivedVerifier: ReplaySink {
    /// Adds a decision the replay made.
    public func decided(_ record: consuming LogRecord) {
        addProduced(record)
    }

    /// Adds a decision the log recorded.
    public func recordedDecision(_ record: LogRecord, at location: RecordLocation) {
        addRecorded(record, at: location)
    }
}

/// ``ReplaySession/decisions(bufferingPolicy:)``'s streams, as one sink.
final class DecisionStreams: ReplaySink {
    private var continuations: [AsyncStream<LogRecord>.Continuation] = []

    /// A new stream, fed from now on.
    func make(bufferingPolicy: AsyncStream<LogRecord>.Continuation.BufferingPolicy) -> AsyncStream<LogRecord> {
        let (stream, continuation) = AsyncStream.makeStream(of: LogRecord.self, bufferingPolicy: bufferingPolicy)
        continuations.append(continuation)
        return stream
    }

    var isEmpty: Bool { continuations.isEmpty }

    func decided(_ record: consuming LogRecord) {
        for continuation in continuations { continuation.yield(copy record) }
    }

    /// Ends every stream.
    func finish() {
        for continuation in continuations { continuation.finish() }
        continuations = []
    }
}
