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
/// (IQKeyboardManager's per-field `keyboardDistanceFromTextField` and per-view enable, UIKit's
/// `keyboardLayoutGuide`).
///
/// The screen model applies it like the other decisions, when it is delivered: after the event the
/// plugin posted it from has reached every plugin, ``ViewNode/keyboardDistance``,
/// ``ViewNode/avoidsKeyboard`` and ``ViewNode/followsKeyboard`` take its values, and every plugin
/// that observes `viewSettings` sees them (`KeyboardAvoidance` decides again). A recording keeps
/// it and `--verify` compares it. Post it before avoidance decides for the view — when the scene
/// arrives, from a plugin placed before `KeyboardAvoidance` — so that avoidance moves once.
///
/// It gives all three settings, not a change to one: a view it names ends with exactly these, and
/// when two plugins set one view, the later one wins. To change one setting, start from the view's
/// current ones (``ViewNode/settings``) and change that one:
///
/// ```swift
/// var settings = field.settings
/// settings.keyboardDistance = 40
/// context.post(.viewSettings, settings)
/// ```
///
/// A gap that is negative or not finite is not applied (a warning ``EventName/diagnostic`` by
/// `"screen"` says so).
///
/// **What reaches a subtree.** `avoidsKeyboard: false` takes the view and its whole subtree out of
/// keyboard avoidance: a field inside a view that does not avoid the keyboard (the text field in
/// a chat input bar) moves nothing (``ViewNode/isAvoidingKeyboard``). `followsKeyboard` moves the
/// view, and its subviews move with it. `keyboardDistance` is the field's own: a container's gap
/// does not reach its fields.
public struct ViewSettings: Hashable, Sendable {
    /// The view.
    public var view: ViewID
    /// The gap to keep between the view and the keyboard; `nil` for the avoidance plugin's default.
    public var keyboardDistance: Double?
    /// Whether keyboard avoidance moves anything for this view, or for a field inside it, when it
    /// is first responder.
    public var avoidsKeyboard: Bool
    /// Whether the view's bottom stays on the keyboard's top while the keyboard is docked, as a view
    /// constrained to UIKit's `keyboardLayoutGuide` does (a chat input bar): the built-in
    /// `KeyboardAvoidance` moves it with a derived ``EventName/viewMove`` and puts it back when the
    /// keyboard goes. Such a view usually also sets `avoidsKeyboard: false`, so that focusing the
    /// field inside it does not move the whole screen.
    public var followsKeyboard: Bool

    /// Creates the payload.
    public init(view: ViewID, keyboardDistance: Double? = nil, avoidsKeyboard: Bool = true, followsKeyboard: Bool = false) {
        self.view = view
        self.keyboardDistance = keyboardDistance
        self.avoidsKeyboard = avoidsKeyboard
        self.followsKeyboard = followsKeyboard
    }
}

/// The payload of ``EventName/viewMove``: one view's new frame, as a plugin decides it — the way a
/// plugin moves a view other than the root (a chat input bar onto the keyboard's top).
///
/// The screen model applies it when it is delivered: the view's ``ViewNode/frame`` (in its
/// parent's coordinates) becomes ``frame``, and its subviews move with it. Unlike a `setFrame`
/// record, which says where the app laid the view out, it is a decision: a recording keeps it
/// under the plugin's name, `--verify` compares it, and when two plugins move one view to different
/// frames in one loop turn the bus reports the conflict. Moving the root this way does not change
/// its resting origin (``Screen/restingRootOriginY``); ``EventName/viewShift`` is the usual way to
/// move the root.
public struct ViewMove: Hashable, Sendable {
    /// The view.
    public var view: ViewID
    /// Its new frame, in its parent's coordinates.
    public var frame: Rect
    /// The animation's duration in seconds.
    public var duration: Double
    /// The animation's raw curve, as the keyboard event gave it.
    public var curve: Int

    /// Creates the payload.
    public init(view: ViewID, frame: Rect, duration: Double = 0.25, curve: Int = 7) {
        self.view = view
        self.frame = frame
        self.duration = duration
        self.curve = curve
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
