import ResponderBus

/// A session written from a description — a device, its fields, what the user did and when —
/// rather than recorded: what a bug report says, as a log that `replay` reads.
///
/// ```swift
/// var sketch = SessionSketch(device: Device.named("iPhone SE")!, fields: try FieldSketch.list(parsing: "user,password:secure"))
/// sketch.actions = [.focus("password", at: 1), .rotate(at: 3)]
/// let text = try sketch.log()       // the header, the scene, and every event, one per line
/// ```
///
/// The scene is a root view the size of the screen holding the fields, laid out by ``layout``
/// and tagged in order (1, 2, …; a field marked ``FieldSketch/returnEndsEditing`` gets no tag). Only
/// external events are written — what UIKit would have sent the app — so a replay derives every
/// decision itself:
///
/// - **Focus** (``Action/focus(_:at:)``): `didBeginEditing` before the keyboard's events for a text
///   field, after them for a text view (UIKit's order). When the keyboard shows, each height of
///   ``keyboard`` is announced as `keyboardWillChangeFrame` and `keyboardWillShow` (a third-party
///   keyboard's several heights 4 ms apart), then `keyboardDidChangeFrame` and `keyboardDidShow`
///   when its animation (``animationDuration``) ends. Focusing another field while the keyboard is
///   up ends editing in the first, and the keyboard announces the frame it keeps.
/// - **Return** (``Action/returnKey(at:)``): `returnKey` in the focused field. In a text field with a
///   next field in tag order (visible, enabled), 10 ms later the focus moves there
///   (`didEndEditing`, `didBeginEditing`), as the app's field advancing makes it; on the last, the
///   field ends editing and the keyboard hides (after the screen's ``lastFieldAction``, when it has
///   one). In a text view Return types a newline: nothing else happens.
/// - **Rotation** (``Action/rotate(at:)``): a `screen` record with the other orientation's size and
///   safe area, a `setFrame` for the root and for every field laid out again for the new width, and,
///   with the keyboard up, the keyboard hiding in the old coordinates and showing at the device's
///   height for the new orientation in the new ones. The focused field keeps the focus.
/// - **Dismissal** (``Action/dismiss(at:)``): the focused field ends editing and the keyboard hides.
///
/// An action that comes before the previous one's keyboard animation has ended cuts that
/// animation short: its `Did` events are left out, as iOS leaves them out.
public struct SessionSketch: Hashable, Sendable {
    /// What the user does, and when (seconds from the start of the log).
    public enum Action: Hashable, Sendable, CustomStringConvertible {
        /// Taps a field: it becomes first responder and the keyboard shows (or stays).
        case focus(ViewID, at: Double)
        /// Presses Return in the focused field.
        case returnKey(at: Double)
        /// Turns the device to the other orientation.
        case rotate(at: Double)
        /// Dismisses the keyboard (a tap outside, a swipe down): the focused field ends editing.
        case dismiss(at: Double)

        /// When it happens.
        public var t: Double {
            switch self {
            case .focus(_, let t), .returnKey(let t), .rotate(let t), .dismiss(let t): t
            }
        }

        /// `focus 'password' at 1 s`, for messages.
        /// A time as a person reads it: `nan` and `inf` as such, not JSON's `null`.
        static func seconds(_ t: Double) -> String { t.isFinite ? JSONText.number(t) : "\(t)" }

        public var description: String {
            switch self {
            case .focus(let field, let t): "focus '\(field)' at \(Self.seconds(t)) s"
            case .returnKey(let t): "Return at \(Self.seconds(t)) s"
            case .rotate(let t): "the rotation at \(Self.seconds(t)) s"
            case .dismiss(let t): "the dismissal at \(Self.seconds(t)) s"
            }
        }
    }

    /// Where the fields sit: one above the other, 16 points apart, 20 points in from the safe
    /// area's sides, in every orientation. A field with its own ``FieldSketch/y`` keeps it in
    /// portrait and, turned, keeps its place in the safe area's height in proportion.
    public enum Layout: String, Hashable, Sendable, CaseIterable {
        /// The last field's bottom 20 points above the safe area's bottom (a sign-in form on an
        /// empty screen): where the keyboard covers fields. When the fields are taller than the safe
        /// area, they start at its top and run off the bottom instead.
        case bottom
        /// The first field 20 points below the safe area's top (a form under a navigation bar);
        /// fields that do not fit run off the bottom of the screen.
        case top
    }

    /// The shortest time between two actions: 0.05 s. What an action sets off — the focus moving
    /// 10 ms after Return, a third-party keyboard's announcements — ends within it.
    public static let minimumActionInterval = 0.05

    /// The device, and how it is held at the start.
    public var device: Device
    /// The orientation at `t` 0.
    public var orientation: Device.Orientation
    /// The text inputs, in order.
    public var fields: [FieldSketch]
    /// Where the fields sit.
    public var layout: Layout
    /// The keyboard.
    public var keyboard: KeyboardStyle
    /// How long the keyboard's animations last, in seconds: 0.25, as iOS says.
    public var animationDuration: Double
    /// What Return on the last field performs (the scene's `lastFieldAction`).
    public var lastFieldAction: String?
    /// What the user does; taken in time order (actions at the same time are refused).
    public var actions: [Action]

    /// Describes a session.
    public init(
        device: Device, orientation: Device.Orientation = .portrait, fields: [FieldSketch], layout: Layout = .bottom,
        keyboard: KeyboardStyle = .system(predictionBar: true), animationDuration: Double = 0.25, lastFieldAction: String? = nil,
        actions: [Action] = []
    ) {
        self.device = device
        self.orientation = orientation
        self.fields = fields
        self.layout = layout
        self.keyboard = keyboard
        self.animationDuration = animationDuration
        self.lastFieldAction = lastFieldAction
        self.actions = actions
    }

    /// The log's header: the screen and safe area at `t` 0, and a `device` line that says what
    /// was sketched.
    public var header: LogHeader {
        let keyboardText: String =
            switch keyboard {
            case .system(let bar): "the system keyboard \(bar ? "with" : "without") the prediction bar"
            case .thirdParty: "a third-party keyboard"
            }
        return LogHeader(
            screen: device.screenSize(in: orientation), safeArea: device.safeArea(in: orientation),
            device: "\(device.name), \(orientation.rawValue), \(keyboardText); a sketched session")
    }

    /// The records: the scene at `t` 0, then what the actions make UIKit send, in time order.
    ///
    /// - Throws: a ``SessionSketchError`` when the description cannot be a session: no fields or
    ///   two with one id, an action naming a field the screen does not have or one that cannot take
    ///   the focus (hidden, disabled), Return or a dismissal with no field focused, two actions
    ///   closer than ``minimumActionInterval``, a time or a keyboard height out of range.
    public func records() throws(SessionSketchError) -> [LogRecord] {
        try validate()
        var writer = SketchWriter(sketch: self)
        writer.scene()
        for action in actions.sorted(by: { $0.t < $1.t }) {
            try writer.perform(action)
        }
        return writer.finished()
    }

    /// The whole log as text: ``header``, then ``records()``, one per line.
    public func log() throws(SessionSketchError) -> String {
        LogWriter.text(header: header, records: try records())
    }

    /// The field named `id`.
    func field(_ id: ViewID) -> FieldSketch? { fields.first { $0.id == id } }
}
