import ResponderBus

extension SessionAssembler {
    /// The screen in force again with what a later dump of it shows, when that dump (the whole
    /// window again, or one of its subtrees) adds text fields or text views: the later dump's
    /// views replace the subtree it dumps, keeping the ids of the views the screen had (so that
    /// editing notifications of their addresses still find them), and the problem that says so;
    /// `nil` when it adds no text input.
    static func screenAdding(
        textInputsOf later: PlacedScene, to current: SceneBuilder.Scene
    ) -> (scene: SceneBuilder.Scene, problem: ImportProblem)? {
        let inputs = Set(later.scene.textInputIDs)
        guard !inputs.isEmpty, let target = current.id(ofAddress: later.scene.rootAddress) else { return nil }
        let laterAddresses = later.scene.addresses.sorted
        let added = laterAddresses.filter { inputs.contains($0.id) && current.id(ofAddress: $0.address) == nil }
        guard !added.isEmpty else { return nil }
        // The later dump's ids, as the screen in force names them; new ones made unique. A view the
        // screen has outside the subtree dumped again (it moved into it) keeps its place there, and
        // the later dump's copy gets an id of its own: no id is given twice.
        var taken = current.root.allIDs()
        let inside = current.root.subtree(target)?.allIDs() ?? []
        var ids: [ViewID: ViewID] = [:]
        var addresses = current.addresses
        for (address, id) in laterAddresses {
            if let known = current.id(ofAddress: address), inside.contains(known) {
                ids[id] = known
                continue
            }
            let new = taken.claim(id)
            ids[id] = new
            _ = addresses.insertIfNew(address, id: new)
        }
        // The views no address names (an address printed again gives `#2`): made unique too.
        for id in later.scene.root.idsInOrder() where ids[id] == nil {
            ids[id] = taken.claim(id)
        }
        var subtree = later.scene.root.renamed(ids)
        subtree.id = target
        var root = current.root
        root.replace(target, with: subtree)
        let addedIDs = added.map { ids[$0.id] ?? $0.id }
        var scene = current
        scene.root = root
        scene.addresses = addresses
        scene.textInputIDs = current.textInputIDs + addedIDs
        scene.viewCount = root.count()
        let message =
            "this dump of the screen in force adds \(addedIDs.count == 1 ? "a text input" : "\(addedIDs.count) text inputs") the first dump did not show (\(ImportSummary.list(addedIDs.map(\.rawValue)))): the screen is read again with \(addedIDs.count == 1 ? "it" : "them"), a new scene here (the field being edited, when it is still on the screen, is begun again right after)"
        return (scene, ImportProblem(kind: .textInputsAdded, line: later.line, message: message))
    }
}

extension SessionAssembler {
    /// The views of `root` that lie wholly outside the screen, not inside a scroll view (whose
    /// content may) nor inside another such view, said; `nil` when there is none.
    static func viewsOffScreen(_ root: ViewSpec, screen: Size, line: Int) -> ImportProblem? {
        let bounds = Rect(origin: .zero, size: screen)
        var outside: [ViewID] = []
        var stack = [(root, Point.zero)]
        while let (view, origin) = stack.popLast() {
            let placed = Rect(
                x: origin.x + view.frame.origin.x, y: origin.y + view.frame.origin.y, width: view.frame.size.width, height: view.frame.size.height)
            let hasArea = placed.size.width > 0 && placed.size.height > 0
            if hasArea, !placed.intersects(bounds) {
                outside.append(view.id)
                continue
            }
            guard view.kind != .scrollView else { continue }
            stack += view.children.reversed().map { ($0, placed.origin) }
        }
        guard !outside.isEmpty else { return nil }
        let named = outside.prefix(5).map(\.rawValue) + (outside.count > 5 ? ["\(outside.count - 5) more"] : [])
        let message =
            "\(outside.count == 1 ? "a view lies" : "\(outside.count) views lie") wholly outside the \(ElementTreeReader.describe(bounds)) screen from the start: \(ImportSummary.list(named)) (off-screen matches, or frames printed in the window's coordinates where each superview's were expected, which add up past the edge?)"
        return ImportProblem(kind: .viewsOffScreen, line: line, message: message)
    }
}

extension Set<ViewID> {
    /// `id`, or when it is taken `id#2`, `id#3`…: the first that is not, now taken.
    mutating func claim(_ id: ViewID) -> ViewID {
        var new = id
        var n = 2
        while contains(new) {
            new = ViewID("\(id.rawValue)#\(n)")
            n += 1
        }
        insert(new)
        return new
    }
}

extension ViewSpec {
    /// Whether this view or one inside it has `id`.
    func holds(_ id: ViewID) -> Bool {
        var stack = [self]
        while let view = stack.popLast() {
            if view.id == id { return true }
            stack += view.children
        }
        return false
    }

    /// The view `id`: this one or one inside it.
    func subtree(_ id: ViewID) -> ViewSpec? {
        var stack = [self]
        while let view = stack.popLast() {
            if view.id == id { return view }
            stack += view.children
        }
        return nil
    }

    /// The ids of this view and the views inside it, in pre-order (the order printed).
    func idsInOrder() -> [ViewID] {
        var ids: [ViewID] = []
        var stack = [self]
        while let view = stack.popLast() {
            ids.append(view.id)
            stack += view.children.reversed()
        }
        return ids
    }

    /// Every id of this view and the views inside it.
    func allIDs() -> Set<ViewID> {
        var ids: Set<ViewID> = []
        var stack = [self]
        while let view = stack.popLast() {
            ids.insert(view.id)
            stack += view.children
        }
        return ids
    }

    /// How many views this is, with the ones inside it.
    func count() -> Int {
        var total = 0
        var stack = [self]
        while let view = stack.popLast() {
            total += 1
            stack += view.children
        }
        return total
    }

    /// This view with every id in `ids` renamed.
    func renamed(_ ids: [ViewID: ViewID]) -> ViewSpec {
        var copy = self
        copy.id = ids[id] ?? id
        copy.children = children.map { $0.renamed(ids) }
        return copy
    }

    /// Replaces the view `id` (this one or one inside it) with `replacement`, keeping its frame.
    mutating func replace(_ id: ViewID, with replacement: ViewSpec) {
        if self.id == id {
            let frame = self.frame
            self = replacement
            self.frame = frame
            return
        }
        for index in children.indices where children[index].holds(id) {
            children[index].replace(id, with: replacement)
            return
        }
    }
}
