/// The event vocabulary: every built-in event once, with what each part of the package needs to
/// know of it. Its raw value is the event's interned id (``EventName/id``).
///
/// Everything else follows from this table: the ids and names, the log format's spellings (the
/// reader's look-up and the writer's bytes), the keyboard events' list (``EventName/allKeyboardEvents``,
/// `LogEvent.keyboard`, the recorder, ``KeyboardObserving``'s routing, the out-of-process protocol's
/// lists and the Python kit's model), the importer's UIKit names and the screen model's id ranges
/// (``Bus``). Adding an event is a case here (its place says its group: the keyboard's come first,
/// then the other external events, then the decisions), its payload type in ``payloadKind``, its
/// public ``EventName`` static below, and its model rule.
@usableFromInline
package enum BuiltinEvent: Int, CaseIterable, Sendable {
    case keyboardWillShow, keyboardDidShow, keyboardWillHide, keyboardDidHide
    case keyboardWillChangeFrame, keyboardDidChangeFrame
    case didBeginEditing, didEndEditing, returnKey
    case scene, setFrame, screen
    case viewShift, scroll, focusChange, action, resign, viewSettings, viewMove, diagnostic
    case turnSettled

    /// The raw name, as the log format and ``EventName/rawValue`` spell it.
    package var name: String { String(describing: self) }

    /// Who posts it.
    package enum Source: Sendable {
        /// iOS: the keyboard notifications, editing, Return (and `scene`, `setFrame`, `screen`, which
        /// a recording or an importer writes for the app).
        case external
        /// A plugin's decision, derived under its name.
        case decision
        /// The bus's own bookkeeping, never in a log (`turnSettled`).
        case bookkeeping
    }

    /// Who posts it.
    package var source: Source {
        switch self {
        case .viewShift, .scroll, .focusChange, .action, .resign, .viewSettings, .viewMove, .diagnostic: .decision
        case .turnSettled: .bookkeeping
        default: .external
        }
    }

    /// Whether a log may hold it.
    package var isInLog: Bool { source != .bookkeeping }

    /// Whether it is one of the keyboard's events (a ``KeyboardInfo`` payload, a UIKit keyboard
    /// notification): the cases before `didBeginEditing`.
    @inlinable package var isKeyboard: Bool { rawValue < BuiltinEvent.didBeginEditing.rawValue }

    /// The keyboard's events, in the table's order.
    package static let keyboardEvents: [BuiltinEvent] = allCases.filter(\.isKeyboard)

    /// The keyboard events after which the keyboard model holds the keyboard hidden, whatever frame
    /// they carry (see ``KeyboardState``), as bits of their ids.
    @inlinable package static var keyboardHideMask: Int { 1 << keyboardWillHide.rawValue | 1 << keyboardDidHide.rawValue }

    /// Whether the keyboard model holds the keyboard hidden after this event.
    package var hidesKeyboard: Bool { BuiltinEvent.keyboardHideMask & (1 << rawValue) != 0 }

    /// Its name on the bus, erased (a built-in event's id is its raw value).
    package var anyName: AnyEventName { AnyEventName(id: rawValue) }

    /// Whether the screen model applies it before anyone sees it (see ``Bus``'s screen-model stage).
    package var changesModel: Bool {
        rawValue < BuiltinEvent.didBeginEditing.rawValue || BuiltinEvent.screenChangingMask & (1 << rawValue) != 0
    }

    /// The events after the keyboard's that change the screen model (the model stage, `Bus.applyToScreen`,
    /// has a case for each), as bits of their ids: the one list of them.
    @inlinable package static var screenChangingMask: Int {
        1 << didBeginEditing.rawValue | 1 << didEndEditing.rawValue | 1 << scene.rawValue | 1 << setFrame.rawValue
            | 1 << screen.rawValue | 1 << viewShift.rawValue | 1 << scroll.rawValue | 1 << focusChange.rawValue
            | 1 << resign.rawValue | 1 << viewSettings.rawValue | 1 << viewMove.rawValue
    }

    /// The UIKit notification a keyboard event is (`UIKeyboardWillShowNotification`), `nil` for the
    /// other events.
    package var uikitNotificationName: String? {
        guard isKeyboard else { return nil }
        let name = self.name
        return "UIKeyboard" + name.dropFirst("keyboard".count) + "Notification"
    }

    var payloadKind: any PayloadKind {
        switch self {
        case .keyboardWillShow, .keyboardDidShow, .keyboardWillHide, .keyboardDidHide,
            .keyboardWillChangeFrame, .keyboardDidChangeFrame:
            TypedPayloadKind<KeyboardInfo>()
        case .didBeginEditing, .didEndEditing: TypedPayloadKind<EditingInfo>()
        case .returnKey: TypedPayloadKind<ReturnKeyInfo>()
        case .scene: TypedPayloadKind<SceneInfo>()
        case .setFrame: TypedPayloadKind<FrameChange>()
        case .screen: TypedPayloadKind<ScreenChange>()
        case .viewShift: TypedPayloadKind<ViewShift>()
        case .scroll: TypedPayloadKind<ScrollChange>()
        case .focusChange: TypedPayloadKind<FocusChange>()
        case .action: TypedPayloadKind<ActionInfo>()
        case .resign: TypedPayloadKind<ResignInfo>()
        case .viewSettings: TypedPayloadKind<ViewSettings>()
        case .viewMove: TypedPayloadKind<ViewMove>()
        case .diagnostic: TypedPayloadKind<Diagnostic>()
        case .turnSettled: TypedPayloadKind<TurnSettled>()
        }
    }
}

extension EventName where Payload == KeyboardInfo {
    /// The keyboard is about to appear (UIKit's `keyboardWillShowNotification`).
    public static var keyboardWillShow: Self { Self(builtin: .keyboardWillShow) }
    /// The keyboard has appeared.
    public static var keyboardDidShow: Self { Self(builtin: .keyboardDidShow) }
    /// The keyboard is about to go away. Also sent when an iPad keyboard undocks or floats.
    public static var keyboardWillHide: Self { Self(builtin: .keyboardWillHide) }
    /// The keyboard has gone away.
    public static var keyboardDidHide: Self { Self(builtin: .keyboardDidHide) }
    /// The keyboard's frame is about to change; every keyboard change posts this one.
    public static var keyboardWillChangeFrame: Self { Self(builtin: .keyboardWillChangeFrame) }
    /// The keyboard's frame has changed.
    public static var keyboardDidChangeFrame: Self { Self(builtin: .keyboardDidChangeFrame) }

    /// The keyboard's events, in the order listed above.
    public static var allKeyboardEvents: [Self] { BuiltinEvent.keyboardEvents.map(Self.init(builtin:)) }

    /// The built-in keyboard event named `rawValue` (as a log spells it), or `nil`.
    public init?(keyboardEventNamed rawValue: String) {
        guard let builtin = BuiltinEvent.keyboardEvents.first(where: { $0.name == rawValue }) else { return nil }
        self.init(builtin: builtin)
    }

    /// Whether this is one of the built-in keyboard events (not a name made with ``init(_:)``).
    public var isBuiltinKeyboardEvent: Bool { BuiltinEvent(rawValue: id)?.isKeyboard ?? false }

    /// Whether this is a hide (`keyboardWillHide`, `keyboardDidHide`): the keyboard model holds the
    /// keyboard hidden after it, whatever frame it carries.
    public var isHide: Bool { BuiltinEvent(rawValue: id)?.hidesKeyboard ?? false }
}

extension EventName where Payload == EditingInfo {
    /// A text field or text view became first responder.
    public static var didBeginEditing: Self { Self(builtin: .didBeginEditing) }
    /// A text field or text view stopped being first responder.
    public static var didEndEditing: Self { Self(builtin: .didEndEditing) }
}

extension EventName where Payload == ReturnKeyInfo {
    /// The user pressed Return in a field.
    public static var returnKey: Self { Self(builtin: .returnKey) }
}

extension EventName where Payload == SceneInfo {
    /// A new screen content: the view tree and the form's last-field action.
    public static var scene: Self { Self(builtin: .scene) }
}

extension EventName where Payload == FrameChange {
    /// A view's frame changed (a text view growing, a layout pass).
    public static var setFrame: Self { Self(builtin: .setFrame) }
}

extension EventName where Payload == ScreenChange {
    /// The screen changed size or safe area (rotation, split view).
    public static var screen: Self { Self(builtin: .screen) }
}

extension EventName where Payload == ViewShift {
    /// Derived: the root view moves to a new vertical origin.
    public static var viewShift: Self { Self(builtin: .viewShift) }
}

extension EventName where Payload == ScrollChange {
    /// Derived: a scroll view's content offset or bottom inset changes.
    public static var scroll: Self { Self(builtin: .scroll) }
}

extension EventName where Payload == FocusChange {
    /// Derived: the first responder moves to another field (or to none).
    public static var focusChange: Self { Self(builtin: .focusChange) }
}

extension EventName where Payload == ActionInfo {
    /// Derived: the screen's action is performed (the original write-ups' segue).
    public static var action: Self { Self(builtin: .action) }
}

extension EventName where Payload == ResignInfo {
    /// Derived: a field resigns first responder, dismissing the keyboard.
    public static var resign: Self { Self(builtin: .resign) }
}

extension EventName where Payload == ViewSettings {
    /// Derived: a view's keyboard settings change (the gap avoidance keeps, whether avoidance handles
    /// it, whether it follows the keyboard): a plugin's per-view policy, applied to the screen model before anyone sees it.
    public static var viewSettings: Self { Self(builtin: .viewSettings) }
}

extension EventName where Payload == ViewMove {
    /// Derived: one view moves to a new frame (a chat input bar onto the keyboard's top), applied
    /// to the screen model before anyone sees it.
    public static var viewMove: Self { Self(builtin: .viewMove) }
}

extension EventName where Payload == Diagnostic {
    /// Derived: something worth telling a person (a plugin's error, a suspicious sequence).
    public static var diagnostic: Self { Self(builtin: .diagnostic) }
}
