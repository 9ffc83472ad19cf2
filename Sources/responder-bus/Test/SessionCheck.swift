import EventLog
import ResponderBus
import ResponderBusExternal

#if canImport(Glibc)
    import Glibc
#endif

/// What `responder-bus test` found for one session.
struct SessionResult: Sendable {
    enum Status: String, Sendable {
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
        var passes: Bool { self == .passed || self == .recorded || self == .updated }
    }

    /// Why a session failed.
    struct Failure: Sendable {
        enum Kind: String, Sendable {
            /// The replay derived something other than was recorded.
            case verify
            /// The focused field was left covered by the keyboard.
            case check
            /// Nothing recorded to verify against, and no `--record-missing`.
            case unrecorded
            /// Lines of the log could not be read.
            case lines
            /// The log or its header could not be read.
            case unreadable
            /// The session's snapshot (under `--record-missing`) could not be read.
            case snapshot
            /// A plugin could not be set up, or an output could not be written.
            case error
        }
        var kind: Kind
        /// One line for a person.
        var message: String
        /// Where in the log, when known.
        var line: Int?
        /// The log time, when known.
        var t: Double?
        /// The first difference, for `verify`.
        var difference: DerivedVerifier.Difference?
    }

    let input: SessionInput
    var status: Status
    /// External events replayed.
    var events = 0
    /// Derived events the plugins posted.
    var derived = 0
    /// Wall-clock seconds the session took.
    var seconds = 0.0
    var failure: Failure?
    /// What was written, for `recorded` and `updated` (the file, and for an update what changed).
    var note: String?
}

/// The settings every session of one `responder-bus test` run shares.
struct SessionSettings: Sendable {
    /// Built-in plugins turned off.
    var disabled: Set<String> = []
    /// Libraries loaded with `--plugin`: a fresh instance per session.
    var plugins: [PluginSource] = []
    /// `--plugin-command` plugins: a process of each per session.
    var pluginCommands: [ExternalPlugin.Configuration] = []
    /// `--verify-diagnostics`.
    var includesDiagnostics = false
    /// `--record-missing DIR`.
    var snapshotFolder: String?
    /// `--update`.
    var update = false
}

/// A plugin library loaded once, made anew for each session's bus.
struct PluginSource: Sendable {
    let factory: PluginFactory
    let position: PluginPosition?
}

/// Replays one session the way `responder-bus test` judges it: on the virtual-time loop, with the
/// coverage check, verifying the recorded decisions (in the log, or in its snapshot under
/// `--record-missing`). Runs on whichever thread calls it, with its own loop and bus.
enum SessionCheck {
    /// Replays `input` and says how it went; `reportPath`, when given, gets the HTML report.
    static func run(_ input: SessionInput, _ settings: SessionSettings, reportPath: String? = nil) -> SessionResult {
        let start = monotonicSeconds()
        var result = check(input, settings, reportPath: reportPath)
        result.seconds = monotonicSeconds() - start
        return result
    }

    private static func check(_ input: SessionInput, _ settings: SessionSettings, reportPath: String?) -> SessionResult {
        var result = SessionResult(input: input, status: .failed)
        func fail(_ kind: SessionResult.Failure.Kind, _ message: String, line: Int? = nil, t: Double? = nil) -> SessionResult {
            result.status = kind == .unreadable ? .unreadable : .failed
            result.failure = .init(kind: kind, message: message, line: line, t: t)
            return result
        }
        let reader: LogReader
        let header: LogHeader
        do throws(LogReadError) {
            reader = try LogReader(path: input.path)
            header = try reader.readHeader()
        } catch {
            return fail(.unreadable, error.description, line: error.line > 0 ? error.line : nil)
        }

        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop, screen: Screen(size: header.screen, safeArea: header.safeArea ?? .zero))
        do {
            try BuiltinPlugins.register(on: bus, disabling: settings.disabled)
            for source in settings.plugins {
                try bus.register(try source.factory.make(), at: source.position)
            }
        } catch {
            return fail(.error, "cannot set up the plugins: \(error)")
        }
        let external: [ExternalPlugin]
        do throws(PluginCommands.StartFailure) {
            external = try PluginCommands.start(settings.pluginCommands, header: header, on: bus)
        } catch {
            return fail(.error, error.message)
        }
        defer { for plugin in external { plugin.shutDown() } }
        let replayer = Replayer(bus: bus)
        replayer.apply(header)

        // What the log recorded, verified as it streams; everything the bus saw, kept only when it
        // may have to be written (a snapshot, an update).
        let verifier = DerivedVerifier(includingDiagnostics: settings.includesDiagnostics)
        var recordedInLog = 0
        let keepsSession = settings.update || settings.snapshotFolder != nil
        var session: [LogRecord] = []
        // Under --update, both sides' decisions, to say how many changed.
        var recordedDecisions: [String] = []
        var producedDecisions: [String] = []
        let compares = { (record: LogRecord) in
            settings.includesDiagnostics ? record.origin != .external : DerivedVerifier.isCompared(record)
        }
        var derived = 0
        let recorder = LogRecorder(bus: bus, selection: keepsSession ? .all : .derived, clock: replayer.logClock) {
            record in
            if keepsSession { session.append(record) }
            guard record.origin != .external else { return }
            derived += 1
            verifier.addProduced(record)
            if settings.update && compares(record) { producedDecisions.append(LogWriter.line(for: record)) }
        }
        replayer.onRecordedDerived = { record, location in
            recordedInLog += 1
            verifier.addRecorded(record, at: location)
            if settings.update && compares(record) { recordedDecisions.append(LogWriter.line(for: record)) }
        }
        var problems: [LogReadError] = []
        replayer.onProblem = { error in
            if !error.isWarning { problems.append(error) }
        }
        let coverage = CoverageCheck(bus: bus)
        var report: ReplayReport?
        if let reportPath {
            do throws(OutputError) {
                report = try ReplayReport(path: reportPath, bus: bus, clock: replayer.logClock)
            } catch {
                return fail(.error, error.message)
            }
            coverage.onViolation = { [weak report] violation in report?.note(violation) }
        }
        // One thread per session: the workers are the parallelism (`--jobs`).
        let summary = replayer.replay(reader, on: loop, strict: false, readAhead: false)
        recorder.stop()
        coverage.stop()
        result.events = summary.externalEvents
        result.derived = derived
        if let report {
            do throws(OutputError) {
                try report.finish(log: input.path, header: header, summary: summary, plugins: bus.pluginNames, disabled: settings.disabled.sorted())
            } catch {
                return fail(.error, error.message)
            }
        }

        if let first = problems.first {
            return fail(
                .lines, "\(problems.count) line\(problems.count == 1 ? "" : "s") could not be read; the first: line \(first.line): \(first.message)",
                line: first.line)
        }
        // The decisions: the log's own, else the snapshot's, else none to verify against.
        var snapshotPath: String?
        var recordedInSnapshot = false
        if recordedInLog == 0, let folder = settings.snapshotFolder {
            let path = folder + "/" + snapshotName(input.name)
            snapshotPath = path
            if access(path, F_OK) == 0 {
                recordedInSnapshot = true
                do throws(LogReadError) {
                    try feedRecorded(from: path, to: verifier) { record in
                        if settings.update && compares(record) { recordedDecisions.append(LogWriter.line(for: record)) }
                    }
                } catch {
                    return fail(.snapshot, "its snapshot \(path) cannot be read: \(error)")
                }
            }
        }
        if recordedInLog == 0 && !recordedInSnapshot {
            guard let snapshotPath else {
                return fail(
                    .unrecorded,
                    "the log holds no recorded decisions to verify; record them with --record-missing DIR, or use a log written by `replay --record`")
            }
            do throws(OutputError) {
                try write(header: header, records: session, to: snapshotPath)
            } catch {
                return fail(.error, error.message)
            }
            result.status = .recorded
            result.note = "wrote \(derived) decision\(derived == 1 ? "" : "s") to \(snapshotPath)"
        } else if let difference = verifier.finish().flatMap({ _ in verifier.difference }) {
            if settings.update {
                let target = recordedInSnapshot ? snapshotPath! : input.path
                do throws(OutputError) {
                    // The log keeps its external events and takes the new decisions (diagnostics are
                    // decisions of their own plugins: they are written too).
                    try write(header: header, records: session, to: target)
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
        if let violation = coverage.violations.first {
            result.status = .failed
            let count = coverage.violations.count
            result.failure = .init(
                kind: .check,
                message:
                    "the focused field was left covered \(count) time\(count == 1 ? "" : "s"); the first at t \(JSONText.number(violation.t)): \(violation)",
                t: violation.t)
        }
        return result
    }

    /// Where under the snapshot folder a session's snapshot goes: its name, without a leading `/`,
    /// and with `..` components made harmless, so that every snapshot stays inside the folder.
    static func snapshotName(_ name: String) -> String {
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

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
