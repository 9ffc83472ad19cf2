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
        switch order {
        case .tag:
            // An untagged field takes no part in tag order, and has no tag to go by.
            guard let tag = field.tag else { return nil }
            return Self.neighbourByTag(of: field, tag: tag, in: screen, step: step)
        case .position:
            let candidates = Self.candidates(on: screen)
            guard let fieldIndex = candidates.firstIndex(where: { $0 === field }) else { return nil }
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

    /// The neighbour in tag order (ties in tree order) in one walk of the tree, with no list of
    /// candidates made: Return is pressed often. A candidate's key is (tag, index among the
    /// candidates); the neighbour is the nearest key after (or before) the field's, so a candidate
    /// with the field's own tag comes before the field when the walk meets it first, and after it
    /// otherwise. When the field is not a candidate itself (hidden, disabled), only the tags count,
    /// so that Return does not strand the user.
    private static func neighbourByTag(of field: ViewNode, tag: Int, in screen: Screen, step: Int) -> ViewNode? {
        var index = 0
        var fieldSeen = false
        // Going forward, the nearest greater key: the same whether or not the walk meets the field.
        var next: (key: (Int, Int), node: ViewNode)?
        // Going back, the nearest smaller key: before the field, one with an equal tag is smaller
        // only if the field turns out to be a candidate (`beforeOrEqual`), never otherwise (`before`).
        var beforeOrEqual: (key: (Int, Int), node: ViewNode)?
        var before: (key: (Int, Int), node: ViewNode)?
        var after: (key: (Int, Int), node: ViewNode)?
        screen.root?.visitSubtree { node in
            // A hidden view hides its whole subtree.
            guard !node.isHidden else { return .skipChildren }
            guard node.kind.isTextInput && node.isEnabled else { return .descend }
            defer { index += 1 }
            if !fieldSeen && node === field {
                fieldSeen = true
                return .descend
            }
            guard let candidate = node.tag else { return .descend }
            let key = (candidate, index)
            if step > 0 {
                guard fieldSeen ? candidate >= tag : candidate > tag else { return .descend }
                if let current = next, key >= current.key { return .descend }
                next = (key, node)
            } else if fieldSeen {
                guard candidate < tag else { return .descend }
                if let current = after, key <= current.key { return .descend }
                after = (key, node)
            } else {
                if candidate <= tag, beforeOrEqual.map({ key > $0.key }) ?? true { beforeOrEqual = (key, node) }
                if candidate < tag, before.map({ key > $0.key }) ?? true { before = (key, node) }
            }
            return .descend
        }
        if step > 0 { return next?.node }
        guard fieldSeen else { return before?.node }
        switch (beforeOrEqual, after) {
        case (let early?, let late?): return early.key > late.key ? early.node : late.node
        case (let early?, nil): return early.node
        case (nil, let late?): return late.node
        case (nil, nil): return nil
        }
    }
}
