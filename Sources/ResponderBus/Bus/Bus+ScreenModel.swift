extension Bus {
    /// The built-in first stage: applies the events that change the screen model (the keyboard's
    /// six are noted in ``Screen/keyboard`` by `dispatch` itself, inlined). `dispatch` calls it only
    /// for the ids in `Bus.screenChangingEvents`; the built-ins that change nothing note turn
    /// activity there, as this does for the rest.
    ///
    /// Input that does not fit the model (an unknown view id, a duplicate id in a scene) changes
    /// nothing and is reported as a warning ``EventName/diagnostic`` derived by `"screen"`; the event
    /// is still delivered.
    ///
    /// `payload` points at the event's payload, whose type the built-in name `nameID` fixes (a name
    /// id always carries one payload type; see `EventNameRegistry`). Not generic, so that a post
    /// does not look up `Event<Payload>`'s metadata and cast the payload at run time.
    @usableFromInline
    func applyToScreen(nameID: Int, payload: UnsafeRawPointer) {
        guard let builtin = BuiltinEvent(rawValue: nameID) else { return }
        if state.turnWatch.hasObservers && builtin != .diagnostic { noteTurnActivity() }
        func read<Value>(_: Value.Type) -> Value { payload.assumingMemoryBound(to: Value.self).pointee }
        do {
            switch builtin {
            case .scene:
                try screen.load(read(SceneInfo.self))
            case .setFrame:
                let change = read(FrameChange.self)
                try screen.setFrame(change.view, to: change.frame)
            case .screen:
                screen.apply(read(ScreenChange.self))
            case .didBeginEditing:
                try screen.setFirstResponder(read(EditingInfo.self).view)
            case .didEndEditing:
                let info = read(EditingInfo.self)
                if screen.firstResponder?.id == info.view { try screen.setFirstResponder(nil) }
            case .focusChange:
                try screen.setFirstResponder(read(FocusChange.self).to)
            case .resign:
                let info = read(ResignInfo.self)
                if screen.firstResponder?.id == info.view { try screen.setFirstResponder(nil) }
            case .viewShift:
                screen.shiftRoot(toOriginY: read(ViewShift.self).originY)
            case .scroll:
                try screen.applyScroll(read(ScrollChange.self))
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
