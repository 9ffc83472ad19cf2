/// What the Return key of the focused field should say, for a UI that labels it.
public enum ReturnKeyRole: Hashable, Sendable {
    /// There is a next field: "Next".
    case next
    /// The last field, and the screen has an action: "Go" (or the action's own label).
    case action(String)
    /// The last field and no action: "Done".
    case done
    /// A text view whose Return inserts a newline.
    case newline
}
