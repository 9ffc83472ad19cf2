import ResponderBus

/// Return moves the focus to the next field; on the last field it performs the screen's action,
/// or resigns the field when there is none.
///
/// - Order: by tag by default (the smallest greater tag, gaps allowed), or by position; among
///   visible, enabled text fields and text views anywhere on the screen (see ``FieldNavigator``).
/// - Return in a text field emits `focusChange` (`from`, `to`), and the bus's screen model follows
///   at once: a `didBeginEditing` for that field that a recording shows afterwards is an echo and
///   changes nothing.
/// - On the last field: `action` with the screen's `lastFieldAction` when it has one (the original
///   write-ups' segue); otherwise `resign`, and the first responder becomes none.
/// - Return in a text view inserts a newline and does not advance, unless
///   ``textViewReturnAdvances`` is set.
///
/// For a UI: ``returnKeyRole(on:)`` tells whether the focused field gets a Next or a Done key, and
/// ``focusNext(on:)`` / ``focusPrevious(on:)`` move on demand (a toolbar's arrows).
public final class FieldAdvancing: ReturnKeyObserving {
    /// The plugin's name: `"FieldAdvancing"`.
    public let name: String
    /// The field order.
    public var navigator: FieldNavigator {
        get { fieldNavigator }
        set { fieldNavigator = newValue }
    }
    /// Whether Return in a text view advances instead of inserting a newline. Default `false`.
    public var textViewReturnAdvances: Bool {
        get { textViewsAdvance }
        set { textViewsAdvance = newValue }
    }

    // The settings' storage is the plugin's own: other modules reach it only through the
    // properties above, so the optimiser sees every access to it.
    private var fieldNavigator: FieldNavigator
    private var textViewsAdvance: Bool

    /// Creates the plugin.
    public init(order: FieldOrder = .tag, textViewReturnAdvances: Bool = false, name: String = "FieldAdvancing") {
        self.name = name
        fieldNavigator = FieldNavigator(order: order)
        textViewsAdvance = textViewReturnAdvances
    }

    /// Decides and emits what Return does.
    public func returnKey(_ event: Event<ReturnKeyInfo>, context: PluginContext) {
        let decision = ReturnDecision.decide(
            returnIn: event.payload.view, on: context.screen, navigator: fieldNavigator, textViewReturnAdvances: textViewsAdvance)
        switch decision {
        case .advance(let from, let to):
            context.post(.focusChange, FocusChange(from: from, to: to))
        case .performAction(let action):
            context.post(.action, ActionInfo(name: action))
        case .resign(let view):
            context.post(.resign, ResignInfo(view: view))
        case .insertNewline:
            break
        case .unknownField(let view):
            context.diagnose(.warning, "Return in '\(view)', which is not on the screen: nothing to advance from")
        }
    }

    /// What the focused field's Return key should say; `nil` when no field is focused.
    public func returnKeyRole(on screen: Screen) -> ReturnKeyRole? {
        guard let field = screen.firstResponder else { return nil }
        if field.kind == .textView && !textViewReturnAdvances { return .newline }
        if navigator.field(after: field, in: screen) != nil { return .next }
        if let action = screen.lastFieldAction, !action.isEmpty { return .action(action) }
        return .done
    }

    /// Whether the focused field has a next field.
    public func hasNext(on screen: Screen) -> Bool {
        guard let field = screen.firstResponder else { return false }
        return navigator.field(after: field, in: screen) != nil
    }

    /// Whether the focused field has a previous field.
    public func hasPrevious(on screen: Screen) -> Bool {
        guard let field = screen.firstResponder else { return false }
        return navigator.field(before: field, in: screen) != nil
    }

    /// Moves the focus to the next field, as a toolbar's Next arrow would. Loop-confined.
    ///
    /// - Returns: whether there was a next field.
    @discardableResult
    public func focusNext(on bus: Bus) -> Bool {
        move(on: bus) { navigator.field(after: $0, in: bus.screen) }
    }

    /// Moves the focus to the previous field. Loop-confined.
    ///
    /// - Returns: whether there was a previous field.
    @discardableResult
    public func focusPrevious(on bus: Bus) -> Bool {
        move(on: bus) { navigator.field(before: $0, in: bus.screen) }
    }

    private func move(on bus: Bus, _ pick: (ViewNode) -> ViewNode?) -> Bool {
        guard let current = bus.screen.firstResponder, let target = pick(current) else { return false }
        bus.post(.focusChange, FocusChange(from: current.id, to: target.id), origin: .derived(by: name))
        return true
    }
}
