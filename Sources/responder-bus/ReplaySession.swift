import ArgumentParser
import Dispatch
import EventLog
import ResponderBus
import ResponderBusExternal
import ResponderBusReport
import ResponderBusUV
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One replay: the bus, its plugins, and what is printed.
final class ReplaySession {
    struct Outcome: Sendable {
        var stopped = false
        var failedCheck = false
        /// An external plugin failed with `--plugin-failure stop`.
        var pluginStopped = false
        /// The first output that could not be written (standard output, `--record`, `--report`).
        var outputError: OutputError?
    }

    let command: ReplayCommand
    /// The header of the log being replayed; with `--follow`, of the current session's.
    var header: LogHeader!
    let output = Output()
    /// How many sessions have started: `--follow` starts one more when the log is truncated or
    /// replaced. The recording and the report hold the first.
    private(set) var sessionsStarted = 0
    /// In live modes (`--follow`, `--realtime`), what was written is flushed at the end of every
    /// loop turn, on this loop; otherwise output is written in 64 KiB blocks.
    private var liveLoop: (any BusLoop)?
    private var flushScheduled = false
    private var derivedCount = 0
    private var violations: [CoverageViolation] = []
    private var verifier: DerivedVerifier?
    private var recordOutput: Output?
    private var recordFile: OutputFile?
    private var report: ReplayReport?
    /// The `--plugin-command` plugins of the current session, shut down when it ends.
    private var externalPlugins: [ExternalPlugin] = []
    private var pluginStopped = false

    /// Plugins loaded from libraries, registered after the built-ins.
    let loadedPlugins: [LoadedPlugin]

    init(command: ReplayCommand, header: LogHeader?, plugins: [LoadedPlugin] = []) {
        self.command = command
        self.header = header
        self.loadedPlugins = plugins
        if command.verify { verifier = DerivedVerifier(includingDiagnostics: command.verifyDiagnostics) }
    }

    // MARK: Set-up

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

    /// Builds the bus, the plugins, the recorder and the check on `loop`. Loop-confined.
    func makeReplayer(on loop: any BusLoop, progress: Progress) throws -> (Replayer, LogRecorder, CoverageCheck?) {
        let firstSession = sessionsStarted == 0
        sessionsStarted += 1
        let bus = Bus(loop: loop, screen: Screen(size: header.screen, safeArea: header.safeArea ?? .zero))
        do {
            try BuiltinPlugins.register(on: bus, disabling: Set(command.disabled))
        } catch {
            complain("internal error: \(error)")
            throw Exit.internalError
        }
        for loaded in loadedPlugins {
            do {
                try bus.register(loaded.plugin, at: loaded.position)
            } catch {
                complain("cannot use plugin '\(loaded.plugin.name)': \(error.message)")
                throw Exit.pluginError
            }
        }
        let replayer = Replayer(bus: bus)
        try startExternalPlugins(on: bus, replayer: replayer)
        replayer.apply(header)
        let text = command.format == .text
        do throws(OutputError) {
            if firstSession, let path = command.record {
                let file = try OutputFile(path: path)
                let output = Output(file: file)
                output.line(LogWriter.line(for: header))
                recordFile = file
                recordOutput = output
            }
            if firstSession, let path = command.report {
                report = try ReplayReport(path: path, bus: bus, clock: replayer.logClock)
            }
        } catch {
            throw error.reported()
        }
        // Called for every derived record: `self` is captured strongly, which costs nothing per
        // call (an unowned reference is checked and counted at each use). No cycle: the session
        // holds neither the recorder nor the replayer, which `runVirtual`/`runOnLibuv` stop.
        let live = liveLoop != nil
        let recorder = LogRecorder(bus: bus, selection: recordOutput == nil ? .derived : .all, clock: replayer.logClock) {
            [self] (record: consuming LogRecord) in
            recordOutput?.line(copy record)
            if live { flushAtEndOfTurn() }
            guard record.origin != .external else { return }
            derivedCount += 1
            verifier?.addProduced(record)
            if text { output.line(Timeline.derived(record)) } else { output.line(consume record) }
        }
        if text {
            recorder.onUnknown = { [unowned self] event, t in
                // A plugin's own events: shown in the timeline, not part of the format's output.
                guard !(event.name == EventName.turnSettled), let by = event.origin.derivingPlugin else { return }
                output.line(TerminalText.escaped("\(Timeline.time(t))    → \(by): \(event.name.rawValue)"))
            }
        }
        if text {
            replayer.willPost = { [unowned self] record, _ in
                output.line(Timeline.external(record))
                if live { flushAtEndOfTurn() }
            }
        }
        replayer.onProblem = { [unowned self] error in
            progress.finish()
            complain("\(command.log): \(error.isWarning ? "warning: " : "")\(error)")
        }
        if let verifier {
            replayer.onRecordedDerived = { record, location in verifier.addRecorded(record, at: location) }
        }
        replayer.onProgress = { consumed, total in progress.update(consumed, total) }
        var check: CoverageCheck?
        if command.check || report != nil {
            let coverage = CoverageCheck(bus: bus)
            coverage.onViolation = { [unowned self] violation in
                report?.note(violation)
                guard command.check else { return }
                violations.append(violation)
                if text { output.line(TerminalText.escaped("\(Timeline.time(violation.t))  ⚠ covered: \(violation)")) }
            }
            check = coverage
        }
        return (replayer, recorder, check)
    }

    /// Starts the `--plugin-command` plugins (shutting down the previous session's) and registers
    /// them after the loaded libraries. Loop-confined.
    private func startExternalPlugins(on bus: Bus, replayer: Replayer) throws {
        shutDownExternalPlugins()
        let configurations = command.pluginCommands.configurations(failureMode: command.pluginFailure)
        do throws(PluginCommands.StartFailure) {
            externalPlugins = try PluginCommands.start(configurations, header: header, on: bus)
        } catch {
            complain(error.message)
            throw Exit.pluginError
        }
        for plugin in externalPlugins {
            plugin.onStop = { [unowned self, unowned replayer] message in
                complain("\(message); stopping (--plugin-failure stop)")
                pluginStopped = true
                replayer.stop()
            }
        }
    }

    /// Ends the external plugins' processes.
    func shutDownExternalPlugins() {
        for plugin in externalPlugins { plugin.shutDown() }
        externalPlugins = []
    }

    // MARK: Running

    func runVirtual(_ reader: LogReader) throws -> Outcome {
        let loop = VirtualTimeLoop()
        let progress = Progress(totalBytes: reader.totalBytes)
        let (replayer, recorder, check) = try makeReplayer(on: loop, progress: progress)
        // As fast as possible: encoding and writing what is printed overlaps with the replay.
        output.writeInBackground()
        let summary = replayer.replay(reader, on: loop, strict: command.strict)
        progress.finish()
        recorder.stop()
        check?.stop()
        return finish(summary, bus: replayer.bus)
    }

    /// `--realtime`: paced on the libuv loop, output flushed at the end of every loop turn. Ctrl-C or
    /// SIGTERM ends it as the log's end would: the summary, the checks, the recording complete.
    ///
    /// The session and the reader are handed to the loop's thread (`sending`: the caller keeps
    /// neither), which alone uses them; the outcome comes back through a `Mutex`.
    static func runOnLibuv(_ session: sending ReplaySession, reader: sending LogReader) throws -> Outcome {
        let loop = UVEventLoop()
        let done = DispatchSemaphore(value: 0)
        let result = LoopResult()
        let handoff = Handoff((session, reader))
        loop.execute {
            guard let (session, reader) = handoff.take() else { return }
            session.liveLoop = loop
            let progress = Progress(totalBytes: nil)
            do {
                let (replayer, recorder, check) = try session.makeReplayer(on: loop, progress: progress)
                var watches: [UVWatch] = []
                var ended = false
                let end: (Replayer.Summary) -> Void = { summary in
                    guard !ended else { return }
                    ended = true
                    for watch in watches { watch.stop() }
                    progress.finish()
                    recorder.stop()
                    check?.stop()
                    result.finish(with: session.finish(summary, bus: replayer.bus))
                    done.signal()
                }
                watches.append(loop.watchSignals([SIGINT, SIGTERM]) { _ in end(replayer.currentSummary) })
                replayer.replayInRealTime(reader, on: loop, speed: session.command.speed, strict: session.command.strict, completion: end)
            } catch {
                result.fail(with: error)
                done.signal()
            }
        }
        done.wait()
        loop.shutdown()
        return try result.outcome()
    }

    /// Makes live output flush at the end of every turn of `loop`.
    func flushEveryTurn(on loop: any BusLoop) {
        liveLoop = loop
    }

    /// Prints the summary and what the checks found.
    func finish(_ summary: Replayer.Summary, bus: Bus) -> Outcome {
        var outcome = Outcome()
        shutDownExternalPlugins()
        outcome.pluginStopped = pluginStopped
        let firstResponder = bus.screen.firstResponder?.id.rawValue
        let originY = bus.screen.rootOriginY
        let pipeline = bus.pluginNames
        let loaded = Set(loadedPlugins.map(\.plugin.name))
        if command.format == .jsonl {
            let plugins = pipeline.map(JSONText.string).joined(separator: ",")
            let loadedNames = pipeline.filter(loaded.contains).map(JSONText.string).joined(separator: ",")
            output.line(
                "{\"derived\":\(derivedCount),\"event\":\"summary\",\"events\":\(summary.externalEvents),\"firstResponder\":\(firstResponder.map(JSONText.string) ?? "null"),\"loadedPlugins\":[\(loadedNames)],\"originY\":\(JSONText.number(originY)),\"plugins\":[\(plugins)],\"violations\":\(violations.count),\"warnings\":\(summary.warnings)}"
            )
        } else {
            output.line(
                TerminalText.escaped(
                    "\(summary.externalEvents) events, \(derivedCount) derived; root at y \(JSONText.number(originY)); first responder \(firstResponder.map { "'\($0)'" } ?? "none")"
                        + (command.check ? "; \(violations.count) covered-field violation\(violations.count == 1 ? "" : "s")" : "")))
            // Which plugins decided, in pipeline order: a loaded one is seen to have run.
            output.line(
                TerminalText.escaped(
                    "plugins: " + (pipeline.isEmpty ? "none" : pipeline.map { loaded.contains($0) ? "\($0) (loaded)" : $0 }.joined(separator: " → ")))
            )
        }
        output.flush()
        outcome.outputError = output.error
        // The recording is renamed into place only when all of it was written: after an interrupt
        // too (it ends at a record boundary), but never after a failed write.
        if let recordOutput, let recordFile {
            recordOutput.flush()
            do throws(OutputError) {
                if let error = recordOutput.error { throw error }
                try recordFile.commit()
            } catch {
                recordFile.abandon()
                outcome.outputError = outcome.outputError ?? error
            }
        }
        recordOutput = nil
        recordFile = nil
        if let report {
            do {
                try report.finish(log: command.log, header: header, summary: summary, plugins: bus.pluginNames, disabled: command.disabled)
            } catch {
                outcome.outputError = outcome.outputError ?? error
            }
        }
        report = nil
        if summary.rejectedLines > 0 {
            complain("\(command.log): \(summary.rejectedLines) line\(summary.rejectedLines == 1 ? "" : "s") skipped")
        }
        if summary.warnings > 0 {
            complain("\(command.log): \(summary.warnings) line\(summary.warnings == 1 ? "" : "s") read with a warning")
        }
        if let stopped = summary.stoppedAt {
            complain("stopped at line \(stopped.line) (--strict)")
            outcome.stopped = true
        }
        if command.check, !violations.isEmpty {
            if command.format == .jsonl {
                for violation in violations { complain("check: \(violation)") }
            }
            complain("check: the focused field was left covered \(violations.count) time\(violations.count == 1 ? "" : "s")")
            outcome.failedCheck = true
        }
        if let verifier {
            if let difference = verifier.finish() {
                complain("verify: \(difference)")
                outcome.failedCheck = true
            } else {
                complain("verify: \(verifier.matched) derived events match the log")
            }
        }
        return outcome
    }
}

/// What the loop thread's replay ended with, for the main thread waiting on it.
final class LoopResult: Sendable {
    private let value = Mutex<Result<ReplaySession.Outcome, any Error>?>(nil)

    /// The replay ended with `outcome`.
    func finish(with outcome: ReplaySession.Outcome) {
        value.withLock { $0 = .success(outcome) }
    }

    /// The replay could not start.
    func fail(with error: any Error) {
        value.withLock { $0 = .failure(error) }
    }

    /// The outcome (an empty one if the loop ended without one), or the error.
    func outcome() throws -> ReplaySession.Outcome {
        try value.withLock { $0 }?.get() ?? ReplaySession.Outcome()
    }
}
