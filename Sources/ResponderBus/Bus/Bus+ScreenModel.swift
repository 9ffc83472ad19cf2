extension Bus {
    /// The built-in first stage: applies the events that change the screen model (the keyboard's
    /// events are noted in ``Screen/keyboard`` by `dispatch` itself, inlined). `dispatch` calls it only
    /// for the ids in `Bus.screenChangingEvents`; the built-ins that change nothing note turn
    /// activity there, as this does for the rest.
    ///
    /// A plugin's decision that changes what another plugin decided in the same turn is reported
    /// (`noteDecision`) before it is applied.
    ///
    /// Input that does not fit the model (an unknown view id, a duplicate id in a scene) changes
    /// nothing and is reported as a warning ``EventName/diagnostic`` derived by `"screen"`; the event
    /// is still delivered.
    ///
    /// `change` is the event's payload, whose type the built-in name `nameID` fixes (a name id
    /// always carries one payload type; see `EventNameRegistry`). Not generic, so that a post
    /// does not look up `Event<Payload>`'s metadata.
    @usableFromInline
    func applyToScreen(nameID: Int, _ change: ModelChange, origin: EventOrigin) {
        guard let builtin = BuiltinEvent(rawValue: nameID) else { return }
        if state.turnWatch.hasObservers && builtin != .diagnostic { noteTurnActivity() }
        if builtin.source == .decision, case .derived(let plugin) = origin { noteDecision(builtin, change, by: plugin) }
        do {
            switch (builtin, change) {
            case (.scene, .scene(let scene)):
                try screen.load(scene)
            case (.setFrame, .frame(let change)):
                try screen.setFrame(change.view, to: change.frame)
            case (.screen, .screen(let change)):
                screen.apply(change)
            case (.didBeginEditing, .editing(let info)):
                try screen.setFirstResponder(info.view)
            case (.didEndEditing, .editing(let info)):
                if screen.firstResponder?.id == info.view { try screen.setFirstResponder(nil) }
            case (.focusChange, .focus(let change)):
                try screen.setFirstResponder(change.to)
            case (.resign, .resign(let info)):
                if screen.firstResponder?.id == info.view { try screen.setFirstResponder(nil) }
            case (.viewShift, .shift(let shift)):
                screen.shiftRoot(toOriginY: shift.originY)
            case (.scroll, .scroll(let change)):
                try screen.applyScroll(change)
            case (.viewSettings, .settings(let settings)):
                try screen.applySettings(settings)
            case (.viewMove, .move(let move)):
                try screen.moveView(move)
            default:
                return
            }
        } catch {
            post(
                .diagnostic, Diagnostic(level: .warning, message: "\(builtin.name) not applied to the screen: \(error)", failure: .notApplied),
                origin: .derived(by: "screen"))
        }
    }
}

/// The payload of an event that changes the screen model, typed: what `dispatch` hands the model
/// stage.
@usableFromInline
enum ModelChange {
    // Boxed: a scene is large, and every model change would be copied at its size.
    indirect case scene(SceneInfo)
    case frame(FrameChange)
    case screen(ScreenChange)
    case editing(EditingInfo)
    case focus(FocusChange)
    case resign(ResignInfo)
    case shift(ViewShift)
    case scroll(ScrollChange)
    case settings(ViewSettings)
    case move(ViewMove)

    /// `payload` as a model change, `nil` when it is of no model event's type. Inlined into a post
    /// compiled for its payload type, where every check but the one that matches falls away.
    @inlinable
    init?<Payload>(_ payload: Payload) {
        if let info = payload as? EditingInfo {
            self = .editing(info)
        } else if let change = payload as? FrameChange {
            self = .frame(change)
        } else if let shift = payload as? ViewShift {
            self = .shift(shift)
        } else if let change = payload as? ScrollChange {
            self = .scroll(change)
        } else if let change = payload as? FocusChange {
            self = .focus(change)
        } else if let info = payload as? ResignInfo {
            self = .resign(info)
        } else if let change = payload as? ScreenChange {
            self = .screen(change)
        } else if let scene = payload as? SceneInfo {
            self = .scene(scene)
        } else if let settings = payload as? ViewSettings {
            self = .settings(settings)
        } else if let move = payload as? ViewMove {
            self = .move(move)
        } else {
            return nil
        }
    }
}
