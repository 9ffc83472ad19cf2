/// The kind of a view in the screen model.
public enum ViewKind: String, Hashable, Sendable, CaseIterable {
    /// A plain container.
    case view
    /// A single-line text field (`UITextField`): Return advances, `didBeginEditing` comes before
    /// the keyboard event.
    case textField
    /// A multi-line text view (`UITextView`): Return inserts a newline, `didBeginEditing` comes
    /// after the keyboard event.
    case textView
    /// A scroll view, with a content offset and size.
    case scrollView
    /// A button or another control that acts when tapped (`UIButton`, `UIControl`): never first
    /// responder, but what a user must reach — a plugin may warn when the keyboard covers one.
    case button
    /// A label (`UILabel`): static text, drawn by the report so that a screen reads as it looked.
    case label

    /// Whether a view of this kind can become first responder and show the keyboard.
    public var isTextInput: Bool { self == .textField || self == .textView }

    /// Whether a view of this kind is a control a user taps (a ``button``).
    public var isControl: Bool { self == .button }

    /// The kinds, as a log spells them, for messages: `view, textField, textView, scrollView, button, label`.
    public static var spelledOut: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// A value description of a view and its subtree: what a `scene` record carries.
///
/// The live tree is ``ViewNode``; the bus builds one from this when it applies a `scene` event.
public struct ViewSpec: Hashable, Sendable {
    /// The view's identifier, unique in the scene.
    public var id: ViewID
    /// What the view is.
    public var kind: ViewKind
    /// Whether the view is hidden (which hides its subtree).
    public var isHidden: Bool
    /// Whether the view accepts input.
    public var isEnabled: Bool
    /// Whether the text input hides what is typed (UIKit's `isSecureTextEntry`): a password field.
    ///
    /// Meaningful for text inputs only (``ViewKind/isTextInput``): a ``ViewNode`` made from the
    /// description of another kind has it `false`, and a log keeps it only on text inputs (and on a
    /// kind its reader does not know, written back out with that kind; see ``unrecognizedKind``).
    public var isSecure: Bool
    // The frame after the one-byte properties: declared in this order, a view takes 88 bytes.
    /// The frame in the parent's coordinates.
    public var frame: Rect
    /// The UIKit class the view was (`UIButton`, `MyApp.PaddedField`), when it came from a
    /// view-hierarchy dump; `nil` otherwise.
    public var className: String?
    /// The subviews, back to front.
    public var children: [ViewSpec]
    /// The settings few views have, out of line (`nil` when none is set): a scene of a million
    /// views, most of them plain, takes 88 bytes a view rather than 176.
    private var rare: RareSettings?

    /// The view's tag (`UIView.tag`), used to order fields.
    public var tag: Int? {
        get { self[rare: \.tag] }
        set { self[rare: \.tag] = newValue }
    }
    /// The gap to keep between this field and the keyboard; the avoidance default when `nil`.
    public var keyboardDistance: Double? {
        get { self[rare: \.keyboardDistance] }
        set { self[rare: \.keyboardDistance] = newValue }
    }
    /// A scroll view's content offset.
    public var contentOffset: Point? {
        get { self[rare: \.contentOffset] }
        set { self[rare: \.contentOffset] = newValue }
    }
    /// A scroll view's content size.
    public var contentSize: Size? {
        get { self[rare: \.contentSize] }
        set { self[rare: \.contentSize] = newValue }
    }
    /// The kind a log gave that its reader did not know (a newer writer's), when ``kind`` is
    /// `.view` for that reason; written back out as it was (and ignored for any other kind).
    public var unrecognizedKind: String? {
        get { self[rare: \.unrecognizedKind] }
        set { self[rare: \.unrecognizedKind] = newValue }
    }

    /// One of the out-of-line settings. Set, a new box each time (they are set once, when a view
    /// is described), none when all are unset, so that equal descriptions compare and hash equal.
    private subscript<Value>(rare setting: WritableKeyPath<RareSettings.Values, Value?>) -> Value? {
        get { rare?.values[keyPath: setting] }
        set {
            var values = rare?.values ?? RareSettings.Values()
            values[keyPath: setting] = newValue
            rare = values == RareSettings.Values() ? nil : RareSettings(values)
        }
    }

    /// Creates a description; only the identifier, kind and frame are required.
    public init(
        id: ViewID, kind: ViewKind = .view, frame: Rect, tag: Int? = nil, isHidden: Bool = false,
        isEnabled: Bool = true, keyboardDistance: Double? = nil, isSecure: Bool = false, contentOffset: Point? = nil,
        contentSize: Size? = nil, className: String? = nil, unrecognizedKind: String? = nil, children: [ViewSpec] = []
    ) {
        self.id = id
        self.kind = kind
        self.frame = frame
        self.isHidden = isHidden
        self.isEnabled = isEnabled
        self.isSecure = isSecure
        self.className = className
        self.children = children
        let values = RareSettings.Values(
            tag: tag, keyboardDistance: keyboardDistance, contentOffset: contentOffset, contentSize: contentSize,
            unrecognizedKind: unrecognizedKind)
        self.rare = values == RareSettings.Values() ? nil : RareSettings(values)
    }

    /// Whether a log keeps ``isSecure`` for this view: set, on a text input or on a kind the
    /// reader did not know (which may be a newer writer's text input).
    package var keepsSecureInLog: Bool {
        isSecure && (kind.isTextInput || (kind == .view && unrecognizedKind != nil))
    }
}

/// The settings of a ``ViewSpec`` that few views have, in a box the descriptions share: immutable,
/// compared and hashed by value.
private final class RareSettings: Hashable, Sendable {
    struct Values: Hashable, Sendable {
        var tag: Int?
        var keyboardDistance: Double?
        var contentOffset: Point?
        var contentSize: Size?
        var unrecognizedKind: String?
    }

    let values: Values

    init(_ values: Values) { self.values = values }

    static func == (lhs: RareSettings, rhs: RareSettings) -> Bool { lhs === rhs || lhs.values == rhs.values }

    func hash(into hasher: inout Hasher) { hasher.combine(values) }
}

/// The payload of ``EventName/scene``: the screen's content.
public struct SceneInfo: Hashable, Sendable {
    /// The root view and its subtree.
    public var root: ViewSpec
    /// What Return on the last field performs (the original write-ups' segue identifier).
    public var lastFieldAction: String?

    /// Creates the payload.
    public init(root: ViewSpec, lastFieldAction: String? = nil) {
        self.root = root
        self.lastFieldAction = lastFieldAction
    }
}

/// The payload of ``EventName/setFrame``.
public struct FrameChange: Hashable, Sendable {
    /// The view whose frame changed.
    public var view: ViewID
    /// The new frame, in the parent's coordinates.
    public var frame: Rect

    /// Creates the payload.
    public init(view: ViewID, frame: Rect) {
        self.view = view
        self.frame = frame
    }
}

/// The payload of ``EventName/screen``: rotation, split view, a new device.
public struct ScreenChange: Hashable, Sendable {
    /// The new screen size.
    public var size: Size
    /// The new safe area; unchanged when `nil`.
    public var safeArea: EdgeInsets?

    /// Creates the payload.
    public init(size: Size, safeArea: EdgeInsets? = nil) {
        self.size = size
        self.safeArea = safeArea
    }

    /// Creates the payload from a width and height.
    public init(width: Double, height: Double, safeArea: EdgeInsets? = nil) {
        self.init(size: Size(width: width, height: height), safeArea: safeArea)
    }
}
