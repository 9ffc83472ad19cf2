import ArgumentParser
import Dispatch
import EventLog
import ResponderBus
import ResponderBusExternal
import ResponderBusPlatform
import ResponderBusReplay
import ResponderBusReport
import ResponderBusUV
import Synchronization

/// What `replay` prints and writes for the sessions the library replays (one; with `--follow`, one
/// for each time the log starts anew): the timeline or the records on standard output, the
/// recording, the report, the summary and the checks' verdicts. Every session's sink.
final class ReplayPrinter: ReplaySink {
    struct Outcome: Sendable {
        var stopped = false
        var failedCheck = false
        /// An external plugin failed with `--plugin-failure stop`.
        var pluginStopped = false
        /// The first output that could not be written (standard output, `--record`, `--report`).
        var outputError: OutputError?
    }

    let command: ReplayCommand
    let pipeline: ReplayPipeline
    let output = Output()
    /// How many sessions have started: `--follow` starts one more when the log is truncated or
    /// replaced. The recording and the report hold the first.
    private(set) var sessionsStarted = 0
    /// In live modes (`--follow`, `--realtime`), what was written is flushed at the end of every
    /// loop turn, on this loop; otherwise output is written in 64 KiB blocks.
    private var liveLoop: (any BusLoop)? {
        didSet { flushesEveryTurn = liveLoop != nil }
    }
    /// Whether ``liveLoop`` is set: read for every line, so kept as a plain flag.
    private var flushesEveryTurn = false
    /// Whether the decisions are printed as records (`--format jsonl`), not in the timeline. The
    /// sinks read it for every decision: a copy of the option, whose property wrapper is not free.
    private let printsRecords: Bool
    /// Whether the timeline is coloured (``TerminalColour``): standard output, a terminal.
    private let colours: Bool
    /// Whether the input is a stream that does not end by itself (a pipe, standard input from a
    /// program still writing): its records are decided as they arrive, and what they print is
    /// flushed at the end of each turn of the session's own loop.
    private var streamsInput = false
    private var flushScheduled = false
    private var recordOutput: Output?
    private var recordFile: OutputFile?
    private var report: (file: ReplayReport, session: ReplaySession)?
    private var pluginStopped = false
    /// The progress line of the session under way.
    private var progress: Progress?
    /// What the sessions that ended found, added up.
    private var derived = 0
    private var violations: [CoverageViolation] = []
    /// How many conflicts between plugins the bus named.
    private var conflicts = 0
    private var matched = 0
    private var difference: DerivedVerifier.Difference?
    private var last: ReplayResult?
    /// The out-of-process plugins' faults, of every session.
    private var pluginFaults: [ExternalPlugin.Fault] = []

    init(command: ReplayCommand, pipeline: ReplayPipeline) {
        self.command = command
        self.pipeline = pipeline
        printsRecords = command.format != .text
        colours = TerminalColour.isEnabled && command.format == .text
    }

    private var options: ReplaySession.Options {
        var options: ReplaySession.Options = []
        if command.verify { options.insert(.verify) }
        if command.verifyDiagnostics { options.insert(.verifyDiagnostics) }
        if command.check { options.insert(.coverage) }
        if command.format == .text { options.insert(.timeline) }
        return options
    }

    // MARK: Sessions

    /// Flushes standard output and the recording at the end of the current loop turn (once per
    /// turn), in live modes. Loop-confined.
    private func flushAtEndOfTurn() {
        guard let liveLoop, !flushScheduled else { return }
        flushScheduled = true
        liveLoop.runAtEndOfTurn { [self] in
            flushScheduled = false
            output.flush()
            recordOutput?.flush()
        }
    }

    /// Makes live output flush at the end of every turn of `loop`.
    func flushEveryTurn(on loop: any BusLoop) {
        liveLoop = loop
    }

    /// Starts a session of the log with `header` on `loop` (`nil`: a virtual-time loop of its own):
    /// the library's session collecting what this command asks for, this printer its sink.
    /// Loop-confined.
    ///
    /// - Throws: the exit code, having said why.
    func startSession(header: LogHeader, on loop: (any BusLoop)?, progress: Progress) throws -> ReplaySession {
        let firstSession = sessionsStarted == 0
        sessionsStarted += 1
        var options = options
        let recording = firstSession && command.record != nil
        if recording { options.insert(.recording) }
        if firstSession && command.report != nil { options.insert(.report) }
        let session: ReplaySession
        do throws(PipelineError) {
            if let loop {
                session = try ReplaySession(pipeline: pipeline, header: header, loop: loop, options: options, sinks: [self])
            } else {
                session = try ReplaySession(pipeline: pipeline, header: header, options: options, sinks: [self])
                if streamsInput { liveLoop = session.bus.loop }
            }
        } catch {
            complain(error.message)
            throw ExitCode(error.exitCode)
        }
        do throws(OutputError) {
            if recording, let path = command.record {
                let file = try OutputFile(path: path)
                let output = Output(file: file)
                output.line(LogWriter.line(for: header))
                recordFile = file
                recordOutput = output
            }
            if firstSession, let path = command.report {
                report = (try ReplayReport(path: path), session)
            }
        } catch {
            _ = session.finish(Replayer.Summary())
            throw error.reported()
        }
        self.progress = progress
        return session
    }

    // MARK: The sessions' sink

    func record(_ record: LogRecord) {
        recordOutput?.line(record)
        if flushesEveryTurn { flushAtEndOfTurn() }
    }

    func decided(_ record: consuming LogRecord) {
        // The timeline prints the decisions among its lines.
        guard printsRecords else { return }
        output.line(record)
        if flushesEveryTurn { flushAtEndOfTurn() }
    }

    func timeline(_ line: String) {
        output.line(colours ? TerminalColour.timeline(line) : line)
        if flushesEveryTurn { flushAtEndOfTurn() }
    }

    func problem(_ error: LogReadError) {
        progress?.finish()
        complain("\(command.log): \(error.isWarning ? "warning: " : "")\(error)")
    }

    /// Each fault is said as it happens (the stop included); a plugin that exited or crashed has
    /// its last lines on standard error (a traceback) in the message.
    func pluginFailed(_ fault: ExternalPlugin.Fault) {
        progress?.finish()
        complain(fault.message)
    }

    func pluginStopped(_ message: String) {
        pluginStopped = true
    }

    func progress(read: Int, of total: Int?) {
        progress?.update(read, total)
    }

    func waitsLong(until logTime: Double, for wait: Duration) {
        progress?.finish()
        complain(
            "\(command.log): waiting \(Int(wait.seconds.rounded())) s for t=\(JSONText.number(logTime)) s of the log at --speed \(JSONText.number(command.speed)) (a gap in the log?); Ctrl-C ends the replay"
        )
    }

    /// Ends a session: its result added to the run's. Loop-confined.
    func endSession(_ session: ReplaySession, summary: Replayer.Summary) {
        absorb(session.finish(summary))
    }

    /// Adds a finished session's result to the run's.
    func absorb(_ result: ReplayResult) {
        derived += result.derived
        violations += result.violations
        conflicts += result.conflicts.count
        if let verification = result.verification {
            matched += verification.matched
            difference = difference ?? verification.difference
        }
        pluginFaults += result.pluginFaults
        last = result
    }

    /// Ends the recording now (committed, at a record boundary): `--follow` records only its
    /// first session, whose header the file has. Loop-confined.
    func endRecording(because reason: String) -> OutputError? {
        guard let recordOutput, let recordFile else { return nil }
        self.recordOutput = nil
        self.recordFile = nil
        recordOutput.flush()
        do throws(OutputError) {
            if let error = recordOutput.error { throw error }
            try recordFile.commit()
            complain("\(command.record ?? ""): the recording ends here, with the first session (\(reason))")
            return nil
        } catch {
            recordFile.abandon()
            return error
        }
    }

    // MARK: Running

    func runVirtual(_ reader: LogReader, header: LogHeader) throws -> Outcome {
        let progress = Progress(totalBytes: reader.totalBytes)
        // A pipe: each record is read as it is written (one at a time), so its decisions are
        // printed then, flushed at the end of its turn, not when the input ends.
        streamsInput = reader.totalBytes == nil
        let session = try startSession(header: header, on: nil, progress: progress)
        // As fast as possible: encoding and writing what is printed overlaps with the replay, on
        // the thread that reads the log ahead.
        if !streamsInput { output.writeInBackground() }
        let summary = session.replay(reader, strict: command.strict, helper: output.backgroundThread)
        progress.finish()
        endSession(session, summary: summary)
        return finish(summary)
    }

    /// `--realtime`: paced on the libuv loop, output flushed at the end of every loop turn. Ctrl-C or
    /// SIGTERM ends it as the log's end would: the summary, the checks, the recording complete.
    ///
    /// The printer and the reader are handed to the loop's thread (`sending`: the caller keeps
    /// neither), which alone uses them; the outcome comes back through a `Mutex`.
    static func runOnLibuv(_ printer: sending ReplayPrinter, reader: sending LogReader, header: LogHeader) throws -> Outcome {
        let loop = UVEventLoop()
        let done = DispatchSemaphore(value: 0)
        let result = LoopResult()
        let handoff = Handoff((printer, reader))
        loop.execute {
            guard let (printer, reader) = handoff.take() else { return }
            printer.liveLoop = loop
            let progress = Progress(totalBytes: nil)
            do {
                let session = try printer.startSession(header: header, on: loop, progress: progress)
                var watches: [UVWatch] = []
                var ended = false
                let end: (Replayer.Summary) -> Void = { summary in
                    guard !ended else { return }
                    ended = true
                    for watch in watches { watch.stop() }
                    progress.finish()
                    printer.endSession(session, summary: summary)
                    result.finish(with: printer.finish(summary))
                    done.signal()
                }
                watches.append(loop.watchSignals([SIGINT, SIGTERM]) { _ in end(session.replayer.currentSummary) })
                session.replayInRealTime(reader, speed: printer.command.speed, strict: printer.command.strict, completion: end)
            } catch {
                result.fail(with: error)
                done.signal()
            }
        }
        done.wait()
        loop.shutdown()
        return try result.outcome()
    }

    /// The plugins whose faults ended them (disabled, or the session stopped), in order.
    private var endedPlugins: [String] { ExternalPlugin.Fault.endedPlugins(in: pluginFaults) }

    /// A plugin in the summary's list: `(loaded)` from a library; `(command)` out of process, with
    /// its faults: `(command; failed 4 times, disabled)`.
    private func describe(plugin name: String, loaded: Set<String>) -> String {
        if loaded.contains(name) { return "\(name) (loaded)" }
        guard last?.externalPlugins.contains(name) == true else { return name }
        let faults = pluginFaults.filter { $0.plugin == name }
        guard let final = faults.last else { return "\(name) (command)" }
        let ending: String
        switch final.outcome {
        case .restarting: ending = "restarted"
        case .disabled: ending = "disabled"
        case .stopped: ending = "stopped the run"
        }
        return "\(name) (command; failed \(faults.count) time\(faults.count == 1 ? "" : "s"), \(ending))"
    }

    /// Prints the summary and what the checks found, and completes the recording and the report.
    func finish(_ summary: Replayer.Summary) -> Outcome {
        var outcome = Outcome()
        outcome.pluginStopped = pluginStopped
        printSummary(summary)
        output.flush()
        let filesError = completeFiles(failedRun: pluginStopped || summary.stoppedAt != nil)
        outcome.outputError = output.error ?? filesError
        sayVerdicts(summary, into: &outcome)
        return outcome
    }

    /// The summary on standard output: the `--format jsonl` summary record, or the timeline's last
    /// two lines.
    private func printSummary(_ summary: Replayer.Summary) {
        let firstResponder = last?.firstResponder?.rawValue
        let originY = last?.rootOriginY ?? 0
        let pipelineNames = last?.plugins ?? []
        let loaded = Set(last?.addedPlugins ?? [])
        if command.format == .jsonl {
            func list(_ names: [String]) -> String { "[" + names.map(JSONText.string).joined(separator: ",") + "]" }
            let commands = last?.externalPlugins ?? []
            output.line(
                "{\"commandPlugins\":\(list(commands)),\"conflicts\":\(conflicts),\"derived\":\(derived),\"disabledPlugins\":\(list(endedPlugins)),\"event\":\"summary\",\"events\":\(summary.externalEvents),\"firstResponder\":\(firstResponder.map(JSONText.string) ?? "null"),\"loadedPlugins\":\(list(pipelineNames.filter(loaded.contains))),\"originY\":\(JSONText.number(originY)),\"pluginFaults\":\(pluginFaults.count),\"plugins\":\(list(pipelineNames)),\"violations\":\(violations.count),\"warnings\":\(summary.warnings)}"
            )
        } else {
            output.line(
                TerminalText.escaped(
                    "\(summary.externalEvents) events, \(derived) derived; root at y \(JSONText.number(originY)); first responder \(firstResponder.map { "'\($0)'" } ?? "none")"
                        + (command.check ? "; \(violations.count) covered-field violation\(violations.count == 1 ? "" : "s")" : "")
                        + (conflicts > 0 ? "; \(conflicts) conflict\(conflicts == 1 ? "" : "s") between plugins" : "")))
            // Which plugins decided, in pipeline order: a loaded one is seen to have run.
            output.line(
                TerminalText.escaped(
                    "plugins: "
                        + (pipelineNames.isEmpty ? "none" : pipelineNames.map { describe(plugin: $0, loaded: loaded) }.joined(separator: " → "))
                ))
        }
    }

    /// Completes `--record` and `--report`; the first write that failed, if any.
    private func completeFiles(failedRun: Bool) -> OutputError? {
        var firstError: OutputError?
        // The recording is renamed into place only when all of it was written: after an interrupt
        // too (it ends at a record boundary), but never after a failed write, nor after a run that
        // failed (a strict stop, a plugin's stop): a failed run leaves the previous file, or none.
        if let recordOutput, let recordFile, failedRun {
            recordOutput.flush()
            recordFile.abandon()
            complain("\(command.record ?? ""): not written, since the run failed; the previous file, if any, is as it was")
        } else if let recordOutput, let recordFile {
            recordOutput.flush()
            do throws(OutputError) {
                if let error = recordOutput.error { throw error }
                try recordFile.commit()
            } catch {
                recordFile.abandon()
                firstError = firstError ?? error
            }
        }
        recordOutput = nil
        recordFile = nil
        if let report, failedRun {
            report.file.abandon()
            complain("\(report.file.path): not written, since the run failed; the previous file, if any, is as it was")
        } else if let report {
            do throws(OutputError) {
                try report.file.write(report.session, log: command.log)
            } catch {
                firstError = firstError ?? error
            }
        }
        report = nil
        return firstError
    }

    /// What was skipped, what stopped the run, and the checks' verdicts, on standard error.
    private func sayVerdicts(_ summary: Replayer.Summary, into outcome: inout Outcome) {
        if summary.rejectedLines > 0 {
            complain("\(command.log): \(summary.rejectedLines) line\(summary.rejectedLines == 1 ? "" : "s") skipped")
        }
        if summary.warnings > 0 {
            complain("\(command.log): \(summary.warnings) line\(summary.warnings == 1 ? "" : "s") read with a warning")
        }
        if let stopped = summary.stoppedAt {
            // A problem that ended the read was said where it was met, with "reading stopped here".
            if !stopped.endsReading { complain("stopped at line \(stopped.line) (--strict)") }
            outcome.stopped = true
        }
        if command.check, !violations.isEmpty {
            if command.format == .jsonl {
                for violation in violations { complain("check: \(violation)") }
            }
            complain("check: the focused field was left covered \(violations.count) time\(violations.count == 1 ? "" : "s")")
            outcome.failedCheck = true
        }
        if command.verify {
            if let difference {
                complain("verify: \(difference)")
                outcome.failedCheck = true
            } else {
                complain("verify: \(matched) derived events match the log")
            }
        }
    }
}

/// What the loop thread's replay ended with, for the main thread waiting on it.
final class LoopResult: Sendable {
    private let value = Mutex<Result<ReplayPrinter.Outcome, any Error>?>(nil)

    /// The replay ended with `outcome`.
    func finish(with outcome: ReplayPrinter.Outcome) {
        value.withLock { $0 = .success(outcome) }
    }

    /// The replay could not start.
    func fail(with error: any Error) {
        value.withLock { $0 = .failure(error) }
    }

    /// The outcome (an empty one if the loop ended without one), or the error.
    func outcome() throws -> ReplayPrinter.Outcome {
        try value.withLock { $0 }?.get() ?? ReplayPrinter.Outcome()
    }
}
