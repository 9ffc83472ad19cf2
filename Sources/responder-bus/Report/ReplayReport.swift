import EventLog
import ResponderBus
import ResponderBusReport

#if canImport(Glibc)
    import Glibc
#endif

/// `replay --report FILE.html`: takes the snapshots during the replay and writes the report when it
/// ends.
///
/// The file is opened before the replay starts, so that a path that cannot be created fails at
/// once, with exit 73, as `--record` does; it is written to a temporary file beside it and renamed
/// into place when the whole report was written (see ``OutputFile``).
final class ReplayReport {
    let path: String
    let recorder: ReportRecorder
    private let file: OutputFile

    /// Opens `path` and starts taking snapshots of `bus`. Loop-confined.
    init(path: String, bus: Bus, clock: @escaping () -> Double) throws(OutputError) {
        file = try OutputFile(path: path)
        self.path = path
        recorder = ReportRecorder(bus: bus, clock: clock)
    }

    /// Notes a `--check` violation.
    func note(_ violation: CoverageViolation) {
        recorder.note(violation)
    }

    /// Stops the snapshots and writes the report; says on standard error what it wrote.
    ///
    /// - Throws: ``OutputError`` when the report could not be written (the previous file, if any,
    ///   is left as it was).
    func finish(log: String, header: LogHeader, summary: Replayer.Summary, plugins: [String], disabled: [String]) throws(OutputError) {
        recorder.stop()
        let name = log == "-" ? "standard input" : String(log.split(separator: "/").last ?? Substring(log))
        let document = ReportDocument(
            logName: name, header: header, recorder: recorder, summary: summary, plugins: plugins, disabled: disabled)
        let html = document.html()
        let output = Output(file: file)
        output.line(String(html.dropLast()))
        output.flush()
        if let error = output.error {
            file.abandon()
            throw error
        }
        try file.commit()
        complain(
            "report: wrote \(path) (\(html.utf8.count >> 10) KiB; \(Markup.count(recorder.items.count, "record")), \(Markup.count(recorder.violations.count, "violation")))"
        )
    }
}
