import EventLog
import ResponderBus
import ResponderBusExternal
import ResponderBusReplay
import ResponderBusReport

#if canImport(Glibc)
    import Glibc
#endif

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

        /// Whether the session counts as passing (exit 0).
        public var passes: Bool { self == .passed || self == .recorded || self == .updated }
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
            /// The log or its header could not be read.
            case unreadable
            /// The session's snapshot (under `--record-missing`) could not be read.
            case snapshot
            /// A plugin could not be set up, or an output could not be written.
            case error
        }
        /// What kind of failure.
        public var kind: Kind
        /// One line for a person.
        public var message: String
        /// Where in the log, when known.
        public var line: Int?
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
    /// Why it failed, when it did.
    public var failure: Failure?
    /// What was written, for `recorded` and `updated` (the file, and for an update what changed).
    public var note: String?
    /// The faults of the session's out-of-process plugins, in time order (a session with any fails
    /// unless ``SessionSuite/allowsPluginFailures``).
    public var pluginFaults: [ExternalPlugin.Fault] = []
    /// Two plugins that set the root, a scroll view or the first responder against each other in one
    /// loop turn, as the bus named them (a warning diagnostic typed
    /// `Diagnostic.Failure.conflictingDecisions`), in time order. Shown in the verdict's details; not
    /// a failure by itself.
    public var conflicts: [Conflict] = []

    /// A conflict between plugins the bus named during the session.
    public struct Conflict: Hashable, Sendable {
        /// The replay's time, in seconds.
        public var t: Double
        /// The bus's message: both plugins, what they set and the values.
        public var message: String
    }

    /// What was said of the report written for this session, if one was.
    var reportWritten: String?
}

extension SessionSuite {
    /// Replays `input` the way `responder-bus test` judges it and says how it went: on the
    /// virtual-time loop through its folder's pipeline, with the coverage check, verifying the
    /// recorded decisions (in the log, or in its snapshot under ``snapshotFolder``). The verdict
    /// is the first of, in this order: lines that could not be read, then an out-of-process
    /// plugin's failure (unless ``allowsPluginFailures``), then the decisions (a difference, or
    /// none recorded), then a field left covered. Nothing is written for a session that failed
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

    private func judge(_ input: SessionInput, reportPath: String?) -> SessionResult {
        var result = SessionResult(input: input, status: .failed)
        func fail(_ kind: SessionResult.Failure.Kind, _ message: String, line: Int? = nil, t: Double? = nil) -> SessionResult {
            result.status = kind == .unreadable ? .unreadable : .failed
            result.failure = .init(kind: kind, message: message, line: line, t: t)
            return result
        }
        let reader: LogReader
        let header: LogHeader
        do throws(LogReadError) {
            reader = try LogReader(path: input.systemPath)
            header = try reader.readHeader()
        } catch {
            return fail(.unreadable, error.description, line: error.line > 0 ? error.line : nil)
        }
        let settings = self
        var sinks: ReplaySession.Sinks = [.verify, .coverage]
        if settings.includesDiagnostics { sinks.insert(.verifyDiagnostics) }
        // Everything the bus saw is kept only when it may have to be written (a snapshot, an update).
        let keepsSession = settings.update || settings.snapshotFolder != nil
        if keepsSession { sinks.insert(.recording) }
        if reportPath != nil { sinks.insert(.report) }
        let session: ReplaySession
        let reportFile: OutputFile?
        do throws(PipelineError) {
            let pipeline = try pipelines.pipeline(forSessionsIn: PipelineResolver.folder(ofLog: input.path))
            session = try ReplaySession(pipeline: pipeline, header: header, sinks: sinks)
        } catch {
            return fail(.error, error.message)
        }
        do throws(OutputError) {
            reportFile = try reportPath.map { path throws(OutputError) in try OutputFile(path: path) }
        } catch {
            _ = session.finish(Replayer.Summary())
            return fail(.error, error.message)
        }

        var conflicts: [SessionResult.Conflict] = []
        let conflictWatch = session.bus.observe(.diagnostic) { [bus = session.bus] event in
            if event.payload.failure == .conflictingDecisions {
                conflicts.append(.init(t: bus.loop.now.seconds, message: event.payload.message))
            }
        }
        var kept: [LogRecord] = []
        // Under --update, both sides' decisions, to say how many changed.
        var recordedDecisions: [String] = []
        var producedDecisions: [String] = []
        let compares = { (record: LogRecord) in
            settings.includesDiagnostics ? record.origin != .external : DerivedVerifier.isCompared(record)
        }
        if keepsSession { session.onRecord = { kept.append($0) } }
        if settings.update {
            session.onDerived = { (record: consuming LogRecord) in
                if compares(record) { producedDecisions.append(LogWriter.line(for: record)) }
            }
        }
        var problems: [LogReadError] = []
        session.onProblem = { error in
            if !error.isWarning { problems.append(error) }
        }
        if settings.update {
            session.onRecordedDerived = { record, _ in
                if compares(record) { recordedDecisions.append(LogWriter.line(for: record)) }
            }
        }
        // One thread per session: the workers are the parallelism (`--jobs`).
        let summary = session.replay(reader, readAhead: false)
        result.events = summary.externalEvents

        // The decisions: the log's own, else the snapshot's, else none to verify against. A
        // snapshot is fed to the verifier before the session finishes.
        let recordedInLog = summary.recordedDerived
        var snapshotPath: String?
        var recordedInSnapshot = false
        var snapshotProblem: String?
        if recordedInLog == 0, let folder = settings.snapshotFolder, let verifier = session.verifier {
            let path = folder + "/" + Self.snapshotName(input.name)
            snapshotPath = path
            if access(path, F_OK) == 0 {
                recordedInSnapshot = true
                do throws(LogReadError) {
                    try Self.feedRecorded(from: path, to: verifier) { record in
                        if settings.update && compares(record) { recordedDecisions.append(LogWriter.line(for: record)) }
                    }
                } catch {
                    snapshotProblem = "its snapshot \(path) cannot be read: \(error)"
                }
            }
        }
        let replayed = session.finish(summary)
        conflictWatch.cancel()
        result.conflicts = conflicts
        result.derived = replayed.derived
        result.pluginFaults = replayed.pluginFaults
        // A plugin that failed under the stop policy cut the replay short: nothing of it is judged
        // or written (an update or a snapshot would hold only the part before the stop).
        if let stop = replayed.stoppedByPlugin {
            return fail(.error, "\(stop); the replay stopped there (plugin failure policy stop)")
        }
        if let reportFile, let reportPath {
            let document = session.reportDocument(logName: String(input.path.split(separator: "/").last ?? Substring(input.path)))
            let html = document?.html() ?? ""
            do throws(OutputError) {
                try Self.write(html, to: reportFile)
            } catch {
                return fail(.error, error.message)
            }
            if let document {
                result.reportWritten =
                    "report: wrote \(reportPath) (\(html.utf8.count >> 10) KiB; \(Markup.count(document.recorder.items.count, "record")), \(Markup.count(document.recorder.violations.count, "violation")))"
            }
        }

        if let first = problems.first {
            return fail(
                .lines, "\(problems.count) line\(problems.count == 1 ? "" : "s") could not be read; the first: line \(first.line): \(first.message)",
                line: first.line)
        }
        if !settings.allowsPluginFailures, let first = replayed.pluginFaults.first {
            return fail(.plugin, Self.describe(replayed.pluginFaults), t: first.t)
        }
        if let snapshotProblem { return fail(.snapshot, snapshotProblem) }
        if recordedInLog == 0 && !recordedInSnapshot {
            guard let snapshotPath else {
                return fail(
                    .unrecorded,
                    "the log holds no recorded decisions to verify; record them with --record-missing DIR, or use a log written by `replay --record`")
            }
            do throws(OutputError) {
                try Self.write(header: header, records: kept, to: snapshotPath)
            } catch {
                return fail(.error, error.message)
            }
            result.status = .recorded
            result.note = "wrote \(replayed.derived) decision\(replayed.derived == 1 ? "" : "s") to \(snapshotPath)"
        } else if let difference = replayed.verification?.difference {
            if settings.update {
                if !recordedInSnapshot && !input.systemPath.isUTF8 {
                    return fail(.error, "cannot rewrite '\(input.path)': its name is not UTF-8; rename it to update it")
                }
                let target = recordedInSnapshot ? snapshotPath ?? input.path : input.path
                do throws(OutputError) {
                    // The log keeps its external events and takes the new decisions (diagnostics are
                    // decisions of their own plugins: they are written too).
                    try Self.write(header: header, records: kept, to: target)
                } catch {
                    return fail(.error, error.message)
                }
                result.status = .updated
                let changed =
                    zip(recordedDecisions, producedDecisions).count { $0 != $1 } + abs(recordedDecisions.count - producedDecisions.count)
                result.note =
                    "rewrote \(target): \(changed) decision\(changed == 1 ? "" : "s") changed (\(recordedDecisions.count) before, \(producedDecisions.count) now); the first: \(difference)"
            } else {
                result.status = .failed
                result.failure = .init(
                    kind: .verify, message: difference.description, line: difference.line, t: difference.t, difference: difference)
                return result
            }
        } else {
            result.status = .passed
        }
        if let violation = replayed.violations.first {
            result.status = .failed
            let count = replayed.violations.count
            result.failure = .init(
                kind: .check,
                message:
                    "the focused field was left covered \(count) time\(count == 1 ? "" : "s"); the first at t \(JSONText.number(violation.t)): \(violation)",
                t: violation.t)
        }
        return result
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

    /// Where under the snapshot folder a session's snapshot goes: its name, without a leading `/`,
    /// and with `..` components made harmless, so that every snapshot stays inside the folder.
    public static func snapshotName(_ name: String) -> String {
        name.split(separator: "/").map { $0 == ".." ? "__" : String($0) }.filter { $0 != "." }.joined(separator: "/")
    }

    /// Feeds the derived records of the snapshot at `path` to `verifier` as recorded.
    private static func feedRecorded(from path: String, to verifier: DerivedVerifier, also: (LogRecord) -> Void) throws(LogReadError) {
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
