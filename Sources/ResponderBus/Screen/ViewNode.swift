/// A live view in a ``Screen``'s tree: the mutable counterpart of ``ViewSpec``.
///
/// A node knows its parent (without owning it) and its children (back to front), so plugins can walk up to
/// the enclosing scroll view or down to the first responder the way UIKit code walks `superview`
/// and `subviews`. Its ``frame`` is in the parent's coordinates; a scroll view's children are laid
/// out in its content coordinates, so its ``contentOffset`` moves them. ``Screen/frameInScreen(of:unmoved:)``
/// does the conversion.
///
/// Read-only outside the package, like its ``Screen``: the bus changes nodes only by applying
/// events, which keeps the screen's identifier index and ``Screen/firstResponder`` in step.
///
/// Like the screen, a node is confined to the loop thread that owns it: it is not `Sendable`.
public final class ViewNode {
    // Loop-confined like the ``Screen`` it belongs to, and read on every event: what changes lives
    // in the audited layer's `UncheckedExclusivity` box (`Storage`, below), without run-time exclusivity
    // checks (see ``Screen``).
    /// The view's identifier, unique in its screen.
    public let id: ViewID
    /// The gap keyboard avoidance keeps between a field and the keyboard when the field sets no
    /// ``keyboardDistance``: 20 points. The built-in `KeyboardAvoidance` plugin's default, and the
    /// gap a report draws for such a field.
    public static let defaultKeyboardDistance: Double = 20
    /// What the view is.
    public var kind: ViewKind { @inlinable get { _storage.value.kind } }
    /// The frame in the parent's coordinates (a scroll view parent's content coordinates).
    public var frame: Rect { @inlinable get { _storage.value.frame } }
    /// The view's tag (`UIView.tag`), used to order fields.
    public var tag: Int? { @inlinable get { _storage.value.tag } }
    /// Whether the view is hidden; a hidden view hides its whole subtree (see ``isVisible``).
    public var isHidden: Bool { @inlinable get { _storage.value.isHidden } }
    /// Whether the view accepts input.
    public var isEnabled: Bool { @inlinable get { _storage.value.isEnabled } }
    /// The gap to keep between this field and the keyboard; the avoidance default when `nil`
    /// (``defaultKeyboardDistance``, unless avoidance is set up with another).
    ///
    /// A scene gives it; a plugin changes it with a derived ``EventName/viewSettings``.
    public var keyboardDistance: Double? { @inlinable get { _storage.value.keyboardDistance } }
    /// Whether keyboard avoidance moves anything for this view when it is first responder
    /// (IQKeyboardManager's per-view enable); `true` until a derived ``EventName/viewSettings``
    /// says otherwise.
    ///
    /// The view's own setting; it reaches its subtree: ``isAvoidingKeyboard`` says whether
    /// avoidance applies to a view, its ancestors' settings included.
    public var avoidsKeyboard: Bool { @inlinable get { _storage.value.avoidsKeyboard } }
    /// Whether the view's bottom stays on the keyboard's top while the keyboard is docked (UIKit's
    /// `keyboardLayoutGuide`); `false` until a derived ``EventName/viewSettings`` says otherwise.
    /// The built-in `KeyboardAvoidance` moves such a view with ``EventName/viewMove``.
    public var followsKeyboard: Bool { @inlinable get { _storage.value.followsKeyboard } }
    /// Whether keyboard avoidance applies to this view: its own ``avoidsKeyboard`` and every
    /// ancestor's are on. A field inside a view taken out of avoidance (a chat input bar) is out
    /// too.
    public var isAvoidingKeyboard: Bool {
        // Walked without counting references, like `isVisible`.
        if !_storage.value.avoidsKeyboard { return false }
        var next = _storage.value.parent
        while let node = next {
            let (avoids, parent) = node.with { ($0._storage.value.avoidsKeyboard, $0._storage.value.parent) }
            if !avoids { return false }
            next = parent
        }
        return true
    }
    /// The view's keyboard settings as they are now: what a plugin starts from to change one of
    /// them with ``EventName/viewSettings``, which sets all of them.
    public var settings: ViewSettings {
        ViewSettings(view: id, keyboardDistance: keyboardDistance, avoidsKeyboard: avoidsKeyboard, followsKeyboard: followsKeyboard)
    }
    /// Whether the text input hides what is typed (UIKit's `isSecureTextEntry`): a password field.
    ///
    /// Always `false` for a view that is not a text input (``ViewKind/isTextInput``), whatever its
    /// ``ViewSpec`` said.
    public var isSecure: Bool { @inlinable get { _storage.value.isSecure } }
    /// A scroll view's content offset: the point of its content shown at its top-left corner.
    ///
    /// Children of a scroll view appear moved by minus this offset. It is `.zero` for other kinds.
    public var contentOffset: Point { @inlinable get { _storage.value.contentOffset } }
    /// A scroll view's content size; `.zero` when the scene did not give one.
    public var contentSize: Size { @inlinable get { _storage.value.contentSize } }
    /// A scroll view's content inset, such as the bottom inset keyboard avoidance adds.
    public var contentInset: EdgeInsets { @inlinable get { _storage.value.contentInset } }
    /// The UIKit class the view was (`UIButton`, `MyApp.PaddedField`), when its scene came from a
    /// view-hierarchy dump; `nil` otherwise.
    public let className: String?
    /// The view this one is a subview of; `nil` for a root.
    public var parent: ViewNode? { @inlinable get { _storage.value.parent?.object } }
    // Not a `weak` reference: one gives the parent a side table, and every retain and release of a
    // view with children (plugins walk up the tree for every decision) then takes the runtime's slow
    // path. A parent owns its children and clears their `parent` link (`Storage.parent`) when it goes (`deinit`) or lets
    // one go (`removeFromParent`), so this never dangles; the tree is confined to one thread.
    // Unretained (an Unmanaged) rather than `unowned(unsafe)`, so that a walk up the tree can go from parent to
    // parent without a retain and a release at each step.
    /// The subviews, back to front.
    public var children: [ViewNode] { @inlinable get { _storage.value.children } }
    /// Whether this view is its screen's first responder.
    ///
    /// Changed only with ``Screen/firstResponder``, as the bus applies editing and focus events.
    public var isFirstResponder: Bool { @inlinable get { _storage.value.isFirstResponder } }

    /// Creates a single node, without children, from the description's own fields.
    private init(shallow spec: ViewSpec) {
        id = spec.id
        className = spec.className
        _storage = UncheckedExclusivity(
            Storage(
                kind: spec.kind, frame: spec.frame, tag: spec.tag, isHidden: spec.isHidden, isEnabled: spec.isEnabled,
                keyboardDistance: spec.keyboardDistance, isSecure: spec.isSecure && spec.kind.isTextInput,
                contentOffset: spec.contentOffset ?? .zero, contentSize: spec.contentSize ?? .zero))
    }

    /// Sets ``contentOffset`` outside the bus's events (the package's own tests and importers).
    package func setContentOffset(_ offset: Point) { _storage.value.contentOffset = offset }
    /// Sets ``contentSize`` outside the bus's events.
    package func setContentSize(_ size: Size) { _storage.value.contentSize = size }
    /// Sets ``isHidden`` outside the bus's events.
    package func setHidden(_ hidden: Bool) { _storage.value.isHidden = hidden }

    /// What a view changes, in the audited layer's loop-confined box (see ``Screen``).
    @usableFromInline
    struct Storage {
        @usableFromInline var kind: ViewKind
        @usableFromInline var frame: Rect
        @usableFromInline var tag: Int?
        @usableFromInline var isHidden: Bool
        @usableFromInline var isEnabled: Bool
        @usableFromInline var keyboardDistance: Double?
        @usableFromInline var isSecure: Bool
        @usableFromInline var avoidsKeyboard = true
        @usableFromInline var followsKeyboard = false
        @usableFromInline var contentOffset: Point
        @usableFromInline var contentSize: Size
        @usableFromInline var contentInset: EdgeInsets = .zero
        @usableFromInline var parent: Unretained<ViewNode>?
        @usableFromInline var children: [ViewNode] = []
        @usableFromInline var isFirstResponder = false
    }
    @usableFromInline let _storage: UncheckedExclusivity<Storage>

    /// Builds a detached subtree from a value description.
    ///
    /// Every child's ``parent`` is set; the new node itself has no parent. A missing content offset
    /// or size becomes `.zero`, and the content inset starts at `.zero`. Identifiers are not checked
    /// for uniqueness here: loading a scene into a ``Screen`` does that.
    public convenience init(spec: ViewSpec) {
        self.init(shallow: spec)
        // Iterative, so an absurdly deep scene cannot overflow the stack here.
        var pending: [(node: ViewNode, spec: ViewSpec)] = [(self, spec)]
        while let item = pending.popLast() {
            for childSpec in item.spec.children {
                let child = ViewNode(shallow: childSpec)
                item.node.appendChild(child)
                pending.append((child, childSpec))
            }
        }
    }

    /// What ``visitSubtree(_:)`` does after visiting a view.
    public enum SubtreeVisit: Sendable {
        /// Visit the view's children next.
        case descend
        /// Leave the view's children out (a hidden view hides them all, say).
        case skipChildren
    }

    /// The nearest ancestor (not the view itself) whose kind is ``ViewKind/scrollView``.
    public var enclosingScrollView: ViewNode? {
        // Walked without counting references, like `isVisible`.
        var next = _storage.value.parent
        while let node = next {
            let (isScrollView, parent) = node.with { ($0._storage.value.kind == .scrollView, $0._storage.value.parent) }
            if isScrollView { return node.object }
            next = parent
        }
        return nil
    }

    /// The view's ancestors, nearest first: its parent, its parent's parent, up to the root.
    public var ancestors: [ViewNode] {
        var result: [ViewNode] = []
        var node = parent
        while let current = node {
            result.append(current)
            node = current.parent
        }
        return result
    }

    /// The top of the tree this view is in: the root, or the view itself when it has no parent.
    public var topmostAncestor: ViewNode {
        var node = self
        while let next = node.parent { node = next }
        return node
    }

    /// Whether this view is `other` or lies somewhere in `other`'s subtree, as
    /// `UIView.isDescendant(of:)`.
    public func isDescendant(of other: ViewNode) -> Bool {
        var node: ViewNode? = self
        while let current = node {
            if current === other { return true }
            node = current.parent
        }
        return false
    }

    /// The view and every view below it, in pre-order: a view before its children, children back
    /// to front.
    public var subtree: [ViewNode] {
        var result: [ViewNode] = []
        var pending: [ViewNode] = [self]
        while let node = pending.popLast() {
            result.append(node)
            pending.append(contentsOf: node.children.reversed())
        }
        return result
    }

    /// The first responder in this subtree (the view itself included), found by a depth-first
    /// search of the ``isFirstResponder`` flags, as the UIKit write-ups' `findFirstResponder()`.
    ///
    /// Prefer ``Screen/firstResponder``, which is stored and O(1); this search visits every view
    /// until it finds one.
    public func findFirstResponder() -> ViewNode? {
        var pending: [ViewNode] = [self]
        while let node = pending.popLast() {
            if node.isFirstResponder { return node }
            pending.append(contentsOf: node.children.reversed())
        }
        return nil
    }

    /// The subtree as a value, recursively.
    ///
    /// A zero ``contentOffset`` or ``contentSize`` becomes `nil` (the log format leaves such
    /// fields out), and ``contentInset``, ``avoidsKeyboard`` and the first-responder flag are not
    /// part of a ``ViewSpec``, so they are dropped.
    public var spec: ViewSpec {
        ViewSpec(
            id: id,
            kind: kind,
            frame: frame,
            tag: tag,
            isHidden: isHidden,
            isEnabled: isEnabled,
            keyboardDistance: keyboardDistance,
            isSecure: isSecure,
            contentOffset: contentOffset == .zero ? nil : contentOffset,
            contentSize: contentSize == .zero ? nil : contentSize,
            className: className,
            children: children.map(\.spec)
        )
    }

    /// Adds `child` (which must have no parent) as the frontmost subview, or at `index`.
    func appendChild(_ child: ViewNode, at index: Int? = nil) {
        precondition(child.parent == nil, "view \(child.id) already has a parent")
        precondition(child !== self && !isDescendant(of: child), "adding view \(child.id) would make a cycle")
        child._storage.value.parent = Unretained(self)
        if let index {
            _storage.value.children.insert(child, at: index)
        } else {
            _storage.value.children.append(child)
        }
    }

    deinit {
        for child in _storage.value.children { child._storage.value.parent = nil }
    }

    /// Detaches this view (and its subtree) from its parent; nothing happens for a root.
    func removeFromParent() {
        guard let parent else { return }
        parent._storage.value.children.removeAll { $0 === self }
        self._storage.value.parent = nil
    }
}

@available(*, unavailable, message: "a ViewNode is confined to the loop thread that owns its screen")
extension ViewNode: Sendable {}

extension ViewNode: CustomStringConvertible {
    /// A one-line summary such as `textField "email" [20, 560, 335, 44] tag 1`.
    public var description: String {
        var text = "\(kind.rawValue) \"\(id)\" \(frame)"
        if let tag { text += " tag \(tag)" }
        if isHidden { text += " hidden" }
        if !isEnabled { text += " disabled" }
        if isSecure { text += " secure" }
        if isFirstResponder { text += " firstResponder" }
        return text
    }
}
