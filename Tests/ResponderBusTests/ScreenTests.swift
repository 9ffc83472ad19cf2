import ResponderBus
import Testing

@Suite struct ScreenTests {
    /// A rectangle from the log format's four numbers.
    private static func r(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect {
        Rect(x: x, y: y, width: width, height: height)
    }

    /// The specs of a subtree in pre-order.
    private static func preOrder(_ spec: ViewSpec) -> [ViewSpec] {
        [spec] + spec.children.flatMap { preOrder($0) }
    }

    /// The node for `id`, failing the test when there is none.
    private static func node(_ id: ViewID, in screen: Screen) throws -> ViewNode {
        try #require(screen.view(id), "no view \(id)")
    }

    // MARK: - Building

    @Test("loading the sign-up scene builds the tree with kinds, tags, parents and the last-field action")
    func loadSignUp() throws {
        let screen = try CannedScenes.screen(with: CannedScenes.signUp)
        let root = try #require(screen.root)
        #expect(root.id == "root")
        #expect(root.parent == nil)
        #expect(root.children.map(\.id) == ["title", "email", "password", "confirm", "notes"])
        #expect(root.children.allSatisfy { $0.parent === root })
        #expect(screen.textInputs.map(\.id) == ["email", "password", "confirm", "notes"])
        #expect(screen.textInputs.map(\.tag) == [1, 2, 3, 4])
        #expect(screen.textInputs.map(\.kind) == [.textField, .textField, .textField, .textView])
        #expect(screen.lastFieldAction == "signUp")
        #expect(screen.restingRootOriginY == 0)
        #expect(screen.rootOriginY == 0)
        #expect(screen.firstResponder == nil)
        #expect(screen.bounds == Self.r(0, 0, 375, 812))
        #expect(screen.safeArea == CannedScenes.safeArea)
    }

    @Test(
        "every view of a canned scene is found by id, in pre-order, and the tree turns back into the scene",
        arguments: CannedScenes.names
    )
    func lookupAndRoundTrip(name: String) throws {
        let scene = CannedScenes.named(name)
        let screen = try CannedScenes.screen(with: scene)
        let specs = Self.preOrder(scene.root)
        #expect(screen.allViews.map(\.id) == specs.map(\.id))
        for (spec, node) in zip(specs, screen.allViews) {
            #expect(screen.view(spec.id) === node, "lookup of \(spec.id)")
            #expect(node.frame == spec.frame)
            #expect(node.kind == spec.kind)
            #expect(node.tag == spec.tag)
            #expect(node.isHidden == spec.isHidden)
            #expect(node.isEnabled == spec.isEnabled)
            #expect(node.keyboardDistance == spec.keyboardDistance)
        }
        #expect(screen.textInputs.map(\.id) == specs.filter { $0.kind.isTextInput }.map(\.id))
        #expect(screen.root?.spec == scene.root)
        #expect(screen.lastFieldAction == scene.lastFieldAction)
    }

    @Test("lookup by id finds the node in a scene of 20,000 views, and misses an id that is not there")
    func lookupInLargeScene() throws {
        let fields = (0..<20_000).map { i in
            ViewSpec(id: ViewID("field\(i)"), kind: .textField, frame: Self.r(0, Double(i) * 50, 375, 44), tag: i)
        }
        let screen = Screen()
        try screen.load(SceneInfo(root: ViewSpec(id: "root", frame: Self.r(0, 0, 375, 812), children: fields)))
        #expect(screen.allViews.count == 20_001)
        for i in stride(from: 0, to: 20_000, by: 997) {
            #expect(screen.view(ViewID("field\(i)"))?.tag == i)
        }
        #expect(screen.view("field20000") == nil)
        #expect(screen.view("Field1") == nil, "ids are case-sensitive")
    }

    @Test("a view looked up again after the tree changed is found as it is now: removed, re-added, reloaded")
    func lookupAfterChanges() throws {
        let screen = Screen()
        try screen.load(CannedScenes.signUp)
        let email = try #require(screen.view("email"))
        #expect(screen.view("email") === email, "the same node, twice in a row")
        try screen.removeView("email")
        #expect(screen.view("email") == nil)
        let added = try screen.addSubview(ViewSpec(id: "email", kind: .textField, frame: Self.r(20, 600, 335, 44)), to: "root")
        #expect(screen.view("email") === added)
        #expect(added !== email)
        try screen.load(CannedScenes.signUp)
        let reloaded = try #require(screen.view("email"))
        #expect(reloaded !== added)
        try screen.load(SceneInfo(root: ViewSpec(id: "root", frame: Self.r(0, 0, 375, 812))))
        #expect(screen.view("email") == nil)
        #expect(screen.view("root") === screen.root)
    }

    @Test("a view built from a spec gets its children's parents set, and default content geometry")
    func nodeFromSpec() {
        let spec = ViewSpec(
            id: "scroll",
            kind: .scrollView,
            frame: Self.r(0, 0, 375, 812),
            children: [ViewSpec(id: "a", frame: Self.r(0, 0, 10, 10), children: [ViewSpec(id: "b", frame: .zero)])]
        )
        let node = ViewNode(spec: spec)
        #expect(node.parent == nil)
        #expect(node.contentOffset == .zero)
        #expect(node.contentSize == .zero)
        #expect(node.contentInset == .zero)
        let a = node.children[0]
        let b = a.children[0]
        #expect(a.parent === node)
        #expect(b.parent === a)
        #expect(b.ancestors.map(\.id) == ["a", "scroll"])
        #expect(b.topmostAncestor === node)
        #expect(node.subtree.map(\.id) == ["scroll", "a", "b"])
        #expect(node.spec == spec, "zero content geometry stays left out")

        node.setContentOffset(Point(x: 0, y: 120))
        node.setContentSize(Size(width: 375, height: 2000))
        #expect(node.spec.contentOffset == Point(x: 0, y: 120))
        #expect(node.spec.contentSize == Size(width: 375, height: 2000))
    }

    @Test("a view kept after its parent has gone has no parent any more; one removed from its parent neither")
    func parentGoesAway() {
        var root: ViewNode? = ViewNode(
            spec: ViewSpec(
                id: "root", frame: Self.r(0, 0, 375, 812),
                children: [ViewSpec(id: "a", frame: Self.r(0, 0, 10, 10), children: [ViewSpec(id: "b", frame: .zero)])]))
        let a = root!.children[0]
        let b = a.children[0]
        #expect(a.parent === root)
        root = nil
        #expect(a.parent == nil)
        #expect(b.parent === a)
        #expect(a.topmostAncestor === a)

        let screen = Screen()
        try? screen.load(
            SceneInfo(
                root: ViewSpec(
                    id: "root", frame: Self.r(0, 0, 375, 812), children: [ViewSpec(id: "field", kind: .textField, frame: Self.r(0, 0, 10, 10))])))
        let field = screen.view("field")
        #expect(field?.parent?.id == "root")
        try? screen.load(SceneInfo(root: ViewSpec(id: "other", frame: Self.r(0, 0, 375, 812))))
        #expect(field?.parent == nil, "the old tree went with the old scene")
    }

    /// (what is wrong, a scene with a repeated id, the id named in the error).
    static let duplicateScenes: [(String, SceneInfo, ViewID)] = [
        (
            "two siblings",
            SceneInfo(
                root: ViewSpec(
                    id: "root",
                    frame: r(0, 0, 375, 812),
                    children: [ViewSpec(id: "dup", frame: .zero), ViewSpec(id: "dup", frame: .zero)]
                )
            ),
            "dup"
        ),
        (
            "a parent and its child",
            SceneInfo(
                root: ViewSpec(
                    id: "root",
                    frame: r(0, 0, 375, 812),
                    children: [ViewSpec(id: "dup", frame: .zero, children: [ViewSpec(id: "dup", frame: .zero)])]
                )
            ),
            "dup"
        ),
        (
            "the root's id deep inside",
            SceneInfo(
                root: ViewSpec(
                    id: "top",
                    frame: r(0, 0, 375, 812),
                    children: [
                        ViewSpec(id: "a", frame: .zero, children: [ViewSpec(id: "top", kind: .textField, frame: .zero)])
                    ]
                )
            ),
            "top"
        ),
        (
            "cousins",
            SceneInfo(
                root: ViewSpec(
                    id: "root",
                    frame: r(0, 0, 375, 812),
                    children: [
                        ViewSpec(id: "a", frame: .zero, children: [ViewSpec(id: "x", frame: .zero)]),
                        ViewSpec(id: "b", frame: .zero, children: [ViewSpec(id: "x", frame: .zero)]),
                    ]
                )
            ),
            "x"
        ),
    ]

    @Test("a scene with a repeated id is rejected and the loaded screen is left as it was", arguments: duplicateScenes)
    func duplicateIDRejected(what: String, scene: SceneInfo, duplicate: ViewID) throws {
        let screen = try CannedScenes.screen(with: CannedScenes.signUp)
        let oldRoot = screen.root
        try screen.setFirstResponder("password")
        screen.shiftRoot(toOriginY: -150)

        let error = try #require(throws: ScreenError.self) { try screen.load(scene) }
        #expect(error.code == .duplicateViewID, "\(what)")
        #expect(error.view == duplicate)
        #expect(error.message.contains("\"\(duplicate)\""))

        #expect(screen.root === oldRoot)
        #expect(screen.allViews.map(\.id) == ["root", "title", "email", "password", "confirm", "notes"])
        #expect(screen.view("a") == nil && screen.view("dup") == nil && screen.view("x") == nil)
        #expect(screen.firstResponder?.id == "password")
        #expect(screen.findFirstResponderRecursively()?.id == "password")
        #expect(screen.lastFieldAction == "signUp")
        #expect(screen.rootOriginY == -150)
        #expect(screen.restingRootOriginY == 0)
    }

    @Test("loading a new scene replaces the tree, clears the first responder and resets the root's origin")
    func loadReplaces() throws {
        let screen = try CannedScenes.screen(with: CannedScenes.signUp)
        let email = try Self.node("email", in: screen)
        try screen.setFirstResponder("email")
        screen.shiftRoot(toOriginY: -200)

        try screen.load(CannedScenes.scrollingForm)
        #expect(screen.firstResponder == nil)
        #expect(screen.findFirstResponderRecursively() == nil)
        #expect(!email.isFirstResponder, "a node of the old tree must not still claim to be first responder")
        #expect(screen.view("email") == nil)
        #expect(screen.view("city") != nil)
        #expect(screen.rootOriginY == 0)
        #expect(screen.lastFieldAction == "save")

        var shifted = CannedScenes.deepNesting
        shifted.root.frame.origin.y = 20
        try screen.load(shifted)
        #expect(screen.restingRootOriginY == 20)
        #expect(screen.rootOriginY == 20)
        #expect(screen.lastFieldAction == nil)
    }

    // MARK: - Geometry

    /// (view in the deep-nesting scene, its frame on the screen).
    static let deepFrames: [(ViewID, Rect)] = [
        ("root", r(0, 0, 375, 812)),
        ("container", r(0, 100, 375, 600)),
        ("card", r(16, 150, 343, 500)),
        ("stack", r(16, 170, 343, 400)),
        ("row2", r(16, 470, 343, 80)),
        ("firstName", r(26, 178, 323, 44)),
        ("bio", r(26, 478, 323, 64)),
    ]

    @Test("frameInScreen adds up the origins of every ancestor", arguments: deepFrames)
    func frameThroughNesting(id: ViewID, expected: Rect) throws {
        let screen = try CannedScenes.screen(with: CannedScenes.deepNesting)
        let view = try Self.node(id, in: screen)
        #expect(screen.frameInScreen(of: view) == expected)
        #expect(screen.frameInScreen(of: view, unmoved: true) == expected)
    }

    @Test("scrolling a scroll view moves its subviews up on the screen, but not itself")
    func frameInScrolledScrollView() throws {
        let screen = try CannedScenes.screen(with: CannedScenes.scrollingForm)
        let city = try Self.node("city", in: screen)
        let scroll = try Self.node("scroll", in: screen)
        #expect(screen.frameInScreen(of: city) == Self.r(20, 1188, 335, 44))

        try screen.applyScroll(ScrollChange(view: "scroll", contentOffsetY: 500, bottomInset: 291))
        #expect(scroll.contentOffset == Point(x: 0, y: 500))
        #expect(scroll.contentInset == EdgeInsets(bottom: 291))
        #expect(screen.frameInScreen(of: city) == Self.r(20, 688, 335, 44))
        #expect(screen.frameInScreen(of: try Self.node("name", in: screen)) == Self.r(20, -372, 335, 44))
        #expect(screen.frameInScreen(of: scroll) == Self.r(0, 88, 375, 724))
        #expect(screen.frameInScreen(of: try Self.node("header", in: screen)) == Self.r(0, 0, 375, 88))

        scroll.setContentOffset(Point(x: 10, y: scroll.contentOffset.y))
        try screen.applyScroll(ScrollChange(view: "scroll", contentOffsetY: 0, bottomInset: 0))
        #expect(scroll.contentOffset == Point(x: 10, y: 0), "a vertical scroll keeps the horizontal offset")
        #expect(screen.frameInScreen(of: city) == Self.r(10, 1188, 335, 44))
    }

    @Test("nested scroll views each subtract their own content offset")
    func nestedScrollViews() throws {
        let screen = Screen()
        try screen.load(
            SceneInfo(
                root: ViewSpec(
                    id: "root",
                    frame: Self.r(0, 0, 375, 812),
                    children: [
                        ViewSpec(
                            id: "outer",
                            kind: .scrollView,
                            frame: Self.r(0, 100, 375, 700),
                            contentOffset: Point(x: 0, y: 300),
                            children: [
                                ViewSpec(
                                    id: "inner",
                                    kind: .scrollView,
                                    frame: Self.r(10, 400, 355, 300),
                                    contentOffset: Point(x: 5, y: 50),
                                    children: [
                                        ViewSpec(id: "field", kind: .textField, frame: Self.r(0, 100, 300, 44))
                                    ]
                                )
                            ]
                        )
                    ]
                )
            )
        )
        let field = try Self.node("field", in: screen)
        let inner = try Self.node("inner", in: screen)
        // inner: (0 + 10, 0 + 100 - 300 + 400) = (10, 200); field: (10 - 5 + 0, 200 - 50 + 100).
        #expect(screen.frameInScreen(of: inner) == Self.r(10, 200, 355, 300))
        #expect(screen.frameInScreen(of: field) == Self.r(5, 250, 300, 44))
        #expect(field.enclosingScrollView === inner)
        #expect(inner.enclosingScrollView?.id == "outer")
    }

    @Test("a shifted root moves every frame, and unmoved gives the frames as laid out")
    func movedAndUnmovedRoot() throws {
        let screen = try CannedScenes.screen(with: CannedScenes.signUp)
        let email = try Self.node("email", in: screen)
        let root = try #require(screen.root)

        screen.shiftRoot(toOriginY: -200)
        #expect(screen.rootOriginY == -200)
        #expect(root.frame.origin.y == -200)
        #expect(screen.restingRootOriginY == 0)
        #expect(screen.frameInScreen(of: email) == Self.r(20, 280, 335, 44))
        #expect(screen.frameInScreen(of: email, unmoved: true) == Self.r(20, 480, 335, 44))
        #expect(screen.frameInScreen(of: root) == Self.r(0, -200, 375, 812))
        #expect(screen.frameInScreen(of: root, unmoved: true) == Self.r(0, 0, 375, 812))

        screen.shiftRoot(toOriginY: screen.restingRootOriginY)
        #expect(screen.frameInScreen(of: email) == screen.frameInScreen(of: email, unmoved: true))
    }

    @Test("setFrame on the root is a new layout: it undoes a shift and becomes the resting origin")
    func setFrameOnRoot() throws {
        let screen = try CannedScenes.screen(with: CannedScenes.signUp)
        let email = try Self.node("email", in: screen)
        screen.shiftRoot(toOriginY: -200)

        try screen.setFrame("root", to: Self.r(0, 44, 375, 768))
        #expect(screen.rootOriginY == 44)
        #expect(screen.restingRootOriginY == 44)
        #expect(screen.frameInScreen(of: email) == Self.r(20, 524, 335, 44))

        screen.shiftRoot(toOriginY: -100)
        #expect(screen.frameInScreen(of: email, unmoved: true) == Self.r(20, 524, 335, 44))
        #expect(screen.frameInScreen(of: email) == Self.r(20, 380, 335, 44))
    }

    @Test("setFrame on a subview changes its frame and leaves the root's origins alone")
    func setFrameOnSubview() throws {
        let screen = try CannedScenes.screen(with: CannedScenes.scrollingForm)
        screen.shiftRoot(toOriginY: -50)
        try screen.setFrame("city", to: Self.r(20, 300, 335, 44))
        #expect(screen.view("city")?.frame == Self.r(20, 300, 335, 44))
        #expect(screen.rootOriginY == -50)
        #expect(screen.restingRootOriginY == 0)
        #expect(screen.frameInScreen(of: try Self.node("city", in: screen)) == Self.r(20, 338, 335, 44))
    }

    @Test("converting screen coordinates to a view's and back gives the rectangle back", arguments: CannedScenes.names)
    func convertRoundTrips(name: String) throws {
        let screen = try CannedScenes.screen(with: CannedScenes.named(name))
        screen.shiftRoot(toOriginY: -120)
        if let scroll = screen.view("scroll") { scroll.setContentOffset(Point(x: 3, y: 410)) }
        let keyboard = Self.r(0, 521, 375, 291)
        let views: [ViewNode?] = [nil] + screen.allViews
        for from in views {
            for to in views {
                let there = screen.convert(keyboard, from: from, to: to)
                #expect(
                    screen.convert(there, from: to, to: from) == keyboard,
                    "\(from?.id ?? "screen") ↔ \(to?.id ?? "screen")"
                )
            }
        }
        for view in screen.allViews {
            #expect(screen.convert(view.frame, from: view.parent, to: nil) == screen.frameInScreen(of: view))
            #expect(screen.convert(screen.frameInScreen(of: view), from: nil, to: view.parent) == view.frame)
        }
    }

    @Test("the keyboard converted into a scrolled scroll view lands in its content coordinates")
    func convertKeyboardIntoScrollView() throws {
        let screen = try CannedScenes.screen(with: CannedScenes.scrollingForm)
        let scroll = try Self.node("scroll", in: screen)
        try screen.applyScroll(ScrollChange(view: "scroll", contentOffsetY: 500, bottomInset: 0))
        let keyboard = Self.r(0, 521, 375, 291)
        // 521 on screen is 521 - 88 = 433 below the scroll view's top, and the content is scrolled
        // by 500: 933 in content coordinates, reaching down to 1224, over `city` (1100 to 1144).
        #expect(screen.convert(keyboard, from: nil, to: scroll) == Self.r(0, 933, 375, 291))
        let city = try Self.node("city", in: screen)
        #expect(screen.convert(keyboard, from: nil, to: scroll).intersects(city.frame))
        #expect(screen.convert(keyboard, from: nil, to: nil) == keyboard)
        #expect(screen.convert(Rect.null, from: nil, to: scroll).isNull)
    }

    // MARK: - Errors from changes

    @Test("setFrame on an unknown id throws unknownView naming the id, and changes nothing")
    func setFrameUnknown() throws {
        let screen = try CannedScenes.screen(with: CannedScenes.signUp)
        let before = screen.root?.spec
        let error = try #require(throws: ScreenError.self) {
            try screen.setFrame("emial", to: Self.r(0, 0, 1, 1))
        }
        #expect(error.code == .unknownView)
        #expect(error.view == "emial")
        #expect(error.message.contains("\"emial\""))
        #expect(screen.root?.spec == before)
        #expect(throws: ScreenError.unknownView("anything")) { try Screen().setFrame("root", to: .zero) }
    }

    /// (view named by a scroll record, the error it gives).
    static let badScrolls: [(ViewID, ScreenError.Code)] = [
        ("nowhere", .unknownView),
        ("name", .notAScrollView),
        ("root", .notAScrollView),
        ("comments", .notAScrollView),
    ]

    @Test(
        "applyScroll to a missing view or one that is not a scroll view throws, and scrolls nothing",
        arguments: badScrolls
    )
    func applyScrollErrors(view: ViewID, code: ScreenError.Code) throws {
        let screen = try CannedScenes.screen(with: CannedScenes.scrollingForm)
        let error = try #require(throws: ScreenError.self) {
            try screen.applyScroll(ScrollChange(view: view, contentOffsetY: 300, bottomInset: 291))
        }
        #expect(error.code == code)
        #expect(error.view == view)
        #expect(error.message.contains("\"\(view)\""))
        #expect(screen.allViews.allSatisfy { $0.contentOffset == .zero && $0.contentInset == .zero })
    }

    // MARK: - First responder

    @Test("setting the first responder moves the flag from field to field, and nil clears it")
    func firstResponderSetAndClear() throws {
        let screen = try CannedScenes.screen(with: CannedScenes.signUp)
        let email = try Self.node("email", in: screen)
        let notes = try Self.node("notes", in: screen)

        try screen.setFirstResponder("email")
        #expect(screen.firstResponder === email)
        #expect(email.isFirstResponder)

        try screen.setFirstResponder("notes")
        #expect(screen.firstResponder === notes)
        #expect(notes.isFirstResponder)
        #expect(!email.isFirstResponder)

        try screen.setFirstResponder("notes")
        #expect(screen.firstResponder === notes, "setting the same field again keeps it")

        try screen.setFirstResponder(nil)
        #expect(screen.firstResponder == nil)
        #expect(!notes.isFirstResponder)
        #expect(screen.allViews.allSatisfy { !$0.isFirstResponder })

        try screen.setFirstResponder(nil)
        #expect(screen.firstResponder == nil, "clearing twice is fine")
    }

    /// (id, the error making it first responder gives).
    static let badResponders: [(ViewID, ScreenError.Code)] = [
        ("nope", .unknownView),
        ("title", .notATextInput),
        ("root", .notATextInput),
    ]

    @Test(
        "making an unknown view or a non-text input first responder throws and keeps the current one",
        arguments: badResponders
    )
    func firstResponderErrors(id: ViewID, code: ScreenError.Code) throws {
        let screen = try CannedScenes.screen(with: CannedScenes.signUp)
        try screen.setFirstResponder("confirm")
        let error = try #require(throws: ScreenError.self) { try screen.setFirstResponder(id) }
        #expect(error.code == code)
        #expect(error.message.contains("\"\(id)\""))
        #expect(screen.firstResponder?.id == "confirm")
        #expect(screen.allViews.filter(\.isFirstResponder).map(\.id) == ["confirm"])
    }

    @Test("a scroll view cannot become first responder")
    func scrollViewIsNotATextInput() throws {
        let screen = try CannedScenes.screen(with: CannedScenes.scrollingForm)
        #expect(throws: ScreenError.notATextInput("scroll", kind: .scrollView)) {
            try screen.setFirstResponder("scroll")
        }
    }

    @Test("hidden and disabled text inputs can still become first responder, as the log reports it")
    func hiddenAndDisabledResponders() throws {
        let screen = try CannedScenes.screen(with: CannedScenes.hiddenAndDisabled)
        for id: ViewID in ["hiddenField", "disabledField", "inHiddenGroup"] {
            try screen.setFirstResponder(id)
            #expect(screen.firstResponder?.id == id)
        }
    }

    @Test(
        "the stored first responder and the recursive search agree on every canned scene",
        arguments: CannedScenes.names
    )
    func storedAndRecursiveAgree(name: String) throws {
        let screen = try CannedScenes.screen(with: CannedScenes.named(name))
        let inputs = screen.textInputs
        #expect(!inputs.isEmpty)
        #expect(screen.findFirstResponderRecursively() == nil)
        for input in inputs + inputs.reversed() {
            try screen.setFirstResponder(input.id)
            #expect(screen.firstResponder === input)
            #expect(screen.findFirstResponderRecursively() === input, "\(name): \(input.id)")
            #expect(screen.allViews.filter(\.isFirstResponder).count == 1)
        }
        try screen.setFirstResponder(nil)
        #expect(screen.firstResponder == nil)
        #expect(screen.findFirstResponderRecursively() == nil)
        #expect(screen.allViews.allSatisfy { !$0.isFirstResponder })
    }

    // MARK: - Changing the tree

    @Test("removing the subtree that holds the first responder clears it; removing another keeps it")
    func removeSubtree() throws {
        let screen = try CannedScenes.screen(with: CannedScenes.scrollingForm)
        try screen.setFirstResponder("city")
        let city = try Self.node("city", in: screen)
        let scroll = try Self.node("scroll", in: screen)

        try screen.removeView("header")
        #expect(screen.firstResponder === city)
        #expect(screen.view("header") == nil)

        try screen.removeView("scroll")
        #expect(screen.firstResponder == nil)
        #expect(screen.findFirstResponderRecursively() == nil)
        #expect(!city.isFirstResponder)
        #expect(city.parent === scroll, "the removed subtree stays whole")
        #expect(scroll.parent == nil)
        #expect(screen.view("city") == nil && screen.view("scroll") == nil)
        #expect(screen.textInputs.isEmpty)
        #expect(screen.allViews.map(\.id) == ["root"])
        #expect(throws: ScreenError.unknownView("scroll")) { try screen.removeView("scroll") }
    }

    @Test("removing the root empties the screen")
    func removeRoot() throws {
        let screen = try CannedScenes.screen(with: CannedScenes.signUp)
        try screen.setFirstResponder("email")
        screen.shiftRoot(toOriginY: -100)
        try screen.removeView("root")
        #expect(screen.root == nil)
        #expect(screen.allViews.isEmpty)
        #expect(screen.firstResponder == nil)
        #expect(screen.view("email") == nil)
        #expect(screen.rootOriginY == 0 && screen.restingRootOriginY == 0)
    }

    @Test("adding a subtree indexes its views and sets its parent; a clashing id or unknown parent changes nothing")
    func addSubtree() throws {
        let screen = try CannedScenes.screen(with: CannedScenes.signUp)
        let added = try screen.addSubview(
            ViewSpec(
                id: "footer",
                frame: Self.r(0, 780, 375, 32),
                children: [ViewSpec(id: "promo", kind: .textField, frame: Self.r(10, 0, 200, 30))]
            ),
            to: "root",
            at: 1
        )
        #expect(added.parent === screen.root)
        #expect(screen.root?.children.map(\.id) == ["title", "footer", "email", "password", "confirm", "notes"])
        #expect(screen.view("promo")?.parent === added)
        #expect(screen.frameInScreen(of: try Self.node("promo", in: screen)) == Self.r(10, 780, 200, 30))
        #expect(screen.textInputs.map(\.id) == ["promo", "email", "password", "confirm", "notes"])

        let before = screen.allViews.map(\.id)
        #expect(throws: ScreenError.duplicateViewID("email")) {
            try screen.addSubview(
                ViewSpec(id: "new", frame: .zero, children: [ViewSpec(id: "email", frame: .zero)]),
                to: "root"
            )
        }
        #expect(throws: ScreenError.duplicateViewID("twin")) {
            try screen.addSubview(
                ViewSpec(id: "twin", frame: .zero, children: [ViewSpec(id: "twin", frame: .zero)]),
                to: "root"
            )
        }
        #expect(throws: ScreenError.unknownView("nowhere")) {
            try screen.addSubview(ViewSpec(id: "new", frame: .zero), to: "nowhere")
        }
        #expect(screen.allViews.map(\.id) == before)
        #expect(screen.view("new") == nil && screen.view("twin") == nil)
        #expect(screen.view("email")?.parent === screen.root)
    }

    // MARK: - Visibility and ancestry

    /// (view in the hidden-and-disabled scene, visible?, enabled?).
    static let visibility: [(ViewID, Bool, Bool)] = [
        ("visible", true, true),
        ("hiddenField", false, true),
        ("disabledField", true, false),
        ("hiddenGroup", false, true),
        ("inHiddenGroup", false, true),
        ("message", true, true),
    ]

    @Test("a view inside a hidden ancestor is not visible, even when not hidden itself", arguments: visibility)
    func hiddenAncestor(id: ViewID, visible: Bool, enabled: Bool) throws {
        let screen = try CannedScenes.screen(with: CannedScenes.hiddenAndDisabled)
        let view = try Self.node(id, in: screen)
        #expect(view.isVisible == visible)
        #expect(view.isEnabled == enabled)
    }

    @Test("showing a hidden group makes its fields visible again")
    func unhideGroup() throws {
        let screen = try CannedScenes.screen(with: CannedScenes.hiddenAndDisabled)
        let field = try Self.node("inHiddenGroup", in: screen)
        #expect(!field.isHidden && !field.isVisible)
        try Self.node("hiddenGroup", in: screen).setHidden(false)
        #expect(field.isVisible)
        screen.root?.setHidden(true)
        #expect(!field.isVisible && !(screen.view("visible")?.isVisible ?? true))
    }

    @Test("ancestors are nearest first, and the enclosing scroll view is the nearest scroll view above")
    func ancestry() throws {
        let deep = try CannedScenes.screen(with: CannedScenes.deepNesting)
        let bio = try Self.node("bio", in: deep)
        #expect(bio.ancestors.map(\.id) == ["row2", "stack", "card", "container", "root"])
        #expect(bio.enclosingScrollView == nil)
        #expect(bio.isDescendant(of: try Self.node("card", in: deep)))
        #expect(bio.isDescendant(of: bio))
        #expect(!bio.isDescendant(of: try Self.node("row1", in: deep)))
        #expect(deep.root?.ancestors.isEmpty == true)

        let form = try CannedScenes.screen(with: CannedScenes.scrollingForm)
        #expect(try Self.node("comments", in: form).enclosingScrollView?.id == "scroll")
        #expect(try Self.node("scroll", in: form).enclosingScrollView == nil, "a scroll view does not enclose itself")
        #expect(try Self.node("header", in: form).enclosingScrollView == nil)
    }

    // MARK: - Screen changes

    @Test("a screen change sets the size, and the safe area only when it gives one")
    func screenChange() {
        let screen = Screen(size: CannedScenes.screenSize, safeArea: CannedScenes.safeArea)
        let landscape = EdgeInsets(top: 0, left: 44, bottom: 21, right: 44)
        screen.apply(ScreenChange(width: 812, height: 375, safeArea: landscape))
        #expect(screen.size == Size(width: 812, height: 375))
        #expect(screen.bounds == Self.r(0, 0, 812, 375))
        #expect(screen.safeArea == landscape)

        screen.apply(ScreenChange(width: 375, height: 812))
        #expect(screen.size == CannedScenes.screenSize)
        #expect(screen.safeArea == landscape)
    }

    @Test("a new screen is an empty iPhone X-sized screen")
    func emptyScreen() {
        let screen = Screen()
        #expect(screen.size == Size(width: 375, height: 812))
        #expect(screen.safeArea == .zero)
        #expect(screen.root == nil && screen.allViews.isEmpty && screen.textInputs.isEmpty)
        #expect(screen.rootOriginY == 0)
        #expect(screen.findFirstResponderRecursively() == nil)
        screen.shiftRoot(toOriginY: -100)
        #expect(screen.rootOriginY == 0)
    }

    // MARK: - Errors

    @Test("screen errors are equal when their codes are, and describe themselves with code, view and advice")
    func errorShape() {
        #expect(ScreenError.unknownView("a") == ScreenError.unknownView("b"))
        #expect(ScreenError.unknownView("a") != ScreenError.duplicateViewID("a"))
        #expect(Set([ScreenError.unknownView("a"), .unknownView("b"), .notAScrollView("c", kind: .view)]).count == 2)
        let error = ScreenError.notATextInput("title", kind: .view)
        #expect(error.code == .notATextInput)
        #expect(error.code.description == "notATextInput")
        #expect(error.description.hasPrefix("ScreenError.notATextInput: "))
        #expect(error.description.contains("\"title\""))
        #expect(error.message.contains("textField or textView"))
    }
}

@Suite("Screen.revision: moves with every change of the screen, and only then")
struct ScreenRevisionTests {
    /// The model stage's form: a text field `email` and a scroll view `list` among others.
    static let form = ScreenModelStageTests.form

    @Test("every kind of change moves it; a change to the same value of the first responder does not")
    func changes() throws {
        let bus = Bus(loop: VirtualTimeLoop())
        let screen = bus.screen
        var last = screen.revision
        func expectMoved(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(screen.revision != last, "\(what) did not move the revision", sourceLocation: sourceLocation)
            last = screen.revision
        }
        func expectStill(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(screen.revision == last, "\(what) moved the revision", sourceLocation: sourceLocation)
        }
        bus.post(.scene, Self.form)
        expectMoved("a scene")
        bus.post(.didBeginEditing, EditingInfo(view: "email"))
        expectMoved("a first responder")
        bus.post(.didBeginEditing, EditingInfo(view: "email"))
        expectStill("the same first responder again")
        bus.post(.keyboardWillShow, KeyboardInfo(end: Rect(x: 0, y: 521, width: 375, height: 291)))
        expectStill("a keyboard event (the keyboard is read apart)")
        bus.post(.returnKey, ReturnKeyInfo(view: "email"))
        expectStill("Return, which changes nothing by itself")
        bus.post(.setFrame, FrameChange(view: "email", frame: Rect(x: 20, y: 500, width: 335, height: 44)))
        expectMoved("a frame")
        bus.post(.viewShift, ViewShift(originY: -40), origin: .derived(by: "test"))
        expectMoved("a shift of the root")
        bus.post(.scroll, ScrollChange(view: "list", contentOffsetY: 30, bottomInset: 10), origin: .derived(by: "test"))
        expectMoved("a scroll")
        bus.post(.screen, ScreenChange(width: 812, height: 375))
        expectMoved("a new screen size")
        bus.post(.didEndEditing, EditingInfo(view: "list"))
        expectStill("the end of editing of a view that is not first responder")
        bus.post(.didEndEditing, EditingInfo(view: "email"))
        expectMoved("the end of editing of the first responder")
        bus.post(.resign, ResignInfo(view: "email"), origin: .derived(by: "test"))
        expectStill("resigning when nothing is first responder")
        bus.post(.scene, Self.form)
        expectMoved("the same scene again")
    }

    @Test("every screen has an identity of its own")
    func identities() {
        let screens = (0..<100).map { _ in Screen() }
        #expect(Set(screens.map(\.identity)).count == 100)
    }
}
