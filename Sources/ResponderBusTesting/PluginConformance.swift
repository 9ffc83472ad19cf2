import EventLog
import ResponderBus
import ResponderBusExternal

/// The checks every plugin should pass, for plugin authors to run in their own tests:
///
/// ```swift
/// @Test func conformance() throws {
///     try PluginConformance { MyPlugin() }.check()
/// }
/// ```
///
/// It checks that the plugin
/// 1. has a non-empty name;
/// 2. is **deterministic**: two fresh instances replaying the same log derive the same events;
/// 3. is **silent outside its protocols**: fed only events none of its protocols cover, it derives
///    nothing;
/// 4. **survives being added and removed mid-session**: removed halfway through a session, it
///    derives nothing more; added again, it works;
/// 5. **never crashes or throws** on any log of the ``LogCorpus`` (a crash would stop the test
///    process; a thrown error shows up as an error diagnostic and fails the check; an out-of-process
///    plugin's crash, hang or broken protocol likewise, see ``external(_:corpus:companions:)``);
/// 6. derives **no event without a `by`**: everything it posts is derived under its own name, never
///    passed off as an external event;
/// 7. **does not fight the other plugins**: on no log of the corpus do it and a companion set the
///    root, a scroll view or the first responder to different values in one loop turn (a conflict
///    the bus names, a warning diagnostic typed `Diagnostic.Failure.conflictingDecisions`). Pass
///    the built-ins as companions to check that it does not fight them: a "second mover" that moves
///    the root again after `KeyboardAvoidance` fails here, naming the session, the time and the
///    conflict.
public struct PluginConformance {
    /// One failed check.
    public struct Failure: Error, CustomStringConvertible {
        /// Which check.
        public let check: String
        /// What went wrong.
        public let message: String
        /// `check: message`.
        public var description: String { "\(check): \(message)" }
    }

    /// All the failed checks, thrown by ``check()``.
    public struct Failures: Error, CustomStringConvertible {
        /// The failures.
        public let failures: [Failure]
        /// One line per failure.
        public var description: String {
            "\(failures.count) conformance check\(failures.count == 1 ? "" : "s") failed:\n" + failures.map { "- \($0)" }.joined(separator: "\n")
        }
    }

    /// Every check by the name its failures carry, with what it checks, in the order they run.
    public static let checks: [(name: String, what: String)] = [
        ("name", "the plugin has a non-empty name"),
        ("no errors", "no log of the corpus makes it throw or fail"),
        ("by", "everything it posts is derived under its own name"),
        ("no conflicts", "it does not fight the other plugins: no turn in which it and another set the same thing to different values"),
        ("determinism", "two fresh instances derive the same events from the same log"),
        ("silence", "it derives nothing from events none of its protocols cover"),
        ("add/remove", "removed mid-session it derives nothing more; added again, it works"),
    ]

    private let makePlugin: () -> any ResponderPlugin
    /// The logs replayed; the whole ``LogCorpus`` by default.
    public var corpus: [LogCorpus.Entry]

    /// Makes the plugins the one under test runs with (fresh ones for every replay): registered
    /// first, before it (see ``PluginHarness/replay(_:through:companions:)``).
    public var companions: () -> [any ResponderPlugin]

    /// Creates the suite for plugins made by `makePlugin` (called once per replay: it must return a
    /// fresh instance each time), run in the pipeline `companions` makes (none by default; the
    /// built-in plugins for one placed `.after("KeyboardAvoidance")`). Only what the plugin under
    /// test derives is checked.
    public init(
        corpus: [LogCorpus.Entry] = LogCorpus.all, companions: @escaping () -> [any ResponderPlugin] = { [] },
        _ makePlugin: @escaping () -> any ResponderPlugin
    ) {
        self.makePlugin = makePlugin
        self.corpus = corpus
        self.companions = companions
    }

    /// Runs every check and throws ``Failures`` listing what failed.
    public func check() throws(Failures) {
        let found = failures()
        if !found.isEmpty { throw Failures(failures: found) }
    }

    /// Runs every check and returns what failed (empty when the plugin conforms).
    public func failures() -> [Failure] {
        var failures: [Failure] = []
        let plugin = makePlugin()
        let name = plugin.name
        if name.isEmpty { failures.append(Failure(check: "name", message: "the plugin's name is empty")) }
        // A plugin placed against another cannot be registered without it: said once, not by every
        // replay below.
        if let position = plugin.preferredPosition, let anchor = Self.anchor(of: position),
            !companions().contains(where: { $0.name == anchor })
        {
            let message =
                "'\(name)' is placed \(position), and no companion is named '\(anchor)': pass the plugins it is placed against as companions, as replay runs them (`PluginConformance(companions: { [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance()] }) { ... }`)"
            return failures + [Failure(check: "position", message: message)]
        }
        for entry in corpus {
            failures += crashesAndBy(entry, name: name)
            failures += determinism(entry, name: name)
        }
        failures += silence(name: name)
        failures += addRemove(name: name)
        return failures
    }

    /// Where the checks run the plugin among its companions.
    public struct Placement: Hashable, Sendable {
        /// The plugins it runs after, in pipeline order.
        public var after: [String]
        /// The plugins it runs before, in pipeline order.
        public var before: [String]

        /// A placement.
        ///
        /// - Parameters:
        ///   - after: the plugins it runs after.
        ///   - before: the plugins it runs before.
        public init(after: [String], before: [String]) {
            self.after = after
            self.before = before
        }
    }

    /// Where the checks' replays run the plugin: registered among the companions where its
    /// `preferredPosition` puts it (else last), as `responder-bus replay` places a plugin. Makes one
    /// plugin and one set of companions to find out (an out-of-process plugin's position is in its
    /// handshake).
    ///
    /// - Throws: `PluginRegistrationError` when it cannot be placed (an anchor no companion has).
    public func placement() throws(PluginRegistrationError) -> Placement {
        let bus = Bus(loop: VirtualTimeLoop())
        let plugin = makePlugin()
        let others = companions()
        defer {
            for made in others + [plugin] { (made as? any ContainedPlugin)?.shutDown(grace: .milliseconds(100)) }
        }
        for companion in others { try bus.register(companion, at: .last) }
        let ahead = bus.pluginNames
        try bus.register(plugin)
        var names = bus.pluginNames
        // The one name the plugin added; the names ahead of it and behind it.
        let index = ahead.indices.first { names[$0] != ahead[$0] } ?? ahead.count
        names.remove(at: index)
        return Placement(after: Array(names[..<index]), before: Array(names[index...]))
    }

    /// The plugin a position places against, for `.before` and `.after`.
    private static func anchor(of position: PluginPosition) -> String? {
        switch position {
        case .before(let anchor), .after(let anchor): anchor
        case .first, .last: nil
        }
    }

    // MARK: Checks

    /// Replays one log, watching for errors and for events posted without a `by`.
    private func crashesAndBy(_ entry: LogCorpus.Entry, name: String) -> [Failure] {
        var failures: [Failure] = []
        var expectedExternal = 0
        var token: ObservationToken?
        do {
            let outcome = try PluginHarness.replay(
                LogReader(bytes: Array(entry.text.utf8)).withHeader(), through: [makePlugin()], companions: companions()
            ) { bus, replayer in
                replayer.willPost = { _, _ in expectedExternal += 1 }
                token = bus.observeAll { event in
                    switch event.origin {
                    case .external:
                        if expectedExternal > 0 {
                            expectedExternal -= 1
                        } else {
                            failures.append(
                                Failure(
                                    check: "by",
                                    message:
                                        "\(entry.name): '\(event.name)' was posted as an external event during the replay; post through the context so it is derived by the plugin"
                                ))
                        }
                    case .derived(let by):
                        if by.isEmpty {
                            failures.append(Failure(check: "by", message: "\(entry.name): '\(event.name)' was derived with an empty \"by\""))
                        }
                    }
                }
            }
            failures += conflicts(in: outcome, of: entry, name: name)
            for entry2 in outcome.derived(by: name) {
                if let diagnostic = entry2.event.as(.diagnostic),
                    [.pluginThrew, .pluginSuspended, .pluginProcessFailed].contains(diagnostic.payload.failure)
                {
                    failures.append(Failure(check: "no errors", message: "\(entry.name): \(diagnostic.payload.message)"))
                }
            }
        } catch {
            failures.append(Failure(check: "replay", message: "\(entry.name): \(error)"))
        }
        token?.cancel()
        return failures
    }

    /// The conflicts the bus named in a replay between the plugin and another: one failure per
    /// log, naming the first conflict, its time and how many there were.
    private func conflicts(in outcome: ReplayOutcome, of entry: LogCorpus.Entry, name: String) -> [Failure] {
        let named = outcome.derived(by: "bus").filter { recorded in
            guard let diagnostic = recorded.event.as(.diagnostic)?.payload, diagnostic.failure == .conflictingDecisions else { return false }
            return diagnostic.metadata["first"] == name || diagnostic.metadata["second"] == name
        }
        guard let first = named.first, let diagnostic = first.event.as(.diagnostic)?.payload else { return [] }
        let more = named.count > 1 ? " (\(named.count) conflicts in this session)" : ""
        return [Failure(check: "no conflicts", message: "\(entry.name), t \(JSONText.number(first.t)): \(diagnostic.message)\(more)")]
    }

    private func determinism(_ entry: LogCorpus.Entry, name: String) -> [Failure] {
        func run() -> [String]? {
            guard let outcome = try? PluginHarness.replay(entry.text, through: [makePlugin()], companions: companions()) else { return nil }
            return outcome.derived(by: name).map { "\($0.t) \($0.event.name) \($0.event.payload)" }
        }
        guard let first = run(), let second = run() else { return [] }
        guard first == second else {
            let index = zip(first, second).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(first.count, second.count)
            return [
                Failure(
                    check: "determinism",
                    message:
                        "\(entry.name): two replays differ at derived event #\(index + 1): \(index < first.count ? first[index] : "nothing") vs \(index < second.count ? second[index] : "nothing")"
                )
            ]
        }
        return []
    }

    /// Feeds only events none of the plugin's protocols cover.
    private func silence(name: String) -> [Failure] {
        let plugin = makePlugin()
        var covered: Set<Int> = []
        if plugin is any KeyboardObserving { covered.formUnion(EventName<KeyboardInfo>.allKeyboardEvents.map(\.id)) }
        if plugin is any EditingObserving { covered.formUnion([EventName.didBeginEditing.id, EventName.didEndEditing.id]) }
        if plugin is any ReturnKeyObserving { covered.insert(EventName.returnKey.id) }
        if plugin is any TurnSettledObserving { covered.insert(EventName.turnSettled.id) }
        // A turn observer is called after every turn with activity: no event is outside it.
        if plugin is any TurnObserving { return [] }
        if let generic = plugin as? any EventObserving {
            guard let names = generic.observedEvents else { return [] }  // it observes everything
            covered.formUnion(names.map(\.id))
        }
        let device = CannedScreens.Device.iPhoneX
        let session =
            CannedScreens.session(on: device, scene: CannedScreens.signUp(on: device), focusing: "email")
            + [
                LogRecord(t: 4, event: .setFrame(FrameChange(view: "bio", frame: Rect(x: 20, y: 600, width: 335, height: 140)))),
                LogRecord(t: 5, event: .screen(ScreenChange(width: 812, height: 375))),
            ]
        // The scene (t = 0) sets the model up; the events after it are the ones none of its
        // protocols cover, and nothing may be derived from them.
        let uncovered = session.filter { record in
            guard let id = eventID(record.event) else { return false }
            return record.t == 0 || !covered.contains(id)
        }
        do {
            let outcome = try PluginHarness.replay(uncovered, header: device.header, through: [plugin], companions: companions())
            let said = outcome.derived(by: name).filter { $0.t > 0 }
            if !said.isEmpty {
                return [
                    Failure(
                        check: "silence",
                        message: "derived \(said.map { "'\($0.event.name)'" }.joined(separator: ", ")) from events none of its protocols cover")
                ]
            }
        } catch {
            return [Failure(check: "silence", message: "\(error)")]
        }
        return []
    }

    /// Removes the plugin halfway through a session and adds a fresh one back.
    private func addRemove(name: String) -> [Failure] {
        let device = CannedScreens.Device.iPhoneX
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop, screen: Screen(size: device.screen, safeArea: device.safeArea))
        let recorder = RecordingObserver(bus: bus)
        var failures: [Failure] = []
        do {
            for companion in companions() { try bus.register(companion, at: .last) }
            try bus.register(makePlugin())
            let session = CannedScreens.session(on: device, scene: CannedScreens.signUp(on: device), focusing: "password")
            for (index, record) in session.enumerated() {
                loop.advance(to: .saturating(seconds: record.t))
                record.event.post(on: bus)
                loop.run()
                if index == session.count / 2 {
                    guard bus.unregister(named: name) else {
                        failures.append(Failure(check: "add/remove", message: "unregister(named: \"\(name)\") found no plugin of that name"))
                        break
                    }
                    // Everything it says from now on — timers it left behind included — is too much.
                    recorder.clear()
                }
            }
            loop.runUntilQuiet(limit: 10_000)
            let after = recorder.derived.filter { $0.event.origin.derivingPlugin == name }
            if !after.isEmpty {
                failures.append(Failure(check: "add/remove", message: "derived \(after.count) event(s) after it was removed"))
            }
            try bus.register(makePlugin())
            for record in CannedScreens.session(on: device, scene: CannedScreens.login(on: device), focusing: "password") {
                loop.advance(to: loop.now + .seconds(1))
                record.event.post(on: bus)
                loop.run()
            }
            loop.runUntilQuiet(limit: 10_000)
        } catch {
            failures.append(Failure(check: "add/remove", message: "\(error)"))
        }
        return failures
    }

    /// The id of an external event the log holds (the vocabulary's), `nil` for a decision.
    private func eventID(_ event: LogEvent) -> Int? {
        guard let builtin = event.builtin, builtin.source == .external else { return nil }
        return builtin.rawValue
    }
}

extension LogReader {
    /// Reads the header and returns the reader with it, for ``PluginHarness``.
    fileprivate func withHeader() throws -> (LogReader, LogHeader) {
        (self, try readHeader())
    }
}

extension PluginHarness {
    fileprivate static func replay(
        _ input: (LogReader, LogHeader), through plugins: [any ResponderPlugin], companions: [any ResponderPlugin],
        configure: @escaping (Bus, Replayer) -> Void
    ) throws -> ReplayOutcome {
        try replay(input.0, header: input.1, through: plugins, companions: companions, configure: configure)
    }
}
