import DequeModule
import ResponderBus

/// Compares the derived events a replay produces with those recorded in the log, in order, as they
/// come: memory stays bounded by how far one side runs ahead of the other.
///
/// Two derived events are the same when their event, payload and deriving plugin are equal and their
/// times differ by less than a microsecond. Diagnostics are left out by default: they are advice for
/// people, not decisions, and their wording may improve; with `includingDiagnostics`, they are
/// compared too (level, message and the views they name), for a plugin whose diagnostics are its
/// output.
public final class DerivedVerifier {
    /// Whether diagnostics are compared too.
    public let includesDiagnostics: Bool
    private var recorded = Deque<(LogRecord, RecordLocation)>()
    private var produced = Deque<LogRecord>()
    /// How many derived events matched so far.
    public private(set) var matched = 0
    /// The first difference, described for a person; `nil` while everything matches.
    public private(set) var firstDifference: String?

    /// Creates a verifier; with `includingDiagnostics`, diagnostics are compared too.
    public init(includingDiagnostics: Bool = false) {
        includesDiagnostics = includingDiagnostics
    }

    /// Whether a record takes part in the comparison by default (a derived record, not a diagnostic).
    public static func isCompared(_ record: LogRecord) -> Bool {
        if case .diagnostic = record.event { return false }
        return record.origin != .external
    }

    private func isCompared(_ record: LogRecord) -> Bool {
        if includesDiagnostics, case .diagnostic = record.event { return record.origin != .external }
        return Self.isCompared(record)
    }

    /// Adds a derived record read from the log.
    public func addRecorded(_ record: LogRecord, at location: RecordLocation) {
        guard firstDifference == nil, isCompared(record) else { return }
        recorded.append((record, location))
        compare()
    }

    /// Adds a derived record the replay produced.
    public func addProduced(_ record: LogRecord) {
        guard firstDifference == nil, isCompared(record) else { return }
        produced.append(record)
        compare()
    }

    /// Ends the comparison: what is left on either side is a difference.
    ///
    /// - Returns: the first difference, or `nil` when the replay derived exactly what was recorded.
    public func finish() -> String? {
        compare()
        if firstDifference == nil, let (extra, location) = recorded.first {
            firstDifference =
                "derived event #\(matched + 1): the log has \(LogWriter.line(for: extra)) (line \(location.line)), but the replay derived nothing more"
        } else if firstDifference == nil, let extra = produced.first {
            firstDifference = "derived event #\(matched + 1): the replay derived \(LogWriter.line(for: extra)), which the log does not have"
        }
        return firstDifference
    }

    /// Events are the same when equal; diagnostics, when their level, message, views and metadata
    /// are (a log does not keep a diagnostic's typed `failure`).
    private static func same(_ a: LogEvent, _ b: LogEvent) -> Bool {
        if case .diagnostic(let x) = a, case .diagnostic(let y) = b {
            return x.level == y.level && x.message == y.message && x.views == y.views && x.metadata == y.metadata
        }
        return a == b
    }

    private func compare() {
        while firstDifference == nil, let (expected, location) = recorded.first, let actual = produced.first {
            recorded.removeFirst()
            produced.removeFirst()
            if Self.same(expected.event, actual.event), expected.origin == actual.origin, abs(expected.t - actual.t) < 1e-6 {
                matched += 1
            } else {
                firstDifference =
                    "derived event #\(matched + 1) differs: the log has \(LogWriter.line(for: expected)) (line \(location.line)); the replay derived \(LogWriter.line(for: actual))"
            }
        }
    }
}
