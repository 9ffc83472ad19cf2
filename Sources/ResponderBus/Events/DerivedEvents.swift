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

/// The payload of ``EventName/viewSettings``: a view's keyboard settings, as a plugin decides them
/// (IQKeyboardManager's per-field `keyboardDistanceFromTextField` and per-view enable).
///
/// The screen model applies it like the other decisions, when it is delivered: after the event the
/// plugin posted it from has reached every plugin, ``ViewNode/keyboardDistance`` and
/// ``ViewNode/avoidsKeyboard`` take its values, and every plugin that observes `viewSettings` sees
/// them (`KeyboardAvoidance` decides again). A recording keeps it and `--verify` compares it. Post
/// it before avoidance decides for the view — when the scene arrives, from a plugin placed before
/// `KeyboardAvoidance` — so that avoidance moves once.
///
/// It gives both settings, not a change to one: a view it names ends with exactly these, and when
/// two plugins set one view, the later one wins. A gap that is negative or not finite is not
/// applied (a warning ``EventName/diagnostic`` by `"screen"` says so).
public struct ViewSettings: Hashable, Sendable {
    /// The view.
    public var view: ViewID
    /// The gap to keep between the view and the keyboard; `nil` for the avoidance plugin's default.
    public var keyboardDistance: Double?
    /// Whether keyboard avoidance moves anything for this view when it is first responder.
    public var avoidsKeyboard: Bool

    /// Creates the payload.
    public init(view: ViewID, keyboardDistance: Double? = nil, avoidsKeyboard: Bool = true) {
        self.view = view
        self.keyboardDistance = keyboardDistance
        self.avoidsKeyboard = avoidsKeyboard
    }
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

    /// A failure the bus itself reports, so that code can tell it by type rather than by its text.
    public enum Failure: String, Hashable, Sendable, CaseIterable {
        /// A plugin's callback threw (``Bus/pluginFailureLimit``); derived by that plugin.
        case pluginThrew
        /// A plugin threw ``Bus/pluginFailureLimit`` times in one post and is suspended until the
        /// post returns; derived by that plugin.
        case pluginSuspended
        /// One post cascaded into more than ``Bus/cascadeLimit`` events and the rest were dropped;
        /// derived by `"bus"`.
        case cascadeCut
        /// A model-changing event could not be applied to the screen (an unknown view, say).
        case notApplied
        /// An event whose payload is not of its name's type was dropped; derived by `"bus"`.
        case wrongPayload
        /// A plugin running in a process of its own could not be started again, exited, crashed,
        /// did not answer in time, broke its protocol or derived an event the bus cannot take;
        /// derived by that plugin.
        case pluginProcessFailed
        /// Within one loop turn, one plugin set the root's origin, a scroll view's offset or the
        /// first responder, and another plugin then set it to another value (a warning; derived by
        /// `"bus"`, naming both plugins in `metadata` `first` and `second`).
        case conflictingDecisions
    }

    /// How serious it is.
    public var level: Level
    /// What happened, in a sentence.
    public var message: String
    /// Which failure of the bus's own this reports; `nil` for what plugins diagnose. It lives in
    /// memory only: a log keeps the level and the message, so a diagnostic read back has none.
    public var failure: Failure?
    /// The views it is about (a covered button, a field), which a report outlines; written to the
    /// log as `"views"`.
    public var views: [ViewID]
    /// Key–value context for tools (`"coveredBy": "12"`), as swift-log's metadata; written to the
    /// log as `"metadata"`, its keys sorted.
    public var metadata: [String: String]

    /// Creates the payload.
    public init(level: Level, message: String, failure: Failure? = nil, views: [ViewID] = [], metadata: [String: String] = [:]) {
        self.level = level
        self.message = message
        self.failure = failure
        self.views = views
        self.metadata = metadata
    }

    /// `level: message`.
    public var description: String { "\(level.rawValue): \(message)" }
}
