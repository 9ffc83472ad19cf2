import ArgumentParser
import EventLog
import ResponderBus
import ResponderBusPlatform
import ResponderBusReplay
import ResponderBusReport
import ResponderBusSessions

/// `responder-bus test`: a folder of recorded sessions as a regression suite.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Replay recorded sessions as a test suite: verify each one's decisions and check no field is left covered.",
        discussion: """
            Each session is replayed on the virtual-time loop through the built-in plugins (and any \
            --plugin), with the coverage check; where the log holds recorded decisions (a log written \
            by `replay --record`), the replay must derive exactly those, and the first difference is \
            named (record, line, time, expected, got). A session without recorded decisions fails, \
            unless --record-missing DIR writes them there (the next run verifies against them). \
            Lines that cannot be read fail the session; a log that cannot be opened, or whose header \
            is bad, is unreadable. An out-of-process plugin that fails (restarted, disabled) fails the \
            session, quoting its fault and its last line on standard error, unless \
            --allow-plugin-failures. Two plugins that set the root, a scroll view or the first \
            responder against each other in one loop turn (a conflict the bus names) fail the \
            session, naming the first conflict, unless --allow-conflicts or the project file's \
            "allowConflicts": true; allowed, the conflicts are listed under the session's line.

            One line per session on standard output, in the order of the inputs whatever finishes \
            first; a progress line on a terminal's standard error; a summary at the end, counting the \
            conflicts between plugins when there were any. Exit 0 when \
            every session passes, 1 when any fails or is unreadable, 65 when none could be read, 66 \
            when no session was found.

            Examples:
              responder-bus test sessions/
              responder-bus test sessions/ --jobs 2 --junit results.xml --report-dir failures/
              responder-bus test sessions/ --record-missing snapshots/
              responder-bus test sessions/ --update
              find sessions -name '*.jsonl' | responder-bus test - --shard 2/4
            """
    )

    @Argument(
        help: """
            Session logs: files, folders (every *.jsonl below them), or - for a list of paths on standard input \
            (default: the folder RESPONDER_BUS_SESSIONS names, which `swift package responder-bus` sets to sessions).
            """)
    var paths: [String] = []

    /// The sessions named, or the folder `RESPONDER_BUS_SESSIONS` names when none is (`swift
    /// package responder-bus test` runs a package's `sessions/`).
    var sessionPaths: [String] {
        if !paths.isEmpty { return paths }
        guard let folder = getenv("RESPONDER_BUS_SESSIONS").map({ String(cString: $0) }), !folder.isEmpty else { return [] }
        return [folder]
    }

    @Option(help: "Replay this many sessions at once, one thread each (default: the machine's cores).")
    var jobs: Int?

    @Option(help: ArgumentHelp("Take this share of the sessions, as runner I of N (by a hash of each session's name).", valueName: "I/N"))
    var shard: String?

    @Option(help: ArgumentHelp("Write the results as JUnit XML to this file.", valueName: "file.xml"))
    var junit: String?

    @Option(help: ArgumentHelp("Write the HTML report of each failing session into this folder, with an index.html.", valueName: "dir"))
    var reportDir: String?

    @Option(
        help: ArgumentHelp(
            "For sessions without recorded decisions: verify against their snapshot in this folder, or write it there when there is none.",
            valueName: "dir"))
    var recordMissing: String?

    @Flag(help: "Rewrite the decisions of sessions whose replay differs (the log itself, or its snapshot), saying what changed.")
    var update = false

    @Flag(help: "Compare the diagnostics the plugins derive too.")
    var verifyDiagnostics = false

    @Flag(
        help:
            "Let sessions pass whose out-of-process plugins failed (were restarted, disabled or stopped the replay); by default such a session fails, quoting the fault."
    )
    var allowPluginFailures = false

    @Flag(
        help:
            "Let sessions pass in which two plugins set the root, a scroll view or the first responder against each other in one loop turn (a project file allows them with \"allowConflicts\": true); by default such a session fails, naming the conflict."
    )
    var allowConflicts = false

    @Flag(
        help:
            "Also check the properties of `explore` one replay can check: the screen put back when the keyboard covers nothing, and nothing moved twice for one change (a project file checks them with \"checkProperties\": true, as explore writes beside its findings)."
    )
    var checkProperties = false

    @Flag(name: .shortAndLong, help: "Print only the sessions that did not pass (and those written), and the summary.")
    var quiet = false

    @OptionGroup(title: "Pipeline") var pipeline: PipelineOptions

    func validate() throws {
        if sessionPaths.isEmpty { throw ValidationError("give the sessions to test: files, folders, or - for a list on standard input") }
        if let jobs, jobs < 1 || jobs > 1024 { throw ValidationError("--jobs must be between 1 and 1024, got \(jobs)") }
        if let shard, Shard(shard) == nil {
            throw ValidationError("--shard takes I/N with 1 ≤ I ≤ N (such as --shard 2/4), got '\(shard)'")
        }
        if junit == "-" || junit == "" { throw ValidationError("--junit needs a file to write, such as --junit results.xml") }
        if reportDir == "" { throw ValidationError("--report-dir needs a folder, such as --report-dir failures") }
        if recordMissing == "" { throw ValidationError("--record-missing needs a folder, such as --record-missing snapshots") }
    }

    /// A session's verdict as the terminal shows it: escaped line by line, so that its conflicts
    /// between plugins are lines of their own.
    static func verdict(_ result: SessionResult) -> String {
        TerminalColour.verdict(TerminalText.escapedLines(SessionSuite.line(for: result)))
    }

    func run() throws {
        _ = StandardOutput.wasClosed
        _ = OutputFile.creationMask  // read before any worker thread creates files
        // The command line's own pipeline first: a library that cannot be loaded is 78 before any
        // session is looked for.
        let resolver = try pipeline.resolver(unknownKeysFail: true)  // a project file's typo fails the suite (78)
        do throws(PipelineError) {
            _ = try ReplayPipeline(resolver.overrides)
        } catch {
            complain(error.message)
            throw ExitCode(error.exitCode)
        }
        var sessions: [SessionInput]
        do throws(SessionList.Problem) {
            sessions = try SessionList.collect(sessionPaths)
        } catch {
            complain(error.description)
            throw error.isUsage ? ExitCode.validationFailure : Exit.noInput
        }
        guard !sessions.isEmpty else {
            complain("no sessions found (a folder's sessions are its *.jsonl files)")
            throw Exit.noInput
        }
        // The JUnit file must not be one of the sessions (nor standard output).
        if let junit, let clash = OutputClash.check(inputs: sessions.map(\.path), outputs: [junit, "-"]) {
            complain(clash)
            throw ExitCode.validationFailure
        }
        // Each folder's pipeline (its project file's, these options over it), checked once before
        // any session, in every shard alike: a plugin or project file that cannot be used is said
        // once, with 78.
        let suite = SessionSuite(
            pipelines: resolver, includesDiagnostics: verifyDiagnostics, snapshotFolder: recordMissing, update: update,
            allowsPluginFailures: allowPluginFailures, allowsConflicts: allowConflicts, checksProperties: checkProperties)
        do throws(PipelineError) {
            try suite.prepare(sessions)
        } catch {
            complain(error.message)
            throw ExitCode(error.exitCode)
        }
        let found = sessions.count
        if let shard = shard.flatMap(Shard.init) {
            sessions = sessions.filter(shard.contains)
            complain("shard \(shard): \(sessions.count) of \(found) session\(found == 1 ? "" : "s")")
        }
        let jobs = self.jobs ?? max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let output = Output()
        let progress = TestProgress(total: sessions.count)
        let run = suite.run(
            sessions, jobs: jobs,
            each: { result in
                guard !quiet || !result.status.passes || result.note != nil else { return }
                progress.clear()
                output.line(Self.verdict(result))
                output.flush()
            },
            tick: { done, failed in progress.update(done: done, failed: failed) })
        progress.clear()
        output.line(run.summary)
        output.flush()

        var writeError: OutputError?
        if let junit {
            do throws(OutputError) {
                try run.writeJUnit(to: junit)
            } catch {
                writeError = writeError ?? error
            }
        }
        if let reportDir {
            do throws(OutputError) {
                let failing = try suite.writeFailureReports(run, into: reportDir) { complain($0) }
                complain("report: wrote \(reportDir)/index.html (\(failing) failing session\(failing == 1 ? "" : "s"))")
            } catch {
                writeError = writeError ?? error
            }
        }
        if let error = output.error ?? writeError { throw error.reported() }
        if run.exitCode != 0 { throw ExitCode(run.exitCode) }
    }
}
