import EventLog
import ResponderBusReplay
import ResponderBusReport

/// `replay --report FILE.html` and `test --report-dir`: the file the report goes to.
///
/// The file is opened before the replay starts, so that a path that cannot be created fails at
/// once, with exit 73, as `--record` does; it is written to a temporary file beside it and renamed
/// into place when the whole report was written (see `OutputFile`).
final class ReplayReport {
    let path: String
    private let file: OutputFile

    /// Opens `path`.
    init(path: String) throws(OutputError) {
        file = try OutputFile(path: path)
        self.path = path
    }

    /// Leaves `path` as it was: the report of a failed run is not written.
    func abandon() {
        file.abandon()
    }

    /// Writes the report of `session` (finished, with the report sink), naming the log `log`; says
    /// on standard error what it wrote.
    ///
    /// - Throws: `OutputError` when the report could not be written (the previous file, if any,
    ///   is left as it was).
    func write(_ session: ReplaySession, log: String) throws(OutputError) {
        let name = log == "-" ? "standard input" : String(log.split(separator: "/").last ?? Substring(log))
        guard let document = session.reportDocument(logName: name) else {
            file.abandon()
            return
        }
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
            "report: wrote \(path) (\(html.utf8.count >> 10) KiB; \(Markup.count(document.recorder.items.count, "record")), \(Markup.count(document.recorder.violations.count, "violation")))"
        )
    }
}
