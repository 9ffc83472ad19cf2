import EventLog
import ResponderBus
import ResponderBusPlatform
import ResponderBusReplay
import ResponderBusReport

extension SessionSuite {
    /// `judged` as its project file's `"expectedFailures"` (`PipelineDescription/expectedFailures`)
    /// has it: a failing session it names passes as an expected failure; a passing one fails as an
    /// unexpected pass, until its entry is removed.
    func expecting(_ judged: SessionResult, in description: PipelineDescription) -> SessionResult {
        guard !description.expectedFailures.isEmpty, let reason = Self.reason(for: judged.input, in: description.expectedFailures) else {
            return judged
        }
        var result = judged
        result.expectedFailure = reason
        switch result.status {
        case .failed:
            result.status = .expectedFailure
        case .passed:
            result.status = .unexpectedPass
            result.failures = [
                .init(
                    kind: .unexpectedPass,
                    message:
                        "it passed, but its project file expects it to fail (\(reason)): if the bug is fixed, remove its entry from \"expectedFailures\""
                )
            ]
        default:
            break
        }
        return result
    }

    /// The reason `expected` gives for `input`: the entry whose path is the same file (compared
    /// by device and inode, so that `a/../b.jsonl`, a symbolic link and a relative path all match).
    private static func reason(for input: SessionInput, in expected: [String: String]) -> String? {
        if let reason = expected[input.path] { return reason }
        var session = stat()
        guard stat(input.path, &session) == 0 else { return nil }
        for (path, reason) in expected {
            var entry = stat()
            if stat(path, &entry) == 0, entry.st_dev == session.st_dev, entry.st_ino == session.st_ino { return reason }
        }
        return nil
    }

    /// What the report of a session opens with: each verdict it earned, a difference in the
    /// decisions with the screen as the recorded decisions left it (the log, or the snapshot at
    /// `recordedIn`, replayed as recorded) beside the replay's.
    func reportFailures(of result: SessionResult, recordedIn: SystemPath?, compares: (LogRecord) -> Bool) -> [ReportFailure] {
        guard !result.status.passes || result.status == .expectedFailure else { return [] }
        return result.failures.map { failure in
            var place: String?
            if let line = failure.line { place = "\(failure.file ?? result.input.path):\(line)" }
            var shown = ReportFailure(kind: failure.kind.rawValue, message: failure.message, place: place, t: failure.t)
            if result.status == .expectedFailure, let reason = result.expectedFailure {
                shown.message += " (an expected failure: \(reason))"
            }
            if let difference = failure.difference {
                shown.expected = difference.expected
                shown.got = difference.got
                if let recordedIn {
                    shown.recorded = Self.recordedState(in: recordedIn, through: difference.number, compares: compares)
                }
            }
            return shown
        }
    }

    /// The screen as the decisions recorded in the log at `path` left it just after the
    /// `number`th compared one (or at the end, when there are fewer): every record posted as it
    /// was recorded, on a bus with no plugins.
    static func recordedState(in path: SystemPath, through number: Int, compares: (LogRecord) -> Bool) -> ScreenState? {
        do throws(LogReadError) {
            let reader = try LogReader(path: path)
            let header = try reader.readHeader()
            let bus = Bus(loop: VirtualTimeLoop(), screen: Screen(size: header.screen, safeArea: header.safeArea ?? .zero))
            var seen = 0
            while let item = reader.next() {
                guard case .record(let record, _) = item else { continue }
                record.event.post(on: bus, origin: record.origin)
                if compares(record) {
                    seen += 1
                    if seen == number { break }
                }
            }
            return ScreenState(bus.screen)
        } catch {
            return nil
        }
    }
}
