/// What one plugin's decision sets in the screen model, for telling when another plugin's decision
/// in the same loop turn changes it again: the root's origin, a scroll view's offset and inset, the
/// first responder, a view's frame.
enum DecisionTarget: Hashable {
    case root
    case scroll(ViewID)
    case firstResponder
    case frame(ViewID)

    /// For a diagnostic's metadata.
    var name: String {
        switch self {
        case .root: "root"
        case .scroll: "scroll"
        case .firstResponder: "firstResponder"
        case .frame: "frame"
        }
    }
}

/// The value a decision gives its ``DecisionTarget``.
enum DecisionValue: Equatable {
    case originY(Double)
    case scroll(offsetY: Double, bottomInset: Double)
    case responder(ViewID?)
    case frame(Rect)

    /// As the timeline words it: `y -157`, `offset 120, bottom inset 291`, `'email'`, `none`,
    /// `frame [0, 500, 375, 44]`.
    var text: String {
        switch self {
        case .originY(let y): "y \(formatPoints(y))"
        case .scroll(let offsetY, let bottomInset): "offset \(formatPoints(offsetY)), bottom inset \(formatPoints(bottomInset))"
        case .responder(let id): id.map { "'\($0)'" } ?? "none"
        case .frame(let rect): "frame \(rect)"
        }
    }
}

/// Two plugins' decisions on one target in one turn, the second changing the first's.
struct DecisionConflict {
    var target: DecisionTarget
    var first: String
    var firstValue: DecisionValue
    var second: String
    var secondValue: DecisionValue
    /// Whether the second put back the value the target had before the turn's first decision.
    var setsBack: Bool
}

/// One target's decisions in the current loop turn: who set it last, to what, and what it was
/// before the turn's first decision. A slot of an earlier turn counts as empty, so nothing is
/// cleared between turns; a target's first decision of a turn (the usual case) only overwrites.
struct DecisionSlot<Value: Equatable> {
    /// The turn of the slot's decisions.
    var turn: UInt64 = .max
    var plugin = ""
    var value: Value
    var before: Value
    /// The pairs of plugins whose conflict on this target is reported this turn.
    var reported: [[String]] = []

    init(_ placeholder: Value) {
        value = placeholder
        before = placeholder
    }

    /// Notes `new`, set by `plugin` in `turn` where the model holds `current`; returns the earlier
    /// decider and its value when this changes what another plugin set this turn, once per pair.
    mutating func note(_ new: Value, current: Value, by plugin: String, turn: UInt64) -> (first: String, firstValue: Value, setsBack: Bool)? {
        if self.turn != turn {
            self.turn = turn
            if self.plugin != plugin { self.plugin = plugin }
            value = new
            before = current
            if !reported.isEmpty { reported.removeAll() }
            return nil
        }
        if self.plugin == plugin {
            value = new
            return nil
        }
        let first = self.plugin
        let firstValue = value
        self.plugin = plugin
        value = new
        guard firstValue != new else { return nil }
        let pair = [first, plugin].sorted()
        guard !reported.contains(pair) else { return nil }
        reported.append(pair)
        return (first, firstValue, new == before)
    }
}

/// A scroll view's decided state.
struct ScrollValue: Equatable {
    var offsetY: Double
    var bottomInset: Double
}

/// The plugins' decisions of the current loop turn, one slot per target.
struct DecisionLedger {
    /// On a loop that does not count its turns, the turns ended, counted by the bus's end-of-turn
    /// check, which the bus schedules on the first decision of a turn.
    var endedTurns: UInt64 = 0
    var root = DecisionSlot<Double>(0)
    var responder = DecisionSlot<ViewID?>(nil)
    /// One for each scroll view a decision named (few), with its offset and bottom inset.
    var scrolls: [(view: ViewID, slot: DecisionSlot<ScrollValue>)] = []
    /// One for each view a `viewMove` named (few), with its frame.
    var frames: [(view: ViewID, slot: DecisionSlot<Rect>)] = []
}

extension Bus {
    /// Notes a plugin's decision about to be applied to the screen, and reports a conflict when
    /// another plugin set the same target to another value earlier in the same loop turn: one
    /// warning ``EventName/diagnostic`` derived by `"bus"`, typed ``Diagnostic/Failure/conflictingDecisions``,
    /// naming both plugins, the views and the values.
    func noteDecision(_ builtin: BuiltinEvent, _ change: ModelChange, by plugin: String) {
        let turn = virtualTimeLoop?.turnsEnded ?? state.decisionLedger.endedTurns
        // Another loop than the virtual-time one: the end-of-turn check ends the turn, after its last
        // decision (each one counts as activity, so that the check waits for the turn's later work).
        if virtualTimeLoop == nil, state.turnWatch.noteActivity() { scheduleTurnCheck(pass: 0, seen: state.turnWatch.activity) }
        switch (builtin, change) {
        case (.viewShift, .shift(let shift)):
            guard let (first, old, back) = state.decisionLedger.root.note(shift.originY, current: screen.rootOriginY, by: plugin, turn: turn)
            else { return }
            report(
                DecisionConflict(
                    target: .root, first: first, firstValue: .originY(old), second: plugin, secondValue: .originY(shift.originY), setsBack: back))
        case (.scroll, .scroll(let change)):
            // Only what the model will apply: a scroll of a view that is not a scroll view is not a decision.
            guard let node = screen.view(change.view), node.kind == .scrollView else { return }
            let value = ScrollValue(offsetY: change.contentOffsetY, bottomInset: change.bottomInset)
            let current = ScrollValue(offsetY: node.contentOffset.y, bottomInset: node.contentInset.bottom)
            let index =
                state.decisionLedger.scrolls.firstIndex { $0.view == change.view }
                ?? {
                    // Slots of earlier turns are of no use: dropped, so the list stays as short as a turn's.
                    state.decisionLedger.scrolls.removeAll { $0.slot.turn != turn }
                    state.decisionLedger.scrolls.append((change.view, DecisionSlot(ScrollValue(offsetY: 0, bottomInset: 0))))
                    return state.decisionLedger.scrolls.count - 1
                }()
            guard let (first, old, back) = state.decisionLedger.scrolls[index].slot.note(value, current: current, by: plugin, turn: turn)
            else { return }
            report(
                DecisionConflict(
                    target: .scroll(change.view), first: first, firstValue: .scroll(offsetY: old.offsetY, bottomInset: old.bottomInset),
                    second: plugin,
                    secondValue: .scroll(offsetY: value.offsetY, bottomInset: value.bottomInset), setsBack: back))
        case (.focusChange, .focus(let change)):
            // Only what the model will apply: a focus change to a view that cannot be first responder is not one.
            if let to = change.to, screen.kindOfView(to)?.isTextInput != true { return }
            noteResponder(change.to, by: plugin, turn: turn)
        case (.resign, .resign(let info)):
            if screen.firstResponder?.id == info.view { noteResponder(nil, by: plugin, turn: turn) }
        case (.viewMove, .move(let move)):
            guard let node = screen.view(move.view) else { return }
            let index =
                state.decisionLedger.frames.firstIndex { $0.view == move.view }
                ?? {
                    state.decisionLedger.frames.removeAll { $0.slot.turn != turn }
                    state.decisionLedger.frames.append((move.view, DecisionSlot(Rect.zero)))
                    return state.decisionLedger.frames.count - 1
                }()
            guard let (first, old, back) = state.decisionLedger.frames[index].slot.note(move.frame, current: node.frame, by: plugin, turn: turn)
            else { return }
            report(
                DecisionConflict(
                    target: .frame(move.view), first: first, firstValue: .frame(old), second: plugin, secondValue: .frame(move.frame),
                    setsBack: back))
        default:
            return
        }
    }

    private func noteResponder(_ id: ViewID?, by plugin: String, turn: UInt64) {
        guard let (first, old, back) = state.decisionLedger.responder.note(id, current: screen.firstResponder?.id, by: plugin, turn: turn)
        else { return }
        report(
            DecisionConflict(
                target: .firstResponder, first: first, firstValue: .responder(old), second: plugin, secondValue: .responder(id), setsBack: back))
    }

    /// Posts the warning for `conflict`.
    private func report(_ conflict: DecisionConflict) {
        var views: [ViewID] = []
        let what: String
        switch conflict.target {
        case .root:
            what = "the root"
            if let root = screen.root { views = [root.id] }
        case .scroll(let id):
            what = "scroll view '\(id)'"
            views = [id]
        case .frame(let id):
            what = "the frame of '\(id)'"
            views = [id]
        case .firstResponder:
            what = "the first responder"
            for case .responder(let id?) in [conflict.firstValue, conflict.secondValue] where !views.contains(id) { views.append(id) }
        }
        let (first, second) = (conflict.first, conflict.second)
        let undo = conflict.setsBack ? "set it back to" : "changed it to"
        post(
            .diagnostic,
            Diagnostic(
                level: .warning,
                message:
                    "'\(first)' and '\(second)' fight over \(what) in one turn: '\(first)' set it to \(conflict.firstValue.text), then '\(second)' \(undo) \(conflict.secondValue.text)",
                failure: .conflictingDecisions, views: views,
                metadata: [
                    "first": first, "second": second, "target": conflict.target.name, "firstValue": conflict.firstValue.text,
                    "secondValue": conflict.secondValue.text,
                ]),
            origin: .derived(by: "bus"))
    }
}
