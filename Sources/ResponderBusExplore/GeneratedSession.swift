import EventLog
import ResponderBus

/// A session the explorer made up: a device, a keyboard, a screen of text inputs in their
/// containers, and what the user did. ``records()`` writes it as the log UIKit would have made of
/// it, a valid log that `responder-bus replay` reads; ``SessionGenerator`` makes them at random and
/// ``Explorer/shrink(_:breaking:on:)`` makes a failing one smaller.
public struct GeneratedSession: Hashable, Sendable, CustomStringConvertible {
    /// Which keyboard the user types on.
    public enum Keyboard: Hashable, Sendable {
        /// The system keyboard, with or without the prediction bar (a secure field shows none).
        case system(predictionBar: Bool)
        /// A third-party keyboard announcing these heights (portrait) within milliseconds as it
        /// appears, the last the one it keeps (SwiftKey: 0, 216, 259).
        case thirdParty([Double])
        /// A hardware keyboard: only the accessory bar, this tall, shows; UIKit's frame is the
        /// whole keyboard's, reaching below the screen.
        case hardware(bar: Double)
        /// The iPad's floating keyboard: a small keyboard away from the screen's edges; UIKit says
        /// `keyboardWillChangeFrame` and no `keyboardWillShow`.
        case floating
        /// The iPad's undocked keyboard: the full width, raised off the bottom; UIKit says
        /// `keyboardWillHide` for it.
        case undocked
        /// The iPad's split keyboard: UIKit says `keyboardWillHide`, with an end frame above the
        /// screen (`{{0, -264}, {768, 304}}` on a 768-point iPad, as reported on Stack Overflow
        /// question 10749311).
        case split
    }

    /// What holds a group of fields.
    public enum Container: String, Hashable, Sendable, CaseIterable {
        /// The fields sit in the root view.
        case none
        /// A scroll view (a form longer than its frame).
        case scrollView
        /// A scroll view inside another.
        case nestedScrollView
        /// A table: a scroll view of cells, a field in each.
        case tableCells
        /// A chat input bar: a view on the safe area's bottom holding a text view.
        case chatBar
    }

    /// A text input.
    public struct Field: Hashable, Sendable {
        /// A text field, a secure text field, or a text view.
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// A `UITextField`.
            case text
            /// A `UITextField` with `isSecureTextEntry`.
            case secure
            /// A `UITextView`.
            case textView
        }
        /// Its view's id.
        public var id: ViewID
        /// What it is.
        public var kind: Kind
        /// Its height in points.
        public var height: Double
        /// Hidden: it cannot take the focus.
        public var isHidden: Bool
        /// Disabled: it cannot take the focus.
        public var isEnabled: Bool
        /// Whether it is in the tag order Return follows.
        public var isTagged: Bool

        /// Describes a field.
        public init(id: ViewID, kind: Kind, height: Double? = nil, isHidden: Bool = false, isEnabled: Bool = true, isTagged: Bool = true) {
            self.id = id
            self.kind = kind
            self.height = height ?? (kind == .textView ? 120 : 44)
            self.isHidden = isHidden
            self.isEnabled = isEnabled
            self.isTagged = isTagged
        }

        /// Whether a tap or Return can give it the focus.
        public var isFocusable: Bool { !isHidden && isEnabled }
    }

    /// Fields in one container.
    public struct Group: Hashable, Sendable {
        /// What holds them.
        public var container: Container
        /// The fields, top to bottom.
        public var fields: [Field]

        /// Describes a group.
        public init(container: Container, fields: [Field]) {
            self.container = container
            self.fields = fields
        }
    }

    /// Where the groups sit on the screen (a chat bar always sits on the safe area's bottom).
    public enum Placement: String, Hashable, Sendable, CaseIterable {
        /// From 20 points below the safe area's top: a form under a navigation bar.
        case top
        /// The last group's bottom 20 points above the safe area's bottom: a sign-in form.
        case bottom
        /// The last group's bottom on the screen's bottom edge: a field at the very bottom (from
        /// the top when the groups are taller than the screen).
        case screenBottom
    }

    /// What the user does.
    public enum Action: Hashable, Sendable, CustomStringConvertible {
        /// Taps a field: it takes the focus, and the keyboard shows or stays.
        case tap(ViewID)
        /// Presses Return: the next field in tag order takes the focus, the last ends editing
        /// (a newline in a text view).
        case returnKey
        /// Turns the device to the other orientation.
        case rotate
        /// Dismisses the keyboard: the field ends editing.
        case dismiss
        /// The focused text view grows by this many points as the user types (one outside any
        /// scroll view: a log cannot say that a scroll view's content grew).
        case grow(Double)
        /// Switches to another app and back: the keyboard hides and shows again, the field keeps
        /// the focus.
        case switchApps
        /// Another app's keyboard shows and hides (iPad multitasking), no field of ours focused.
        case otherAppKeyboard

        /// `tap 'field2'`, for messages.
        public var description: String {
            switch self {
            case .tap(let id): "tap '\(id)'"
            case .returnKey: "Return"
            case .rotate: "rotate"
            case .dismiss: "dismiss"
            case .grow(let by): "grow by \(JSONText.number(by)) pt"
            case .switchApps: "switch apps and back"
            case .otherAppKeyboard: "another app's keyboard"
            }
        }
    }

    /// An action and the time since the previous one (or since 0.5 s, for the first).
    public struct Step: Hashable, Sendable {
        /// Seconds after the previous step.
        public var after: Double
        /// What the user does.
        public var action: Action

        /// Describes a step.
        public init(after: Double, _ action: Action) {
            self.after = after
            self.action = action
        }
    }

    /// The device.
    public var device: Device
    /// How it is held at the start.
    public var orientation: Device.Orientation
    /// The keyboard.
    public var keyboard: Keyboard
    /// Where the groups sit.
    public var placement: Placement
    /// The fields, in their containers, top to bottom.
    public var groups: [Group]
    /// What Return on the last field performs.
    public var lastFieldAction: String?
    /// Whether the tags run from the bottom up: a form by tag whose Return order is not its
    /// layout's (else the tags follow the fields top to bottom).
    public var tagsReversed = false
    /// What the user does, in order.
    public var steps: [Step]

    /// Describes a session.
    public init(
        device: Device, orientation: Device.Orientation = .portrait, keyboard: Keyboard = .system(predictionBar: true),
        placement: Placement = .bottom, groups: [Group], lastFieldAction: String? = nil, steps: [Step] = []
    ) {
        self.device = device
        self.orientation = orientation
        self.keyboard = keyboard
        self.placement = placement
        self.groups = groups
        self.lastFieldAction = lastFieldAction
        self.steps = steps
    }

    /// Every field, top to bottom.
    public var fields: [Field] { groups.flatMap(\.fields) }

    /// The log's header.
    public var header: LogHeader {
        LogHeader(
            screen: device.screenSize(in: orientation), safeArea: device.safeArea(in: orientation),
            device: "\(device.name), \(orientation.rawValue); a generated session")
    }

    /// The records: the scene at `t` 0, then what each step makes UIKit send. A step that cannot
    /// happen where it comes (Return with no field focused, a tap on a hidden field) does nothing,
    /// so that any part of a session is a session.
    public func records() -> [LogRecord] {
        var writer = GeneratedSessionWriter(session: self)
        return writer.write()
    }

    /// One line per part: the device, the keyboard, the groups and the steps.
    public var description: String {
        let keyboardText: String =
            switch keyboard {
            case .system(let bar): "system keyboard \(bar ? "with" : "without") prediction bar"
            case .thirdParty(let heights): "third-party keyboard " + heights.map(JSONText.number).joined(separator: " → ")
            case .hardware(let bar): "hardware keyboard (\(JSONText.number(bar)) pt bar)"
            case .floating: "floating keyboard"
            case .undocked: "undocked keyboard"
            case .split: "split keyboard"
            }
        let groupText = groups.map { group in
            let inner = group.fields.map { field in
                var text = "\(field.id):\(field.kind.rawValue)"
                if field.height != Field(id: field.id, kind: field.kind).height { text += " h\(JSONText.number(field.height))" }
                if field.isHidden { text += " hidden" }
                if !field.isEnabled { text += " disabled" }
                if !field.isTagged { text += " untagged" }
                return text
            }
            return "\(group.container.rawValue)[\(inner.joined(separator: ", "))]"
        }
        let stepText = steps.map { "+\(JSONText.number($0.after)) s \($0.action)" }
        return [
            "\(device.name) \(orientation.rawValue), \(keyboardText), \(placement.rawValue)\(tagsReversed ? ", tags bottom to top" : "")",
            "screen: " + groupText.joined(separator: " "),
            "steps: " + (stepText.isEmpty ? "none" : stepText.joined(separator: "; ")),
        ].joined(separator: "\n")
    }
}
