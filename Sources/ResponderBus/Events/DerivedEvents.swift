/// The payload of ``EventName/viewShift``: where the root view goes.
public struct ViewShift: Hashable, Sendable {
    /// The root view's absolute y origin after the move: 0 is unmoved, negative is moved up.
    public var originY: Double
    /// The animation's duration in seconds.
    public var duration: Double
    /// The animation's raw curve, as the keyboard event gave it.
    public var curve: Int

    /// Creates the payload.
    public init(originY: Double, duration: Double = 0.25, curve: Int = 7) {
        self.originY = originY
        self.duration = duration
        self.curve = curve
    }
}

/// The payload of ``EventName/scroll``.
public struct ScrollChange: Hashable, Sendable {
    /// The scroll view.
    public var view: ViewID
    /// Its new vertical content offset.
    public var contentOffsetY: Double
    /// Its new bottom content inset.
    public var bottomInset: Double

    /// Creates the payload.
    public init(view: ViewID, contentOffsetY: Double, bottomInset: Double) {
        self.view = view
        self.contentOffsetY = contentOffsetY
        self.bottomInset = bottomInset
    }
}

/// The payload of ``EventName/focusChange``.
public struct FocusChange: Hashable, Sendable {
    /// The field that was first responder, if any.
    public var from: ViewID?
    /// The field that becomes first responder, if any.
    public var to: ViewID?

    /// Creates the payload.
    public init(from: ViewID?, to: ViewID?) {
        self.from = from
        self.to = to
    }
}

/// The payload of ``EventName/action``.
public struct ActionInfo: Hashable, Sendable {
    /// The action's name: the screen's `lastFieldAction`.
    public var name: String

    /// Creates the payload.
    public init(name: String) { self.name = name }
}

/// The payload of ``EventName/resign``.
public struct ResignInfo: Hashable, Sendable {
    /// The field that resigns first responder.
    public var view: ViewID

    /// Creates the payload.
    public init(view: ViewID) { self.view = view }
}

/// The payload of ``EventName/diagnostic``: something a person should read.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious it is.
    public enum Level: String, Hashable, Sendable, CaseIterable, Comparable {
        /// For information.
        case info
        /// Something looks wrong but processing went on.
        case warning
        /// Something failed, such as a plugin that threw.
        case error

        private var rank: Int {
            switch self {
            case .info: 0
            case .warning: 1
            case .error: 2
            }
        }

        /// Orders levels by seriousness.
        public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }
    }

    /// How serious it is.
    public var level: Level
    /// What happened, in a sentence.
    public var message: String

    /// Creates the payload.
    public init(level: Level, message: String) {
        self.level = level
        self.message = message
    }

    /// `level: message`.
    public var description: String { "\(level.rawValue): \(message)" }
}
