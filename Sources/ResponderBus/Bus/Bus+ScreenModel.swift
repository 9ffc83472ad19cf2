extension Bus {
    /// The built-in first stage: applies the events that change the screen model.
    ///
    /// Input that does not fit the model (an unknown view id, a duplicate id in a scene) changes
    /// nothing and is reported as a warning ``EventName/diagnostic`` derived by `"screen"`; the event
    /// is still delivered.
    @usableFromInline
    func applyToScreen<Payload>(_ event: Event<Payload>) {
        guard let builtin = BuiltinEvent(rawValue: event.name.id) else { return }
        do {
            switch builtin {
            case .scene:
                if let info = event.payload as? SceneInfo { try screen.load(info) }
            case .setFrame:
                if let change = event.payload as? FrameChange { try screen.setFrame(change.view, to: change.frame) }
            case .screen:
                if let change = event.payload as? ScreenChange { screen.apply(change) }
            case .didBeginEditing:
                if let info = event.payload as? EditingInfo { try screen.setFirstResponder(info.view) }
            case .didEndEditing:
                if let info = event.payload as? EditingInfo, screen.firstResponder?.id == info.view {
                    try screen.setFirstResponder(nil)
                }
            case .focusChange:
                if let change = event.payload as? FocusChange { try screen.setFirstResponder(change.to) }
            case .resign:
                if let info = event.payload as? ResignInfo, screen.firstResponder?.id == info.view {
                    try screen.setFirstResponder(nil)
                }
            case .viewShift:
                if let shift = event.payload as? ViewShift { screen.shiftRoot(toOriginY: shift.originY) }
            case .scroll:
                if let change = event.payload as? ScrollChange { try screen.applyScroll(change) }
            default:
                return
            }
        } catch {
            post(
                .diagnostic, Diagnostic(level: .warning, message: "\(builtin.name) not applied to the screen: \(error)"),
                origin: .derived(by: "screen"))
        }
    }
}
