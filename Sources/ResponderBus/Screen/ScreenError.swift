/// An error thrown by ``Screen`` when a change names a view it cannot apply to.
///
/// Two errors are equal when their ``code``s are equal, whatever their views and messages, so a
/// test can write `#expect(throws: ScreenError.unknownView("x"))` or compare `error.code` with
/// ``Code/unknownView``. The ``message`` names the view and says what to do.
///
/// A `Screen` is fed by a log reader or a plugin, which knows where its input came from (a log's
/// line and column); it wraps this error with that location rather than this error carrying the
/// location of the `Screen` call.
public struct ScreenError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What kind of mistake it was.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case duplicateViewID
            case unknownView
            case notATextInput
            case notAScrollView
            case invalidSetting
            case invalidFrame
        }

        private var value: Value

        private init(_ value: Value) { self.value = value }

        /// Two views in one scene have the same identifier.
        public static let duplicateViewID = Code(.duplicateViewID)
        /// No view in the screen has the identifier.
        public static let unknownView = Code(.unknownView)
        /// The view cannot become first responder: it is not a text field or text view.
        public static let notATextInput = Code(.notATextInput)
        /// The view cannot be scrolled: it is not a scroll view.
        public static let notAScrollView = Code(.notAScrollView)
        /// A view setting is out of range: a negative or non-finite keyboard gap.
        public static let invalidSetting = Code(.invalidSetting)
        /// A frame a plugin gives a view is not finite or has a negative size.
        public static let invalidFrame = Code(.invalidFrame)

        /// The code's name, such as `unknownView`.
        public var description: String { value.rawValue }
    }

    /// What kind of mistake it was; the only thing equality and hashing look at.
    public let code: Code
    /// The view the change named.
    public let view: ViewID
    /// A sentence for a person: what was wrong, with which view, and what to do.
    public let message: String

    private init(code: Code, view: ViewID, message: String) {
        self.code = code
        self.view = view
        self.message = message
    }

    /// A scene names `view` more than once.
    public static func duplicateViewID(_ view: ViewID) -> ScreenError {
        ScreenError(
            code: .duplicateViewID,
            view: view,
            message:
                "the scene has more than one view with id \"\(view)\"; give every view in a scene a unique id"
        )
    }

    /// No view in the screen is called `view`.
    public static func unknownView(_ view: ViewID) -> ScreenError {
        ScreenError(
            code: .unknownView,
            view: view,
            message:
                "there is no view with id \"\(view)\" on the screen; check the id (ids are case-sensitive) or load a scene that has it"
        )
    }

    /// `view` is a `kind`, which cannot become first responder.
    public static func notATextInput(_ view: ViewID, kind: ViewKind) -> ScreenError {
        ScreenError(
            code: .notATextInput,
            view: view,
            message:
                "view \"\(view)\" is a \(kind.rawValue), which cannot become first responder; name a textField or textView"
        )
    }

    /// `view` is a `kind`, which has no content offset or inset.
    public static func notAScrollView(_ view: ViewID, kind: ViewKind) -> ScreenError {
        ScreenError(
            code: .notAScrollView,
            view: view,
            message:
                "view \"\(view)\" is a \(kind.rawValue), not a scrollView, so it cannot be scrolled; name a scrollView"
        )
    }

    /// A `viewSettings` for `view` gives a keyboard gap of `gap`, which is not 0 points or more.
    public static func invalidGap(_ view: ViewID, gap: Double) -> ScreenError {
        ScreenError(
            code: .invalidSetting,
            view: view,
            message: "the keyboardDistance \(gap) for view \"\(view)\" is not a gap; give 0 points or more, or nil for avoidance's default"
        )
    }

    /// A `viewMove` for `view` gives `frame`, which is not finite or has a negative size.
    public static func invalidFrame(_ view: ViewID, frame: Rect) -> ScreenError {
        ScreenError(
            code: .invalidFrame,
            view: view,
            message:
                "the frame \(frame) for view \"\(view)\" is not a frame; give finite numbers and a width and height of 0 points or more"
        )
    }

    /// Compares the codes only.
    public static func == (lhs: ScreenError, rhs: ScreenError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code only, in step with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `ScreenError.code: message`.
    public var description: String { "ScreenError.\(code): \(message)" }
}
