import EventLog
import ResponderBus
import ResponderBusExplore
import ResponderBusExternal
import ResponderBusPlatform
import ResponderBusReplay
import ResponderBusReport

/// What a session suite (`responder-bus test`) found for one session.
public struct SessionResult: Sendable {
    /// The verdict.
    public enum Status: String, Sendable {
        /// Replayed; the decisions matched what was recorded and no field was left covered.
        case passed
        /// Something failed (see ``SessionResult/failure``).
        case failed
        /// The log could not be opened, or its header could not be read.
        case unreadable
        /// It had no recorded decisions, and `--record-missing` wrote them.
        case recorded
        /// Its decisions changed, and `--update` wrote the new ones.
        case updated
        /// It failed, as its project file's `"expectedFailures"` says it should (a known bug kept in
        /// the suite): it passes, listed as such (``SessionResult/expectedFailure``).
        case expectedFailure
        /// It passed, though its project file's `"expectedFailures"` says it should fail: the bug is
        /// fixed, or the test no longer tests it; it fails until the entry is removed.
        case unexpectedPass

        /// Whether the session counts as passing (exit 0).
        public var passes: Bool { self == .passed || self == .recorded || self == .updated || self == .expectedFailure }
    }

    /// Why a session failed.
    public struct Failure: Sendable {
        /// What kind of failure.
        public enum Kind: String, Sendable {
            /// The replay derived something other than was recorded.
            case verify
            /// The focused field was left covered by the keyboard.
            case check
            /// Nothing recorded to verify against, and no `--record-missing`.
            case unrecorded
            /// Lines of the log could not be read.
            case lines
            /// An out-of-process plugin failed: it was restarted, disabled, or stopped the replay
            /// (unless ``SessionSuite/allowsPluginFailures``).
            case plugin
            /// Two plugins set the root, a scroll view or the first responder against each other in
            /// one loop turn (unless ``SessionSuite/allowsConflicts`` or the project file's
            /// `"allowConflicts": true`).
            case conflict
            /// A property `responder-bus explore` checks was broken: the screen not put back when the
            /// keyboard covers nothing, or a second move for one change (with
            /// ``SessionSuite/checksProperties`` or the project file's `"checkProperties": true`).
            case property
            /// The log or its header could not be read.
            case unreadable
            /// The session's snapshot (under `--record-missing`) could not be read.
            case snapshot
            /// A plugin could not be set up, or an output could not be written.
            case error
            /// It passed, though its project file's `"expectedFailures"` says it should fail.
            case unexpectedPass
        }
        /// What kind of failure.
        public var kind: Kind
        /// One line for a person.
        public var message: String
        /// The line it cites, when known, in ``file``.
        public var line: Int?
        /// The file that holds ``line``: the session's log, or the snapshot its recorded decisions
        /// came from (under `--record-missing`); `nil` when the failure cites no line.
        public var file: String?
        /// The log time, when known.
        public var t: Double?
        /// The first difference, for `verify`.
        public var difference: DerivedVerifier.Difference?
    }

    /// The session.
    public let input: SessionInput
    /// The verdict.
    public var status: Status
    /// External events replayed.
    public var events = 0
    /// Derived events the plugins posted.
    public var derived = 0
    /// Wall-clock seconds the session took.
    public var seconds = 0.0
    /// Why it failed, when it did: the first of ``failures``.
    public var failure: Failure? {
        get { failures.first }
        set { failures = newValue.map { [$0] } ?? [] }
    }
    /// Every verdict it earned, in the order the suite judges them (a difference in the decisions
    /// and a field left covered are both listed, for instance); empty when it passed.
    public var failures: [Failure] = []
    /// The snapshot `--record-missing` wrote for it, if one was: reported whether or not the
    /// session passed (a snapshot of a failing session holds the decisions that failed).
    public var snapshotWritten: String?
    /// What the log reader warned about while reading it (a value read as written that looks
    /// wrong, such as a 250 s keyboard animation meant as milliseconds), each with its line and
    /// column: shown under the session's verdict, passed or not.
    public var warnings: [String] = []
    /// Why its project file expects it to fail (`"expectedFailures"`), if it does: with
    /// ``Status/expectedFailure`` or ``Status/unexpectedPass``.
    public var expectedFailure: String?
    /// What was written, for `recorded` and `updated` (the file, and for an update what changed).
    public var note: String?
    /// The faults of the session's out-of-process plugins, in time order (a session with any fails
    /// unless ``SessionSuite/allowsPluginFailures``).
    public var pluginFaults: [ExternalPlugin.Fault] = []
    /// Two plugins that set the root, a scroll view or the first responder against each other in one
    /// loop turn, as the bus named them (a warning diagnostic typed
    /// `Diagnostic.Failure.conflictingDecisions`), in time order. Shown in the verdict's details; a
    /// session with any fails (``Failure/Kind/conflict``) unless ``SessionSuite/allowsConflicts`` or
    /// its project file's `"allowConflicts": true`.
    public var conflicts: [Conflict] = []

    /// A conflict between plugins the bus named during the session.
    public typealias Conflict = ReplayResult.Conflict

    /// What was said of the report written for this session, if one was.
    var reportWritten: String?
}

extension SessionSuite {
    /// Replays `input` the way `responder-bus test` judges it and says how it went: on the
    /// virtual-time loop through its folder's pipeline, with the coverage check, verifying the
    /// recorded decisions (in the log, or in its snapshot under ``snapshotFolder``). The verdict
    /// is the first of, in this order: lines that could not be read, then an out-of-process
    /// plugin's failure (unless ``allowsPluginFailures``), then the decisions (a difference, or
    /// none recorded), then a field left covered, then a conflict between plugins (unless
    /// ``allowsConflicts`` or the pipeline's `PipelineDescription/allowsConflicts`, a project file's
    /// `"allowConflicts": true`). Nothing is written for a session that failed
    /// before its decisions were judged. Runs on whichever thread calls
    /// it, with its own loop and bus.
    ///
    /// - Parameters:
    ///   - input: the session.
    ///   - reportPath: where to write the session's HTML report, if anywhere.
    public func check(_ input: SessionInput, reportPath: String? = nil) -> SessionResult {
        let start = SessionSuite.monotonicSeconds()
        var result = judge(input, reportPath: reportPath)
        result.seconds = SessionSuite.monotonicSeconds() - start
        return result
    }

    /// The properties `test` checks with ``checksProperties``: those of `responder-bus explore`
    /// that one replay of a recorded session can check and that its other checks do not (the
    /// coverage check and conflicts are judged already, and the faults of plugins in processes
    /// and modules; `no-fault` adds an in-process plugin's throw or error; determinism needs a
    /// second run, which the recorded decisions stand for).
    static let propertiesChecked: Set<String> = [SessionProperty.restored.name, SessionProperty.oneMove.name, SessionProperty.noFault.name]

    private func judge(_ input: SessionInput, reportPath: String?) -> SessionResult {
        var result = SessionResult(input: input, status: .failed)
        func fail(_ kind: SessionResult.Failure.Kind, _ message: String, line: Int? = nil) -> SessionResult {
            result.failing(kind, message, line: line)
        }
        let (reader, header): (LogReader, LogHeader)
        do throws(LogReadError) {
            reader = try LogReader(path: input.systemPath)
            header = try reader.readHeader()
        } catch {
            return fail(.unreadable, error.description, line: error.line > 0 ? error.line : nil)
        }
        let settings = self
        let keepsSession = settings.update || settings.snapshotFolder != nil
        let session: ReplaySession
        let reportFile: OutputFile?
        let collected = Collected(
            compares: compares(includingDiagnostics: settings.includesDiagnostics), keeps: keepsSession, update: settings.update)
        switch open(input, header: header, keepingSession: keepsSession, reportPath: reportPath, into: collected) {
        case .success(let opened): (session, reportFile) = opened
        case .failure(let error): return fail(.error, error.message)
        }
        let watch =
            settings.checksProperties || session.pipeline.description.checksProperties
            ? PropertyWatch(bus: session.bus, properties: Self.propertiesChecked, keepsDecisions: false) : nil
        // One thread per session: the workers are the parallelism (`--jobs`).
        let summary = session.replay(reader, readAhead: false)
        watch?.finish()
        result.events = summary.externalEvents
        // The decisions: the log's own, else the snapshot's, else none to verify against. A
        // snapshot is fed to the verifier before the session finishes.
        var outcome = Outcome(header: header, recordedInLog: summary.recordedDerived)
        outcome.allowsConflicts = settings.allowsConflicts || session.pipeline.description.allowsConflicts
        outcome.propertyFailures = watch?.failures ?? []
        outcome.checksProperties = watch != nil
        if outcome.recordedInLog == 0, let folder = settings.snapshotFolder, let verifier = session.verifier {
            outcome.feedSnapshot(Self.path(in: folder, Self.snapshotName(input.name)), to: verifier) { record in
                if settings.update && collected.compares(record) { collected.recordedDecisions.append(LogWriter.line(for: record)) }
            }
        }
        let replayed = session.finish(summary)
        result.conflicts = replayed.conflicts
        result.derived = replayed.derived
        result.pluginFaults = replayed.pluginFaults
        // A plugin that failed under the stop policy cut the replay short: nothing of it is judged
        // or written (an update or a snapshot would hold only the part before the stop).
        if let stop = replayed.stoppedByPlugin {
            return fail(.error, "\(stop); the replay stopped there (plugin failure policy stop)")
        }
        result.warnings = collected.warnings.map(\.description)
        var judged: SessionResult
        if let first = collected.problems.first {
            judged = fail(
                .lines, "\(Markup.count(collected.problems.count, "line")) could not be read; the first: line \(first.line): \(first.message)",
                line: first.line)
            judged.failures[0].file = input.path
        } else {
            outcome.kept = collected.kept
            outcome.decisions = (collected.recordedDecisions, collected.producedDecisions)
            judged = expecting(verdict(result, replayed: replayed, outcome: outcome), in: session.pipeline.description)
        }
        // The report opens with the verdicts: written once they are known.
        do throws(OutputError) {
            let recordedIn = outcome.recordedInSnapshot ? outcome.snapshotPath.map { SystemPath($0) } : input.systemPath
            judged.reportWritten = try Self.writeReport(
                of: session, input: input, to: reportFile, at: reportPath,
                failures: reportFailures(of: judged, recordedIn: recordedIn, compares: collected.compares))
        } catch {
            return fail(.error, error.message)
        }
        return judged
    }

    /// Whether a decision is compared: every derived record with the diagnostics, else what the
    /// verifier compares.
    private func compares(includingDiagnostics: Bool) -> @Sendable (LogRecord) -> Bool {
        { record in includingDiagnostics ? record.origin != .external : DerivedVerifier.isCompared(record) }
    }

    /// What a session's sink collects for its judging: the records to write (a snapshot, an update),
    /// under `--update` both sides' decisions (to say how many changed), and the lines that could not
    /// be read.
    private final class Collected: ReplaySink {
        let compares: (LogRecord) -> Bool
        let keeps: Bool
        let update: Bool
        var kept: [LogRecord] = []
        var recordedDecisions: [String] = []
        var producedDecisions: [String] = []
        var problems: [LogReadError] = []
        var warnings: [LogReadError] = []

        init(compares: @escaping (LogRecord) -> Bool, keeps: Bool, update: Bool) {
            self.compares = compares
            self.keeps = keeps
            self.update = update
        }

        func record(_ record: LogRecord) {
            if keeps { kept.append(record) }
        }

        func decided(_ record: consuming LogRecord) {
            if update && compares(record) { producedDecisions.append(LogWriter.line(for: record)) }
        }

        func recordedDecision(_ record: LogRecord, at location: RecordLocation) {
            if update && compares(record) { recordedDecisions.append(LogWriter.line(for: record)) }
        }

        func problem(_ error: LogReadError) {
            if error.isWarning { warnings.append(error) } else { problems.append(error) }
        }
    }

    /// A failure to set a session up: its message.
    private struct SetUpFailure: Error {
        var message: String
    }

    /// The session for `input` through its folder's pipeline into `sink`, collecting what its judging needs
    /// (the recording only when it may be written: a snapshot, an update), and its report's file.
    private func open(
        _ input: SessionInput, header: LogHeader, keepingSession: Bool, reportPath: String?, into sink: any ReplaySink
    ) -> Result<(ReplaySession, OutputFile?), SetUpFailure> {
        var options: ReplaySession.Options = [.verify, .coverage]
        if includesDiagnostics { options.insert(.verifyDiagnostics) }
        if keepingSession { options.insert(.recording) }
        if reportPath != nil { options.insert(.report) }
        let session: ReplaySession
        do throws(PipelineError) {
            let pipeline = try pipelines.pipeline(forSessionsIn: PipelineResolver.folder(ofLog: input.path))
            session = try ReplaySession(pipeline: pipeline, header: header, options: options, sinks: [sink])
        } catch {
            return .failure(SetUpFailure(message: error.message))
        }
        do throws(OutputError) {
            return .success((session, try reportPath.map { path throws(OutputError) in try OutputFile(path: path) }))
        } catch {
            _ = session.finish(Replayer.Summary())
            return .failure(SetUpFailure(message: error.message))
        }
    }

    /// What a session's replay left to judge beyond its result: the decisions recorded (in the
    /// log, or in a snapshot), what the bus saw (to be written), and, under `--update`, both sides'
    /// decisions.
    private struct Outcome {
        var header: LogHeader
        var recordedInLog: Int
        var snapshotPath: String?
        var recordedInSnapshot = false
        var snapshotProblem: String?
        /// Whether a conflict between plugins lets the session pass.
        var allowsConflicts = false
        /// What the properties' watch found (with ``SessionSuite/checksProperties``).
        var propertyFailures: [PropertyFailure] = []
        /// Whether the properties are checked: a session with no recorded decisions is then judged
        /// on them alone, not failed as unrecorded.
        var checksProperties = false
        var kept: [LogRecord] = []
        var decisions: (recorded: [String], produced: [String]) = ([], [])

        init(header: LogHeader, recordedInLog: Int) {
            self.header = header
            self.recordedInLog = recordedInLog
        }

        /// Feeds the snapshot at `path`, when there is one, to the verifier.
        mutating func feedSnapshot(_ path: String, to verifier: DerivedVerifier, each: (LogRecord) -> Void) {
            snapshotPath = path
            guard access(path, F_OK) == 0 else { return }
            recordedInSnapshot = true
            do throws(LogReadError) {
                try SessionSuite.feedRecorded(from: path, to: verifier, also: each)
            } catch {
                snapshotProblem = "its snapshot \(path) cannot be read: \(error)"
            }
        }
    }

    /// Writes a session's report, when one was asked for, opening with its `failures`; returns the
    /// line that says so.
    private static func writeReport(
        of session: ReplaySession, input: SessionInput, to file: OutputFile?, at path: String?, failures: [ReportFailure]
    ) throws(OutputError) -> String? {
        guard let file, let path else { return nil }
        var document = session.reportDocument(logName: String(input.path.split(separator: "/").last ?? Substring(input.path)))
        document?.failures = failures
        let html = document?.html() ?? ""
        try write(html, to: file)
        guard let document else { return nil }
        return
            "report: wrote \(path) (\(html.utf8.count >> 10) KiB; \(Markup.count(document.recorder.items.count, "record")), \(Markup.count(document.recorder.violations.count, "violation")))"
    }

    /// The verdict on a session whose lines were read: a plugin's fault, the snapshot (each ends
    /// the judging), then every one of: the decisions (none recorded: written to a snapshot or
    /// failed; a difference: updated or failed), a field left covered, a conflict between plugins.
    private func verdict(_ judged: SessionResult, replayed: ReplayResult, outcome: Outcome) -> SessionResult {
        var result = judged
        func fail(_ kind: SessionResult.Failure.Kind, _ message: String, t: Double? = nil) -> SessionResult {
            result.failing(kind, message, t: t)
        }
        if !allowsPluginFailures, let first = replayed.pluginFaults.first {
            return fail(.plugin, Self.describe(replayed.pluginFaults), t: first.t)
        }
        if let snapshotProblem = outcome.snapshotProblem { return fail(.snapshot, snapshotProblem) }
        var failures: [SessionResult.Failure] = []
        result.status = .passed
        if outcome.recordedInLog == 0 && !outcome.recordedInSnapshot {
            if let snapshotPath = outcome.snapshotPath {
                do throws(OutputError) {
                    try Self.write(header: outcome.header, records: outcome.kept, to: snapshotPath)
                } catch {
                    return fail(.error, error.message)
                }
                result.status = .recorded
                result.snapshotWritten = snapshotPath
                result.note = "wrote \(replayed.derived) decision\(replayed.derived == 1 ? "" : "s") to \(snapshotPath)"
            } else if outcome.checksProperties {
                // Judged on the properties alone: a session `explore` shrank holds no decisions.
                result.note = "no recorded decisions: judged on the properties alone"
            } else {
                failures.append(
                    .init(
                        kind: .unrecorded,
                        message:
                            "the log holds no recorded decisions to verify; record them with --record-missing DIR, or use a log written by `replay --record`"
                    ))
            }
        } else if var difference = replayed.verification?.difference {
            // The line it cites is in the file the recorded decisions came from.
            let file = outcome.recordedInSnapshot ? outcome.snapshotPath ?? result.input.path : result.input.path
            if outcome.recordedInSnapshot { difference.file = file }
            guard update else {
                failures.append(
                    .init(kind: .verify, message: difference.description, line: difference.line, file: file, t: difference.t, difference: difference))
                return finish(result, failures, replayed: replayed, outcome: outcome)
            }
            if let error = rewrite(&result, outcome: outcome, difference: difference) { return fail(.error, error) }
        }
        return finish(result, failures, replayed: replayed, outcome: outcome)
    }

    /// `--update` for a session whose decisions changed: the log (or its snapshot) takes the new
    /// ones; the message of the error that stopped it, if one did.
    private func rewrite(_ result: inout SessionResult, outcome: Outcome, difference: DerivedVerifier.Difference) -> String? {
        let input = result.input
        if !outcome.recordedInSnapshot && !input.systemPath.isUTF8 {
            return "cannot rewrite '\(input.path)': its name is not UTF-8; rename it to update it"
        }
        let target = outcome.recordedInSnapshot ? outcome.snapshotPath ?? input.path : input.path
        do throws(OutputError) {
            // The log keeps its external events and takes the new decisions (diagnostics are
            // decisions of their own plugins: they are written too).
            try Self.write(header: outcome.header, records: outcome.kept, to: target)
        } catch {
            return error.message
        }
        result.status = .updated
        let (recorded, produced) = outcome.decisions
        let changed = zip(recorded, produced).count { $0 != $1 } + abs(recorded.count - produced.count)
        result.note =
            "rewrote \(target): \(changed) decision\(changed == 1 ? "" : "s") changed (\(recorded.count) before, \(produced.count) now); the first: \(difference)"
        return nil
    }

    /// The verdict with the checks after the decisions': a field left covered, then a conflict
    /// between plugins (unless allowed); the session fails with every one it earned.
    private func finish(
        _ judged: SessionResult, _ decided: [SessionResult.Failure], replayed: ReplayResult, outcome: Outcome
    ) -> SessionResult {
        var result = judged
        var failures = decided
        if let violation = replayed.violations.first {
            let count = replayed.violations.count
            failures.append(
                .init(
                    kind: .check,
                    message:
                        "the focused field was left covered \(count) time\(count == 1 ? "" : "s"); the first at t \(JSONText.number(violation.t)): \(violation.summary)",
                    t: violation.t))
        }
        if !outcome.allowsConflicts, let first = result.conflicts.first {
            failures.append(.init(kind: .conflict, message: Self.describe(result.conflicts), t: first.t))
        }
        for failure in outcome.propertyFailures {
            failures.append(.init(kind: .property, message: "\(failure.property): \(failure.message)", t: failure.t))
        }
        if !failures.isEmpty {
            result.status = .failed
            result.failures = failures
        }
        if let written = result.snapshotWritten, result.status == .failed {
            result.note = "wrote its decisions to \(written), though it failed: check them before you commit the snapshot"
        }
        return result
    }

    /// A session's conflicts between plugins in one line: the first, with its time, and how many.
    static func describe(_ conflicts: [SessionResult.Conflict]) -> String {
        let more = conflicts.count > 1 ? "; \(conflicts.count) conflicts between plugins in all" : ""
        return
            "t \(JSONText.number(conflicts[0].t)): \(conflicts[0].message)\(more) (--allow-conflicts, or \"allowConflicts\": true in the project file, lets such sessions pass)"
    }

    /// A session's plugin faults in one line: the first, how many and how they ended, and the
    /// plugin's last line on standard error (a traceback's last line names the exception) when
    /// the faults do not quote it already.
    static func describe(_ faults: [ExternalPlugin.Fault]) -> String {
        var text = faults[0].message
        if faults.count > 1, let last = faults.last {
            text += "; \(faults.count) faults in all, the last: \(last.message)"
        }
        if let words = faults.last(where: { !$0.lastErrorLines.isEmpty })?.lastErrorLines.last, !text.contains(words) {
            text += "; its last line on standard error: \(words)"
        }
        return text + " (--allow-plugin-failures lets such sessions pass)"
    }

    /// `name` in `folder`, with one slash between them whether or not the folder was given with a
    /// trailing one (`--record-missing snapshots/` wrote `snapshots//…`).
    static func path(in folder: String, _ name: String) -> String {
        var folder = Substring(folder)
        while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
        return folder == "/" ? "/" + name : folder + "/" + name
    }

    /// Where under the snapshot folder a session's snapshot goes: its name, without a leading `/`,
    /// and with `..` components made harmless, so that every snapshot stays inside the folder.
    public static func snapshotName(_ name: String) -> String {
        name.split(separator: "/").map { $0 == ".." ? "__" : String($0) }.filter { $0 != "." }.joined(separator: "/")
    }

    /// Feeds the derived records of the snapshot at `path` to `verifier` as recorded.
    fileprivate static func feedRecorded(from path: String, to verifier: DerivedVerifier, also: (LogRecord) -> Void) throws(LogReadError) {
        let reader = try LogReader(path: path)
        _ = try reader.readHeader()
        while let item = reader.next() {
            switch item {
            case .record(let record, let location):
                if record.origin != .external {
                    verifier.addRecorded(record, at: location)
                    also(record)
                }
            case .problem(let error):
                if !error.isWarning { throw error }
            }
        }
    }

    /// Writes `text` (a report, a page) to `file`, which is replaced only once all of it was
    /// written.
    static func write(_ text: String, to file: OutputFile) throws(OutputError) {
        let output = Output(file: file)
        output.line(String(text.dropLast()))
        output.flush()
        if let error = output.error {
            file.abandon()
            throw error
        }
        try file.commit()
    }

    /// Writes a whole session as a v1 log, creating the folders it needs; the file is replaced only
    /// once all of it was written.
    private static func write(header: LogHeader, records: [LogRecord], to path: String) throws(OutputError) {
        makeFolders(for: path)
        let file = try OutputFile(path: path)
        let output = Output(file: file)
        output.line(LogWriter.line(for: header))
        for record in records { output.line(record) }
        output.flush()
        if let error = output.error {
            file.abandon()
            throw error
        }
        try file.commit()
    }

    /// Seconds on the monotonic clock.
    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Creates the folders above `path` that are missing.
    static func makeFolders(for path: String) {
        var folder = ""
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for (index, part) in parts.enumerated() {
            folder += index == 0 ? String(part) : "/" + part
            if folder.isEmpty { continue }
            mkdir(folder, 0o777)
        }
    }
}

extension SessionResult {
    /// The conflicts its verdict does not name: all of them, but the first after a conflict's
    /// failure (which names it).
    var otherConflicts: ArraySlice<Conflict> {
        failures.contains { $0.kind == .conflict } && !status.passes ? conflicts.dropFirst() : conflicts[...]
    }

    /// This result, failed (unreadable, for `.unreadable`) for `kind` with `message`.
    fileprivate func failing(_ kind: Failure.Kind, _ message: String, line: Int? = nil, t: Double? = nil) -> SessionResult {
        var result = self
        result.status = kind == .unreadable ? .unreadable : .failed
        result.failure = .init(kind: kind, message: message, line: line, t: t)
        return result
    }
}
