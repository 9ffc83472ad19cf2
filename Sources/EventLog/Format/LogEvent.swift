import ResponderBus

/// One event of the log format, with its typed payload.
///
/// The external events are what the world did; the derived ones are what plugins decided (in a log
/// they carry `"origin":"derived"` and `"by"`).
public enum LogEvent: Hashable, Sendable {
    /// A keyboard event (one of `EventName.allKeyboardEvents`) with its payload.
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
    /// Derived `viewSettings`.
    case viewSettings(ViewSettings)
    /// Derived `viewMove`.
    case viewMove(ViewMove)
    /// Derived `diagnostic`.
    case diagnostic(Diagnostic)

    /// A keyboard event's name: one of `EventName.allKeyboardEvents` (`.keyboardWillShow` and
    /// the rest); its `rawValue` is its name in a log.
    ///
    /// A name made with `EventName(_:)` is not one the format knows: it is written by its raw value,
    /// and a reader skips it as an unknown event (a reader of records given in memory says so too).
    /// Do not give such a name the spelling of one of the format's events: it would be read as that
    /// event.
    public typealias KeyboardEvent = EventName<KeyboardInfo>

    /// The event's raw name, as written in the `event` field.
    public var name: String { builtin?.name ?? Self.rawName(of: self) }

    /// The vocabulary's entry for this event; `nil` only for a keyboard event named outside it.
    package var builtin: BuiltinEvent? {
        switch self {
        case .keyboard(let name, _): BuiltinEvent(rawValue: name.id)
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
        case .viewSettings: .viewSettings
        case .viewMove: .viewMove
        case .diagnostic: .diagnostic
        }
    }

    private static func rawName(of event: LogEvent) -> String {
        guard case .keyboard(let name, _) = event else { preconditionFailure("only a keyboard event can be named outside the vocabulary") }
        return name.rawValue
    }

    /// Whether this is one of the events plugins derive.
    public var isDerivedKind: Bool { builtin?.source == .decision }

    /// Every raw name the format knows.
    public static let knownNames: Set<String> = Set(BuiltinEvent.allCases.filter(\.isInLog).map(\.name))

    /// Posts the event on a bus, with the given origin. Loop-confined.
    public func post(on bus: Bus, origin: EventOrigin = .external) {
        switch self {
        case .keyboard(let name, let info): bus.post(name, info, origin: origin)
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
        case .viewSettings(let info): bus.post(.viewSettings, info, origin: origin)
        case .viewMove(let info): bus.post(.viewMove, info, origin: origin)
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
        guard let builtin = BuiltinEvent(rawValue: event.name.id), builtin.isInLog else { return nil }
        let payload = event.payload
        let result: LogEvent?
        switch builtin {
        case _ where builtin.isKeyboard: result = (payload as? KeyboardInfo).map { .keyboard(EventName(builtin: builtin), $0) }
        case .didBeginEditing: result = (payload as? EditingInfo).map { .didBeginEditing($0) }
        case .didEndEditing: result = (payload as? EditingInfo).map { .didEndEditing($0) }
        case .returnKey: result = (payload as? ReturnKeyInfo).map { .returnKey($0) }
        case .scene: result = (payload as? SceneInfo).map { .scene($0) }
        case .setFrame: result = (payload as? FrameChange).map { .setFrame($0) }
        case .screen: result = (payload as? ScreenChange).map { .screen($0) }
        case .viewShift: result = (payload as? ViewShift).map { .viewShift($0) }
        case .scroll: result = (payload as? ScrollChange).map { .scroll($0) }
        case .focusChange: result = (payload as? FocusChange).map { .focusChange($0) }
        case .action: result = (payload as? ActionInfo).map { .action($0) }
        case .resign: result = (payload as? ResignInfo).map { .resign($0) }
        case .viewSettings: result = (payload as? ViewSettings).map { .viewSettings($0) }
        case .viewMove: result = (payload as? ViewMove).map { .viewMove($0) }
        case .diagnostic: result = (payload as? Diagnostic).map { .diagnostic($0) }
        default: result = nil
        }
        guard let result else { return nil }
        self = result
    }

    /// The bus event this is, its payload boxed, with the given origin: the converse of
    /// ``init(_:)`` (what a host that delivers events one by one, not through a bus, needs).
    package func erased(origin: EventOrigin = .external) -> AnyEvent {
        let payload: any Sendable =
            switch self {
            case .keyboard(_, let info): info
            case .didBeginEditing(let info), .didEndEditing(let info): info
            case .returnKey(let info): info
            case .scene(let info): info
            case .setFrame(let info): info
            case .screen(let info): info
            case .viewShift(let info): info
            case .scroll(let info): info
            case .focusChange(let info): info
            case .action(let info): info
            case .resign(let info): info
            case .viewSettings(let info): info
            case .viewMove(let info): info
            case .diagnostic(let info): info
            }
        if case .keyboard(let name, _) = self { return AnyEvent(name: name.erased, payload: payload, origin: origin) }
        guard let builtin else { preconditionFailure("only a keyboard event can be named outside the vocabulary") }
        return AnyEvent(name: builtin.anyName, payload: payload, origin: origin)
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
