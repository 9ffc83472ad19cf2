/// What one plugin's decision sets in the screen model, for telling when another plugin's decision
/// in the same loop turn changes it again: the root's origin, a scroll view's offset and inset, the
/// first responder.
enum DecisionTarget: Hashable {
    case root
    case scroll(ViewID)
    case firstResponder

    /// For a diagnostic's metadata.
    var name: String {
        switch self {
        case .root: "root"
        case .scroll: "scroll"
        case .firstResponder: "firstResponder"
        }
    }
}

/// The value a decision gives its ``DecisionTarget``.
enum DecisionValue: Equatable {
    case originY(Double)
    case scroll(offsetY: Double, bottomInset: Double)
    case responder(ViewID?)

    /// As the timeline words it: `y -157`, `offset 120, bottom inset 291`, `'email'`, `none`.
    var text: String {
        switch self {
        case .originY(let y): "y \(formatPoints(y))"
        case .scroll(let offsetY, let bottomInset): "offset \(formatPoints(offsetY)), bottom inset \(formatPoints(bottomInset))"
        case .responder(let id): id.map { "'\($0)'" } ?? "none"
        }
    }
}

/// The decisions of the current loop turn, by target: who set each one last, to what, and what it
/// was before the turn's first decision. Started afresh by the first decision of each turn.
struct DecisionLedger {
    struct Entry {
        var target: DecisionTarget
        var plugin: String
        var value: DecisionValue
        /// The target's value before the turn's first decision on it.
        var before: DecisionValue
    }

    /// A conflict already reported this turn: once per target and pair of plugins.
    struct Reported: Equatable {
        var target: DecisionTarget
        var plugins: [String]
    }

    /// The turn the entries are of: ``VirtualTimeLoop/turnsEnded`` on the virtual-time loop,
    /// ``endedTurns`` on another loop.
    var turn: UInt64 = .max
    /// On a loop that does not count its turns, the turns ended, counted by the bus's end-of-turn
    /// check, which this ledger schedules on the first decision of a turn.
    var endedTurns: UInt64 = 0
    /// A turn has few: searched in order.
    var entries: [Entry] = []
    var reported: [Reported] = []
}

extension Bus {
    /// Notes a plugin's decision about to be applied to the screen, and reports a conflict when
    /// another plugin set the same target to another value earlier in the same loop turn: one
    /// warning ``EventName/diagnostic`` derived by `"bus"`, typed ``Diagnostic/Failure/conflictingDecisions``,
    /// naming both plugins, the views and the values.
    func noteDecision(_ builtin: BuiltinEvent, _ change: ModelChange, by plugin: String) {
        let target: DecisionTarget
        let value: DecisionValue
        let current: DecisionValue
        var views: [ViewID] = []
        switch (builtin, change) {
        case (.viewShift, .shift(let shift)):
            guard let root = screen.root else { return }
            target = .root
            value = .originY(shift.originY)
            current = .originY(screen.rootOriginY)
            views = [root.id]
        case (.scroll, .scroll(let change)):
            guard let node = screen.view(change.view) else { return }
            target = .scroll(change.view)
            value = .scroll(offsetY: change.contentOffsetY, bottomInset: change.bottomInset)
            current = .scroll(offsetY: node.contentOffset.y, bottomInset: node.contentInset.bottom)
            views = [change.view]
        case (.focusChange, .focus(let change)):
            target = .firstResponder
            value = .responder(change.to)
            current = .responder(screen.firstResponder?.id)
        case (.resign, .resign(let info)):
            guard screen.firstResponder?.id == info.view else { return }
            target = .firstResponder
            value = .responder(nil)
            current = .responder(info.view)
        default:
            return
        }
        let turn = virtualTimeLoop?.turnsEnded ?? decisionLedger.endedTurns
        if decisionLedger.turn != turn {
            decisionLedger.turn = turn
            decisionLedger.entries.removeAll(keepingCapacity: true)
            decisionLedger.reported.removeAll(keepingCapacity: true)
            // Another loop: the end-of-turn check ends the turn, after the turn's last decision.
            if virtualTimeLoop == nil, state.turnWatch.noteActivity() { scheduleTurnCheck(pass: 0, seen: state.turnWatch.activity) }
        }
        guard let index = decisionLedger.entries.firstIndex(where: { $0.target == target }) else {
            decisionLedger.entries.append(DecisionLedger.Entry(target: target, plugin: plugin, value: value, before: current))
            return
        }
        let last = decisionLedger.entries[index]
        decisionLedger.entries[index].plugin = plugin
        decisionLedger.entries[index].value = value
        guard last.plugin != plugin, last.value != value else { return }
        let pair = DecisionLedger.Reported(target: target, plugins: [last.plugin, plugin].sorted())
        guard !decisionLedger.reported.contains(pair) else { return }
        decisionLedger.reported.append(pair)
        if target == .firstResponder {
            if case .responder(let id?) = last.value { views.append(id) }
            if case .responder(let id?) = value, !views.contains(id) { views.append(id) }
        }
        let what: String
        switch target {
        case .root: what = "the root"
        case .scroll(let id): what = "scroll view '\(id)'"
        case .firstResponder: what = "the first responder"
        }
        let undo = value == last.before ? "set it back to" : "changed it to"
        post(
            .diagnostic,
            Diagnostic(
                level: .warning,
                message:
                    "'\(last.plugin)' and '\(plugin)' fight over \(what) in one turn: '\(last.plugin)' set it to \(last.value.text), then '\(plugin)' \(undo) \(value.text)",
                failure: .conflictingDecisions, views: views,
                metadata: [
                    "first": last.plugin, "second": plugin, "target": target.name, "firstValue": last.value.text, "secondValue": value.text,
                ]),
            origin: .derived(by: "bus"))
    }
}
