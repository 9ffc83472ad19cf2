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
    public var firstDifference: String? { difference?.description }
    /// The first difference, field by field; `nil` while everything matches.
    public private(set) var difference: Difference?

    /// Where a replay first derived something other than the log recorded.
    public struct Difference: Hashable, Sendable, CustomStringConvertible {
        /// Which derived event, counting from 1 (the ones before it matched).
        public var number: Int
        /// The line of the recorded event in the log, when the log has one there.
        public var line: Int?
        /// The time of the first event that differs (the recorded one's, else the derived one's).
        public var t: Double
        /// The recorded event as a log line, or `nil` when the log has nothing more.
        public var expected: String?
        /// The derived event as a log line, or `nil` when the replay derived nothing more.
        public var got: String?
        /// The file that holds ``line`` when it is not the replayed log itself (a snapshot of the
        /// session's recorded decisions): the description then names it, so that the line it
        /// cites is looked for in the right file.
        public var file: String?

        /// Creates a difference.
        public init(number: Int, line: Int?, t: Double, expected: String?, got: String?, file: String? = nil) {
            self.number = number
            self.line = line
            self.t = t
            self.expected = expected
            self.got = got
            self.file = file
        }

        /// One sentence naming the event, the line (and its file, when it is not the log), and
        /// both sides.
        public var description: String {
            let holder = file ?? "the log"
            let place = file.map { "\($0):\(line ?? 0)" } ?? "line \(line ?? 0)"
            return switch (expected, got) {
            case (let expected?, let got?):
                "derived event #\(number) differs: \(holder) has \(expected) (\(place)); the replay derived \(got)"
            case (let expected?, nil):
                "derived event #\(number): \(holder) has \(expected) (\(place)), but the replay derived nothing more"
            case (nil, let got?):
                "derived event #\(number): the replay derived \(got), which \(holder) does not have"
            case (nil, nil):
                "derived event #\(number) differs"
            }
        }
    }

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
        guard difference == nil, isCompared(record) else { return }
        recorded.append((record, location))
        compare()
    }

    /// Adds a derived record the replay produced.
    public func addProduced(_ record: LogRecord) {
        guard difference == nil, isCompared(record) else { return }
        produced.append(record)
        compare()
    }

    /// Ends the comparison: what is left on either side is a difference.
    ///
    /// - Returns: the first difference, or `nil` when the replay derived exactly what was recorded.
    public func finish() -> String? {
        compare()
        if difference == nil, let (extra, location) = recorded.first {
            difference = Difference(number: matched + 1, line: location.line, t: extra.t, expected: LogWriter.line(for: extra), got: nil)
        } else if difference == nil, let extra = produced.first {
            difference = Difference(number: matched + 1, line: nil, t: extra.t, expected: nil, got: LogWriter.line(for: extra))
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
        while difference == nil, let (expected, location) = recorded.first, let actual = produced.first {
            recorded.removeFirst()
            produced.removeFirst()
            if Self.same(expected.event, actual.event), expected.origin == actual.origin, abs(expected.t - actual.t) < 1e-6 {
                matched += 1
            } else {
                difference = Difference(
                    number: matched + 1, line: location.line, t: expected.t, expected: LogWriter.line(for: expected),
                    got: LogWriter.line(for: actual))
            }
        }
    }
}
