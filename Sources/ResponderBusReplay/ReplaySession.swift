import EventLog
import ResponderBus
import ResponderBusExternal
import ResponderBusReport
import ResponderBusUV

/// One log replayed through a pipeline: the bus, the plugins, the replayer, what a caller asks it to
/// collect (``Options``: a recording, the verifier, the coverage check, the readable timeline, the
/// report) and the ``ReplaySink``s its outputs go to.
/// What `responder-bus replay`, `test`, `render` and `check-plugin` and the kit's
/// `PluginHarness` all run.
///
/// ## Turns and time
///
/// A log's external events are posted at their recorded times (`t`, seconds from the start of
/// the log). Events that share one `t` are posted from one loop callback, so that they share a loop
/// turn, as they shared a UIKit run-loop turn when they were recorded (at most
/// `Replayer.maxTurnSize` of them; a log with a million events at `t = 0` is not held in memory).
/// The bus's clock is the log's, in every mode: what the plugins derive is timed with it
/// (`Replayer.logTime`): during a turn and its end-of-turn work, the turn's `t` exactly as read;
/// at a plugin's timer, the timer's log time.
///
/// - On the virtual-time loop (``init(pipeline:header:options:sinks:)``, then ``replay(_:strict:readAhead:)``
///   or ``replay(records:)``), the loop's clock jumps from turn to turn: as fast as the machine
///   allows, and the same decisions every run. After the last turn the loop runs until nothing is
///   scheduled, so that settle windows and held-frame timers fire at their virtual times.
/// - Live (``init(pipeline:header:loop:options:sinks:)`` with a `UVEventLoop`, or
///   ``init(pipeline:header:drivenBy:options:sinks:)``, then
///   ``replayInRealTime(_:speed:strict:allowedLateness:waitForMore:completion:)`` or
///   ``replayLive(strict:allowedLateness:completion:)``), the bus still runs on a virtual-time loop
///   whose clock is the log's, driven from the libuv loop: the same turns, timers and decisions as
///   the fast replay, each turn run at its recorded time divided by the speed, as a followed file
///   grows, or as a program pushes records. The last turn read is held until a later `t` arrives
///   or the input ends (the watermark), since the input may still add to it. The article
///   <doc:LiveIsTheReplay> has the rule, and how to ask for lower latency.
///
/// Recorded derived events in the log are never posted: they go to the verifier. A record that
/// names a view the scene does not have, or begins editing in a view that is not a text input, is
/// rejected like an unreadable line; by default rejected lines are counted and skipped, and with
/// `strict` the replay stops at the first.
///
/// A session is loop-confined: make it, run it and finish it on the loop's thread, where its sinks
/// are called. The session sets its replayer's own callbacks (`onProblem`, `willPost`,
/// `onRecordedDerived`, `onProgress`, `onLongWait`) when the replay starts: use a sink instead.
/// Call ``finish(_:)`` once at the end: it stops the collecting, ends the plugins' processes and
/// returns the ``ReplayResult``; a session dropped without it ends its plugins' processes when it is
/// freed.
///
/// ```swift
/// let pipeline = try ReplayPipeline(PipelineDescription())
/// let reader = try LogReader(path: "session.jsonl")
/// let session = try ReplaySession(pipeline: pipeline, header: try reader.readHeader(), options: [.verify, .coverage])
/// let result = session.finish(session.replay(reader))
/// print(result.verification?.difference?.description ?? "matches", result.violations.count)
/// ```
public final class ReplaySession {
    /// What a session collects besides the decisions.
    public struct Options: OptionSet, Sendable {
        /// The raw value.
        public let rawValue: Int
        /// Creates a set of options from its raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The sinks' ``ReplaySink/record(_:)`` gets every record, external ones too: a recording
        /// of the whole session.
        public static let recording = Options(rawValue: 1 << 0)
        /// Compare the derived events with those recorded in the log (``ReplaySession/verifier``).
        public static let verify = Options(rawValue: 1 << 1)
        /// With ``verify``, compare the diagnostics too.
        public static let verifyDiagnostics = Options(rawValue: 1 << 2)
        /// Report every moment the focused field is left covered after the keyboard settles.
        public static let coverage = Options(rawValue: 1 << 3)
        /// Take the screen before and after every record, for the HTML report and the SVG frames
        /// (``ReplaySession/report``).
        public static let report = Options(rawValue: 1 << 4)
        /// The readable timeline, a line at a time (``ReplaySink/timeline(_:)``).
        public static let timeline = Options(rawValue: 1 << 5)
    }

    /// The pipeline it runs.
    public let pipeline: ReplayPipeline
    /// The header of the log.
    public let header: LogHeader
    /// The bus the plugins run on: always on a `VirtualTimeLoop`, whose clock is the log's.
    public let bus: Bus
    /// The loop a live replay is driven from (the libuv loop the session was made on), or `nil`
    /// for a session made on a virtual-time loop (as fast as possible).
    public let driver: (any BusLoop)?
    /// The replayer posting the log's events.
    public let replayer: Replayer
    /// What it collects.
    public let options: Options
    /// The verifier, with ``Options/verify``: the log's recorded decisions are added as they are
    /// read; a caller may add more (a snapshot's) before ``finish(_:)``.
    public let verifier: DerivedVerifier?
    /// The coverage check, with ``Options/coverage`` or ``Options/report``, once the replay started.
    public private(set) var coverage: CoverageCheck?
    /// The report's snapshots, with ``Options/report``, once the replay started.
    public private(set) var report: ReportRecorder?
    /// The out-of-process plugins started for this session.
    public let externalPlugins: [ExternalPlugin]
    /// The plugins whose faults are contained — the out-of-process ones and the WebAssembly
    /// modules' — whose faults ``ReplayResult/pluginFaults`` lists.
    public let containedPlugins: [any ContainedPlugin]
    /// The plugins that are neither built in nor out of process, by name.
    public let addedPlugins: [String]

    /// Where the session's outputs go, in order: its own (the verifier, the decision streams),
    /// then the caller's.
    private var outputs: [any ReplaySink]
    private let streams = DecisionStreams()

    private var recorder: LogRecorder?
    /// What the sinks counted, in an object of their own: the recorder's and the check's callbacks
    /// hold it rather than the session, so a session dropped without ``finish(_:)`` is freed (its
    /// plugins' processes ended) rather than kept alive by its own bus.
    private final class Tally {
        var derived = 0
        var violations: [CoverageViolation] = []
        var conflicts: [ReplayResult.Conflict] = []
    }
    private let tally = Tally()
    private var stoppedByPlugin: String?
    private var result: ReplayResult?
    /// Collects the conflicts between plugins the bus names, while the session runs.
    private var conflictWatch: ObservationToken?

    /// A session on a virtual-time loop of its own: as fast as possible (see
    /// ``replay(_:strict:readAhead:)``).
    ///
    /// - Parameters:
    ///   - pipeline: the plugins to run.
    ///   - header: the log's header: the screen's size and safe area.
    ///   - options: what to collect.
    ///   - sinks: where the outputs go, in order.
    /// - Throws: ``PipelineError`` when a plugin cannot be placed or a command cannot be started.
    public convenience init(
        pipeline: ReplayPipeline, header: LogHeader, options: Options = [], sinks: [any ReplaySink] = []
    ) throws(PipelineError) {
        try self.init(pipeline: pipeline, header: header, loop: VirtualTimeLoop(), options: options, sinks: sinks)
    }

    /// A session on `loop`: a `VirtualTimeLoop` for ``replay(_:strict:readAhead:)`` (the bus runs
    /// on it); any other loop (the libuv one) for a live replay,
    /// ``replayInRealTime(_:speed:strict:allowedLateness:waitForMore:completion:)`` or
    /// ``replayLive(strict:allowedLateness:completion:)``: the bus then runs on a virtual-time loop
    /// of its own, whose clock is the log's, and `loop` drives it (``driver``). Call it on the
    /// loop's thread, and use the session there.
    ///
    /// - Parameters:
    ///   - pipeline: the plugins to run.
    ///   - header: the log's header: the screen's size and safe area.
    ///   - loop: the bus's loop (a `VirtualTimeLoop`), or the loop that drives a live replay.
    ///   - options: what to collect.
    ///   - sinks: where the outputs go, in order.
    /// - Throws: ``PipelineError`` when a plugin cannot be placed or a command cannot be started.
    public convenience init(
        pipeline: ReplayPipeline, header: LogHeader, loop: any BusLoop, options: Options = [], sinks: [any ReplaySink] = []
    ) throws(PipelineError) {
        if let virtual = loop as? VirtualTimeLoop {
            try self.init(pipeline: pipeline, header: header, busLoop: virtual, driver: nil, options: options, sinks: sinks)
        } else {
            try self.init(pipeline: pipeline, header: header, drivenBy: loop, options: options, sinks: sinks)
        }
    }

    /// A session for a live replay driven from `driver`, any loop: the bus runs on a virtual-time
    /// loop of its own, whose clock is the log's, and `driver`'s clock paces it. The libuv loop in a
    /// service; a `VirtualTimeLoop` standing for the wall clock in a test or a simulation. Call it on
    /// the driver's thread, and use the session there.
    ///
    /// - Parameters:
    ///   - pipeline: the plugins to run.
    ///   - header: the log's header: the screen's size and safe area.
    ///   - driver: the loop that drives the live replay (``driver``).
    ///   - options: what to collect.
    ///   - sinks: where the outputs go, in order.
    /// - Throws: ``PipelineError`` when a plugin cannot be placed or a command cannot be started.
    public convenience init(
        pipeline: ReplayPipeline, header: LogHeader, drivenBy driver: any BusLoop, options: Options = [], sinks: [any ReplaySink] = []
    ) throws(PipelineError) {
        // Made on the driver's thread, which is the one that runs it.
        try self.init(pipeline: pipeline, header: header, busLoop: VirtualTimeLoop(), driver: driver, options: options, sinks: sinks)
    }

    private init(
        pipeline: ReplayPipeline, header: LogHeader, busLoop: VirtualTimeLoop, driver: (any BusLoop)?, options: Options, sinks: [any ReplaySink]
    ) throws(PipelineError) {
        self.pipeline = pipeline
        self.header = header
        self.options = options
        outputs = sinks
        self.driver = driver
        bus = Bus(loop: busLoop, screen: Screen(size: header.screen, safeArea: header.safeArea ?? .zero))
        let installed = try pipeline.install(on: bus, header: header)
        externalPlugins = installed.external
        containedPlugins = installed.contained
        addedPlugins = installed.added
        replayer = Replayer(bus: bus)
        replayer.apply(header)
        verifier = options.contains(.verify) ? DerivedVerifier(includingDiagnostics: options.contains(.verifyDiagnostics)) : nil
        for plugin in containedPlugins {
            plugin.onStop = { [weak self] message in
                guard let self else { return }
                stoppedByPlugin = stoppedByPlugin ?? message
                for output in outputs { output.pluginStopped(message) }
                replayer.stop()
            }
        }
    }

    deinit {
        // Dropped without finish(_:): its plugins' processes end with it.
        if result == nil {
            recorder?.stop()
            for plugin in containedPlugins { plugin.shutDown(grace: .milliseconds(500)) }
        }
    }

    /// Connects the collecting and the sinks to the bus and the replayer. The report's snapshots
    /// observe first, then the recorder, then the check.
    private func begin() {
        guard recorder == nil else { return }
        let report = options.contains(.report) ? ReportRecorder(bus: bus, clock: replayer.logClock) : nil
        self.report = report
        var own: [any ReplaySink] = []
        if let verifier { own.append(verifier) }
        if !streams.isEmpty { own.append(streams) }
        outputs = own + outputs
        let outputs = outputs
        let timeline = options.contains(.timeline)
        recorder = LogRecorder(
            bus: bus, selection: options.contains(.recording) ? .all : .derived, clock: replayer.logClock,
            sink: Self.recordSink(outputs, tally: tally, recording: options.contains(.recording), timeline: timeline))
        if timeline {
            recorder?.onUnknown = { event, t in
                // A plugin's own events: shown in the timeline, not part of the format's output.
                guard !(event.name == EventName.turnSettled), let by = event.origin.derivingPlugin else { return }
                let line = TerminalText.escaped("\(Timeline.time(t))    → \(by): \(event.name.rawValue)")
                for output in outputs { output.timeline(line) }
            }
            replayer.willPost = { record, _ in
                let line = Timeline.external(record)
                for output in outputs { output.timeline(line) }
            }
        }
        connectReplayer(to: outputs)
        conflictWatch = bus.observe(.diagnostic) { [tally, clock = replayer.logClock] event in
            guard let conflict = ReplayResult.Conflict(event.payload, t: clock()) else { return }
            tally.conflicts.append(conflict)
        }
        if options.contains(.coverage) || report != nil {
            let coverage = CoverageCheck(bus: bus)
            self.coverage = coverage
            let collects = options.contains(.coverage)
            coverage.onViolation = { [tally, report] violation in
                report?.note(violation)
                guard collects else { return }
                tally.violations.append(violation)
                for output in outputs { output.covered(violation) }
                guard timeline else { return }
                let line = TerminalText.escaped("\(Timeline.time(violation.t))  ⚠ covered: \(violation.summary)")
                for output in outputs { output.timeline(line) }
            }
        }
    }

    /// What the recorder calls with each record. `outputs` is captured, which costs nothing per
    /// call; no cycle, since the recorder is stopped by `finish`.
    private static func recordSink(
        _ outputs: [any ReplaySink], tally: Tally, recording: Bool, timeline: Bool
    ) -> (consuming LogRecord) -> Void {
        if outputs.count == 1, !recording, !timeline {
            // The decisions alone, to one sink (`replay --format jsonl`): the fewest steps per record.
            let only = outputs[0]
            return { (record: consuming LogRecord) in
                guard record.origin != .external else { return }
                tally.derived += 1
                only.decided(record)
            }
        }
        return { (record: consuming LogRecord) in
            if recording { for output in outputs { output.record(record) } }
            guard record.origin != .external else { return }
            tally.derived += 1
            if timeline {
                let line = Timeline.derived(record)
                for output in outputs { output.timeline(line) }
            }
            for output in outputs { output.decided(copy record) }
        }
    }

    /// The replayer's and the contained plugins' callbacks, to `outputs`.
    private func connectReplayer(to outputs: [any ReplaySink]) {
        guard !outputs.isEmpty else { return }
        replayer.onProblem = { error in for output in outputs { output.problem(error) } }
        replayer.onRecordedDerived = { record, location in
            for output in outputs { output.recordedDecision(record, at: location) }
        }
        replayer.onProgress = { read, total in for output in outputs { output.progress(read: read, of: total) } }
        replayer.onLongWait = { t, wait in for output in outputs { output.waitsLong(until: t, for: wait) } }
        for plugin in containedPlugins {
            plugin.onFault = { fault in for output in outputs { output.pluginFailed(fault) } }
        }
    }

    // MARK: Running

    /// Replays the rest of `reader` as fast as possible on the session's virtual-time loop (see
    /// the turn and time rules above), and returns what it counted. Call ``finish(_:)`` next.
    ///
    /// - Parameters:
    ///   - reader: the log, its header read.
    ///   - strict: stop at the first rejected line.
    ///   - readAhead: read and parse on a second thread, when the input ends (a file, bytes).
    public func replay(_ reader: LogReader, strict: Bool = false, readAhead: Bool = true) -> Replayer.Summary {
        replay(reader, strict: strict, readAhead: readAhead, helper: nil)
    }

    /// ``replay(_:strict:readAhead:)``, reading ahead on `helper` (the one the command's output
    /// writes behind on: one background thread for both).
    package func replay(_ reader: LogReader, strict: Bool = false, readAhead: Bool = true, helper: HelperThread?) -> Replayer.Summary {
        guard let loop = bus.loop as? VirtualTimeLoop else {
            preconditionFailure("ReplaySession.replay runs on a VirtualTimeLoop; use replayInRealTime on another loop")
        }
        begin()
        return replayer.replay(reader, on: loop, strict: strict, readAhead: readAhead, helper: helper)
    }

    /// Replays records held in memory (what the console importer returns) as fast as possible, as
    /// if read from a log with this session's header: external records are posted at their `t`,
    /// derived ones go to the verifier. Call ``finish(_:)`` next.
    ///
    /// - Parameter records: the records, in any order (taken in time order).
    public func replay(records: [LogRecord]) -> Replayer.Summary {
        let reader = LogReader(header: header, records: records)
        _ = try? reader.readHeader()
        return replay(reader, readAhead: false)
    }

    /// Replays the rest of `reader` live, driven from the session's ``driver`` (see the turn and
    /// time rules above): at its recorded pace divided by `speed`, or, following a growing file
    /// (`waitForMore`), as it grows. Call it on the driver's thread; `completion` is called there
    /// with what was counted. Call ``finish(_:)`` next.
    ///
    /// - Parameters:
    ///   - reader: the log, its header read.
    ///   - speed: play this many times faster than recorded (not following).
    ///   - strict: stop at the first rejected line.
    ///   - allowedLateness: following, how long a held turn (or a timer past what was read) waits
    ///     for the file at most; `nil`, the default, waits for it: the decisions are then exactly a
    ///     fast replay's. A record that arrives after the replay moved past it is reported.
    ///   - waitForMore: following a growing file: called at the current end with a closure to call
    ///     when more was appended. The replay completes when ``endInput()`` is called.
    ///   - completion: called on the driver with what was counted.
    public func replayInRealTime(
        _ reader: LogReader, speed: Double = 1, strict: Bool = false, allowedLateness: Duration? = nil,
        waitForMore: ((@escaping () -> Void) -> Void)? = nil, completion: @escaping (Replayer.Summary) -> Void
    ) {
        begin()
        replayer.replayInRealTime(
            reader, on: liveDriver, speed: speed, strict: strict, allowedLateness: allowedLateness, waitForMore: waitForMore,
            completion: completion)
    }

    /// Starts a live session whose records a program pushes, driven from the session's
    /// ``driver``: push records (single ones or batches, from the driver's thread or any other)
    /// through the returned feed, then call its `finish()`; `completion` is then called on the
    /// driver with what was counted. Call ``finish(_:)`` next.
    ///
    /// The records need not be pushed whole turns at a time: the last turn pushed is held until a
    /// record with a later `t` comes, or the feed is finished, so the decisions are a fast replay's
    /// of the same records. While it runs, the sinks, ``decisions(bufferingPolicy:)`` and
    /// ``reportSnapshot(logName:)`` show what was decided so far.
    ///
    /// ```swift
    /// let session = try ReplaySession(pipeline: pipeline, header: header, loop: uvLoop)
    /// let feed = session.replayLive { summary in print(session.finish(summary).derived) }
    /// feed.append(contentsOf: records)   // from any thread
    /// feed.finish()
    /// ```
    ///
    /// - Parameters:
    ///   - strict: stop at the first rejected record.
    ///   - allowedLateness: how long held records (or a timer past what was pushed) wait for more
    ///     at most; `nil`, the default, waits for the input.
    ///   - completion: called on the driver with what was counted.
    /// - Returns: the feed to push records into.
    public func replayLive(
        strict: Bool = false, allowedLateness: Duration? = nil, completion: @escaping (Replayer.Summary) -> Void
    ) -> LiveFeed {
        begin()
        return replayer.replayLive(on: liveDriver, strict: strict, allowedLateness: allowedLateness, completion: completion)
    }

    /// Ends the input of the live replay under way (following a file: an interrupt, say): what was
    /// read is replayed to its end, the held turn included, the plugins' timers run, and the
    /// replay's completion is called. Call it on the driver's thread.
    public func endInput() {
        replayer.endInput()
    }

    private var liveDriver: any BusLoop {
        guard let driver else {
            preconditionFailure("a live replay is driven from the loop the session was made on: make the session on a libuv loop")
        }
        return driver
    }

    /// The decisions, as they are made: every derived record the log format knows, in order, and
    /// the end once the session is finished. Ask before the replay starts (later streams see
    /// nothing); each call makes a stream of its own. Derived records are yielded on the session's
    /// thread and may be awaited anywhere.
    ///
    /// - Parameter bufferingPolicy: what the stream keeps while nobody awaits it.
    public func decisions(
        bufferingPolicy: AsyncStream<LogRecord>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<LogRecord> {
        guard result == nil, recorder == nil else {
            let (stream, continuation) = AsyncStream.makeStream(of: LogRecord.self)
            continuation.finish()
            return stream
        }
        return streams.make(bufferingPolicy: bufferingPolicy)
    }

    /// The report of the session as it is now (``Options/report``), while it runs or after it
    /// finished: its records, screens and violations so far, the summary counted so far. `nil`
    /// without the report sink or before the replay started. Call it on the session's thread
    /// (between two turns, never from a plugin's callback); the document is a value of its own,
    /// which later turns do not change.
    ///
    /// - Parameter logName: how the report names the log.
    public func reportSnapshot(logName: String) -> ReportDocument? {
        guard let report else { return nil }
        return ReportDocument(
            logName: logName, header: header, recorder: result == nil ? report.snapshot() : report,
            summary: result?.summary ?? replayer.currentSummary,
            plugins: bus.pluginNames, disabled: pipeline.description.disabled.sorted())
    }

    /// Ends the session: stops the recorder, the check and the report's snapshots, ends the
    /// plugins' processes, finishes the verification, and returns what happened. Later calls
    /// return the same result.
    ///
    /// - Parameter summary: what the replay counted.
    public func finish(_ summary: Replayer.Summary) -> ReplayResult {
        if let result { return result }
        recorder?.stop()
        conflictWatch?.cancel()
        streams.finish()
        outputs = []
        coverage?.stop()
        report?.stop()
        for plugin in containedPlugins { plugin.shutDown(grace: .milliseconds(500)) }
        var verification: ReplayResult.Verification?
        if let verifier {
            _ = verifier.finish()
            verification = .init(matched: verifier.matched, difference: verifier.difference)
        }
        let result = ReplayResult(
            summary: summary, derived: tally.derived, violations: tally.violations, conflicts: tally.conflicts, verification: verification,
            plugins: bus.pluginNames,
            addedPlugins: addedPlugins, externalPlugins: externalPlugins.map(\.name),
            pluginFaults: containedPlugins.flatMap(\.faults).enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }
                .map(\.element),
            stoppedByPlugin: stoppedByPlugin, firstResponder: bus.screen.firstResponder?.id, rootOriginY: bus.screen.rootOriginY)
        self.result = result
        return result
    }

    /// The HTML report of the finished session (``Options/report``), named `logName`; `nil` without
    /// the report sink or before ``finish(_:)``.
    ///
    /// - Parameter logName: how the report names the log (its file name, say).
    public func reportDocument(logName: String) -> ReportDocument? {
        guard let report, let result else { return nil }
        return ReportDocument(
            logName: logName, header: header, recorder: report, summary: result.summary, plugins: result.plugins,
            disabled: pipeline.description.disabled.sorted())
    }
}

/// What a replay through a pipeline did (``ReplaySession/finish(_:)``).
public struct ReplayResult: Sendable {
    /// How the verification came out.
    public struct Verification: Sendable, Hashable {
        /// Derived events that matched the recorded ones.
        public var matched: Int
        /// The first difference; `nil` when the replay derived exactly what was recorded.
        public var difference: DerivedVerifier.Difference?
    }

    /// What the replayer counted.
    public var summary: Replayer.Summary
    /// Derived events the plugins posted (the kinds the log format knows).
    public var derived: Int
    /// The coverage violations, in order (with the coverage sink).
    public var violations: [CoverageViolation]
    /// The conflicts between plugins the bus named, in order: two plugins that set the root, a
    /// scroll view or the first responder to different values in one loop turn (the bus's warning
    /// diagnostics typed `Diagnostic.Failure.conflictingDecisions`). Collected whatever the options.
    public var conflicts: [Conflict]
    /// The verification (with the verify sink).
    public var verification: Verification?
    /// The plugins that ran, in pipeline order.
    public var plugins: [String]
    /// The plugins that are neither built in nor out of process (libraries', in-process).
    public var addedPlugins: [String]
    /// The out-of-process plugins, by the names they gave.
    public var externalPlugins: [String]
    /// The faults of the out-of-process and WebAssembly plugins, in time order: each restart, disabling or stop.
    public var pluginFaults: [ExternalPlugin.Fault]
    /// The out-of-process plugins that failed until they were disabled or stopped the session.
    public var endedPlugins: [String] { ExternalPlugin.Fault.endedPlugins(in: pluginFaults) }
    /// The message of an out-of-process plugin that failed under the `stop` policy.
    public var stoppedByPlugin: String?
    /// The first responder at the end.
    public var firstResponder: ViewID?
    /// The root's origin at the end.
    public var rootOriginY: Double
}
