import EventLog
import ResponderBus

#if canImport(Glibc)
import Glibc
#endif

/// `replay --report FILE.html`: takes the snapshots during the replay and writes the report when it
/// ends.
///
/// The file is opened (and emptied) before the replay starts, so that a path that cannot be written
/// fails at once, with exit 66, as `--record` does.
final class ReplayReport {
    let path: String
    let recorder: ReportRecorder
    private let descriptor: Int32

    /// Opens `path` and starts taking snapshots of `bus`. Loop-confined.
    init(path: String, bus: Bus, clock: @escaping () -> Double) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            complain("cannot write the report '\(path)': \(String(cString: strerror(errno)))")
            throw Exit.noInput
        }
        self.path = path
        self.descriptor = descriptor
        recorder = ReportRecorder(bus: bus, clock: clock)
    }

    /// Notes a `--check` violation.
    func note(_ violation: CoverageViolation) {
        recorder.note(violation)
    }

    /// Stops the snapshots and writes the report; says on standard error what it wrote.
    ///
    /// - Returns: whether the file was written.
    func finish(log: String, header: LogHeader, summary: Replayer.Summary, plugins: [String], disabled: [String]) -> Bool {
        recorder.stop()
        let name = log == "-" ? "standard input" : String(log.split(separator: "/").last ?? Substring(log))
        let document = ReportDocument(
            logName: name, header: header, recorder: recorder, summary: summary, plugins: plugins, disabled: disabled)
        let html = document.html()
        let file = Output(descriptor: descriptor, closes: true)
        file.line(String(html.dropLast()))
        file.flush()
        if file.failed {
            complain("cannot write the report '\(path)': \(String(cString: strerror(errno)))")
            return false
        }
        complain(
            "report: wrote \(path) (\(html.utf8.count >> 10) KiB; \(Markup.count(recorder.items.count, "record")), \(Markup.count(recorder.violations.count, "violation")))")
        return true
    }
}
