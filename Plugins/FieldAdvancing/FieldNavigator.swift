import ResponderBus

/// Finds the next and previous fields on a screen. Pure: it reads the screen model and changes
/// nothing.
///
/// The candidates are the text fields and text views anywhere on the screen that are visible (no
/// hidden ancestor) and enabled.
public struct FieldNavigator: Sendable {
    /// The order fields follow.
    public var order: FieldOrder

    /// Creates a navigator for an order.
    public init(order: FieldOrder = .tag) {
        self.order = order
    }

    /// The fields that can take the focus, in this navigator's order.
    public func orderedFields(in screen: Screen) -> [ViewNode] {
        let candidates = Self.candidates(on: screen).enumerated()
        switch order {
        case .tag:
            // Stable for equal tags: tree order breaks ties.
            return
                candidates
                .compactMap { index, node in node.tag.map { (tag: $0, index: index, node: node) } }
                .sorted { ($0.tag, $0.index) < ($1.tag, $1.index) }
                .map(\.node)
        case .position:
            return
                candidates
                .map { index, node in (frame: screen.frameInScreen(of: node, unmoved: true), index: index, node: node) }
                .sorted { ($0.frame.minY, $0.frame.minX, $0.index) < ($1.frame.minY, $1.frame.minX, $1.index) }
                .map(\.node)
        }
    }

    /// The field after `field`, or `nil` when it is the last (or takes no part in the order, such
    /// as an untagged field in tag order).
    public func field(after field: ViewNode, in screen: Screen) -> ViewNode? {
        neighbour(of: field, in: screen, step: 1)
    }

    /// The field before `field`, or `nil` when it is the first.
    public func field(before field: ViewNode, in screen: Screen) -> ViewNode? {
        neighbour(of: field, in: screen, step: -1)
    }

    /// The candidates (visible, enabled text fields and text views) in tree order.
    private static func candidates(on screen: Screen) -> [ViewNode] {
        var found: [ViewNode] = []
        found.reserveCapacity(16)
        screen.root?.visitSubtree { node in
            // A hidden view hides its whole subtree.
            guard !node.isHidden else { return .skipChildren }
            if node.kind.isTextInput && node.isEnabled { found.append(node) }
            return .descend
        }
        return found
    }

    /// The neighbour in the order of ``orderedFields(in:)``, found in one pass over the candidates
    /// without sorting them (Return is pressed often; screens can be large).
    private func neighbour(of field: ViewNode, in screen: Screen, step: Int) -> ViewNode? {
        let candidates = Self.candidates(on: screen)
        let fieldIndex = candidates.firstIndex { $0 === field }
        switch order {
        case .tag:
            // An untagged field takes no part in tag order, and has no tag to go by.
            guard let tag = field.tag else { return nil }
            var best: (tag: Int, index: Int)?
            for (index, node) in candidates.enumerated() {
                guard let candidate = node.tag else { continue }
                let key = (candidate, index)
                let eligible: Bool
                if let fieldIndex {
                    eligible = step > 0 ? key > (tag, fieldIndex) : key < (tag, fieldIndex)
                } else {
                    // The current field is not a candidate itself (hidden, disabled): still go by
                    // its tag, so Return does not strand the user.
                    eligible = step > 0 ? candidate > tag : candidate < tag
                }
                guard eligible else { continue }
                if let current = best, step > 0 ? key >= current : key <= current { continue }
                best = key
            }
            return best.map { candidates[$0.index] }
        case .position:
            guard let fieldIndex else { return nil }
            let frame = screen.frameInScreen(of: field, unmoved: true)
            let fieldKey = (frame.minY, frame.minX, fieldIndex)
            var best: (Double, Double, Int)?
            for (index, node) in candidates.enumerated() {
                let frame = screen.frameInScreen(of: node, unmoved: true)
                let key = (frame.minY, frame.minX, index)
                guard step > 0 ? key > fieldKey : key < fieldKey else { continue }
                if let current = best, step > 0 ? !(key < current) : !(key > current) { continue }
                best = key
            }
            return best.map { candidates[$0.2] }
        }
    }
}
