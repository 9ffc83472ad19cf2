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
        let candidates = screen.textInputs.filter { $0.isVisible && $0.isEnabled }
        switch order {
        case .tag:
            // Stable for equal tags: tree order breaks ties.
            return candidates.enumerated()
                .compactMap { index, node in node.tag.map { (tag: $0, index: index, node: node) } }
                .sorted { ($0.tag, $0.index) < ($1.tag, $1.index) }
                .map(\.node)
        case .position:
            return candidates.enumerated()
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

    private func neighbour(of field: ViewNode, in screen: Screen, step: Int) -> ViewNode? {
        let fields = orderedFields(in: screen)
        if let index = fields.firstIndex(where: { $0 === field }) {
            let target = index + step
            return fields.indices.contains(target) ? fields[target] : nil
        }
        // The current field is not a candidate itself (hidden, disabled): in tag order, still go by
        // its tag, so Return does not strand the user.
        guard order == .tag, let tag = field.tag else { return nil }
        return step > 0 ? fields.first { ($0.tag ?? .min) > tag } : fields.last { ($0.tag ?? .max) < tag }
    }
}
