import ResponderBus

/// Why a focused field stays (partly) under the keyboard after avoidance decided: the sentence
/// avoidance posts as an `info` `Diagnostic` naming the field (`views`), with the kind in
/// `metadata["why"]` and, when the field is covered, the covered height in
/// `metadata["coveredBy"]`. `replay --check` quotes it beside the covered field.
public enum AvoidanceExplanation: Hashable, Sendable {
    /// How far a limited move fell short, in points.
    public struct Shortfall: Hashable, Sendable {
        /// How far the root had to move up to keep the field's bottom its gap above the keyboard.
        public var need: Double
        /// How far it moved up.
        public var moved: Double
        /// The gap the field asks for (its `keyboardDistance`, or the plugin's default).
        public var gap: Double
        /// How much of the field's height is still under the keyboard after the move, `nil` when
        /// none is (only part of the gap was lost).
        public var coveredBy: Double?
        /// How far the field's bottom lies below the screen's bottom edge: 0 when it is on the
        /// screen, as a laid-out field is; a field not laid out again after a rotation often is not.
        public var belowScreen: Double

        /// Creates a shortfall.
        public init(need: Double, moved: Double, gap: Double, coveredBy: Double?, belowScreen: Double) {
            self.need = need
            self.moved = moved
            self.gap = gap
            self.coveredBy = coveredBy
            self.belowScreen = belowScreen
        }
    }

    /// A limit of the rule held the root short (``AvoidanceRule/Limit``), by ``Shortfall``.
    case limited(AvoidanceRule.Limit, Shortfall)
    /// The field, or a view around it (`optedOut`), has `avoidsKeyboard` off: nothing moves for it.
    case notAvoided(optedOut: ViewID, coveredBy: Double)
    /// The keyboard does not reach the screen's bottom (an iPad keyboard floating, undocked or
    /// split): iOS counts it as covering nothing, so nothing moves, though it lies over the field.
    case notDocked(keyboard: Rect, screenHeight: Double)

    /// The `metadata["why"]` value: `coveredHeight`, `safeAreaTop`, `notAvoided` or `notDocked`.
    public var kind: String {
        switch self {
        case .limited(.coveredHeight, _): "coveredHeight"
        case .limited(.safeAreaTop, _): "safeAreaTop"
        case .notAvoided: "notAvoided"
        case .notDocked: "notDocked"
        }
    }

    /// How many points of the field stay under the keyboard's top, when any.
    public var coveredBy: Double? {
        switch self {
        case .limited(_, let shortfall): shortfall.coveredBy
        case .notAvoided(_, let covered): covered
        case .notDocked: nil
        }
    }

    /// The sentence, with the numbers, about `field`.
    public func message(field: ViewID) -> String {
        switch self {
        case .limited(let limit, let shortfall):
            let (need, moved, gap) = (Self.points(shortfall.need), Self.points(shortfall.moved), Self.points(shortfall.gap))
            let outcome =
                shortfall.coveredBy.map { "'\(field)' stays covered by \(Self.points($0)) pt" }
                ?? "'\(field)' keeps \(Self.points(shortfall.gap - (shortfall.need - shortfall.moved))) of its \(gap) pt gap above the keyboard"
            switch limit {
            case .coveredHeight(let height):
                let below =
                    shortfall.belowScreen > 0.5
                    ? "; the field's bottom lies \(Self.points(shortfall.belowScreen)) pt below the screen's bottom edge"
                        + ", out of the screen, where no move the cap allows can bring it above the keyboard (is its frame"
                        + " laid out for the screen after a rotation or a resize?)" : ""
                return outcome
                    + ": avoidance moves the root up at most the keyboard's covered height, \(Self.points(height)) pt,"
                    + " and the field's bottom with its \(gap) pt gap needs \(need) pt (the cap: never more than the keyboard covers)"
                    + below
            case .safeAreaTop(let safeTop):
                return outcome
                    + ": the field is taller than the room between the safe area's top (y \(Self.points(safeTop)))"
                    + " and the keyboard, so avoidance keeps its top in view: the root moves up \(moved) pt,"
                    + " not the \(need) pt its bottom with its \(gap) pt gap needs (the top clamp)"
            }
        case .notAvoided(let optedOut, let covered):
            let whose = optedOut == field ? "on the field itself" : "on '\(optedOut)', which takes its subviews out of avoidance too"
            return "'\(field)' is covered by \(Self.points(covered)) pt and nothing moves for it: avoidsKeyboard is off \(whose)"
        case .notDocked(let keyboard, let screenHeight):
            return "'\(field)' is under the keyboard, which is not docked: its frame \(keyboard) ends at y \(Self.points(keyboard.maxY)),"
                + " above the screen's bottom at \(Self.points(screenHeight)) (floating, undocked or split), and iOS counts"
                + " such a keyboard as covering nothing, so nothing moves"
        }
    }

    /// The diagnostic avoidance posts for `field`.
    public func diagnostic(field: ViewID) -> Diagnostic {
        var metadata = ["why": kind]
        if let coveredBy { metadata["coveredBy"] = Self.points(coveredBy) }
        return Diagnostic(level: .info, message: message(field: field), views: [field], metadata: metadata)
    }

    /// A length in points, to a tenth, without a trailing `.0`.
    static func points(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        guard rounded.isFinite, abs(rounded) < 1e12 else { return "\(value)" }
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// Why nothing (or too little) moves for the focused `field`, which avoidance left out of its
    /// decision (`avoided` false: hidden or opted out) or decided for with no covering keyboard:
    /// `nil` when the keyboard does not lie over it.
    static func unmovedField(_ field: ViewNode, covering: Rect?, on screen: Screen) -> AvoidanceExplanation? {
        guard field.isVisible else { return nil }
        if let covering {
            // A view that follows the keyboard is moved with it: its fields are not left behind.
            var node: ViewNode? = field
            var optedOut: ViewID?
            while let view = node {
                if view.followsKeyboard { return nil }
                if !view.avoidsKeyboard, optedOut == nil { optedOut = view.id }
                node = view.parent
            }
            guard let optedOut, let covered = screen.frameInScreen(of: field, unmoved: true).coveredHeight(by: covering)
            else { return nil }
            return .notAvoided(optedOut: optedOut, coveredBy: covered)
        }
        guard screen.keyboard.placement == .floating, let keyboard = screen.keyboard.frame else { return nil }
        let overlap = screen.frameInScreen(of: field, unmoved: true).intersection(keyboard)
        guard !overlap.isNull, overlap.height > 0.5, overlap.width > 0.5 else { return nil }
        return .notDocked(keyboard: keyboard, screenHeight: screen.size.height)
    }
}
