import EventLog
import ResponderBus

/// A property every pipeline must keep, checked on every generated session.
///
/// The six built in (``builtins``) hold for any keyboard handler; a plugin declares its own with
/// ``init(_:_:check:)``, checked after every settled turn alongside them.
public struct SessionProperty: Sendable, CustomStringConvertible {
    /// The property's name: `coverage`, `restored`, `one-move`, `no-conflict`, `no-fault`,
    /// `deterministic`, or a plugin's own.
    public let name: String
    /// What it asks, in a sentence.
    public let summary: String
    /// A declared property's check: what is wrong, or `nil` when it holds.
    let check: (@Sendable (SettledScreen) -> String?)?

    /// A property of a plugin's own, checked on the screen after every settled turn (when the
    /// events have stopped and the keyboard's animation has ended) and at the end.
    ///
    /// ```swift
    /// let barOnKeyboard = SessionProperty("bar-on-keyboard", "the bar sits on the keyboard") { settled in
    ///     guard let bar = settled.screen.view("bar1"), let top = settled.screen.keyboard.coveredPart?.minY else { return nil }
    ///     let bottom = settled.screen.frameInScreen(of: bar).maxY
    ///     return abs(bottom - top) > 0.5 ? "the bar's bottom is at \(bottom), the keyboard's top at \(top)" : nil
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: its name in findings (a word or two joined by dashes).
    ///   - summary: what it asks, in a sentence.
    ///   - check: what is wrong with the settled screen, or `nil` when the property holds.
    public init(_ name: String, _ summary: String, check: @escaping @Sendable (SettledScreen) -> String?) {
        self.name = name
        self.summary = summary
        self.check = check
    }

    private init(builtin name: String, _ summary: String) {
        self.name = name
        self.summary = summary
        check = nil
    }

    /// The metadata key of a diagnostic by which a plugin says it broke a property of its own:
    /// `property`, its value the property's name. A plugin library or a plugin in a process of its
    /// own declares a property this way (`context.diagnose(.warning, "…", metadata: ["property":
    /// "bar-on-keyboard"])`); the explorer and `responder-bus test --check-properties` take such a
    /// diagnostic as that property broken.
    public static let metadataKey = "property"

    /// Whether it is one of ``builtins``.
    public var isBuiltin: Bool { check == nil }

    /// `name: summary`.
    public var description: String { "\(name): \(summary)" }

    /// The focused field is not left under the keyboard once it settles (more than half a point
    /// under the top of the part the keyboard covers; another app's, a floating or an undocked
    /// keyboard covers nothing). "Covered" asks only what can be had:
    ///
    /// - A field taller than the room between the safe area's top and the keyboard passes with
    ///   its top in that room: no move shows it whole.
    /// - A field that no move can uncover passes: one whose bottom stays under the keyboard even
    ///   when it is scrolled to the top of its outermost scroll view's frame (or left where it is,
    ///   outside any) and the root moved up by the whole height the keyboard covers, its top kept
    ///   below the safe area's top. A field whose bottom lies below the screen's bottom before
    ///   anything moved is one (a form taller than a landscape phone): moving the root further
    ///   would show nothing below it, and iOS lays nothing out there.
    public static let coverage = SessionProperty(builtin: "coverage", "the focused field is not covered once the keyboard settles")
    /// When the keyboard covers nothing (hidden, floating, undocked, another app's), the root is at
    /// its resting origin, every scroll view at its offset and bottom inset from before the
    /// keyboard, and every view that follows the keyboard back on its own frame.
    public static let restored = SessionProperty(builtin: "restored", "the screen is put back when the keyboard covers nothing")
    /// Between two changes of what the screen shows (a turn of external events that moves the
    /// focus, gives the keyboard another frame, turns the screen or changes a frame), the root, each
    /// scroll view and each view that follows the keyboard moves at most once: no second move and
    /// no move back and forth for one change. A keyboard that announces several frames within
    /// milliseconds (a third-party keyboard) is several changes: following each is allowed.
    public static let oneMove = SessionProperty(builtin: "one-move", "at most one move per change, no oscillation")
    /// No two plugins set the root, a scroll view, a frame or the first responder to different
    /// values in one turn (the bus's `conflictingDecisions`).
    public static let noConflict = SessionProperty(builtin: "no-conflict", "no conflict between plugins")
    /// No plugin fails: throws, is suspended, crashes, hangs, breaks its protocol, derives what the
    /// bus cannot apply, or posts an error diagnostic.
    public static let noFault = SessionProperty(builtin: "no-fault", "no plugin fault")
    /// A second run of the same session on fresh plugins derives the same decisions.
    public static let deterministic = SessionProperty(builtin: "deterministic", "the same decisions on a second run")

    /// The built-in properties, in the order findings list them.
    public static let builtins: [SessionProperty] = [coverage, restored, oneMove, noConflict, noFault, deterministic]

    /// The built-in property called `name`.
    public static func builtin(named name: String) -> SessionProperty? { builtins.first { $0.name == name } }
}

/// The screen after a settled turn, as a declared property sees it.
public struct SettledScreen {
    /// The screen model, with the plugins' decisions applied.
    public let screen: Screen
    /// When, in seconds of the log.
    public let t: Double
    /// Every decision derived so far, in order.
    public let decisions: [LogRecord]
}

/// A property a session broke.
public struct PropertyFailure: Hashable, Sendable, CustomStringConvertible {
    /// The property's name.
    public var property: String
    /// What was wrong.
    public var message: String
    /// When, in seconds of the log (`nil` for a whole-session property).
    public var t: Double?

    /// Creates a failure.
    public init(property: String, message: String, t: Double?) {
        self.property = property
        self.message = message
        self.t = t
    }

    /// `one-move at t=0.5 s: …`.
    public var description: String {
        "\(property)" + (t.map { " at t=\(JSONText.number(($0 * 1000).rounded() / 1000)) s" } ?? "") + ": " + message
    }
}
