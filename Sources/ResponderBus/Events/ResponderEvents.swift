/// The payload of ``EventName/didBeginEditing`` and ``EventName/didEndEditing``.
public struct EditingInfo: Hashable, Sendable {
    /// The text field or text view that began or ended editing.
    public var view: ViewID

    /// Creates the payload.
    public init(view: ViewID) { self.view = view }
}

/// The payload of ``EventName/returnKey``.
public struct ReturnKeyInfo: Hashable, Sendable {
    /// The field in which Return was pressed.
    public var view: ViewID

    /// Creates the payload.
    public init(view: ViewID) { self.view = view }
}
