import ResponderBus

/// One state of the screen model as the report draws it: what the screen, its views and the
/// keyboard looked like at a moment, in screen coordinates.
///
/// A value, so that identical states (a long session goes through the same few again and again) are
/// found with a dictionary and drawn once. Take one of a live `Screen` with ``init(_:)`` and draw it
/// with ``svg(title:caption:)``; ``ReportFrame/state`` is one taken during a replay.
public struct ScreenState: Hashable, Sendable {
    /// One view, with its frame on the screen (the root's shift and scroll offsets applied).
    package struct View: Hashable, Sendable {
        var id: String
        var kind: ViewKind
        /// The UIKit class, for a scene imported from a view-hierarchy dump.
        var className: String?
        var tag: Int?
        var frame: Rect
        /// Hidden, or inside a hidden view.
        var isHidden: Bool
        var isEnabled: Bool
        var isFirstResponder: Bool
        /// The gap avoidance keeps above this field (its `keyboardDistance`, or the default:
        /// `ViewNode.defaultKeyboardDistance`).
        var gap: Double
        /// A text input that hides what is typed (a password field): ``ViewNode/isSecure``.
        var isSecure: Bool = false
        /// Whether keyboard avoidance handles it (``ViewNode/avoidsKeyboard``: a plugin's
        /// `viewSettings` may turn it off).
        var avoidsKeyboard: Bool = true
        /// Whether its bottom follows the keyboard's top (``ViewNode/followsKeyboard``).
        var followsKeyboard: Bool = false
        /// How deep in the tree: 0 for the root.
        var depth: Int
    }

    package var size: Size
    package var safeArea: EdgeInsets
    /// Whether a scene is loaded.
    package var hasRoot: Bool
    /// The root's y origin now, and as the scene laid it out.
    package var rootOriginY: Double
    package var restingRootOriginY: Double
    /// The views in drawing order: a view before its subviews, subviews back to front.
    package var views: [View]
    /// The keyboard's end frame while it is shown (docked or not), in screen coordinates.
    package var keyboardFrame: Rect?
    /// The part of the screen the keyboard covers (the rule avoidance and `--check` share).
    package var covering: Rect?
    /// The views a diagnostic taken at this moment names (``Diagnostic/views``): outlined.
    package var named: [String] = []

    /// The state of a screen now, with its model of this app's keyboard. Loop-confined, like the
    /// screen.
    ///
    /// - Parameter screen: The screen model: `bus.screen`, or one of your own.
    public init(_ screen: Screen) {
        self.init(screen: screen, keyboard: screen.keyboard.ownApp)
    }

    /// The state of `screen` now, with the keyboard as `keyboard` tells it. Loop-confined.
    package init(screen: Screen, keyboard: KeyboardState, defaultGap: Double = ViewNode.defaultKeyboardDistance) {
        size = screen.size
        safeArea = screen.safeArea
        hasRoot = screen.root != nil
        rootOriginY = screen.rootOriginY
        restingRootOriginY = screen.restingRootOriginY
        var views: [View] = []
        if let root = screen.root {
            var pending: [(ViewNode, Int, Bool)] = [(root, 0, false)]
            while let (node, depth, hiddenAbove) = pending.popLast() {
                let hidden = hiddenAbove || node.isHidden
                views.append(
                    View(
                        id: node.id.rawValue, kind: node.kind, className: node.className, tag: node.tag,
                        frame: screen.frameInScreen(of: node),
                        isHidden: hidden, isEnabled: node.isEnabled, isFirstResponder: node.isFirstResponder,
                        gap: node.keyboardDistance ?? defaultGap, isSecure: node.isSecure, avoidsKeyboard: node.avoidsKeyboard,
                        followsKeyboard: node.followsKeyboard, depth: depth))
                for child in node.children.reversed() { pending.append((child, depth + 1, hidden)) }
            }
        }
        self.views = views
        if !keyboard.isHidden, let end = keyboard.latest?.end, !end.isNull, !end.isInfinite, end.components.allSatisfy(\.isFinite) {
            keyboardFrame = end
        } else {
            keyboardFrame = nil
        }
        covering = keyboard.coveredPart(ofScreen: screen.size)
    }

    // MARK: What the report shows of it

    /// The first responder, if any.
    package var firstResponder: View? { views.first { $0.isFirstResponder } }

    /// The keyboard's top edge: the top of the part it covers, or the screen's bottom edge when it
    /// covers nothing.
    package var keyboardTop: Double { covering?.minY ?? size.height }

    /// The focused field's bottom edge plus its gap, when a visible field is focused.
    package var fieldBottomWithGap: Double? {
        guard let field = firstResponder, !field.isHidden else { return nil }
        return field.frame.maxY + field.gap
    }

    /// How many points of the focused field the keyboard covers, by `--check`'s rule (more than
    /// half a point, overlapping horizontally); `nil` when it is not covered.
    package var coveredHeight: Double? {
        guard let field = firstResponder, !field.isHidden, let covering else { return nil }
        return field.frame.coveredHeight(by: covering)
    }

    /// The part of the focused field under the keyboard, when covered.
    package var coveredPart: Rect? {
        guard coveredHeight != nil, let field = firstResponder, let covering else { return nil }
        let part = field.frame.intersection(covering)
        return part.isNull ? nil : part
    }

    /// The state as an SVG document: the screen drawn to scale, with a title and lines of caption
    /// under the drawing (as `responder-bus render` draws a frame, with captions of your own).
    ///
    /// - Parameters:
    ///   - title: The document's title (its `<title>`, its accessible name).
    ///   - caption: Lines of text under the drawing, in order; none by default.
    public func svg(title: String, caption: [String] = []) -> String {
        ScreenDrawing.standalone(self, title: title, caption: caption)
    }

    /// A sentence or two that says what the drawing shows: the SVG's text alternative (its `<desc>`).
    public var summary: String {
        var parts: [String] = []
        var screen = "\(size) screen"
        if safeArea != .zero { screen += " (safe area \(Self.insets(safeArea)))" }
        parts.append(screen)
        guard hasRoot else {
            parts.append("no scene loaded")
            parts.append(keyboardText)
            return parts.joined(separator: "; ") + "."
        }
        let shift = rootOriginY - restingRootOriginY
        if shift == 0 {
            parts.append("root at y \(Markup.points(rootOriginY)), not moved")
        } else {
            parts.append(
                "root at y \(Markup.points(rootOriginY)), moved \(Markup.points(abs(shift))) pt \(shift < 0 ? "up" : "down")")
        }
        if let field = firstResponder {
            parts.append("first responder '\(field.id)' (\(Self.kindText(field))) at \(field.frame)")
        } else {
            parts.append("no first responder")
        }
        parts.append(keyboardText)
        if let covered = coveredHeight, let field = firstResponder {
            parts.append("COVERED: '\(field.id)' is \(Markup.points((covered * 10).rounded() / 10)) pt under the keyboard")
        } else if let field = firstResponder, covering != nil, !field.isHidden {
            parts.append("'\(field.id)' is clear of the keyboard by \(Markup.points(((keyboardTop - field.frame.maxY) * 10).rounded() / 10)) pt")
        }
        let inputs = views.filter { $0.kind.isTextInput }
        if !inputs.isEmpty {
            parts.append(
                "text inputs: "
                    + inputs.map { "'\($0.id)' \($0.frame)\($0.isSecure ? " secure" : "")\($0.isHidden ? " hidden" : "")" }.joined(separator: ", "))
        }
        parts.append(Markup.count(views.count, "view"))
        return parts.joined(separator: "; ") + "."
    }

    private var keyboardText: String {
        guard let frame = keyboardFrame else { return "no keyboard" }
        if let covering { return "keyboard \(frame), covering from y \(Markup.points(covering.minY))" }
        return "keyboard \(frame), not docked: covers nothing"
    }

    package static func kindText(_ view: View) -> String {
        var text = view.kind.rawValue
        if let className = view.className { text += " \(className)" }
        if let tag = view.tag { text += ", tag \(tag)" }
        if view.isSecure { text += ", secure (a password field)" }
        if !view.avoidsKeyboard { text += ", left alone by keyboard avoidance (viewSettings)" }
        if view.followsKeyboard { text += ", follows the keyboard's top (viewSettings)" }
        return text
    }

    package static func insets(_ insets: EdgeInsets) -> String {
        var parts: [String] = []
        if insets.top != 0 { parts.append("top \(Markup.points(insets.top))") }
        if insets.left != 0 { parts.append("left \(Markup.points(insets.left))") }
        if insets.bottom != 0 { parts.append("bottom \(Markup.points(insets.bottom))") }
        if insets.right != 0 { parts.append("right \(Markup.points(insets.right))") }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
