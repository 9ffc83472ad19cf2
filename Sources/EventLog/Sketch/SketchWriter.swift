import ResponderBus

/// Writes a ``SessionSketch``'s records: the state of the screen and the keyboard as the actions
/// change it, and the events UIKit would send for each change.
struct SketchWriter {
    let sketch: SessionSketch
    private var device: Device { sketch.device }
    private var orientation: Device.Orientation
    /// The field being edited.
    private var focused: FieldSketch?
    /// The docked keyboard's height; `nil` while it is hidden.
    private var keyboardHeight: Double?
    private var records: [LogRecord] = []
    /// The `Did` events of the last keyboard animation, written when it ends unless an action
    /// comes first.
    private var pending: [LogRecord] = []

    /// How long after Return the focus moves, or the last field ends editing: 10 ms.
    static let returnDelay = 0.01

    init(sketch: SessionSketch) {
        self.sketch = sketch
        orientation = sketch.orientation
    }

    /// The scene, at `t` 0.
    mutating func scene() {
        records.append(LogRecord(t: 0, event: .scene(sketch.scene(in: orientation))))
    }

    /// The records, in time order, once every action was performed.
    mutating func finished() -> [LogRecord] {
        records += pending
        pending = []
        return records.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(\.element)
    }

    mutating func perform(_ action: SessionSketch.Action) throws(SessionSketchError) {
        // A keyboard animation still running when the next action comes is cut short.
        records += pending.filter { $0.t <= action.t }
        pending = []
        switch action {
        case .focus(let id, let t): try focus(id, at: t)
        case .returnKey(let t): try returnKey(at: t, action: action)
        case .rotate(let t): rotate(at: t)
        case .dismiss(let t):
            let field = try requireFocus(for: action)
            emit(.didEndEditing(EditingInfo(view: field.id)), at: t)
            hide(at: t)
        }
    }

    // MARK: Actions

    private mutating func focus(_ id: ViewID, at t: Double) throws(SessionSketchError) {
        guard let field = sketch.field(id) else {
            throw SessionSketchError(
                .unknownField,
                "focus '\(id)' at \(JSONText.number(t)) s: the screen has no such field; its fields are \(sketch.fields.map { "'\($0.id)'" }.joined(separator: ", "))"
            )
        }
        guard field.isFocusable else {
            throw SessionSketchError(
                .impossibleAction,
                "focus '\(id)' at \(JSONText.number(t)) s: the field is \(field.isHidden ? "hidden" : "disabled"), and cannot become first responder")
        }
        if focused?.id == id { return }
        let begin = LogEvent.didBeginEditing(EditingInfo(view: id))
        if let previous = focused {
            emit(.didEndEditing(EditingInfo(view: previous.id)), at: t)
            // A text field begins editing before the keyboard says anything, a text view after.
            if field.kind != .textView { emit(begin, at: t) }
            keepFrame(at: t)
            if field.kind == .textView { emit(begin, at: t) }
        } else {
            if field.kind != .textView { emit(begin, at: t) }
            show(at: t, then: field.kind == .textView ? begin : nil)
        }
        focused = field
    }

    private mutating func returnKey(at t: Double, action: SessionSketch.Action) throws(SessionSketchError) {
        let field = try requireFocus(for: action)
        emit(.returnKey(ReturnKeyInfo(view: field.id)), at: t)
        // In a text view Return types a newline.
        guard field.kind != .textView else { return }
        let later = t + Self.returnDelay
        emit(.didEndEditing(EditingInfo(view: field.id)), at: later)
        if let next = sketch.field(after: field.id) {
            emit(.didBeginEditing(EditingInfo(view: next.id)), at: later)
            focused = next
        } else {
            hide(at: later)
        }
    }

    private mutating func rotate(at t: Double) {
        let turned = orientation.turned
        let screen = device.screenSize(in: turned)
        emit(.screen(ScreenChange(size: screen, safeArea: device.safeArea(in: turned))), at: t)
        emit(.setFrame(FrameChange(view: SessionSketch.rootID, frame: Rect(x: 0, y: 0, width: screen.width, height: screen.height))), at: t)
        for (field, frame) in zip(sketch.fields, sketch.fieldFrames(in: turned)) {
            emit(.setFrame(FrameChange(view: field.id, frame: frame)), at: t)
        }
        guard let height = keyboardHeight else {
            orientation = turned
            return
        }
        // The keyboard leaves in the old coordinates and comes back in the new ones.
        let leaving = keyboardInfo(
            from: device.dockedKeyboardFrame(in: orientation, height: height), to: device.hiddenKeyboardFrame(in: orientation, height: height))
        emitKeyboard([.keyboardWillChangeFrame, .keyboardWillHide], leaving, at: t)
        orientation = turned
        show(at: t, then: nil)
    }

    private func requireFocus(for action: SessionSketch.Action) throws(SessionSketchError) -> FieldSketch {
        guard let focused else {
            throw SessionSketchError(.impossibleAction, "\(action.description): no field is focused then; focus one before it")
        }
        return focused
    }

    // MARK: The keyboard

    /// The keyboard appears: each of its heights announced, `interval` apart; `then` (a text
    /// view's `didBeginEditing`) after the first announcement.
    private mutating func show(at t: Double, then: LogEvent?) {
        let heights = sketch.keyboard.heights(on: device, in: orientation)
        let interval: Double = if case .thirdParty(let keyboard) = sketch.keyboard { keyboard.interval } else { 0 }
        var begin = device.hiddenKeyboardFrame(in: orientation, height: heights[0])
        var last = KeyboardInfo()
        var lastT = t
        for (index, height) in heights.enumerated() {
            lastT = t + Double(index) * interval
            let end =
                height > 0 ? device.dockedKeyboardFrame(in: orientation, height: height) : device.hiddenKeyboardFrame(in: orientation, height: 0)
            last = keyboardInfo(from: begin, to: end, animated: height > 0)
            emitKeyboard([.keyboardWillChangeFrame, .keyboardWillShow], last, at: lastT)
            if index == 0, let then { emit(then, at: lastT) }
            begin = end
        }
        keyboardHeight = heights.last
        pending = Self.keyboardRecords([.keyboardDidChangeFrame, .keyboardDidShow], last, at: lastT + sketch.animationDuration)
    }

    /// The keyboard, up, says it stays where it is (focus moved to another field).
    private mutating func keepFrame(at t: Double) {
        guard let height = keyboardHeight else { return }
        let frame = device.dockedKeyboardFrame(in: orientation, height: height)
        let info = keyboardInfo(from: frame, to: frame)
        emitKeyboard([.keyboardWillChangeFrame, .keyboardWillShow], info, at: t)
        pending = Self.keyboardRecords([.keyboardDidChangeFrame, .keyboardDidShow], info, at: t + sketch.animationDuration)
    }

    /// The keyboard goes down; the field that was focused has ended editing.
    private mutating func hide(at t: Double) {
        focused = nil
        guard let height = keyboardHeight else { return }
        let info = keyboardInfo(
            from: device.dockedKeyboardFrame(in: orientation, height: height), to: device.hiddenKeyboardFrame(in: orientation, height: height))
        emitKeyboard([.keyboardWillChangeFrame, .keyboardWillHide], info, at: t)
        pending = Self.keyboardRecords([.keyboardDidChangeFrame, .keyboardDidHide], info, at: t + sketch.animationDuration)
        keyboardHeight = nil
    }

    private func keyboardInfo(from begin: Rect, to end: Rect, animated: Bool = true) -> KeyboardInfo {
        KeyboardInfo(begin: begin, end: end, duration: animated ? sketch.animationDuration : 0, curve: 7, isLocal: true)
    }

    private mutating func emitKeyboard(_ names: [LogEvent.KeyboardEvent], _ info: KeyboardInfo, at t: Double) {
        records += Self.keyboardRecords(names, info, at: t)
    }

    private static func keyboardRecords(_ names: [LogEvent.KeyboardEvent], _ info: KeyboardInfo, at t: Double) -> [LogRecord] {
        names.map { LogRecord(t: microseconds(t), event: .keyboard($0, info)) }
    }

    private mutating func emit(_ event: LogEvent, at t: Double) {
        records.append(LogRecord(t: Self.microseconds(t), event: event))
    }

    /// `t` to the microsecond, so that sums of times print as written (1.258, not 1.2579999999999998).
    static func microseconds(_ t: Double) -> Double { (t * 1e6).rounded() / 1e6 }
}
