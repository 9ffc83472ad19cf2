/// The screen model's walks of its view tree: up a view's ancestors and down its subtree,
/// without a retain and a release of each view passed (the benchmark documentation has what this
/// saves on a replay).
///
/// Part of the audited layer.
///
/// ## Invariant
///
/// The tree keeps every view it walks alive while the walk runs: a view holds its children, and
/// a child's link to its parent (an ``Unretained``) is cleared when the parent lets it go or goes
/// (see `ViewNode.Storage.parent`). A walk changes nothing in the tree, and the `visit` closure
/// of ``ViewNode/visitSubtree(_:)`` must not either.
extension ViewNode {
    /// Visits this view and its descendants in tree order (a view, then its subviews back to front,
    /// each with its own subtree), calling `visit` with each; `visit` says whether to go into the
    /// children of the view it was given (``SubtreeVisit/skipChildren`` leaves out, say, a hidden
    /// view's subtree). `visit` must not change the tree.
    public func visitSubtree(_ visit: (ViewNode) -> SubtreeVisit) {
        Self.visit(Unretained(self), visit)
    }

    private static func visit(_ node: Unretained<ViewNode>, _ visit: (ViewNode) -> SubtreeVisit) {
        node.with { view in
            // A leaf's (empty) children are not reached for: that costs a retain and a release.
            guard visit(view) == .descend, !view._storage.value.children.isEmpty else { return }
            // The stored field itself: through `value`'s getter the whole storage was copied
            // (and destroyed) for every view visited.
            view._storage.value.children.withUnsafeBufferPointer { children in
                for index in children.indices { Self.visit(Unretained(children[index]), visit) }
            }
        }
    }

    /// Whether the view can be seen: neither it nor any ancestor is hidden.
    public var isVisible: Bool {
        // Walked without counting references (a retain and a release per level otherwise): the
        // tree keeps every ancestor alive while this runs (see `Storage.parent`).
        var node = Unretained(self)
        while true {
            let (hidden, parent) = node.with { ($0._storage.value.isHidden, $0._storage.value.parent) }
            if hidden { return false }
            guard let parent else { return true }
            node = parent
        }
    }
}

extension Screen {
    /// Where the origin of `view`'s content coordinates lies on the screen; `.zero` for `nil`.
    func contentOrigin(of view: ViewNode?, unmoved: Bool) -> Point {
        guard let view else { return .zero }
        return contentOrigin(of: Unretained(view), unmoved: unmoved)
    }

    /// ``contentOrigin(of:unmoved:)`` from a borrowed view.
    func contentOrigin(of view: Unretained<ViewNode>?, unmoved: Bool) -> Point {
        var origin = Point.zero
        // Walked without counting references (see `ViewNode.isVisible`).
        let root = rootIdentity
        var next = view
        while let current = next {
            next = current.with { node in
                var frameOrigin = node.frame.origin
                if unmoved, ObjectIdentifier(node) == root { frameOrigin.y = _storage.value.restingRootOriginY }
                origin = origin.offsetBy(dx: frameOrigin.x, dy: frameOrigin.y)
                if node._storage.value.kind == .scrollView {
                    origin = origin.offsetBy(dx: -node.contentOffset.x, dy: -node.contentOffset.y)
                }
                return node._storage.value.parent
            }
        }
        return origin
    }
}
