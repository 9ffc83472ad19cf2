import EventLog
import ResponderBus

/// What a replay through a plugin derived.
public struct ReplayOutcome {
    /// The derived events the log format knows (`viewShift`, `focusChange`, …), in order.
    public var derived: [LogRecord]
    /// Every derived event, the plugin's own kinds included, in order.
    public var derivedEvents: [RecordingObserver.Entry]
    /// Lines of the log that were rejected.
    public var problems: [LogReadError]
    /// How the replay went.
    public var summary: Replayer.Summary
    /// The root's origin at the end.
    public var finalOriginY: Double
    /// The first responder at the end.
    public var finalFirstResponder: ViewID?

    /// The derived events of one plugin.
    public func derived(by plugin: String) -> [RecordingObserver.Entry] {
        derivedEvents.filter { $0.event.origin.derivingPlugin == plugin }
    }

    /// The diagnostics derived, as `level: message` strings.
    public var diagnostics: [String] {
        derivedEvents.compactMap { $0.event.as(.diagnostic).map { "\($0.payload)" } }
    }
}

/// Replays logs or lists of events through plugins on the virtual-time loop, as fast as possible,
/// and returns what they derived: the test bench of a plugin author.
///
/// ```swift
/// let outcome = try PluginHarness.replay(
///     CannedScreens.session(on: .iPhoneX, scene: CannedScreens.login(on: .iPhoneX), focusing: "password"),
///     header: CannedScreens.Device.iPhoneX.header,
///     through: [MyPlugin()])
/// #expect(outcome.derived(by: "MyPlugin").count == 1)
/// ```
public enum PluginHarness {
    /// Replays a log's text through `plugins`, after `companions`.
    ///
    /// `companions` are the plugins yours runs with (the built-in ones, say, for a plugin placed
    /// `.after("KeyboardAvoidance")`): registered first, in this order, at the end of the pipeline.
    /// Then each of `plugins` is registered where its `preferredPosition` says (else last), as
    /// `responder-bus replay --plugin` does.
    ///
    /// - Throws: the header's problem when the log has no valid header, or a
    ///   `PluginRegistrationError` (an anchor no companion has, say).
    public static func replay(_ log: String, through plugins: [any ResponderPlugin], companions: [any ResponderPlugin] = []) throws
        -> ReplayOutcome
    {
        let reader = LogReader(bytes: Array(log.utf8))
        let header = try reader.readHeader()
        return try replay(reader, header: header, through: plugins, companions: companions)
    }

    /// Replays records (external ones are posted at their `t`; derived ones are ignored) through
    /// `plugins` and their `companions` (see ``replay(_:through:companions:)``), on a screen
    /// described by `header`.
    public static func replay(
        _ records: [LogRecord], header: LogHeader, through plugins: [any ResponderPlugin], companions: [any ResponderPlugin] = []
    ) throws -> ReplayOutcome {
        let reader = LogReader(header: header, records: records)
        _ = try reader.readHeader()
        return try replay(reader, header: header, through: plugins, companions: companions)
    }

    static func replay(
        _ reader: LogReader, header: LogHeader, through plugins: [any ResponderPlugin], companions: [any ResponderPlugin] = [],
        configure: ((Bus, Replayer) -> Void)? = nil
    ) throws -> ReplayOutcome {
        // The log's replay, on a bus of the header's screen with no plugin of its own: the
        // companions and the plugins are registered on it as given.
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop, screen: Screen(size: header.screen, safeArea: header.safeArea ?? .zero))
        for companion in companions { try bus.register(companion, at: .last) }
        for plugin in plugins {
            do throws(PluginRegistrationError) {
                try bus.register(plugin)
            } catch {
                guard error.code == .unknownAnchor else { throw error }
                throw PluginRegistrationError(
                    code: error.code,
                    message: error.message
                        + "; a plugin placed against another runs with it: pass the plugins it is placed against as companions (`companions:`; the built-ins in the order replay runs them: TextViewOrdering, FieldAdvancing, KeyboardAvoidance)"
                )
            }
        }
        let replayer = Replayer(bus: bus)
        replayer.apply(header)
        var problems: [LogReadError] = []
        replayer.onProblem = { problems.append($0) }
        let recorder = RecordingObserver(bus: bus)
        configure?(bus, replayer)
        let summary = replayer.replay(reader, on: loop)
        recorder.stop()
        return ReplayOutcome(
            derived: recorder.derivedRecords, derivedEvents: recorder.derived, problems: problems, summary: summary,
            finalOriginY: bus.screen.rootOriginY, finalFirstResponder: bus.screen.firstResponder?.id)
    }
}
