import Synchronization

/// The headless model of one screen: its size and safe area, a tree of views, and the first
/// responder.
///
/// A screen starts empty; a `scene` event gives it a tree of views. It is **read-only outside the
/// package**: the bus changes it, and only by applying events — external ones (`scene`,
/// `setFrame`, `screenChange`, editing) and the decisions plugins post (`viewShift`, `scroll`,
/// `focusChange`). A plugin reads it through ``PluginContext/screen`` and changes it by posting
/// those events, never directly. An event that names a view the screen does not have is not
/// applied (the bus says so with a ``EventName/diagnostic``), and changes nothing.
///
/// ## Coordinates
///
/// As in UIKit, y grows downwards and a view's ``ViewNode/frame`` is in its parent's coordinates.
/// A scroll view's children are in its content coordinates: scrolling down (a larger
/// ``ViewNode/contentOffset``) moves them up. The root's frame is in screen coordinates.
/// ``frameInScreen(of:unmoved:)`` and ``convert(_:from:to:)`` turn one into the other.
///
/// ## Moving the root
///
/// Keyboard avoidance moves the whole content by moving the root view, and the log's derived
/// `viewShift` event records the root's absolute y origin after the move. The screen keeps both
/// the current origin (``rootOriginY``) and the one the scene laid out (``restingRootOriginY``),
/// so a plugin can ask where a field is now or where it would be with the content put back.
///
/// ## Threading
///
/// A screen and its views are confined to the loop thread that owns them: they are not `Sendable`.
public final class Screen {
    // The model is loop-confined and its properties are never accessed overlappingly by the bus or
    // the plugins; every event reads many of them, so they live in the audited layer's
    // `UncheckedExclusivity` box (no run-time exclusivity checks; the benchmark documentation says
    // what they would cost). Do not pass one of them `inout`
    // to code that reads the same property. Each public property is an `@inlinable` accessor, so
    // that plugins reach the storage directly.
    @usableFromInline
    struct Storage {
        @usableFromInline var size: Size
        @usableFromInline var keyboard: KeyboardModel
        @usableFromInline var safeArea: EdgeInsets
        @usableFromInline var root: ViewNode?
        @usableFromInline var lastFieldAction: String?
        @usableFromInline var restingRootOriginY: Double = 0
        /// How many views have ``ViewNode/followsKeyboard`` on.
        @usableFromInline var keyboardFollowerCount = 0
        /// How many views have ``ViewNode/avoidsKeyboard`` off.
        @usableFromInline var avoidanceOptOutCount = 0
        @usableFromInline var firstResponder: ViewNode?
        /// The views by identifier; changed only through ``Screen/index``, which forgets the
        /// recent look-ups.
        var index: [ViewID: ViewNode] = [:]
        /// The views ``Screen/view(_:)`` found last. A replayed record's view is looked up several
        /// times in a row (the replayer checks it exists, the model applies it, a plugin reads it),
        /// a session moves among a few fields, and hashing a string is most of a look-up.
        var recentLookups = RecentLookups()
        /// Counts the changes to the views, the first responder, the size, the safe area and the
        /// last field's action (not the keyboard: see ``Screen/revision``).
        var revision: UInt64 = 0
    }

    /// The last four views looked up, by identifier, replaced in turn. Unretained: the index holds
    /// each node for as long as it is here (changing the index empties this).
    struct RecentLookups {
        /// An identifier, its length in UTF-8 (compared first: two different identifiers usually
        /// differ in length, and comparing the lengths is cheaper than comparing the strings), and
        /// its view.
        typealias Entry = (id: ViewID, length: Int, node: Unretained<ViewNode>)
        var first: Entry?
        var second: Entry?
        var third: Entry?
        var fourth: Entry?
        var next = 0

        @inline(__always)
        func find(_ id: ViewID) -> Unretained<ViewNode>? {
            let length = id.rawValue.utf8.count
            if let entry = first, entry.length == length, entry.id == id { return entry.node }
            if let entry = second, entry.length == length, entry.id == id { return entry.node }
            if let entry = third, entry.length == length, entry.id == id { return entry.node }
            if let entry = fourth, entry.length == length, entry.id == id { return entry.node }
            return nil
        }

        mutating func remember(_ id: ViewID, _ node: Unretained<ViewNode>) {
            let entry = (id, id.rawValue.utf8.count, node)
            switch next {
            case 0: first = entry
            case 1: second = entry
            case 2: third = entry
            default: fourth = entry
            }
            next = (next + 1) & 3
        }
    }
    @usableFromInline let _storage: UncheckedExclusivity<Storage>

    /// The screen's size in points, such as 375×812 for an iPhone X in portrait.
    public var size: Size { @inlinable get { _storage.value.size } }

    /// Sets ``size``, the keyboard model's screen with it.
    package func setSize(_ size: Size) {
        _storage.value.size = size
        _storage.value.keyboard.screenChanged(to: size)
        changed()
    }

    /// A number that changes whenever the screen does — a view's frame, visibility, content offset
    /// or inset, the tree, the first responder, the root's shift, the size, the safe area, the last
    /// field's action — and not otherwise; the keyboard is not counted (read ``keyboard``). A
    /// plugin that decides from the screen on every turn can skip a turn whose screen has not
    /// changed since its last decision. Every change goes through the screen's own methods, which
    /// the bus calls as events arrive (the views' setters are package-only).
    public var revision: UInt64 { _storage.value.revision }

    /// Which screen this is, unique in the process (an object's address can be reused once it is
    /// freed): with ``revision``, what a plugin remembers about the screen it last looked at.
    public let identity: UInt64

    /// The next ``identity``.
    private static let identities = Atomic<UInt64>(0)

    /// Notes a change for ``revision``.
    private func changed() {
        _storage.value.revision &+= 1
    }
    /// The keyboard, as the keyboard events tell it: the bus notes each of them before any plugin
    /// sees it, so every plugin reads the same keyboard (see ``KeyboardModel``).
    public var keyboard: KeyboardModel { @inlinable get { _storage.value.keyboard } }
    /// The screen's safe area insets (the notch, the home indicator).
    public var safeArea: EdgeInsets { @inlinable get { _storage.value.safeArea } }

    /// Sets ``safeArea``.
    package func setSafeArea(_ insets: EdgeInsets) {
        _storage.value.safeArea = insets
        changed()
    }
    /// The root view, or `nil` before a scene is loaded.
    public var root: ViewNode? { @inlinable get { _storage.value.root } }
    /// What Return on the last field performs (the original write-ups' segue identifier).
    ///
    /// A `scene` event sets it.
    public var lastFieldAction: String? { @inlinable get { _storage.value.lastFieldAction } }
    /// The root's y origin as the scene laid it out, before any shift.
    ///
    /// A `scene` event and a `setFrame` of the root set it; a `viewShift` does not.
    /// It is 0 with no root.
    public var restingRootOriginY: Double { @inlinable get { _storage.value.restingRootOriginY } }
    /// The view that is first responder (the focused text input), or `nil`.
    ///
    /// Stored, so reading it is O(1). Editing and `focusChange` events change it; loading a scene or
    /// removing the view's subtree clears it.
    public var firstResponder: ViewNode? { @inlinable get { _storage.value.firstResponder } }

    /// The views by identifier. Every change goes through here, and forgets the last look-up.
    private var index: [ViewID: ViewNode] {
        get { _storage.value.index }
        _modify {
            _storage.value.recentLookups = RecentLookups()
            yield &_storage.value.index
        }
        set {
            _storage.value.recentLookups = RecentLookups()
            _storage.value.index = newValue
        }
    }

    /// Creates an empty screen.
    ///
    /// The default size is an iPhone X-class phone in portrait (375×812 points).
    public init(size: Size = Size(width: 375, height: 812), safeArea: EdgeInsets = .zero) {
        _storage = UncheckedExclusivity(Storage(size: size, keyboard: KeyboardModel(screenSize: size), safeArea: safeArea))
        identity = Self.identities.add(1, ordering: .relaxed).newValue
    }

    /// The screen's rectangle in its own coordinates: origin zero, the screen's ``size``.
    public var bounds: Rect { Rect(origin: .zero, size: size) }

    /// The root's current y origin: ``restingRootOriginY`` unless the root was shifted; 0 with no
    /// root.
    public var rootOriginY: Double { root?.frame.origin.y ?? 0 }

    // MARK: - The tree

    /// Replaces the whole tree with the one `scene` describes, and takes its `lastFieldAction`.
    ///
    /// The first responder is cleared. The root's y origin becomes the ``restingRootOriginY``.
    ///
    /// - Throws: ``ScreenError/Code/duplicateViewID`` when two views share an identifier (the
    ///   first repeat, in pre-order, is named). The screen is then left as it was.
    package func load(_ scene: SceneInfo) throws(ScreenError) {
        let newRoot = ViewNode(spec: scene.root)
        let newIndex = try Self.makeIndex(newRoot)
        clearFirstResponder()
        _storage.value.root = newRoot
        index = newIndex
        _storage.value.lastFieldAction = scene.lastFieldAction
        _storage.value.restingRootOriginY = newRoot.frame.origin.y
        _storage.value.keyboardFollowerCount = 0
        _storage.value.avoidanceOptOutCount = 0
        changed()
    }

    /// The view with identifier `id`, or `nil`; O(1).
    public func view(_ id: ViewID) -> ViewNode? {
        lookUp(id)?.object
    }

    /// Whether the screen has a view `id` (``view(_:)`` without handing the view out).
    package func hasView(_ id: ViewID) -> Bool {
        lookUp(id) != nil
    }

    /// The kind of view `id`, if the screen has it (``view(_:)`` without handing the view out,
    /// and so without the retain and release a returned reference costs).
    package func kindOfView(_ id: ViewID) -> ViewKind? {
        lookUp(id)?.with { $0.kind }
    }

    private func lookUp(_ id: ViewID) -> Unretained<ViewNode>? {
        // Read in place: the stored field, `find` inlined.
        if let recent = _storage.value.recentLookups.find(id) { return recent }
        guard let node = _storage.value.index[id] else { return nil }
        let unmanaged = Unretained(node)
        _storage.value.recentLookups.remember(id, unmanaged)
        return unmanaged
    }

    /// Every view, in pre-order: a view before its subviews, subviews back to front.
    public var allViews: [ViewNode] { root?.subtree ?? [] }

    /// Every text field and text view, in pre-order, hidden and disabled ones included.
    public var textInputs: [ViewNode] { allViews.filter { $0.kind.isTextInput } }

    /// Adds the subtree `spec` describes as a subview of `parent`: frontmost, or at `index`
    /// (clamped to the existing subviews).
    ///
    /// - Throws: ``ScreenError/Code/unknownView`` when there is no `parent`;
    ///   ``ScreenError/Code/duplicateViewID`` when an identifier in `spec` is already on the
    ///   screen or repeats within `spec`. Nothing changes then.
    @discardableResult
    package func addSubview(_ spec: ViewSpec, to parent: ViewID, at index: Int? = nil) throws(ScreenError) -> ViewNode {
        guard let parentNode = self.index[parent] else { throw .unknownView(parent) }
        let node = ViewNode(spec: spec)
        let added = try Self.makeIndex(node)
        if let clash = node.subtree.first(where: { self.index[$0.id] != nil }) {
            throw .duplicateViewID(clash.id)
        }
        parentNode.appendChild(node, at: index.map { min(max($0, 0), parentNode.children.count) })
        self.index.merge(added) { old, _ in old }
        changed()
        return node
    }

    /// Removes the view `id` and its subtree from the screen.
    ///
    /// When the first responder is in that subtree it is cleared. Removing the root empties the
    /// screen, as before the first ``load(_:)``; ``restingRootOriginY`` is then 0.
    ///
    /// - Throws: ``ScreenError/Code/unknownView`` when there is no such view.
    package func removeView(_ id: ViewID) throws(ScreenError) {
        guard let node = index[id] else { throw .unknownView(id) }
        if let firstResponder, firstResponder.isDescendant(of: node) { clearFirstResponder() }
        for removed in node.subtree {
            index[removed.id] = nil
            if removed.followsKeyboard { _storage.value.keyboardFollowerCount -= 1 }
            if !removed.avoidsKeyboard { _storage.value.avoidanceOptOutCount -= 1 }
        }
        if node === root {
            _storage.value.root = nil
            _storage.value.restingRootOriginY = 0
        } else {
            node.removeFromParent()
        }
        changed()
    }

    // MARK: - Frames, screen changes and scrolling

    /// Sets the frame of the view `id` (in its parent's coordinates), as a `setFrame` record does.
    ///
    /// For the root this is a new layout: both the current frame and the resting origin
    /// (``restingRootOriginY``) take the new frame, so any shift is undone.
    ///
    /// - Throws: ``ScreenError/Code/unknownView`` when there is no such view.
    package func setFrame(_ id: ViewID, to frame: Rect) throws(ScreenError) {
        guard let node = view(id) else { throw .unknownView(id) }
        node._storage.value.frame = frame
        if node === root { _storage.value.restingRootOriginY = frame.origin.y }
        changed()
    }

    /// Moves the root view vertically so that its y origin is `originY`, in screen coordinates,
    /// as a derived `viewShift` record says. Does nothing with no root.
    ///
    /// The resting origin is kept: shifting back to ``restingRootOriginY`` puts the content back.
    package func shiftRoot(toOriginY originY: Double) {
        root?._storage.value.frame.origin.y = originY
        changed()
    }

    /// Applies a `screen` record: the new size, and the new safe area when it gives one.
    ///
    /// The views' frames are not touched: a log follows a rotation with `setFrame` records.
    package func apply(_ change: ScreenChange) {
        setSize(change.size)
        if let safeArea = change.safeArea { setSafeArea(safeArea) }
    }

    /// Applies a derived `scroll` record: the scroll view's vertical content offset and bottom
    /// content inset. The horizontal offset and the other insets are kept.
    ///
    /// - Throws: ``ScreenError/Code/unknownView`` when there is no such view;
    ///   ``ScreenError/Code/notAScrollView`` when it is not a scroll view.
    package func applyScroll(_ change: ScrollChange) throws(ScreenError) {
        guard let node = index[change.view] else { throw .unknownView(change.view) }
        guard node.kind == .scrollView else { throw .notAScrollView(change.view, kind: node.kind) }
        node._storage.value.contentOffset.y = change.contentOffsetY
        node._storage.value.contentInset.bottom = change.bottomInset
        changed()
    }

    /// Applies a derived `viewSettings` record: the view's ``ViewNode/keyboardDistance`` and
    /// ``ViewNode/avoidsKeyboard``.
    ///
    /// - Throws: ``ScreenError/Code/unknownView`` when there is no such view;
    ///   ``ScreenError/Code/invalidSetting`` when the gap is negative or not finite (the view is
    ///   then unchanged).
    package func applySettings(_ settings: ViewSettings) throws(ScreenError) {
        guard let node = index[settings.view] else { throw .unknownView(settings.view) }
        if let gap = settings.keyboardDistance, !(gap.isFinite && gap >= 0) { throw .invalidGap(settings.view, gap: gap) }
        node._storage.value.keyboardDistance = settings.keyboardDistance
        if node.avoidsKeyboard != settings.avoidsKeyboard {
            node._storage.value.avoidsKeyboard = settings.avoidsKeyboard
            _storage.value.avoidanceOptOutCount += settings.avoidsKeyboard ? -1 : 1
        }
        if node.followsKeyboard != settings.followsKeyboard {
            node._storage.value.followsKeyboard = settings.followsKeyboard
            _storage.value.keyboardFollowerCount += settings.followsKeyboard ? 1 : -1
        }
        changed()
    }

    /// Applies a derived `viewMove` record: the view's frame, in its parent's coordinates. The
    /// root's resting origin is kept.
    ///
    /// - Throws: ``ScreenError/Code/unknownView`` when there is no such view;
    ///   ``ScreenError/Code/invalidFrame`` when the frame is not finite or has a negative size
    ///   (the view is then unchanged).
    package func moveView(_ move: ViewMove) throws(ScreenError) {
        guard let node = index[move.view] else { throw .unknownView(move.view) }
        let frame = move.frame
        guard [frame.origin.x, frame.origin.y, frame.size.width, frame.size.height].allSatisfy(\.isFinite),
            frame.size.width >= 0, frame.size.height >= 0
        else { throw .invalidFrame(move.view, frame: frame) }
        node._storage.value.frame = frame
        changed()
    }

    /// Whether keyboard avoidance applies to `view`: ``ViewNode/isAvoidingKeyboard``, without the
    /// walk up the tree while no view of the screen has taken itself out of avoidance.
    @inlinable
    public func isAvoidingKeyboard(_ view: ViewNode) -> Bool {
        _storage.value.avoidanceOptOutCount == 0 ? true : view.isAvoidingKeyboard
    }

    /// Whether any view's ``ViewNode/followsKeyboard`` is on; costs nothing to ask.
    @inlinable public var hasKeyboardFollowers: Bool { _storage.value.keyboardFollowerCount > 0 }

    /// The views whose ``ViewNode/followsKeyboard`` is on, in tree order; empty, without walking
    /// the tree, when ``hasKeyboardFollowers`` is `false`.
    public var keyboardFollowers: [ViewNode] {
        guard _storage.value.keyboardFollowerCount > 0 else { return [] }
        return allViews.filter(\.followsKeyboard)
    }

    // MARK: - First responder

    /// Makes the view `id` first responder, or clears the first responder when `id` is `nil`.
    ///
    /// The previous first responder's ``ViewNode/isFirstResponder`` is cleared and the new one's
    /// set, so ``firstResponder`` and ``findFirstResponderRecursively()`` always agree. Hidden and
    /// disabled text inputs are accepted: the screen records what happened, and plugins decide
    /// whether to skip such fields.
    ///
    /// - Throws: ``ScreenError/Code/unknownView`` when there is no such view;
    ///   ``ScreenError/Code/notATextInput`` when it is not a text field or text view. The first
    ///   responder is then unchanged.
    package func setFirstResponder(_ id: ViewID?) throws(ScreenError) {
        guard let id else {
            clearFirstResponder()
            return
        }
        guard let node = view(id) else { throw .unknownView(id) }
        guard node.kind.isTextInput else { throw .notATextInput(id, kind: node.kind) }
        if node === firstResponder { return }
        clearFirstResponder()
        node._storage.value.isFirstResponder = true
        _storage.value.firstResponder = node
        changed()
    }

    /// Finds the first responder by a depth-first search from the root for the view whose
    /// ``ViewNode/isFirstResponder`` is set: the way the original UIKit write-ups find it (a
    /// `UIView.findFirstResponder()` extension).
    ///
    /// It visits every view until it finds one, so prefer the stored ``firstResponder``; this is
    /// here to check that the two agree, and for code ported from those write-ups.
    public func findFirstResponderRecursively() -> ViewNode? {
        root?.findFirstResponder()
    }

    private func clearFirstResponder() {
        guard let current = firstResponder else { return }
        current._storage.value.isFirstResponder = false
        _storage.value.firstResponder = nil
        changed()
    }

    // MARK: - Geometry

    /// The view's frame in screen coordinates.
    ///
    /// Each ancestor's frame origin is added, and each ancestor scroll view's content offset
    /// subtracted (its subviews are laid out in its content coordinates). With `unmoved`, the
    /// root's ``restingRootOriginY`` stands in for its current y origin: where the view is when
    /// the content is not shifted. A view of another tree is converted as if its topmost ancestor's
    /// frame were in screen coordinates, and `unmoved` does not apply to it.
    public func frameInScreen(of view: ViewNode, unmoved: Bool = false) -> Rect {
        var frame = view.frame
        if unmoved, ObjectIdentifier(view) == rootIdentity { frame.origin.y = restingRootOriginY }
        // From the parent's borrowed link (the public `parent` is a counted reference).
        let origin = contentOrigin(of: view._storage.value.parent, unmoved: unmoved)
        return frame.offsetBy(dx: origin.x, dy: origin.y)
    }

    /// The root view's identity, read without counting a reference to it.
    var rootIdentity: ObjectIdentifier? {
        _storage.value.root.map { ObjectIdentifier($0) }
    }

    /// Converts a rectangle from the coordinates of `from` to those of `to`; `nil` stands for the
    /// screen.
    ///
    /// A view's coordinates are those its subviews' frames are in: for a scroll view, its content
    /// coordinates (as UIKit's `convert(_:from:)` uses a view's bounds, whose origin is the
    /// content offset). So `convert(view.frame, from: view.parent, to: nil)` equals
    /// ``frameInScreen(of:unmoved:)``, and converting there and back gives the rectangle back (up
    /// to floating-point rounding). The root's current, possibly shifted, origin is used.
    public func convert(_ rect: Rect, from: ViewNode?, to: ViewNode?) -> Rect {
        let source = contentOrigin(of: from, unmoved: false)
        let target = contentOrigin(of: to, unmoved: false)
        return rect.offsetBy(dx: source.x - target.x, dy: source.y - target.y)
    }

    // MARK: - Helpers

    /// The identifier index of a detached subtree.
    ///
    /// - Throws: ``ScreenError/Code/duplicateViewID`` for the first identifier that repeats, in
    ///   pre-order.
    private static func makeIndex(_ top: ViewNode) throws(ScreenError) -> [ViewID: ViewNode] {
        var index: [ViewID: ViewNode] = [:]
        for node in top.subtree {
            if index.updateValue(node, forKey: node.id) != nil { throw .duplicateViewID(node.id) }
        }
        return index
    }
}

@available(*, unavailable, message: "a Screen is confined to the loop thread that owns it")
extension Screen: Sendable {}
