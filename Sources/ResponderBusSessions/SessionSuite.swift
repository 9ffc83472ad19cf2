import EventLog
import ResponderBusPlatform
import ResponderBusReplay

/// A folder of recorded sessions as a regression suite: what `responder-bus test` runs, for a
/// program to run with the same verdicts, lines and JUnit.
///
/// Each session is replayed on the virtual-time loop through the pipeline of its folder (the
/// nearest project file's, with ``pipelines``' overrides over it), with the coverage check;
/// where the log holds recorded decisions (a log written by `replay --record`), the replay must
/// derive exactly those. See ``check(_:reportPath:)`` for how one session is judged.
///
/// ```swift
/// import ResponderBusTesting
///
/// let suite = SessionSuite()
/// let sessions = try SessionList.collect(["sessions"])
/// try suite.prepare(sessions)
/// let run = suite.run(sessions, jobs: 2) { print(SessionSuite.line(for: $0)) }
/// print(run.summary)
/// try run.writeJUnit(to: "results.xml")
/// exit(run.exitCode)
/// ```
public struct SessionSuite: Sendable {
    /// The pipeline of each session's folder.
    public var pipelines: PipelineResolver
    /// Compare the diagnostics the plugins derive too (`--verify-diagnostics`).
    public var includesDiagnostics: Bool
    /// For sessions without recorded decisions: verify against their snapshot in this folder, or
    /// write it there when there is none (`--record-missing DIR`).
    public var snapshotFolder: String?
    /// Rewrite the decisions of sessions whose replay differs, the log itself or its snapshot
    /// (`--update`).
    public var update: Bool
    /// Let sessions pass whose out-of-process plugins failed — were restarted, disabled or stopped
    /// (`--allow-plugin-failures`). By default such a session fails, quoting the plugin's fault and
    /// its last words on standard error: a crashing plugin decides nothing, and its absence could
    /// otherwise pass for a verdict.
    public var allowsPluginFailures: Bool
    /// Let sessions pass in which two plugins set the root, a scroll view or the first responder
    /// against each other in one loop turn (`--allow-conflicts`; a project file allows them for its
    /// sessions with `"allowConflicts": true`). By default such a session fails, naming the first
    /// conflict; allowed, the conflicts are listed under its verdict.
    public var allowsConflicts: Bool
    /// Check, in each session, the properties of `responder-bus explore` a single replay can check
    /// (the screen put back when the keyboard covers nothing, one move per
    /// change, no plugin fault, and any property a plugin says it broke); a session that breaks one fails
    /// (`--check-properties`; a project file checks them for its sessions with
    /// `"checkProperties": true`). A session with no recorded decisions is then judged on the
    /// properties alone rather than failed as unrecorded: what `explore` writes. Off by default.
    public var checksProperties: Bool

    /// A suite.
    ///
    /// - Parameters:
    ///   - pipelines: the pipeline of each session's folder; by default the nearest project file's,
    ///     else the built-in plugins.
    ///   - includesDiagnostics: compare diagnostics too.
    ///   - snapshotFolder: where snapshots of sessions without recorded decisions go.
    ///   - update: rewrite decisions that changed.
    ///   - allowsPluginFailures: let sessions whose out-of-process plugins failed pass.
    ///   - allowsConflicts: let sessions with conflicts between plugins pass.
    ///   - checksProperties: check the properties a replay of one session can check.
    public init(
        pipelines: PipelineResolver = PipelineResolver(), includesDiagnostics: Bool = false, snapshotFolder: String? = nil,
        update: Bool = false, allowsPluginFailures: Bool = false, allowsConflicts: Bool = false, checksProperties: Bool = false
    ) {
        self.checksProperties = checksProperties
        self.allowsPluginFailures = allowsPluginFailures
        self.allowsConflicts = allowsConflicts
        self.pipelines = pipelines
        self.includesDiagnostics = includesDiagnostics
        self.snapshotFolder = snapshotFolder
        self.update = update
    }

    /// Makes the pipeline of every folder the sessions are in ready, and starts each of their
    /// commands once: a pipeline that cannot be used is said once, before any session, rather
    /// than as every session's failure.
    ///
    /// - Parameter sessions: the sessions to be run.
    /// - Throws: `PipelineError` for the first pipeline that cannot be used.
    public func prepare(_ sessions: [SessionInput]) throws(PipelineError) {
        // Compared as bytes, as paths are (two folders' names may differ only in Unicode form).
        var seen = Set<[UInt8]>()
        for session in sessions {
            let folder = PipelineResolver.folder(ofLog: session.path)
            guard seen.insert(Array((pipelines.projectFilePath(forSessionsIn: folder) ?? "").utf8)).inserted else { continue }
            try pipelines.pipeline(forSessionsIn: folder).probeCommands()
        }
    }

    /// Runs `sessions` on `jobs` threads (one loop and bus per session) and returns their results in
    /// the order of the sessions.
    ///
    /// - Parameters:
    ///   - sessions: the sessions.
    ///   - jobs: how many run at once.
    ///   - each: called on the calling thread with each result, in session order, as soon as it
    ///     and those before it are known.
    ///   - tick: called on the calling thread whenever a session finished, with how many did and
    ///     how many of those did not pass.
    public func run(
        _ sessions: [SessionInput], jobs: Int = 1, each: (SessionResult) -> Void = { _ in },
        tick: (_ done: Int, _ failed: Int) -> Void = { _, _ in }
    ) -> SuiteResult {
        // Read before any worker creates a file: reading the umask sets it for a moment.
        _ = OutputFile.creationMask
        let start = Self.monotonicSeconds()
        let run = SessionRun(sessions: sessions, suite: self, jobs: jobs)
        let results = run.run(each: each, tick: tick)
        return SuiteResult(results: results, seconds: Self.monotonicSeconds() - start, jobs: run.jobs)
    }

    /// One session's line, as `responder-bus test` prints it: its verdict, name, and what happened;
    /// every other verdict, and the log reader's warnings (``SessionResult/warnings``), on lines of
    /// their own below it.
    ///
    /// - Parameter result: the session's result.
    public static func line(for result: SessionResult) -> String {
        guard !result.warnings.isEmpty else { return verdictLine(for: result) }
        var text = verdictLine(for: result)
        for warning in result.warnings.prefix(3) { text += "\n      warning: " + warning }
        if result.warnings.count > 3 { text += "\n      … and \(result.warnings.count - 3) more warnings" }
        return text
    }

    private static func verdictLine(for result: SessionResult) -> String {
        let name = result.input.name
        switch result.status {
        case .passed:
            let faults = result.pluginFaults.isEmpty ? "" : "; \(count(result.pluginFaults.count, "plugin fault")) allowed"
            return "pass  \(name) (\(result.events) events, \(result.derived) derived, \(seconds(result.seconds))\(faults))" + conflicts(result)
        case .recorded, .updated:
            return "\(result.status.rawValue)  \(name): \(result.note ?? "")" + conflicts(result)
        case .expectedFailure:
            return "xfail  \(name): expected to fail (\(result.expectedFailure ?? "")), and it did: " + verdicts(result) + conflicts(result)
        case .failed, .unreadable, .unexpectedPass:
            let label = result.status == .unreadable ? "UNREADABLE" : result.status == .unexpectedPass ? "XPASS" : "FAIL"
            var line = "\(label)  \(name): " + verdicts(result)
            if let note = result.note { line += "\n      " + note }
            return line + conflicts(result)
        }
    }

    /// Every verdict a session earned: the first on the line, each other on one of its own.
    static func verdicts(_ result: SessionResult) -> String {
        guard let first = result.failures.first else { return "failed" }
        func text(_ failure: SessionResult.Failure) -> String {
            var text = "\(failure.kind.rawValue): \(failure.message)"
            // The file the cited line is in, when it is not the session's log and the message does
            // not name it already.
            if let line = failure.line, let file = failure.file, file != result.input.path, !failure.message.contains("\(file):\(line)") {
                text += " (\(file):\(line))"
            }
            return text
        }
        return text(first) + result.failures.dropFirst().map { "\n      also " + text($0) }.joined()
    }

    /// The session's conflicts between plugins, as indented lines after its verdict: the first
    /// three, then how many more (after a conflict's failure, which names the first, the others).
    static func conflicts(_ result: SessionResult) -> String {
        let listed = result.otherConflicts
        guard !listed.isEmpty else { return "" }
        let noun = listed.count < result.conflicts.count ? "more conflict" : "conflict"
        // A session that passed with conflicts passed because they were allowed.
        var text = "\n      \(count(listed.count, noun)) between plugins\(result.status.passes ? ", allowed" : ""):"
        for conflict in listed.prefix(3) { text += "\n      t \(JSONText.number(conflict.t)): \(conflict.message)" }
        if listed.count > 3 { text += "\n      … and \(listed.count - 3) more" }
        return text
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    static func seconds(_ value: Double) -> String {
        value < 1 ? "\(Int((value * 1000).rounded())) ms" : "\(Double(Int(value * 100)) / 100) s"
    }
}

/// The results of a suite's run (``SessionSuite/run(_:jobs:each:tick:)``).
public struct SuiteResult: Sendable {
    /// Each session's result, in the order of the sessions.
    public var results: [SessionResult]
    /// Wall-clock seconds the run took.
    public var seconds: Double
    /// How many sessions ran at once.
    public var jobs: Int

    /// How many sessions have each verdict.
    public func count(_ status: SessionResult.Status) -> Int { results.count { $0.status == status } }

    /// How many conflicts between plugins the sessions had, allowed or not.
    public var conflicts: Int { results.reduce(0) { $0 + $1.conflicts.count } }

    /// The summary line `responder-bus test` ends with: the verdicts' counts, the conflicts between
    /// plugins (when there were any), the events, the time.
    public var summary: String {
        let events = results.reduce(0) { $0 + $1.events }
        var summary =
            "\(results.count) session\(results.count == 1 ? "" : "s"): \(count(.passed)) passed, \(count(.failed)) failed, \(count(.unreadable)) unreadable"
        if count(.recorded) > 0 { summary += ", \(count(.recorded)) recorded" }
        if count(.updated) > 0 { summary += ", \(count(.updated)) updated" }
        if count(.expectedFailure) > 0 { summary += ", \(count(.expectedFailure)) expected to fail" }
        if count(.unexpectedPass) > 0 { summary += ", \(count(.unexpectedPass)) passed unexpectedly" }
        let snapshots = results.count { $0.snapshotWritten != nil }
        if snapshots > count(.recorded) {
            summary += "; \(SessionSuite.count(snapshots, "snapshot")) written (\(snapshots - count(.recorded)) for failing sessions)"
        }
        if conflicts > 0 {
            let failing = results.filter { $0.failure?.kind == .conflict }.count
            summary +=
                "; \(SessionSuite.count(conflicts, "conflict")) between plugins"
                + (failing > 0 ? " (\(SessionSuite.count(failing, "session")) failed on them)" : "")
        }
        summary += "; \(events) events in \(SessionSuite.seconds(seconds))"
        if seconds > 0 && events > 0 {
            summary += " (\(Int(Double(events) / seconds)) events/s, \(SessionSuite.count(min(jobs, max(1, results.count)), "job")))"
        }
        return summary
    }

    /// The exit code of `responder-bus test`: 0 when every session passed (or was recorded or
    /// updated), 65 when none could be read, 1 otherwise.
    public var exitCode: Int32 {
        if !results.isEmpty && count(.unreadable) == results.count { return 65 }
        return count(.failed) + count(.unreadable) + count(.unexpectedPass) > 0 ? 1 : 0
    }

    /// The results as JUnit XML: one test case per session; unreadable sessions are errors, the
    /// rest of those that did not pass failures.
    public var junit: String { JUnitReport.xml(results, seconds: seconds) }

    /// Writes ``junit`` to `path`, replaced only once all of it was written.
    ///
    /// - Parameter path: the file.
    /// - Throws: `OutputError` when it cannot be created or written.
    public func writeJUnit(to path: String) throws(OutputError) {
        try SessionSuite.write(junit, to: try OutputFile(path: path))
    }
}

extension SessionSuite {
    /// Replays each failing session of `run` again with its HTML report (they are few; the pass
    /// that judged them kept no snapshots) into `folder`, then writes `index.html` there, linking
    /// each (`responder-bus test --report-dir`).
    ///
    /// - Parameters:
    ///   - run: the results.
    ///   - folder: where the reports go (created when missing).
    ///   - say: called with each report written, and each that could not be (that session is listed
    ///     without a link), one line each.
    /// - Returns: how many failing sessions the index lists.
    /// - Throws: `OutputError` when the index cannot be written.
    @discardableResult
    public func writeFailureReports(_ run: SuiteResult, into folder: String, say: (String) -> Void = { _ in }) throws(OutputError) -> Int {
        Self.makeFolders(for: folder + "/index.html")
        var again = self
        again.update = false
        var failing: [(result: SessionResult, report: String?)] = []
        for result in run.results where result.status == .failed || result.status == .unreadable || result.status == .unexpectedPass {
            guard result.status != .unreadable else {
                failing.append((result, nil))
                continue
            }
            let relative = Self.snapshotName(result.input.name) + ".html"
            let path = Self.path(in: folder, relative)
            Self.makeFolders(for: path)
            let replayed = again.check(result.input, reportPath: path)
            if replayed.failure?.kind == .error {
                // The report could not be written: listed without a link, and said.
                say("report: \(replayed.failure?.message ?? "not written") for \(result.input.name)")
                failing.append((result, nil))
            } else {
                if let written = replayed.reportWritten { say(written) }
                failing.append((result, relative))
            }
        }
        try Self.write(ReportIndex.html(failing, total: run.results.count), to: try OutputFile(path: folder + "/index.html"))
        return failing.count
    }
}
