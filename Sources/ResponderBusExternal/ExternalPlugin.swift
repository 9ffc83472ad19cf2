import EventLog
import ResponderBus

/// A plugin that runs in a process of its own and speaks the `responder-bus-plugin` protocol
/// (version 1) on its standard input and output: any language, no ABI shared with the host, and a
/// plugin that crashes, hangs or talks nonsense cannot take the bus down.
///
/// Register it like any plugin; it sits in the pipeline where its handshake asks (or where
/// `Bus.register(_:at:)` puts it), and the events it derives enter the bus exactly as an
/// in-process plugin's would, so verification, checks, recording and the report see no difference.
/// The exchange is synchronous — each event the plugin asked for is answered before the pipeline
/// goes on — so a replay gives the same results on the libuv loop and on virtual time. The process
/// and its pipes are libuv's (`uv_spawn`, `uv_pipe`), on a libuv loop of the plugin's own that the
/// host runs while it waits for an answer (the bus's own loop cannot be run from inside its
/// callbacks).
///
/// ```swift
/// let plugin = try ExternalPlugin(command: ["python3", "my_plugin.py"], header: header)
/// try bus.register(plugin)
/// ```
///
/// Faults are contained: a plugin that cannot be started, exits, crashes, does not answer within
/// ``Configuration/timeout``, writes something that is not the protocol, or derives an event the
/// bus cannot take is reported as an error diagnostic naming it and what it did, and restarted
/// after a back-off (its model brought up to date) up to ``Configuration/maximumRestarts`` times,
/// then disabled for the rest of the session — the bus goes on without it. With
/// ``FailureMode/stop``, the first fault disables it and calls ``onStop`` instead. Lines it writes
/// to standard error become info diagnostics (the first 100 of each answer, each cut at 64 KiB).
///
/// See <doc:PluginProtocolVersion1> for the messages. Loop-confined, like the bus.
public final class ExternalPlugin: EventObserving {
    /// What to do when the plugin fails.
    public enum FailureMode: String, Hashable, Sendable, CaseIterable {
        /// Report it, restart it up to the limit, then go on without it (the default).
        case `continue`
        /// Report it, disable it and call ``ExternalPlugin/onStop``: the embedder ends the session.
        case stop
    }

    /// How the host runs the plugin.
    public struct Configuration: Sendable {
        /// The program and its arguments; the program is looked up in `PATH`, never run through a
        /// shell.
        public var command: [String]
        /// How long one delivery may take, from sending the event to the plugin's `done`.
        public var timeout: Duration
        /// How long starting may take, from spawning to the plugin's `hello` (interpreters start
        /// slowly).
        public var startTimeout: Duration
        /// What a fault does.
        public var failureMode: FailureMode
        /// How many times a failed plugin is restarted before it is disabled.
        public var maximumRestarts: Int
        /// The wait (in loop time) before the first restart; it doubles with each restart.
        public var restartBackoff: Duration
        /// Settings passed in the handshake, for the plugin to read.
        public var settings: [String: String]
        /// The folder the plugin runs in; `nil` (the default) runs it in the host's current
        /// directory. A project file's commands run in the project file's folder.
        public var workingDirectory: String?

        /// A configuration with the defaults: 200 ms per delivery, 10 s to start, fail-open, three
        /// restarts from 100 ms.
        public init(
            command: [String], timeout: Duration = .milliseconds(200), startTimeout: Duration = .seconds(10),
            failureMode: FailureMode = .continue, maximumRestarts: Int = 3, restartBackoff: Duration = .milliseconds(100),
            settings: [String: String] = [:], workingDirectory: String? = nil
        ) {
            self.workingDirectory = workingDirectory
            self.command = command
            self.timeout = timeout
            self.startTimeout = startTimeout
            self.failureMode = failureMode
            self.maximumRestarts = maximumRestarts
            self.restartBackoff = restartBackoff
            self.settings = settings
        }
    }

    /// The name the plugin gave in its handshake.
    public let name: String
    /// Where the plugin asked to sit in the pipeline.
    public let preferredPosition: PluginPosition?
    /// The events the plugin asked for, by their log-format names.
    public let requestedEvents: Set<String>
    /// Whether the plugin asked to be told when each loop turn in which it was sent something ends
    /// (`"turns":true`), to do its end-of-turn work then.
    public let observesTurns: Bool
    /// How the plugin runs.
    public let configuration: Configuration
    /// Called once, on the loop, when a fault stops a plugin whose mode is ``FailureMode/stop``,
    /// with the fault's description.
    public var onStop: ((String) -> Void)?

    /// Whether the plugin has been disabled for the rest of the session.
    public private(set) var isDisabled = false
    /// How many times the plugin has been restarted.
    public private(set) var restarts = 0
    /// How many deliveries the plugin has answered.
    public private(set) var deliveries = 0
    /// Every fault so far, in order: what the plugin did, and whether it was restarted, disabled or
    /// stopped the session.
    public private(set) var faults: [Fault] = []
    /// Called on the loop with each fault, after its diagnostic was posted (to say it at once, on a
    /// terminal, say).
    public var onFault: ((Fault) -> Void)?

    private let header: LogHeader
    private var process: PluginProcess?
    private var restartAt: Duration?
    private var sequence = 0
    private var turnOpen = false
    /// The host timer that sends the plugin a `tick` at the time its last `wake` asked for.
    private var wake: ScheduledWork?
    /// Model-update lines not sent yet.
    private var pendingModel: [UInt8] = []
    private let requestedIDs: Set<Int>

    /// Starts the plugin and performs the handshake.
    ///
    /// - Parameters:
    ///   - configuration: how to run it.
    ///   - header: the session's header (screen and safe area), sent in the handshake.
    /// - Throws: ``ExternalPluginError`` when the plugin cannot be started or its handshake is not
    ///   version 1 of the protocol.
    public init(_ configuration: Configuration, header: LogHeader) throws(ExternalPluginError) {
        self.configuration = configuration
        self.header = header
        let started = try Self.start(configuration, header: header)
        process = started.process
        name = started.hello.name
        preferredPosition = started.hello.position
        requestedEvents = Set(started.hello.events)
        observesTurns = started.hello.turns
        requestedIDs = Set(started.hello.events.compactMap { PluginProtocol.eventNames[$0]?.id })
    }

    /// Starts the plugin with the default configuration for `command`.
    public convenience init(command: [String], header: LogHeader) throws(ExternalPluginError) {
        try self.init(Configuration(command: command), header: header)
    }

    deinit {
        process?.terminate(grace: .milliseconds(100))
    }

    /// The events the plugin asked for, and the ones that change the screen model, which it is
    /// always sent.
    public var observedEvents: Set<AnyEventName>? {
        Set(
            PluginProtocol.eventNames.compactMap { name, event in
                requestedEvents.contains(name) || PluginProtocol.modelEvents.contains(name) ? event : nil
            })
    }

    /// Brings the plugin's model to the bus's screen as it is at registration (its size and safe
    /// area, and a scene already loaded), sent with the first line that is answered.
    public func didRegister(context: PluginContext) {
        let screen = context.screen
        let now = context.now.seconds
        for event in PluginProtocol.modelSnapshot(of: screen) {
            PluginProtocol.appendEventLine(LogRecord(t: now, event: event), sequence: nil, to: &pendingModel)
        }
    }

    /// Ends the plugin's process (closing its input, then killing it after `grace`).
    public func shutDown(grace: Duration = .milliseconds(500)) {
        if let process, !pendingModel.isEmpty {
            try? process.write(pendingModel, before: ContinuousClock.now + configuration.timeout)
            pendingModel.removeAll()
        }
        process?.terminate(grace: grace)
        process = nil
        isDisabled = true
        wake?.cancel()
        wake = nil
    }

    // MARK: Delivery

    /// Sends the event to the plugin: answered (and the plugin's derived events posted) when it asked
    /// for it, as a model update otherwise.
    public func observe(_ event: AnyEvent, context: PluginContext) {
        guard !isDisabled, let logEvent = LogEvent(event) else { return }
        let answered = requestedIDs.contains(event.name.id)
        guard ensureRunning(context) else { return }
        let record = LogRecord(t: context.now.seconds, event: logEvent, origin: event.origin)
        if answered {
            sequence += 1
            deliver(record, sequence: sequence, context)
        } else {
            // Model updates wait for the next delivery (or fill a block): one write for many, and
            // the plugin's model is current whenever it is asked.
            PluginProtocol.appendEventLine(record, sequence: nil, to: &pendingModel)
            if pendingModel.count >= 1 << 16 { flushModel(context) }
        }
        if answered { forwardErrors(context) }
        if observesTurns && !turnOpen && process != nil {
            turnOpen = true
            context.loop.runAtEndOfTurn { [weak self] in self?.endTurn(context) }
        }
    }

    /// Sends the model updates waiting for the next delivery.
    private func flushModel(_ context: PluginContext) {
        guard !pendingModel.isEmpty, let process else { return }
        let batch = takePending()
        do throws(ProcessFault) {
            try process.write(batch, before: ContinuousClock.now + configuration.timeout)
        } catch {
            switch error.kind {
            case .interrupted: endForInterrupt(context)
            case .timedOut: fail(context, "did not read its input for \(configuration.timeout)")
            case .exited: fail(context, error.message, lastWords: true)
            case .spawn, .broken: fail(context, error.message)
            }
        }
    }

    /// The lines waiting to be sent, taken out: what is appended while they are being sent (a
    /// re-entrant delivery) waits for the next write.
    private func takePending() -> [UInt8] {
        var batch: [UInt8] = []
        swap(&batch, &pendingModel)
        return batch
    }

    private func deliver(_ record: LogRecord, sequence: Int, _ context: PluginContext) {
        PluginProtocol.appendEventLine(record, sequence: sequence, to: &pendingModel)
        exchange(sequence: sequence, what: record.event.name, context)
    }

    /// The most records one answer may derive: one more is the plugin's fault (named, none of the
    /// answer's records posted), as for a WebAssembly module, not a flood the host holds and the
    /// bus cuts short. Each record's line is at most 16 MiB, so what a plugin can make the host
    /// hold for one delivery is bounded.
    public static let decisionBudget = 1_000

    /// Sends what is pending (ending with a line that asks for an answer numbered `sequence`) and,
    /// once the plugin's `done` has come, posts what it derived; a fault is contained.
    private func exchange(sequence: Int, what: String, _ context: PluginContext) {
        let batch = takePending()
        guard let process else { return }
        let deadline = ContinuousClock.now + configuration.timeout
        var derived: [LogEvent] = []
        var problem: String?
        var exited = false
        var wakeAt: Double?
        do throws(ProcessFault) {
            try process.write(batch, before: deadline)
            reading: while true {
                let line = try process.readLine(before: deadline)
                switch PluginProtocol.classify(line) {
                case .blank:
                    continue
                case .done(let answered):
                    if answered != sequence {
                        problem = "answered \(answered.map(String.init) ?? "without a number") while \(sequence) was expected"
                    }
                    break reading
                case .record(let bytes):
                    guard derived.count < Self.decisionBudget else {
                        problem = "derived more than \(Self.decisionBudget) records for one delivery (\(what))"
                        break reading
                    }
                    switch validate(bytes, context) {
                    case .success(let event): derived.append(event)
                    case .failure(let rejection): problem = rejection.message
                    }
                    if problem != nil { break reading }
                case .wake(let t):
                    wakeAt = t
                case .control(let type):
                    problem = "sent '\(type)' in the middle of a delivery; only records, 'wake' and 'done' may come"
                    break reading
                case .notProtocol(let why):
                    problem =
                        "wrote something that is not the protocol (\(why)): \(PluginProtocol.excerpt(line)); "
                        + "standard output carries the protocol; write logs to standard error"
                    break reading
                }
            }
        } catch {
            switch error.kind {
            case .interrupted: return endForInterrupt(context)
            case .timedOut: problem = "did not answer \(what) within \(configuration.timeout)"
            case .exited: (problem, exited) = (error.message, true)
            case .spawn, .broken: problem = error.message
            }
        }
        if let problem { return fail(context, problem, lastWords: exited) }
        deliveries += 1
        if let wakeAt { scheduleWake(at: wakeAt, context) }
        // Posted once the exchange is over: a post that comes back to this plugin (its own event,
        // as a model update or a delivery) starts a new batch and a new exchange.
        for event in derived { event.post(from: context) }
    }

    /// Sends the plugin a `tick` at session time `t` (at once when that is past), in place of the
    /// one asked for before: its timers run when they would in process, and what they derive is
    /// posted then.
    private func scheduleWake(at t: Double, _ context: PluginContext) {
        wake?.cancel()
        let delay = Duration.saturating(seconds: max(0, t - context.now.seconds))
        wake = context.loop.schedule(after: delay) { [weak self] in self?.tick(at: t, context) }
    }

    private func tick(at t: Double, _ context: PluginContext) {
        wake = nil
        guard !isDisabled, process != nil else { return }
        sequence += 1
        PluginProtocol.appendTick(sequence: sequence, t: t, to: &pendingModel)
        exchange(sequence: sequence, what: "its timer at t \(JSONText.number(t))", context)
        forwardErrors(context)
    }

    /// The end of a loop turn in which the plugin was sent something: a plugin that asked for turns
    /// does its end-of-turn work and answers.
    private func endTurn(_ context: PluginContext) {
        turnOpen = false
        guard !isDisabled, process != nil else { return }
        sequence += 1
        PluginProtocol.appendTurnEnd(sequence: sequence, t: context.now.seconds, to: &pendingModel)
        exchange(sequence: sequence, what: "the end of the turn", context)
        forwardErrors(context)
    }

    /// The derived event on `bytes`, or why the bus cannot take it.
    private func validate(_ bytes: ArraySlice<UInt8>, _ context: PluginContext) -> Result<LogEvent, Rejection> {
        let record: LogRecord
        do throws(LogReadError) {
            record = try LogReader.record(line: bytes)
        } catch {
            return .failure(Rejection("derived a record the bus cannot accept (\(error.message)): \(PluginProtocol.excerpt(bytes))"))
        }
        guard record.event.isDerivedKind else {
            return .failure(Rejection("derived '\(record.event.name)', which is not an event plugins derive"))
        }
        let screen = context.screen
        for view in record.event.namedViews where screen.view(view) == nil {
            return .failure(Rejection("derived \(record.event.name) for view '\(view.rawValue)', which does not exist"))
        }
        return .success(record.event)
    }

    private struct Rejection: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Posts what the plugin wrote to standard error since the last time as info diagnostics: at
    /// most ``PluginProcess/errorLineBudget`` lines, then one saying how many more were dropped,
    /// so that a flood cannot fill the bus's cascade limit or crowd out a fault's own diagnostics.
    /// Returns its last lines (``ErrorLines/Taken/lastWords``).
    @discardableResult
    private func forwardErrors(_ context: PluginContext) -> [String] {
        guard let process else { return [] }
        let taken = process.errorLines()
        for line in taken.lines where !line.isEmpty {
            context.diagnose(.info, line)
        }
        if taken.dropped > 0 {
            context.diagnose(.info, "plugin '\(name)' wrote \(taken.dropped) more lines to standard error; dropped")
        }
        return taken.lastWords
    }

    /// A signal the host watches arrived while it waited for the plugin: the plugin is ended with
    /// its process group and disabled for the rest of the session, without a fault (it is not the
    /// plugin's), so that the host handles the signal at once.
    private func endForInterrupt(_ context: PluginContext) {
        pendingModel.removeAll()
        process?.terminate(grace: .zero)
        process = nil
        isDisabled = true
        context.diagnose(.info, "plugin '\(name)' was ended: the host was interrupted while it waited for an answer")
    }

    // MARK: Faults

    /// Reports a fault and restarts, disables or stops the plugin; `lastWords`: the plugin ended
    /// (exited or crashed), so its last lines on standard error (a traceback) go into the report.
    private func fail(_ context: PluginContext, _ what: String, lastWords: Bool = false) {
        pendingModel.removeAll()
        var what = what
        var words: [String] = []
        if let process {
            words = forwardErrors(context).filter { !$0.allSatisfy(\.isWhitespace) }
            if lastWords, !words.isEmpty {
                what += "; its standard error ended: " + words.map { $0.trimmingSpaces }.joined(separator: " | ")
            }
            process.terminate(grace: .zero)
        }
        process = nil
        let outcome: Fault.Outcome
        if configuration.failureMode == .stop {
            isDisabled = true
            outcome = .stopped
        } else if restarts < configuration.maximumRestarts {
            let backoff = configuration.restartBackoff * (1 << min(restarts, 20))
            restarts += 1
            restartAt = context.now + backoff
            outcome = .restarting(in: backoff, attempt: restarts, of: configuration.maximumRestarts)
        } else {
            isDisabled = true
            outcome = .disabled(afterFailures: restarts + 1)
        }
        let fault = Fault(plugin: name, what: what, outcome: outcome, t: context.now.seconds, lastErrorLines: words)
        faults.append(fault)
        report(fault.message, context)
        onFault?(fault)
        if outcome == .stopped { onStop?("plugin '\(name)' \(what)") }
    }

    /// Posts a fault as an error diagnostic derived by the plugin, typed `pluginProcessFailed`.
    private func report(_ message: String, _ context: PluginContext) {
        context.post(.diagnostic, Diagnostic(level: .error, message: message, failure: .pluginProcessFailed))
    }

    /// Whether a process is there to talk to, restarting one whose back-off has passed.
    private func ensureRunning(_ context: PluginContext) -> Bool {
        if process != nil { return true }
        guard let restartAt, context.now >= restartAt else { return false }
        self.restartAt = nil
        do throws(ExternalPluginError) {
            let started = try Self.start(configuration, header: header)
            guard started.hello.name == name else {
                started.process.terminate(grace: .zero)
                fail(context, "came back as '\(started.hello.name)'")
                return false
            }
            process = started.process
            sequence = 0
        } catch {
            fail(context, "could not be restarted: \(error.message)")
            return false
        }
        // Bring its model up to date (what it missed while it was down), sent with what comes next.
        let now = context.now.seconds
        for event in PluginProtocol.modelSnapshot(of: context.screen) {
            PluginProtocol.appendEventLine(LogRecord(t: now, event: event), sequence: nil, to: &pendingModel)
        }
        return true
    }

    // MARK: Starting

    private static func start(
        _ configuration: Configuration, header: LogHeader
    ) throws(ExternalPluginError) -> (process: PluginProcess, hello: PluginProtocol.PluginHello) {
        let command = configuration.command.joined(separator: " ")
        let process: PluginProcess
        do throws(ProcessFault) {
            process = try PluginProcess(arguments: configuration.command, workingDirectory: configuration.workingDirectory)
        } catch {
            throw ExternalPluginError(.cannotStart, "cannot start '\(command)': \(error.message)")
        }
        let deadline = ContinuousClock.now + configuration.startTimeout
        let line: ArraySlice<UInt8>
        do throws(ProcessFault) {
            try process.write(PluginProtocol.hostHello(header: header, settings: configuration.settings), before: deadline)
            line = try process.readLine(before: deadline)
        } catch {
            let stderr = process.errorLines().lastWords.joined(separator: "\n")
            process.terminate(grace: .zero)
            let detail = stderr.isEmpty ? "" : "; it said: \(stderr)"
            switch error.kind {
            case .interrupted:
                throw ExternalPluginError(.noHandshake, "'\(command)' was interrupted before its handshake")
            case .timedOut:
                throw ExternalPluginError(.noHandshake, "'\(command)' did not say hello within \(configuration.startTimeout)\(detail)")
            case .exited, .spawn, .broken:
                throw ExternalPluginError(.noHandshake, "'\(command)' \(error.message) before its handshake\(detail)")
            }
        }
        switch PluginProtocol.pluginHello(line) {
        case .success(let hello):
            return (process, hello)
        case .failure(let error):
            if error.code == .versionMismatch {
                try? process.write(PluginProtocol.errorLine(error.message), before: ContinuousClock.now + .milliseconds(100))
            }
            process.terminate(grace: .milliseconds(100))
            throw ExternalPluginError(error.code, "'\(command)': \(error.message)")
        }
    }
}

/// Why an external plugin could not be used.
public struct ExternalPluginError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: Hashable, Sendable {
        /// The program could not be run.
        case cannotStart
        /// It ended, or said nothing, before its handshake.
        case noHandshake
        /// Its handshake is not one of this protocol.
        case badHandshake
        /// It speaks another version of the protocol.
        case versionMismatch
    }
    /// The kind of failure.
    public var code: Code
    /// What happened, in words.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
