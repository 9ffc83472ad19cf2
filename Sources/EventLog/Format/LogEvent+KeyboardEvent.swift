import ResponderBus

// What `LogEvent.KeyboardEvent` offered when it was an enum of its own, for code written against it.
extension EventName where Payload == KeyboardInfo {
    /// The keyboard events (`LogEvent.KeyboardEvent` was an enum of them).
    @available(*, deprecated, renamed: "allKeyboardEvents")
    public static var allCases: [Self] { allKeyboardEvents }

    /// The built-in keyboard event named `rawValue`, or `nil`.
    @available(*, deprecated, renamed: "init(keyboardEventNamed:)")
    public init?(rawValue: String) { self.init(keyboardEventNamed: rawValue) }

    /// The bus's name for this event: the value itself, now that `LogEvent.KeyboardEvent` is an
    /// `EventName<KeyboardInfo>`.
    @available(*, deprecated, message: "LogEvent.KeyboardEvent is EventName<KeyboardInfo>: use the value itself")
    public var eventName: Self { self }
}
