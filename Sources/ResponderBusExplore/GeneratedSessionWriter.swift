import EventLog
import ResponderBus

/// Writes a ``GeneratedSession``'s records: the screen and the keyboard as the steps change them,
/// and the events UIKit sends for each change, as `SessionSketch` writes a sketch's.
struct GeneratedSessionWriter {
    let session: GeneratedSession
    private var device: Device { session.device }
    private var orientation: Device.Orientation
    private var focused: GeneratedSession.Field?
    /// The keyboard's end frame while it is up (in whatever placement its kind has).
    private var keyboardFrame: Rect?
    /// How much taller each text view has grown.
    private var extra: [ViewID: Double] = [:]
    private var scene: SceneInfo
    private var records: [LogRecord] = []
    /// The `Did` events of the last keyboard animation, written when it ends unless a step comes
    /// first (iOS leaves them out of an animation cut short).
    private var pending: [LogRecord] = []
    /// The time the last step's own events end.
    private var busyUntil = 0.0

    /// How long the keyboard's animations last, in seconds.
    static let animation = 0.25
    /// How long after Return the focus moves.
    static let returnDelay = 0.01
    /// How long another app holds the keyboard, or the user stays in another app.
    static let away = 0.3
    /// When the first step comes before its own `after`.
    static let start = 0.5

    init(session: GeneratedSession) {
        self.session = session
        orientation = session.orientation
        scene = session.scene(in: session.orientation)
    }

    mutating func write() -> [LogRecord] {
        records.append(LogRecord(t: 0, event: .scene(scene)))
        var t = Self.start
        for step in session.steps {
            t = Self.microseconds(max(t + max(step.after, 0), busyUntil + 0.01))
            records += pending.filter { $0.t <= t }
            let running = pending.filter { $0.t > t }
            pending = []
            busyUntil = t
            perform(step.action, at: t)
            // Only a step that starts a keyboard animation cuts the running one short; a step that
            // leaves the keyboard alone (Return in a text view, a growth, a tap on the focused
            // field) lets it end with its `Did` events.
            if pending.isEmpty { pending = running }
        }
        records += pending
        return records.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(\.element)
    }

    private mutating func perform(_ action: GeneratedSession.Action, at t: Double) {
        switch action {
        case .tap(let id):
            guard let field = session.field(id), field.isFocusable, focused?.id != id else { return }
            focus(field, at: t)
        case .returnKey: returnKey(at: t)
        case .rotate: rotate(at: t)
        case .dismiss:
            guard let field = focused else { return }
            emit(.didEndEditing(EditingInfo(view: field.id)), at: t)
            focused = nil
            hide(at: t)
        case .grow(let by):
            // A text view in a scroll view is not grown: its content size would change, which a
            // log's `setFrame` cannot say.
            guard let field = focused, field.kind == .textView, by > 0, !session.isInScrollView(field.id) else { return }
            extra[field.id, default: 0] += by
            relayout(at: t)
        case .switchApps: switchApps(at: t)
        case .otherAppKeyboard: otherAppKeyboard(at: t)
        }
    }

    // MARK: Steps

    private mutating func focus(_ field: GeneratedSession.Field, at t: Double) {
        let begin = LogEvent.didBeginEditing(EditingInfo(view: field.id))
        if let previous = focused {
            emit(.didEndEditing(EditingInfo(view: previous.id)), at: t)
            focused = field
            if field.kind != .textView { emit(begin, at: t) }
            reannounce(at: t)
            if field.kind == .textView { emit(begin, at: t) }
        } else {
            focused = field
            if field.kind != .textView { emit(begin, at: t) }
            show(at: t, then: field.kind == .textView ? begin : nil)
        }
    }

    private mutating func returnKey(at t: Double) {
        guard let field = focused else { return }
        emit(.returnKey(ReturnKeyInfo(view: field.id)), at: t)
        guard field.kind != .textView else { return }
        let later = t + Self.returnDelay
        busyUntil = later
        if let next = session.field(after: field.id) {
            focus(next, at: later)
        } else {
            emit(.didEndEditing(EditingInfo(view: field.id)), at: later)
            focused = nil
            hide(at: later)
        }
    }

    private mutating func rotate(at t: Double) {
        let turned = orientation.turned
        let screen = device.screenSize(in: turned)
        emit(.screen(ScreenChange(size: screen, safeArea: device.safeArea(in: turned))), at: t)
        let wasUp = keyboardFrame != nil
        if let frame = keyboardFrame {
            emitKeyboard([.keyboardWillChangeFrame, .keyboardWillHide], from: frame, to: hiddenFrame(below: frame), at: t)
            keyboardFrame = nil
        }
        orientation = turned
        relayout(at: t)
        if wasUp { show(at: t, then: nil) }
    }

    private mutating func switchApps(at t: Double) {
        guard let frame = keyboardFrame else { return }
        emitKeyboard([.keyboardWillChangeFrame, .keyboardWillHide], from: frame, to: hiddenFrame(below: frame), at: t)
        keyboardFrame = nil
        let back = t + Self.away
        busyUntil = back
        // The hide ends before the app comes back: its `Did` events are said.
        records += pending.filter { $0.t <= back }
        pending = []
        show(at: back, then: nil)
    }

    private mutating func otherAppKeyboard(at t: Double) {
        guard focused == nil, keyboardFrame == nil else { return }
        let height = device.keyboard.height(in: orientation, predictionBar: true)
        let docked = device.dockedKeyboardFrame(in: orientation, height: height)
        let hidden = device.hiddenKeyboardFrame(in: orientation, height: height)
        var show = KeyboardInfo(begin: hidden, end: docked, duration: Self.animation, curve: 7, isLocal: false)
        emit(show, [.keyboardWillChangeFrame, .keyboardWillShow], at: t)
        emit(show, [.keyboardDidChangeFrame, .keyboardDidShow], at: t + Self.animation)
        show = KeyboardInfo(begin: docked, end: hidden, duration: Self.animation, curve: 7, isLocal: false)
        let back = t + Self.away
        busyUntil = back
        emit(show, [.keyboardWillChangeFrame, .keyboardWillHide], at: back)
        pending = Self.keyboardRecords([.keyboardDidChangeFrame, .keyboardDidHide], show, at: back + Self.animation)
    }

    /// Every view whose frame differs from the scene in force gets a `setFrame`.
    private mutating func relayout(at t: Double) {
        let next = session.scene(in: orientation, extra: extra)
        let before = Dictionary(GeneratedSession.frames(of: scene), uniquingKeysWith: { first, _ in first })
        for (id, frame) in GeneratedSession.frames(of: next) where before[id] != frame {
            emit(.setFrame(FrameChange(view: id, frame: frame)), at: t)
        }
        scene = next
    }

    static func microseconds(_ t: Double) -> Double { (t * 1e6).rounded() / 1e6 }

    private mutating func emit(_ event: LogEvent, at t: Double) {
        records.append(LogRecord(t: Self.microseconds(t), event: event))
    }

    private mutating func emit(_ info: KeyboardInfo, _ names: [LogEvent.KeyboardEvent], at t: Double) {
        records += Self.keyboardRecords(names, info, at: t)
    }

    static func keyboardRecords(_ names: [LogEvent.KeyboardEvent], _ info: KeyboardInfo, at t: Double) -> [LogRecord] {
        names.map { LogRecord(t: microseconds(t), event: .keyboard($0, info)) }
    }
}

extension GeneratedSessionWriter {
    // MARK: The keyboard

    /// The frames the keyboard announces as it appears for the focused field, in order; the last
    /// is where it stays.
    private func shownFrames() -> [Rect] {
        let screen = device.screenSize(in: orientation)
        let secure = focused?.kind == .secure
        switch session.keyboard {
        case .system(let bar):
            return [device.dockedKeyboardFrame(in: orientation, height: device.keyboard.height(in: orientation, predictionBar: bar && !secure))]
        case .thirdParty(let heights):
            // No heights announced: the system's, as the keyboard then is.
            let keyboard = ThirdPartyKeyboard(portraitHeights: heights.isEmpty ? [device.keyboard.portraitWithPredictionBar] : heights)
            return keyboard.heights(on: device, in: orientation).map { height in
                height > 0 ? device.dockedKeyboardFrame(in: orientation, height: height) : device.hiddenKeyboardFrame(in: orientation, height: 0)
            }
        case .hardware(let bar):
            let height = device.keyboard.height(in: orientation, predictionBar: true)
            return [Rect(x: 0, y: screen.height - bar, width: screen.width, height: height)]
        case .floating:
            return [Rect(x: ((screen.width - 320) / 2).rounded(), y: ((screen.height - 260) / 2).rounded(), width: 320, height: 260)]
        case .undocked:
            let height = device.keyboard.height(in: orientation, predictionBar: true)
            return [Rect(x: 0, y: screen.height - height - 120, width: screen.width, height: height)]
        case .split:
            return [Rect(x: 0, y: -264, width: screen.width, height: 304)]
        }
    }

    /// What UIKit calls a keyboard appearing with this keyboard: `willShow`, but for the iPad's
    /// floating keyboard (frame changes only) and undocked and split ones (`willHide`).
    private var showNames: ([LogEvent.KeyboardEvent], [LogEvent.KeyboardEvent]) {
        switch session.keyboard {
        case .floating: ([.keyboardWillChangeFrame], [.keyboardDidChangeFrame])
        case .undocked, .split: ([.keyboardWillChangeFrame, .keyboardWillHide], [.keyboardDidChangeFrame, .keyboardDidHide])
        default: ([.keyboardWillChangeFrame, .keyboardWillShow], [.keyboardDidChangeFrame, .keyboardDidShow])
        }
    }

    /// Where UIKit says a keyboard that was at `frame` went when it hid: below the screen.
    fileprivate func hiddenFrame(below frame: Rect) -> Rect {
        let screen = device.screenSize(in: orientation)
        return Rect(x: frame.minX, y: screen.height, width: frame.width, height: frame.height)
    }

    /// The keyboard appears, each frame 4 ms after the last; `then` (a text view's
    /// `didBeginEditing`) after the first announcement.
    fileprivate mutating func show(at t: Double, then: LogEvent?) {
        let frames = shownFrames()
        let (will, did) = showNames
        var begin = hiddenFrame(below: frames[0])
        var lastT = t
        var last = KeyboardInfo()
        for (index, frame) in frames.enumerated() {
            lastT = t + Double(index) * 0.004
            last = KeyboardInfo(begin: begin, end: frame, duration: frame.height > 0 ? Self.animation : 0, curve: 7, isLocal: true)
            records += Self.keyboardRecords(will, last, at: lastT)
            if index == 0, let then { records.append(LogRecord(t: Self.microseconds(lastT), event: then)) }
            begin = frame
        }
        keyboardFrame = frames.last
        busyUntil = max(busyUntil, lastT)
        pending = Self.keyboardRecords(did, last, at: lastT + Self.animation)
    }

    /// The keyboard, up, says where it is for the newly focused field: where it was, or the
    /// height the field's kind gives (a secure field shows no prediction bar).
    fileprivate mutating func reannounce(at t: Double) {
        guard let from = keyboardFrame else {
            show(at: t, then: nil)
            return
        }
        let to = shownFrames().last ?? from
        let (will, did) = showNames
        let info = KeyboardInfo(begin: from, end: to, duration: Self.animation, curve: 7, isLocal: true)
        records += Self.keyboardRecords(will, info, at: t)
        keyboardFrame = to
        pending = Self.keyboardRecords(did, info, at: t + Self.animation)
    }

    /// The keyboard goes down.
    fileprivate mutating func hide(at t: Double) {
        guard let frame = keyboardFrame else { return }
        emitKeyboard([.keyboardWillChangeFrame, .keyboardWillHide], from: frame, to: hiddenFrame(below: frame), at: t)
        keyboardFrame = nil
    }

    /// A keyboard's `Will` events now and its `Did` events when the animation ends.
    fileprivate mutating func emitKeyboard(_ names: [LogEvent.KeyboardEvent], from begin: Rect, to end: Rect, at t: Double) {
        let info = KeyboardInfo(begin: begin, end: end, duration: Self.animation, curve: 7, isLocal: true)
        records += Self.keyboardRecords(names, info, at: t)
        let did: [LogEvent.KeyboardEvent] = names.map {
            $0 == .keyboardWillHide ? .keyboardDidHide : $0 == .keyboardWillShow ? .keyboardDidShow : .keyboardDidChangeFrame
        }
        pending = Self.keyboardRecords(did, info, at: t + Self.animation)
    }
}
