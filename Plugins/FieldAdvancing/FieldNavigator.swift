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
        var candidates: [(node: ViewNode, index: Int)] = []
        if let root = screen.root { Self.visitCandidates(root) { candidates.append(($0, $1)) } }
        switch order {
        case .tag:
            // Stable for equal tags: tree order breaks ties.
            return candidates
                .compactMap { candidate in candidate.node.tag.map { (tag: $0, index: candidate.index, node: candidate.node) } }
                .sorted { ($0.tag, $0.index) < ($1.tag, $1.index) }
                .map(\.node)
        case .position:
            return candidates
                .map { (frame: screen.frameInScreen(of: $0.node, unmoved: true), index: $0.index, node: $0.node) }
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

    /// Calls `body` with each candidate (a visible, enabled text field or text view) in tree order,
    /// with its index among the candidates.
    private static func visitCandidates(_ root: ViewNode, _ body: (ViewNode, Int) -> Void) {
        var index = 0
        func visit(_ node: ViewNode) {
            // A hidden view hides its whole subtree.
            guard !node.isHidden else { return }
            if node.kind.isTextInput && node.isEnabled {
                body(node, index)
                index += 1
            }
            for child in node.children { visit(child) }
        }
        visit(root)
    }

    /// The neighbour in the order of ``orderedFields(in:)``, found in two passes over the tree
    /// without building or sorting the list (Return is pressed often; screens can be large).
    private func neighbour(of field: ViewNode, in screen: Screen, step: Int) -> ViewNode? {
        guard let root = screen.root else { return nil }
        var fieldIndex: Int?
        Self.visitCandidates(root) { node, index in
            if node === field { fieldIndex = index }
        }
        switch order {
        case .tag:
            // An untagged field takes no part in tag order, and has no tag to go by.
            guard let tag = field.tag else { return nil }
            var best: (tag: Int, index: Int, node: ViewNode)?
            Self.visitCandidates(root) { node, index in
                guard let candidate = node.tag else { return }
                let key = (candidate, index)
                let eligible: Bool
                if let fieldIndex {
                    eligible = step > 0 ? key > (tag, fieldIndex) : key < (tag, fieldIndex)
                } else {
                    // The current field is not a candidate itself (hidden, disabled): still go by
                    // its tag, so Return does not strand the user.
                    eligible = step > 0 ? candidate > tag : candidate < tag
                }
                guard eligible else { return }
                if let current = best, step > 0 ? key >= (current.tag, current.index) : key <= (current.tag, current.index) {
                    return
                }
                best = (candidate, index, node)
            }
            return best?.node
        case .position:
            guard let fieldIndex else { return nil }
            let frame = screen.frameInScreen(of: field, unmoved: true)
            let fieldKey = (frame.minY, frame.minX, fieldIndex)
            var best: (key: (Double, Double, Int), node: ViewNode)?
            Self.visitCandidates(root) { node, index in
                let frame = screen.frameInScreen(of: node, unmoved: true)
                let key = (frame.minY, frame.minX, index)
                guard step > 0 ? key > fieldKey : key < fieldKey else { return }
                if let current = best, step > 0 ? !(key < current.key) : !(key > current.key) { return }
                best = (key, node)
            }
            return best?.node
        }
    }
}
