import EventLog
import ResponderBusExternal
import ResponderBusReplay

/// A sink that keeps everything a session gives it, for the tests to look at.
final class Collector: ReplaySink {
    var records: [LogRecord] = []
    var derived: [LogRecord] = []
    var timeline: [String] = []
    var recordedDecisions: [LogRecord] = []
    var problems: [LogReadError] = []
    var violations: [CoverageViolation] = []
    var faults: [ExternalPlugin.Fault] = []
    var stops: [String] = []

    /// The decisions as log lines.
    var lines: [String] { derived.map { LogWriter.line(for: $0) } }

    func record(_ record: LogRecord) { records.append(record) }
    func decided(_ record: consuming LogRecord) { derived.append(record) }
    func timeline(_ line: String) { timeline.append(line) }
    func recordedDecision(_ record: LogRecord, at location: RecordLocation) { recordedDecisions.append(record) }
    func problem(_ error: LogReadError) { problems.append(error) }
    func covered(_ violation: CoverageViolation) { violations.append(violation) }
    func pluginFailed(_ fault: ExternalPlugin.Fault) { faults.append(fault) }
    func pluginStopped(_ message: String) { stops.append(message) }
}
