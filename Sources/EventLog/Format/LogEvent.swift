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
    /// `scene`: the screen's content. Boxed (`indirect`): a view tree's root is the largest payload,
    /// and every record would otherwise be as large as it, in every copy of every record.
    indirect case scene(SceneInfo)
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
        public var eventName: EventName<KeyboardInfo> { Self.eventNames[Int(kind.rawValue)] }

        /// The format's kind of event: the one table of the six keyboard events; the bus's names
        /// and the reader's look-up follow from it.
        var kind: EventKind {
            switch self {
            case .keyboardWillShow: .keyboardWillShow
            case .keyboardDidShow: .keyboardDidShow
            case .keyboardWillHide: .keyboardWillHide
            case .keyboardDidHide: .keyboardDidHide
            case .keyboardWillChangeFrame: .keyboardWillChangeFrame
            case .keyboardDidChangeFrame: .keyboardDidChangeFrame
            }
        }

        /// The keyboard event of each `EventKind` (by raw value), `nil` for the other kinds.
        static let byKind: [KeyboardEvent?] = EventKind.allCases.map { kind in allCases.first { $0.kind == kind } }

        /// The bus's names, by `EventKind` raw value; checked against the spellings when built.
        private static let eventNames: [EventName<KeyboardInfo>] = {
            let names = EventName<KeyboardInfo>.allKeyboardEvents
            for event in allCases {
                precondition(names[Int(event.kind.rawValue)].rawValue == event.rawValue, "keyboard event names out of order")
            }
            return names
        }()
    }

    /// The event's raw name, as written in the `event` field.
    public var name: String { kind.name }

    /// The kind of event, whose spelling is its name.
    var kind: EventKind {
        switch self {
        case .keyboard(let kind, _): kind.kind
        case .didBeginEditing: .didBeginEditing
        case .didEndEditing: .didEndEditing
        case .returnKey: .returnKey
        case .scene: .scene
        case .setFrame: .setFrame
        case .screen: .screen
        case .viewShift: .viewShift
        case .scroll: .scroll
        case .focusChange: .focusChange
        case .action: .action
        case .resign: .resign
        case .diagnostic: .diagnostic
        }
    }

    /// The vocabulary's entry for this event (`EventKind`'s raw values are the event ids).
    var builtin: BuiltinEvent { BuiltinEvent(rawValue: Int(kind.rawValue))! }

    /// Whether this is one of the events plugins derive.
    public var isDerivedKind: Bool { builtin.source == .decision }

    /// Every raw name the format knows.
    public static let knownNames: Set<String> = Set(BuiltinEvent.allCases.filter(\.isInLog).map(\.name))

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

    /// Whether the format knows the event of this interned name id.
    public static func knows(_ id: Int) -> Bool { knownIDs.contains(id) }

    private static let knownIDs: Set<Int> = Set(BuiltinEvent.allCases.filter(\.isInLog).map(\.rawValue))

    /// The log event for a bus event, or `nil` for events the format does not know (such as
    /// `turnSettled` or a plugin's own events).
    public init?(_ event: AnyEvent) {
        // One switch on the interned id, then one cast.
        let id = event.name.id
        let payload = event.payload
        func keyboard(_ kind: KeyboardEvent) -> LogEvent? {
            (payload as? KeyboardInfo).map { .keyboard(kind, $0) }
        }
        let result: LogEvent?
        switch id {
        case EventName.keyboardWillShow.id: result = keyboard(.keyboardWillShow)
        case EventName.keyboardDidShow.id: result = keyboard(.keyboardDidShow)
        case EventName.keyboardWillHide.id: result = keyboard(.keyboardWillHide)
        case EventName.keyboardDidHide.id: result = keyboard(.keyboardDidHide)
        case EventName.keyboardWillChangeFrame.id: result = keyboard(.keyboardWillChangeFrame)
        case EventName.keyboardDidChangeFrame.id: result = keyboard(.keyboardDidChangeFrame)
        case EventName.didBeginEditing.id: result = (payload as? EditingInfo).map { .didBeginEditing($0) }
        case EventName.didEndEditing.id: result = (payload as? EditingInfo).map { .didEndEditing($0) }
        case EventName.returnKey.id: result = (payload as? ReturnKeyInfo).map { .returnKey($0) }
        case EventName.scene.id: result = (payload as? SceneInfo).map { .scene($0) }
        case EventName.setFrame.id: result = (payload as? FrameChange).map { .setFrame($0) }
        case EventName.screen.id: result = (payload as? ScreenChange).map { .screen($0) }
        case EventName.viewShift.id: result = (payload as? ViewShift).map { .viewShift($0) }
        case EventName.scroll.id: result = (payload as? ScrollChange).map { .scroll($0) }
        case EventName.focusChange.id: result = (payload as? FocusChange).map { .focusChange($0) }
        case EventName.action.id: result = (payload as? ActionInfo).map { .action($0) }
        case EventName.resign.id: result = (payload as? ResignInfo).map { .resign($0) }
        case EventName.diagnostic.id: result = (payload as? Diagnostic).map { .diagnostic($0) }
        default: result = nil
        }
        guard let result else { return nil }
        self = result
    }
}

extension LogEvent {
    /// The view the event names (`view` in the log), for the events that name one.
    var viewID: ViewID? {
        switch self {
        case .didBeginEditing(let info), .didEndEditing(let info): info.view
        case .returnKey(let info): info.view
        case .setFrame(let change): change.view
        default: nil
        }
    }
}
