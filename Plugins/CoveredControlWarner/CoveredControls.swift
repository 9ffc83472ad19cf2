import ResponderBus

/// The rule of ``CoveredControlWarner``, as a pure function: which controls the keyboard covers.
///
/// A control counts when it is visible and enabled and the covered part of the screen hides it by
/// `Rect.coveredHeight(by:)` — horizontally, and by more than half a point vertically: the rule
/// `--check` applies to the focused field.
public enum CoveredControls {
    /// A control on the screen, in screen coordinates.
    public struct Control: Hashable, Sendable {
        /// The control's view.
        public var id: ViewID
        /// Its frame on the screen, after shifts and scrolling.
        public var frame: Rect
        /// Neither it nor an ancestor is hidden.
        public var isVisible: Bool
        /// It accepts taps.
        public var isEnabled: Bool

        /// Creates a control.
        public init(id: ViewID, frame: Rect, isVisible: Bool = true, isEnabled: Bool = true) {
            self.id = id
            self.frame = frame
            self.isVisible = isVisible
            self.isEnabled = isEnabled
        }
    }

    /// A control the keyboard covers, and by how many points.
    public struct Finding: Hashable, Sendable {
        /// The control's view.
        public var id: ViewID
        /// How many points of its height the keyboard covers.
        public var coveredHeight: Double

        /// Creates a finding.
        public init(id: ViewID, coveredHeight: Double) {
            self.id = id
            self.coveredHeight = coveredHeight
        }
    }

    /// The controls `covering` (the part of the screen the keyboard covers; `nil` when none) covers,
    /// in the order given.
    public static func covered(_ controls: [Control], by covering: Rect?) -> [Finding] {
        guard let covering else { return [] }
        return controls.compactMap { control in
            guard control.isVisible, control.isEnabled, let covered = control.frame.coveredHeight(by: covering) else { return nil }
            return Finding(id: control.id, coveredHeight: covered)
        }
    }

    /// The controls (`ViewKind.button` views) of `screen`, in the tree's order.
    public static func controls(on screen: Screen) -> [Control] {
        var controls: [Control] = []
        screen.root?.visitSubtree { node in
            if node.kind.isControl {
                controls.append(
                    Control(id: node.id, frame: screen.frameInScreen(of: node), isVisible: node.isVisible, isEnabled: node.isEnabled))
            }
            return .descend
        }
        return controls
    }
}
