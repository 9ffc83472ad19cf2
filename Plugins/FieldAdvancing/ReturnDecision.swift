import ResponderBus

/// What Return in a field does. The decision logic of ``FieldAdvancing``, as a pure function.
public enum ReturnDecision: Hashable, Sendable {
    /// Move the first responder to this field (emits `focusChange`).
    case advance(from: ViewID, to: ViewID)
    /// The field is the last one and the screen has an action: perform it (emits `action`).
    case performAction(String)
    /// The field is the last one and the screen has no action: resign (emits `resign`).
    case resign(ViewID)
    /// Return in a text view inserts a newline: nothing happens.
    case insertNewline
    /// Return in a view the screen does not have: nothing happens (a diagnostic says so).
    case unknownField(ViewID)

    /// Decides what Return in `view` does on `screen`.
    ///
    /// - Parameters:
    ///   - view: the field Return was pressed in.
    ///   - screen: the screen model.
    ///   - navigator: the field order.
    ///   - textViewReturnAdvances: whether Return in a text view advances like a text field,
    ///     instead of inserting a newline.
    public static func decide(
        returnIn view: ViewID, on screen: Screen, navigator: FieldNavigator, textViewReturnAdvances: Bool
    ) -> ReturnDecision {
        guard let field = screen.view(view) else { return .unknownField(view) }
        if field.kind == .textView && !textViewReturnAdvances { return .insertNewline }
        if let next = navigator.field(after: field, in: screen) {
            return .advance(from: view, to: next.id)
        }
        if let action = screen.lastFieldAction, !action.isEmpty {
            return .performAction(action)
        }
        return .resign(view)
    }
}
