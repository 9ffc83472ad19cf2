import ArgumentParser
import EventLog
import ResponderBus
import ResponderBusExternal
import ResponderBusReport

#if canImport(Glibc)
    import Glibc
#endif

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
            is bad, is unreadable.

            One line per session on standard output, in the order of the inputs whatever finishes \
            first; a progress line on a terminal's standard error; a summary at the end. Exit 0 when \
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

    @Argument(help: "Session logs: files, folders (every *.jsonl below them), or - for a list of paths on standard input.")
    var paths: [String] = []

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

    @Flag(name: .shortAndLong, help: "Print only the sessions that did not pass (and those written), and the summary.")
    var quiet = false

    @Option(name: .customLong("disable"), help: ArgumentHelp("Turn a built-in plugin off (repeatable).", valueName: "name"))
    var disabled: [String] = []

    @Option(
        name: .customLong("plugin"),
        help: ArgumentHelp("Load a plugin library, as `replay --plugin` does (repeatable).", valueName: "path[@position]"))
    var pluginPaths: [String] = []

    @OptionGroup var pluginCommands: PluginCommandOptions

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give the sessions to test: files, folders, or - for a list on standard input") }
        if let jobs, jobs < 1 || jobs > 1024 { throw ValidationError("--jobs must be between 1 and 1024, got \(jobs)") }
        if let shard, Shard(shard) == nil {
            throw ValidationError("--shard takes I/N with 1 ≤ I ≤ N (such as --shard 2/4), got '\(shard)'")
        }
        try BuiltinPlugins.validate(disabling: disabled)
        for argument in pluginPaths { _ = try PluginArgument(argument) }
        if junit == "-" || junit == "" { throw ValidationError("--junit needs a file to write, such as --junit results.xml") }
        if reportDir == "" { throw ValidationError("--report-dir needs a folder, such as --report-dir failures") }
        if recordMissing == "" { throw ValidationError("--record-missing needs a folder, such as --record-missing snapshots") }
    }

    func run() throws {
        _ = StandardOutput.wasClosed
        _ = OutputFile.creationMask  // read before any worker thread creates files
        var settings = SessionSettings(
            disabled: Set(disabled), includesDiagnostics: verifyDiagnostics, snapshotFolder: recordMissing, update: update)
        for argument in pluginPaths {
            let plugin = try PluginArgument(argument)
            do {
                settings.plugins.append(PluginSource(factory: try PluginLoader.factory(plugin.path), position: plugin.position))
            } catch {
                complain(error.message)
                throw Exit.pluginError
            }
        }
        settings.pluginCommands = pluginCommands.configurations()
        // A command that cannot start is said once, with 78, as `replay` says it, rather than as
        // every session's failure.
        do throws(PluginCommands.StartFailure) {
            try PluginCommands.probe(settings.pluginCommands)
        } catch {
            complain(error.message)
            throw Exit.pluginError
        }
        var sessions: [SessionInput]
        do throws(SessionList.Problem) {
            sessions = try SessionList.collect(paths)
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
        let found = sessions.count
        if let shard = shard.flatMap(Shard.init) {
            sessions = sessions.filter(shard.contains)
            complain("shard \(shard): \(sessions.count) of \(found) session\(found == 1 ? "" : "s")")
        }
        let jobs = self.jobs ?? max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let output = Output()
        let progress = TestProgress(total: sessions.count)
        let start = monotonicSeconds()
        let run = TestRun(sessions: sessions, settings: settings, jobs: jobs)
        let results = run.run(
            each: { result in
                guard !quiet || !result.status.passes || result.note != nil else { return }
                progress.clear()
                output.line(TerminalText.escaped(Self.line(for: result)))
                output.flush()
            },
            tick: { done, failed in progress.update(done: done, failed: failed) })
        progress.clear()
        let seconds = monotonicSeconds() - start

        let passed = results.count { $0.status == .passed }
        let failed = results.count { $0.status == .failed }
        let unreadable = results.count { $0.status == .unreadable }
        let recorded = results.count { $0.status == .recorded }
        let updated = results.count { $0.status == .updated }
        let events = results.reduce(0) { $0 + $1.events }
        var summary =
            "\(results.count) session\(results.count == 1 ? "" : "s"): \(passed) passed, \(failed) failed, \(unreadable) unreadable"
        if recorded > 0 { summary += ", \(recorded) recorded" }
        if updated > 0 { summary += ", \(updated) updated" }
        summary += "; \(events) events in \(Self.seconds(seconds))"
        if seconds > 0 && events > 0 {
            summary += " (\(Int(Double(events) / seconds)) events/s, \(Self.count(min(jobs, max(1, results.count)), "job")))"
        }
        output.line(summary)
        output.flush()

        var writeError: OutputError?
        if let junit {
            do throws(OutputError) {
                let file = try OutputFile(path: junit)
                let out = Output(file: file)
                out.line(String(JUnitReport.xml(results, seconds: seconds).dropLast()))
                out.flush()
                if let error = out.error {
                    file.abandon()
                    throw error
                }
                try file.commit()
            } catch {
                writeError = writeError ?? error
            }
        }
        if let reportDir {
            do throws(OutputError) {
                try writeReports(results, into: reportDir, settings: settings)
            } catch {
                writeError = writeError ?? error
            }
        }
        if let error = output.error ?? writeError { throw error.reported() }
        if !results.isEmpty && unreadable == results.count { throw Exit.dataError }
        if failed + unreadable > 0 { throw Exit.checkFailed }
    }

    /// One session's line: its verdict, name, and what happened.
    static func line(for result: SessionResult) -> String {
        let name = result.input.name
        switch result.status {
        case .passed:
            return "pass  \(name) (\(result.events) events, \(result.derived) derived, \(seconds(result.seconds)))"
        case .recorded, .updated:
            return "\(result.status.rawValue)  \(name): \(result.note ?? "")"
        case .failed, .unreadable:
            let failure = result.failure
            let label = result.status == .unreadable ? "UNREADABLE" : "FAIL"
            return "\(label)  \(name): \(failure.map { "\($0.kind.rawValue): \($0.message)" } ?? "failed")"
        }
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    static func seconds(_ value: Double) -> String {
        value < 1 ? "\(Int((value * 1000).rounded())) ms" : "\(Double(Int(value * 100)) / 100) s"
    }

    /// Replays each failing session again with its HTML report (they are few; the pass that judged
    /// them kept no snapshots), then writes `index.html`.
    private func writeReports(_ results: [SessionResult], into folder: String, settings: SessionSettings) throws(OutputError) {
        SessionCheck.makeFolders(for: folder + "/index.html")
        var reportSettings = settings
        reportSettings.update = false
        var failing: [(result: SessionResult, report: String?)] = []
        for result in results where result.status == .failed || result.status == .unreadable {
            guard result.status == .failed else {
                failing.append((result, nil))
                continue
            }
            let relative = SessionCheck.snapshotName(result.input.name) + ".html"
            let path = folder + "/" + relative
            SessionCheck.makeFolders(for: path)
            let again = SessionCheck.run(result.input, reportSettings, reportPath: path)
            if again.failure?.kind == .error {
                // The report could not be written: listed without a link, and said.
                complain("report: \(again.failure?.message ?? "not written") for \(result.input.name)")
                failing.append((result, nil))
            } else {
                failing.append((result, relative))
            }
        }
        let file = try OutputFile(path: folder + "/index.html")
        let out = Output(file: file)
        out.line(String(ReportIndex.html(failing, total: results.count).dropLast()))
        out.flush()
        if let error = out.error {
            file.abandon()
            throw error
        }
        try file.commit()
        complain("report: wrote \(folder)/index.html (\(failing.count) failing session\(failing.count == 1 ? "" : "s"))")
    }
}
