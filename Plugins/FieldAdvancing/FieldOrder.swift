import ResponderBus

/// How the fields of a screen are ordered for Return, Next and Previous.
public enum FieldOrder: Hashable, Sendable {
    /// By tag: the next field is the one with the smallest tag greater than the current field's.
    /// Gaps in the tags are fine (the original `viewWithTag(tag + 1)` stopped at a gap); fields
    /// without a tag take no part.
    case tag
    /// By position on the screen: top to bottom, then left to right, in screen coordinates with the
    /// root unmoved (the order IQKeyboardManager's return manager uses).
    case position
}
