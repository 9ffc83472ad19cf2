import ResponderBus

/// Where the focused field sits, as avoidance needs it.
public struct FieldPlacement: Hashable, Sendable {
    /// The field's frame in screen coordinates with the root unmoved and its scroll view (if any)
    /// at the offset it had before avoidance scrolled it.
    public var frame: Rect
    /// The gap to keep between the field's bottom and the keyboard.
    public var gap: Double
    /// The scroll view the field is in, if any.
    public var scrollView: ScrollPlacement?

    /// Creates a placement.
    public init(frame: Rect, gap: Double, scrollView: ScrollPlacement? = nil) {
        self.frame = frame
        self.gap = gap
        self.scrollView = scrollView
    }
}

/// The scroll view around the focused field, as avoidance needs it.
public struct ScrollPlacement: Hashable, Sendable {
    /// The scroll view.
    public var id: ViewID
    /// Its frame in screen coordinates with the root unmoved.
    public var frame: Rect
    /// The content offset it had before avoidance scrolled it.
    public var restingOffsetY: Double
    /// The bottom inset it had before avoidance changed it.
    public var restingBottomInset: Double
    /// The height of its content.
    public var contentHeight: Double

    /// Creates a placement.
    public init(id: ViewID, frame: Rect, restingOffsetY: Double, restingBottomInset: Double, contentHeight: Double) {
        self.id = id
        self.frame = frame
        self.restingOffsetY = restingOffsetY
        self.restingBottomInset = restingBottomInset
        self.contentHeight = contentHeight
    }
}

/// What avoidance decides: where the root goes and, for a field in a scroll view, that scroll
/// view's offset and bottom inset.
public struct AvoidanceDecision: Hashable, Sendable {
    /// The root's y origin relative to its resting origin: 0 unmoved, negative moved up.
    public var rootOffsetY: Double
    /// The scroll view's target state, when the field is in one (its resting state when nothing
    /// covers).
    public var scroll: ScrollChange?

    /// Creates a decision.
    public init(rootOffsetY: Double, scroll: ScrollChange? = nil) {
        self.rootOffsetY = rootOffsetY
        self.scroll = scroll
    }
}

/// The keyboard-avoidance rule, as pure functions of the geometry. Nothing here reads a bus.
///
/// Everything is computed from the unmoved layout every time, so nothing accumulates (the original
/// extension's "account for previous shift"), and an origin is never captured from a moved state
/// (IQKeyboardManager issue 1421).
public enum AvoidanceRule {
    /// The gap kept between a field and the keyboard when the field sets none: 20 points, the
    /// core's `ViewNode.defaultKeyboardDistance`.
    public static let defaultGap: Double = ViewNode.defaultKeyboardDistance

    /// The root's target offset for a field between `fieldMinY` and `fieldMaxY` (screen
    /// coordinates, root unmoved) and a keyboard whose covering part starts at `keyboardTop`:
    ///
    /// `min(max(keyboardTop − (fieldMaxY + gap), −(screenHeight − keyboardTop), safeTop − fieldMinY), 0)`
    ///
    /// The second term never moves up more than the keyboard's covered height; the third keeps a
    /// tall field's top below the safe area.
    public static func rootTarget(
        fieldMinY: Double, fieldMaxY: Double, gap: Double, keyboardTop: Double, screenHeight: Double, safeTop: Double
    ) -> Double {
        let target = max(keyboardTop - (fieldMaxY + gap), -(screenHeight - keyboardTop), safeTop - fieldMinY)
        return min(target, 0)
    }

    /// What stops the root short of keeping a field's bottom its gap above the keyboard: one of
    /// ``rootTarget(fieldMinY:fieldMaxY:gap:keyboardTop:screenHeight:safeTop:)``'s limiting terms.
    public enum Limit: Hashable, Sendable {
        /// The cap, `−(screenHeight − keyboardTop)`: avoidance never moves the root up more than
        /// the keyboard's covered height (the associated value), so a field lower than that
        /// height above the screen's bottom stays covered (a landscape phone, a field at the
        /// bottom of a scroll view's content).
        case coveredHeight(Double)
        /// The clamp, `safeTop − fieldMinY`: a field taller than the room between the safe area's
        /// top (the associated value) and the keyboard keeps its top in view, and its bottom stays
        /// under the keyboard (a tall text view).
        case safeAreaTop(Double)
    }

    /// What limits the root's target for a field between `fieldMinY` and `fieldMaxY` (the same
    /// arguments as ``rootTarget(fieldMinY:fieldMaxY:gap:keyboardTop:screenHeight:safeTop:)``),
    /// or `nil` when the target keeps the whole gap: the term of the rule that won over the need,
    /// `keyboardTop − (fieldMaxY + gap)`, by more than half a point.
    public static func limit(
        fieldMinY: Double, fieldMaxY: Double, gap: Double, keyboardTop: Double, screenHeight: Double, safeTop: Double
    ) -> Limit? {
        let need = keyboardTop - (fieldMaxY + gap)
        guard need < -0.5 else { return nil }
        let cap = -(screenHeight - keyboardTop)
        let clamp = safeTop - fieldMinY
        guard max(cap, clamp) > need + 0.5 else { return nil }
        return clamp >= cap ? .safeAreaTop(safeTop) : .coveredHeight(screenHeight - keyboardTop)
    }

    /// Decides where the root and the field's scroll view go.
    ///
    /// - Parameters:
    ///   - covering: the part of the screen the keyboard covers
    ///     (`KeyboardInfo.coveredPart(ofScreen:isHide:)`), `nil` when nothing.
    ///   - field: the focused field, `nil` when there is none.
    ///   - screen: the screen's size.
    ///   - safeTop: the safe area's top inset.
    public static func decide(covering: Rect?, field: FieldPlacement?, screen: Size, safeTop: Double) -> AvoidanceDecision {
        guard let field else { return AvoidanceDecision(rootOffsetY: 0) }
        guard let covering else {
            let restored = field.scrollView.map {
                ScrollChange(view: $0.id, contentOffsetY: $0.restingOffsetY, bottomInset: $0.restingBottomInset)
            }
            return AvoidanceDecision(rootOffsetY: 0, scroll: restored)
        }
        let keyboardTop = covering.minY
        var fieldFrame = field.frame
        var scroll: ScrollChange?
        if let scrollView = field.scrollView {
            // Scroll views first: inset by what the keyboard hides of the scroll view, scroll just
            // enough. What it hides runs from the keyboard's top to the scroll view's bottom, which
            // may lie below the screen (a form taller than a landscape phone): IQKeyboardManager's
            // `inset = keyboardHeight - (windowHeight - scrollView.maxY)`. An inset of the overlap
            // alone leaves the field under the keyboard there (found by `responder-bus explore`).
            let overlap = scrollView.frame.intersection(covering)
            let inset = overlap.isNull ? 0 : max(overlap.height, scrollView.frame.maxY - keyboardTop)
            let need = fieldFrame.maxY + field.gap - keyboardTop
            var scrollBy = 0.0
            if need > 0 {
                let maxOffset = scrollView.contentHeight + inset - scrollView.frame.height
                let available = max(0, maxOffset - scrollView.restingOffsetY)
                let visibleTop = max(scrollView.frame.minY, safeTop)
                let topRoom = max(0, fieldFrame.minY - visibleTop)
                scrollBy = min(need, available, topRoom)
            }
            fieldFrame = fieldFrame.offsetBy(dx: 0, dy: -scrollBy)
            scroll = ScrollChange(view: scrollView.id, contentOffsetY: scrollView.restingOffsetY + scrollBy, bottomInset: inset)
        }
        let root = rootTarget(
            fieldMinY: fieldFrame.minY, fieldMaxY: fieldFrame.maxY, gap: field.gap, keyboardTop: keyboardTop,
            screenHeight: screen.height, safeTop: safeTop)
        return AvoidanceDecision(rootOffsetY: root, scroll: scroll)
    }
}
