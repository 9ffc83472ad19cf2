import EventLog
import ResponderBus

/// Watches one run of a session on a bus and checks the properties: the settled ones (coverage,
/// restored, a plugin's own) each time the events stop and the keyboard's animation has ended, the
/// others as the events come. Keeps the first failure of each property, and every decision (for
/// the second run's comparison). Loop-confined.
public final class PropertyWatch {
    /// The first failure of each property, in the order found.
    public private(set) var failures: [PropertyFailure] = []
    /// Every decision derived, in order, when the watch keeps them (see
    /// ``init(bus:properties:declared:keepsDecisions:)``); empty otherwise.
    public private(set) var decisions: [LogRecord] = []

    private let bus: Bus
    private let checked: Set<String>
    private let declared: [SessionProperty]
    private let keepsDecisions: Bool
    private var token: ObservationToken?
    private var pending: ScheduledWork?
    private var failed: Set<String> = []
    /// The moves since the last change, per view (the root as ``rootKey``).
    private var moves: [ViewID: [Double]] = [:]
    private var epochT = -1.0
    /// Where each view is (the root's origin, a scroll view's offset, another view's y): from the
    /// scene, the world's frames and scrolls, and the moves.
    private var positions: [ViewID: Double] = [:]
    private var lastKeyboard: KeyboardKey?
    /// The frame each view last had from the world (the scene, a `setFrame`), and each scroll
    /// view's offset and bottom inset from before the keyboard.
    private var homes: [ViewID: Rect] = [:]
    private var restingScroll: [ViewID: (offsetY: Double, inset: Double)] = [:]

    /// The root's key among the moved views: no view's id (whatever the scene calls its root).
    private static let rootKey = ViewID("\u{0}root")

    private struct KeyboardKey: Equatable {
        var end: Rect?
        var hides: Bool
        var isLocal: Bool?
    }

    /// Starts watching `bus` for `properties` (the names of the built-in ones to check) and the
    /// `declared` ones.
    ///
    /// - Parameters:
    ///   - bus: the bus to watch, before its first event.
    ///   - properties: the names of the built-in properties to check.
    ///   - declared: properties of a plugin's own, checked on the settled screen.
    ///   - keepsDecisions: keep every decision (``decisions``: a second run's comparison, and what
    ///     a declared property sees). Off for a long recorded log, whose decisions would all be held
    ///     in memory for nothing.
    public init(bus: Bus, properties: Set<String>, declared: [SessionProperty] = [], keepsDecisions: Bool = true) {
        self.bus = bus
        checked = properties
        self.declared = declared
        self.keepsDecisions = keepsDecisions
        token = bus.observeAll { [unowned self] event in
            note(event)
            scheduleCheck()
        }
    }

    /// Checks once more and stops watching.
    public func finish() {
        token?.cancel()
        token = nil
        pending?.cancel()
        checkSettled()
    }

    private func fail(_ property: SessionProperty, _ message: String, at t: Double?) {
        fail(property.name, message, at: t)
    }

    private func fail(_ name: String, _ message: String, at t: Double?) {
        guard failed.insert(name).inserted else { return }
        failures.append(PropertyFailure(property: name, message: message, t: t))
    }

    private var now: Double { bus.loop.now.seconds }

    private func note(_ event: AnyEvent) {
        if let plugin = event.origin.derivingPlugin {
            noteDecision(event, by: plugin)
        } else {
            noteExternal(event)
        }
    }

    private func noteExternal(_ event: AnyEvent) {
        var changes = true
        if let info = event.payload as? KeyboardInfo {
            let key = KeyboardKey(
                end: info.end, hides: event.name == EventName.keyboardWillHide || event.name == EventName.keyboardDidHide, isLocal: info.isLocal)
            changes = key != lastKeyboard
            lastKeyboard = key
        }
        if event.name == EventName.scene { noteScene() }
        if let change = event.payload as? FrameChange {
            homes[change.view] = change.frame
            positions[change.view] = change.frame.minY
        }
        // A scroll the world made (the user's, recorded) is where the scroll view rests.
        if let scroll = event.payload as? ScrollChange {
            restingScroll[scroll.view] = (scroll.contentOffsetY, scroll.bottomInset)
            positions[scroll.view] = scroll.contentOffsetY
        }
        if changes && now != epochT {
            epochT = now
            moves.removeAll(keepingCapacity: true)
        }
    }

    private func noteScene() {
        homes.removeAll()
        positions = [Self.rootKey: bus.screen.rootOriginY]
        restingScroll.removeAll()
        for view in bus.screen.allViews {
            homes[view.id] = view.frame
            positions[view.id] = view.kind == .scrollView ? view.contentOffset.y : view.frame.minY
            if view.kind == .scrollView { restingScroll[view.id] = (view.contentOffset.y, view.contentInset.bottom) }
        }
    }

    private func noteDecision(_ event: AnyEvent, by plugin: String) {
        if keepsDecisions, let record = LogEvent(event).map({ LogRecord(t: now, event: $0, origin: event.origin) }) {
            decisions.append(record)
        }
        if let diagnostic = event.as(.diagnostic)?.payload {
            noteDiagnostic(diagnostic, by: plugin)
        } else if let shift = event.as(.viewShift)?.payload {
            noteMove(of: Self.rootKey, to: shift.originY, "the root's origin")
        } else if let scroll = event.as(.scroll)?.payload {
            noteMove(of: scroll.view, to: scroll.contentOffsetY, "'\(scroll.view)''s offset")
        } else if let move = event.as(.viewMove)?.payload {
            noteMove(of: move.view, to: move.frame.minY, "'\(move.view)''s y")
        }
    }

    private func noteDiagnostic(_ diagnostic: Diagnostic, by plugin: String) {
        // A plugin's own property, broken as the plugin itself says.
        if let property = diagnostic.metadata[SessionProperty.metadataKey], !property.isEmpty {
            fail(property, "\(plugin): \(diagnostic.message)", at: now)
            return
        }
        if diagnostic.failure == .conflictingDecisions {
            if checked.contains(SessionProperty.noConflict.name) { fail(.noConflict, diagnostic.message, at: now) }
            return
        }
        let faults: Set<Diagnostic.Failure> = [.pluginThrew, .pluginSuspended, .pluginProcessFailed, .cascadeCut, .wrongPayload, .notApplied]
        if diagnostic.level == .error || diagnostic.failure.map(faults.contains) == true, checked.contains(SessionProperty.noFault.name) {
            fail(.noFault, "\(plugin): \(diagnostic.message)", at: now)
        }
    }

    private func noteMove(of view: ViewID, to value: Double, _ what: String) {
        guard checked.contains(SessionProperty.oneMove.name) else { return }
        // A decision that leaves the view where it is moves nothing.
        guard positions.updateValue(value, forKey: view) != value else { return }
        moves[view, default: []].append(value)
        guard let values = moves[view], values.count > 1 else { return }
        fail(
            .oneMove,
            "\(what) moved \(values.count) times for one change: to \(values.map { JSONText.number(($0 * 10).rounded() / 10) }.joined(separator: ", then "))",
            at: now)
    }

    private func scheduleCheck() {
        pending?.cancel()
        pending = bus.loop.schedule(after: CoverageCheck.settleDelay(on: bus)) { [weak self] in self?.checkSettled() }
    }

    private func checkSettled() {
        let screen = bus.screen
        if checked.contains(SessionProperty.coverage.name), let problem = Self.coverageProblem(on: screen) {
            fail(.coverage, problem, at: now)
        }
        if checked.contains(SessionProperty.restored.name), screen.keyboard.coveredPart == nil, let problem = restoreProblem(on: screen) {
            fail(.restored, problem, at: now)
        }
        guard !declared.isEmpty else { return }
        let settled = SettledScreen(screen: screen, t: now, decisions: decisions)
        for property in declared where !failed.contains(property.name) {
            if let problem = property.check?(settled) { fail(property, problem, at: now) }
        }
    }

    /// What is wrong with the focused field's place, by ``SessionProperty/coverage``'s rule.
    static func coverageProblem(on screen: Screen) -> String? {
        guard let (field, frame, covering, covered) = CoverageCheck.coveredFocus(on: screen) else { return nil }
        let room = covering.minY - screen.safeArea.top
        if frame.height > room, frame.minY >= screen.safeArea.top - 0.5, frame.minY < covering.minY { return nil }
        if let best = highestBottom(of: field, on: screen, keyboardTop: covering.minY), best > covering.minY + 0.5 { return nil }
        return
            "'\(field.id)' is covered by \(JSONText.number((covered * 10).rounded() / 10)) pt (field \(frame), keyboard top \(JSONText.number(covering.minY)))"
    }

    /// The highest a field's bottom can be brought on screen: at best scrolled to the top of its
    /// outermost scroll view's frame (or where it is, outside any), and the root moved up by the
    /// keyboard's covered height, no further than keeps the field's top below the safe area's top.
    static func highestBottom(of field: ViewNode, on screen: Screen, keyboardTop: Double) -> Double? {
        let unmoved = screen.frameInScreen(of: field, unmoved: true)
        var top = unmoved.minY
        if let outermost = field.ancestors.last(where: { $0.kind == .scrollView }) {
            top = screen.frameInScreen(of: outermost, unmoved: true).minY
        }
        let reach = max(0, min(screen.size.height - keyboardTop, top - screen.safeArea.top))
        return top + unmoved.height - reach
    }

    private func restoreProblem(on screen: Screen) -> String? {
        if abs(screen.rootOriginY - screen.restingRootOriginY) > 0.5 {
            return
                "the keyboard covers nothing, but the root's origin is \(JSONText.number(screen.rootOriginY)), not \(JSONText.number(screen.restingRootOriginY))"
        }
        for view in screen.allViews {
            if let resting = restingScroll[view.id],
                abs(view.contentOffset.y - resting.offsetY) > 0.5 || abs(view.contentInset.bottom - resting.inset) > 0.5
            {
                return
                    "the keyboard covers nothing, but '\(view.id)' is scrolled to \(JSONText.number(view.contentOffset.y)) with a bottom inset of \(JSONText.number(view.contentInset.bottom)), not \(JSONText.number(resting.offsetY)) and \(JSONText.number(resting.inset))"
            }
            if view.followsKeyboard, let home = homes[view.id], view.frame != home {
                return "the keyboard covers nothing, but '\(view.id)' is at \(view.frame), not its own frame \(home)"
            }
        }
        return nil
    }
}
