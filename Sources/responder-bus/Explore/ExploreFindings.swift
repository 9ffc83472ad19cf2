import EventLog
import ResponderBusExplore
import ResponderBusPlatform
import ResponderBusReplay
import ResponderBusReport

/// What `explore` prints and writes of a report: a line per property broken, its shrunk session
/// (a log, its report, and a project file that makes `test` check the properties and expect the
/// failure), and the summary.
struct ExploreFindings {
    let report: ExplorationReport
    let pipeline: ReplayPipeline
    let folder: String
    let reproduction: (UInt64) -> String

    func write(to output: Output) throws {
        let rate = Int(report.sessionsPerSecond.rounded())
        output.line("checked \(report.checked) sessions in \(JSONText.number((report.seconds * 10).rounded() / 10)) s (\(rate) a second)")
        guard !report.findings.isEmpty else {
            output.line("no property broken")
            return
        }
        try Self.makeFolder(folder)
        var expected: [String: String] = [:]
        var names: Set<String> = []
        for finding in report.findings {
            let name = Self.fileName(for: finding.property, besides: names)
            names.insert(name.lowercased())
            let records = finding.shrunk.records()
            let reproduce = reproduction(finding.seed)
            try write(finding.log, to: folder + "/" + name + ".jsonl")
            let reportWritten = try writeReport(of: finding, records: records, to: folder + "/" + name + ".html")
            // `test` replays a session once: a second run's difference is not its to see.
            if finding.property != SessionProperty.deterministic.name {
                expected[name + ".jsonl"] = "\(finding.failure.property): \(finding.failure.message) (found by \(reproduce))"
            }
            let original = finding.original.records().count
            output.line(
                "✗ \(name): \(finding.failingSessions) of \(report.checked) sessions; the first, session \(finding.index), shrunk from \(original) to \(records.count) events (\(finding.shrinkTries) tries)"
            )
            output.line("    " + TerminalText.escapedLines(finding.failure.description, indent: "    "))
            for line in finding.shrunk.description.split(separator: "\n") { output.line("    \(line)") }
            output.line(
                "    wrote \(folder)/\(name).jsonl\(reportWritten ? ", \(name).html" : "")"
                    + (expected[name + ".jsonl"] == nil
                        ? " (not an expected failure: `test` replays a session once; replay it twice to see the difference)" : ""))
            output.line("    reproduce: \(reproduce)")
        }
        let project = folder + "/.responder-bus.json"
        try write(pipeline.description.projectFileText(checksProperties: true, expectedFailures: expected), to: project)
        // A project file others may write is refused: not group-writable, whatever the umask.
        _ = chmod(project, 0o644)
        output.line(
            "\(report.findings.count) propert\(report.findings.count == 1 ? "y" : "ies") broken; `responder-bus test \(folder)` runs the shrunk sessions (expected to fail until fixed)"
        )
    }

    /// Makes `path` and the folders above it that are missing.
    ///
    /// - Throws: `OutputError` (exit 73) naming the folder that cannot be made.
    static func makeFolder(_ path: String) throws(OutputError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw OutputError.cannotCreate(current, errno) }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { throw OutputError.cannotCreate(path, ENOTDIR) }
    }

    /// A property's name as a file name: letters, digits, `-` and `_` kept, anything else (a
    /// plugin's own property may be named anything) as `_`, never empty or hidden, and none of
    /// `taken` (compared without case).
    static func fileName(for property: String, besides taken: Set<String> = []) -> String {
        let kept = String(
            property.unicodeScalars.prefix(100).map { scalar in
                (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9") || scalar == "-"
                    || scalar == "_" ? Character(scalar) : "_"
            })
        let base = kept.isEmpty ? "property" : kept
        // Two properties of one name once made a file name (`a.b`, `a_b`; `X`, `x` where case
        // folds) each get a file of their own.
        var name = base
        var number = 1
        while taken.contains(name.lowercased()) {
            number += 1
            name = "\(base)-\(number)"
        }
        return name
    }

    /// Writes `text` to `path`, whole or not at all.
    private func write(_ text: String, to path: String) throws(OutputError) {
        let file = try OutputFile(path: path)
        let output = Output(file: file)
        output.line(String(text.dropLast()))
        output.flush()
        if let error = output.error {
            file.abandon()
            throw error
        }
        try file.commit()
    }

    /// The report of the shrunk session through the pipeline; `false` when the pipeline could not
    /// make one.
    private func writeReport(of finding: Finding, records: [LogRecord], to path: String) throws -> Bool {
        guard let session = try? ReplaySession(pipeline: pipeline, header: finding.shrunk.header, options: [.report]) else { return false }
        let summary = session.replay(records: records)
        _ = session.finish(summary)
        guard let document = session.reportDocument(logName: finding.property + ".jsonl") else { return false }
        try write(document.html(), to: path)
        return true
    }
}
