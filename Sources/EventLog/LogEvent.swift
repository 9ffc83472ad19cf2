import ResponderBus

/// One event of the log format, with its typed payload.
///
/// The external events are what the world did; the derived ones are what plugins decided (in a log
/// they carry `"origin":"derived"` and `"by"`).
public enum LogEvent: Hashable, Sendable {
    /// One of the six keyboard events.
    case keyboard(KeyboardEvent, KeyboardInfo)
    /// `didBeginEditing`.
    case didBeginEditing(EditingInfo)
    /// `didEndEditing`.
    case didEndEditing(EditingInfo)
    /// `returnKey`.
    case returnKey(ReturnKeyInfo)
    /// `scene`: the screen's content.
    case scene(SceneInfo)
    /// `setFrame`.
    case setFrame(FrameChange)
    /// `screen`: rotation, split view.
    case screen(ScreenChange)
    /// Derived `viewShift`.
    case viewShift(ViewShift)
    /// Derived `scroll`.
    case scroll(ScrollChange)
    /// Derived `focusChange`.
    case focusChange(FocusChange)
    /// Derived `action`.
    case action(ActionInfo)
    /// Derived `resign`.
    case resign(ResignInfo)
    /// Derived `diagnostic`.
    case diagnostic(Diagnostic)

    /// The six keyboard events by their raw names.
    public enum KeyboardEvent: String, Hashable, Sendable, CaseIterable {
        /// `keyboardWillShow`.
        case keyboardWillShow
        /// `keyboardDidShow`.
        case keyboardDidShow
        /// `keyboardWillHide`.
        case keyboardWillHide
        /// `keyboardDidHide`.
        case keyboardDidHide
        /// `keyboardWillChangeFrame`.
        case keyboardWillChangeFrame
        /// `keyboardDidChangeFrame`.
        case keyboardDidChangeFrame

        /// The bus's name for this event.
        public var eventName: EventName<KeyboardInfo> {
            switch self {
            case .keyboardWillShow: .keyboardWillShow
            case .keyboardDidShow: .keyboardDidShow
            case .keyboardWillHide: .keyboardWillHide
            case .keyboardDidHide: .keyboardDidHide
            case .keyboardWillChangeFrame: .keyboardWillChangeFrame
            case .keyboardDidChangeFrame: .keyboardDidChangeFrame
            }
        }
    }

    /// The event's raw name, as written in the `event` field.
    public var name: String {
        switch self {
        case .keyboard(let kind, _): kind.rawValue
        case .didBeginEditing: "didBeginEditing"
        case .didEndEditing: "didEndEditing"
        case .returnKey: "returnKey"
        case .scene: "scene"
        case .setFrame: "setFrame"
        case .screen: "screen"
        case .viewShift: "viewShift"
        case .scroll: "scroll"
        case .focusChange: "focusChange"
        case .action: "action"
        case .resign: "resign"
        case .diagnostic: "diagnostic"
        }
    }

    /// Whether this is one of the events plugins derive.
    public var isDerivedKind: Bool {
        switch self {
        case .viewShift, .scroll, .focusChange, .action, .resign, .diagnostic: true
        default: false
        }
    }

    /// Every raw name the format knows.
    public static let knownNames: Set<String> = Set(KeyboardEvent.allCases.map(\.rawValue)).union([
        "didBeginEditing", "didEndEditing", "returnKey", "scene", "setFrame", "screen",
        "viewShift", "scroll", "focusChange", "action", "resign", "diagnostic",
    ])

    /// Posts the event on a bus, with the given origin. Loop-confined.
    public func post(on bus: Bus, origin: EventOrigin = .external) {
        switch self {
        case .keyboard(let kind, let info): bus.post(kind.eventName, info, origin: origin)
        case .didBeginEditing(let info): bus.post(.didBeginEditing, info, origin: origin)
        case .didEndEditing(let info): bus.post(.didEndEditing, info, origin: origin)
        case .returnKey(let info): bus.post(.returnKey, info, origin: origin)
        case .scene(let info): bus.post(.scene, info, origin: origin)
        case .setFrame(let info): bus.post(.setFrame, info, origin: origin)
        case .screen(let info): bus.post(.screen, info, origin: origin)
        case .viewShift(let info): bus.post(.viewShift, info, origin: origin)
        case .scroll(let info): bus.post(.scroll, info, origin: origin)
        case .focusChange(let info): bus.post(.focusChange, info, origin: origin)
        case .action(let info): bus.post(.action, info, origin: origin)
        case .resign(let info): bus.post(.resign, info, origin: origin)
        case .diagnostic(let info): bus.post(.diagnostic, info, origin: origin)
        }
    }

    /// The log event for a bus event, or `nil` for events the format does not know (such as
    /// `turnSettled` or a plugin's own events).
    public init?(_ event: AnyEvent) {
        if let e = event.as(.keyboardWillShow) { self = .keyboard(.keyboardWillShow, e.payload) }
        else if let e = event.as(.keyboardDidShow) { self = .keyboard(.keyboardDidShow, e.payload) }
        else if let e = event.as(.keyboardWillHide) { self = .keyboard(.keyboardWillHide, e.payload) }
        else if let e = event.as(.keyboardDidHide) { self = .keyboard(.keyboardDidHide, e.payload) }
        else if let e = event.as(.keyboardWillChangeFrame) { self = .keyboard(.keyboardWillChangeFrame, e.payload) }
        else if let e = event.as(.keyboardDidChangeFrame) { self = .keyboard(.keyboardDidChangeFrame, e.payload) }
        else if let e = event.as(.didBeginEditing) { self = .didBeginEditing(e.payload) }
        else if let e = event.as(.didEndEditing) { self = .didEndEditing(e.payload) }
        else if let e = event.as(.returnKey) { self = .returnKey(e.payload) }
        else if let e = event.as(.scene) { self = .scene(e.payload) }
        else if let e = event.as(.setFrame) { self = .setFrame(e.payload) }
        else if let e = event.as(.screen) { self = .screen(e.payload) }
        else if let e = event.as(.viewShift) { self = .viewShift(e.payload) }
        else if let e = event.as(.scroll) { self = .scroll(e.payload) }
        else if let e = event.as(.focusChange) { self = .focusChange(e.payload) }
        else if let e = event.as(.action) { self = .action(e.payload) }
        else if let e = event.as(.resign) { self = .resign(e.payload) }
        else if let e = event.as(.diagnostic) { self = .diagnostic(e.payload) }
        else { return nil }
    }
}
