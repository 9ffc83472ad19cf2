import ResponderBus

extension SceneBuilder {
    /// One dump's scene while its entries come in, one at a time: the reader hands each over as
    /// it reads it, so that a dump's entries are never all held at once (a million-view dump's
    /// entries took more memory than its scene).
    struct SceneInProgress {
        /// The view id of each printed address (the first view printed with it).
        var addresses: AddressTable
        /// The ids given so far that ``addresses`` does not show: every id but the `Class@address`
        /// of an address's first view (most of a large dump's, which need no set of their own).
        var otherIDs: Set<ViewID> = []
        var renames = Renames()
        var viewCount = 0
        /// The text fields' and text views' ids, in the order printed.
        var textInputs: [ViewID] = []
        var keyboardViews = 0
        /// The open views, root first: `stack[d]` is the view at depth d and the children
        /// collected for it so far.
        var stack: [(spec: ViewSpec, children: [ViewSpec])] = []
        /// Inside a keyboard view: everything deeper than this is left out.
        var skipBelow: Int?
        var tooDeep = 0
        var root: ViewSpec?
        /// The root entry's class, address and base class.
        var first: (className: String, address: String, baseClass: String?)?
        /// Whether the root entry prints its place in the window.
        var rootPlacedInWindow = false
        /// The root is the keyboard's own: the dump is not the app's.
        var isKeyboardDump = false
        /// Where the keyboard is on the screen, when the dump shows it (see ``keyboardFrame(of:origin:)``).
        var keyboardFrame: Rect?
        /// In a dump of the keyboard's own window: the origin of each open view in the window's
        /// coordinates, root first (their frames are in their parents' coordinates).
        var keyboardOrigins: [Point] = []
        /// The bottom of the dump's window, when its root is one: a keyboard at or below it is put
        /// away.
        var windowBottom: Double?

        /// A scene to be built, its tables sized for `expectedViews` when that is known.
        init(expectedViews: Int = 0) {
            addresses = AddressTable(capacity: expectedViews)
        }

        /// Whether a view of the scene has `id`.
        func isTaken(_ id: ViewID) -> Bool {
            if otherIDs.contains(id) { return true }
            // A `Class@address` id: the first view printed with that address may have it.
            guard let at = id.rawValue.utf8.lastIndex(of: UInt8(ascii: "@")) else { return false }
            let address = String(id.rawValue[id.rawValue.index(after: at)...])
            return addresses[address] == id
        }
    }

    /// Adds the next entry of a dump (in pre-order, its depth set by the reader) to its scene.
    mutating func add(_ entry: HierarchyEntry, to scene: inout SceneInProgress) {
        if scene.first == nil {
            scene.first = (entry.className, entry.address, entry.baseClass)
            scene.rootPlacedInWindow = entry.windowFrame != nil
            if entry.className.hasSuffix("Window") || entry.baseClass == "UIWindow", let frame = entry.windowFrame ?? entry.frame {
                scene.windowBottom = frame.origin.y + frame.size.height
            }
        }
        guard !scene.isKeyboardDump else {
            // The keyboard's window: only where the keyboard is matters.
            scene.keyboardOrigins.removeLast(max(0, scene.keyboardOrigins.count - entry.depth))
            let parent = scene.keyboardOrigins.last ?? .zero
            let frame = entry.frame ?? .zero
            scene.keyboardOrigins.append(Point(x: parent.x + frame.origin.x, y: parent.y + frame.origin.y))
            if scene.keyboardFrame == nil { scene.keyboardFrame = Self.keyboardFrame(of: entry, origin: parent, above: scene.windowBottom) }
            return
        }
        if let skip = scene.skipBelow {
            if entry.depth > skip {
                scene.keyboardViews += 1
                // The keyboard's host view inside its container, when the dump prints where it is.
                if scene.keyboardFrame == nil, entry.windowFrame != nil {
                    scene.keyboardFrame = Self.keyboardFrame(of: entry, origin: .zero, above: scene.windowBottom)
                }
                return
            }
            scene.skipBelow = nil
        }
        if entry.depth > Self.maxDepth {
            if scene.tooDeep == 0 {
                problems.append(
                    ImportProblem(
                        kind: .unreadableValue, line: entry.line, column: entry.column,
                        message: "views nest more than \(Self.maxDepth) levels below the dump's root here; the deeper ones are left out"))
            }
            scene.tooDeep += 1
            return
        }
        if Self.isKeyboardView(entry.className) {
            if entry.depth == 0 {
                scene.isKeyboardDump = true
                let frame = entry.windowFrame ?? entry.frame ?? .zero
                scene.keyboardOrigins = [frame.origin]
                scene.keyboardFrame = Self.keyboardFrame(of: entry, origin: .zero, above: scene.windowBottom)
                return
            }
            // Inside the app's window (its frame in the window's, and so the screen's, coordinates
            // only when the dump prints them).
            if scene.keyboardFrame == nil, entry.windowFrame != nil {
                scene.keyboardFrame = Self.keyboardFrame(of: entry, origin: .zero, above: scene.windowBottom)
            }
            scene.keyboardViews += 1
            scene.skipBelow = entry.depth
            return
        }
        // Close the views this entry is not inside of.
        while scene.stack.count > entry.depth { scene.closeLast() }
        // Depths grow by one at most (the reader makes sure), so the parent is the last open view.
        let id = scene.name(entry)
        let kind = kind(of: entry)
        if kind.isTextInput { scene.textInputs.append(id) }
        scene.viewCount += 1
        // The root's place is its place in the window, when the dump prints it: a node printed
        // alone (Texture's `frameInWindow`, EarlGrey's `AX.frame`) is not at its parent-relative
        // origin.
        let frame = (entry.depth == 0 ? entry.windowFrame : nil) ?? entry.frame ?? .zero
        let spec = ViewSpec(
            id: id, kind: kind, frame: frame, tag: entry.tag,
            isHidden: entry.isHidden || entry.alpha == 0, isEnabled: !entry.isDisabled,
            isSecure: Self.isSecure(entry, kind: kind),
            contentOffset: kind == .scrollView ? entry.contentOffset : nil,
            contentSize: kind == .scrollView ? entry.contentSize : nil,
            className: entry.className)
        scene.stack.append((spec, []))
    }

    /// The views that show where the keyboard is: the host view of the keyboard and its bar,
    /// and, when a dump prints only the keys' part, its backdrop.
    private static let keyboardFrameClasses: Set<String> = ["UIInputSetHostView", "UIKBInputBackdropView", "UIPeripheralHostView"]

    /// Where the keyboard is, from one of its views (in its window's coordinates, which are the
    /// screen's): `nil` for other views, for a keyboard with no height or at or below the window's
    /// bottom (put away), and for one whose place cannot be added up.
    static func keyboardFrame(of entry: HierarchyEntry, origin: Point, above bottom: Double?) -> Rect? {
        guard keyboardFrameClasses.contains(entry.className) else { return nil }
        let frame: Rect
        if let window = entry.windowFrame {
            frame = window
        } else if let own = entry.frame {
            frame = Rect(x: origin.x + own.origin.x, y: origin.y + own.origin.y, width: own.size.width, height: own.size.height)
        } else {
            return nil
        }
        guard frame.origin.x.isFinite, frame.origin.y.isFinite, frame.size.width > 0, frame.size.height > 0 else { return nil }
        if let bottom, frame.origin.y >= bottom { return nil }
        return frame
    }

    /// The scene of the entries added; `nil` when its root is the keyboard's own. The views
    /// renamed are said.
    mutating func finish(_ scene: inout SceneInProgress) -> Scene? {
        problems += scene.renames.problems()
        guard !scene.isKeyboardDump, let first = scene.first else { return nil }
        while !scene.stack.isEmpty { scene.closeLast() }
        guard let root = scene.root else { return nil }
        return Scene(
            root: root, addresses: scene.addresses, viewCount: scene.viewCount, textInputIDs: scene.textInputs,
            keyboardViewCount: scene.keyboardViews, rootClass: first.className, rootAddress: first.address,
            isWindow: first.className.hasSuffix("Window") || first.baseClass == "UIWindow", rootPlacedInWindow: scene.rootPlacedInWindow)
    }
}

extension SceneBuilder.SceneInProgress {
    /// The id of the next view: its `accessibilityIdentifier`, else `Class@address`, made unique
    /// with `#2`, `#3`; an address printed again, or an identifier another view has, is noted to
    /// be said.
    fileprivate mutating func name(_ entry: HierarchyEntry) -> ViewID {
        let printed = ViewID(entry.accessibilityIdentifier ?? "\(entry.className)@\(entry.address)")
        var id = printed
        if isTaken(printed) {
            var n = 2
            while isTaken(ViewID("\(printed.rawValue)#\(n)")) { n += 1 }
            id = ViewID("\(printed.rawValue)#\(n)")
        }
        let isNewAddress = addresses.insertIfNew(entry.address, id: id)
        // Only an address's first view named `Class@address` is found through ``addresses``.
        if !isNewAddress || id != printed || entry.accessibilityIdentifier != nil { otherIDs.insert(id) }
        if !isNewAddress {
            renames.noteAddress(entry.address, named: id, entry: entry)
        } else if id != printed {
            renames.noteID(printed, renamed: id, entry: entry)
        }
        return id
    }

    /// Closes the deepest open view: its children are complete, and it becomes its parent's last
    /// child (or the root).
    fileprivate mutating func closeLast() {
        let (spec, children) = stack.removeLast()
        var done = spec
        done.children = children
        if stack.isEmpty { root = done } else { stack[stack.count - 1].children.append(done) }
    }
}
