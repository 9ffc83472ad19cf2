import FieldAdvancing
import ResponderBus
import Testing

@Suite("FieldAdvancing: tag and position order, last field, text views")
struct FieldAdvancingTests {
    /// Fields with gaps in their tags, a hidden container, a disabled field, an untagged field and a
    /// text view: a (tag 10), b (tag 3, disabled), c (tag 7), d (tag 20, in a hidden container),
    /// e (text view, tag 15), f (untagged), g (tag 30).
    static let messyForm = SceneInfo(
        root: ViewSpec(
            id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812),
            children: [
                ViewSpec(id: "a", kind: .textField, frame: Rect(x: 20, y: 100, width: 160, height: 44), tag: 10),
                ViewSpec(id: "b", kind: .textField, frame: Rect(x: 200, y: 100, width: 160, height: 44), tag: 3, isEnabled: false),
                ViewSpec(id: "c", kind: .textField, frame: Rect(x: 200, y: 160, width: 160, height: 44), tag: 7),
                ViewSpec(
                    id: "box", frame: Rect(x: 0, y: 220, width: 375, height: 100), isHidden: true,
                    children: [
                        ViewSpec(id: "d", kind: .textField, frame: Rect(x: 20, y: 10, width: 335, height: 44), tag: 20)
                    ]),
                ViewSpec(id: "e", kind: .textView, frame: Rect(x: 20, y: 340, width: 335, height: 100), tag: 15),
                ViewSpec(id: "f", kind: .textField, frame: Rect(x: 20, y: 160, width: 160, height: 44)),
                ViewSpec(id: "g", kind: .textField, frame: Rect(x: 20, y: 460, width: 335, height: 44), tag: 30),
            ]), lastFieldAction: "submit")

    static func screen(_ scene: SceneInfo = messyForm) throws -> Screen {
        let screen = Screen()
        try screen.load(scene)
        return screen
    }

    @Test("tag order skips gaps, hidden ancestors, disabled and untagged fields")
    func tagOrder() throws {
        let screen = try Self.screen()
        let order = FieldNavigator(order: .tag).orderedFields(in: screen).map(\.id.rawValue)
        #expect(order == ["c", "a", "e", "g"])
    }

    @Test("position order: top to bottom, then left to right")
    func positionOrder() throws {
        let screen = try Self.screen()
        let order = FieldNavigator(order: .position).orderedFields(in: screen).map(\.id.rawValue)
        #expect(order == ["a", "f", "c", "e", "g"])
    }

    @Test(
        "Return decisions",
        arguments: [
            ("c", false, ReturnDecision.advance(from: "c", to: "a")),
            ("a", false, .advance(from: "a", to: "e")),
            ("e", false, .insertNewline),
            ("e", true, .advance(from: "e", to: "g")),
            ("g", false, .performAction("submit")),
            ("b", false, .advance(from: "b", to: "c")),  // disabled but focused: goes by its tag
            ("f", false, .performAction("submit")),  // untagged: no place in tag order
            ("nope", false, .unknownField("nope")),
        ])
    func decisions(_ view: String, _ textViewAdvances: Bool, _ expected: ReturnDecision) throws {
        let screen = try Self.screen()
        let decision = ReturnDecision.decide(
            returnIn: ViewID(view), on: screen, navigator: FieldNavigator(order: .tag), textViewReturnAdvances: textViewAdvances)
        #expect(decision == expected)
    }

    @Test("the last field resigns when the screen has no action")
    func lastFieldResigns() throws {
        var scene = Self.messyForm
        scene.lastFieldAction = nil
        let screen = try Self.screen(scene)
        #expect(ReturnDecision.decide(returnIn: "g", on: screen, navigator: FieldNavigator(), textViewReturnAdvances: false) == .resign("g"))
    }

    @Test("through the bus: Return walks the fields, the model follows at once, echoes change nothing")
    func onTheBus() {
        let harness = Harness(device: .iPhoneX, plugins: [.advancing])
        harness.turn(at: 0) { $0.post(.scene, Self.messyForm) }
        harness.turn(at: 1) { $0.post(.didBeginEditing, EditingInfo(view: "c")) }
        harness.turn(at: 2) { $0.post(.returnKey, ReturnKeyInfo(view: "c")) }
        #expect(harness.bus.screen.firstResponder?.id == "a")
        harness.turn(at: 2.01) { bus in
            bus.post(.didEndEditing, EditingInfo(view: "c"))
            bus.post(.didBeginEditing, EditingInfo(view: "a"))  // the recorded echo
        }
        #expect(harness.bus.screen.firstResponder?.id == "a")
        harness.turn(at: 3) { $0.post(.returnKey, ReturnKeyInfo(view: "a")) }
        harness.turn(at: 4) { $0.post(.returnKey, ReturnKeyInfo(view: "e")) }  // newline
        harness.turn(at: 5) { $0.post(.focusChange, FocusChange(from: "e", to: "g")) }
        harness.turn(at: 6) { $0.post(.returnKey, ReturnKeyInfo(view: "g")) }
        #expect(harness.decisions == ["focusChange:c>a", "focusChange:a>e", "action:submit"])
        #expect(harness.derived.allSatisfy { $0.origin == .derived(by: "FieldAdvancing") || $0.name == EventName.focusChange })
    }

    @Test("without an action, Return on the last field resigns and nothing is first responder")
    func resignOnTheBus() {
        var scene = Self.messyForm
        scene.lastFieldAction = nil
        let harness = Harness(device: .iPhoneX, plugins: [.advancing])
        harness.turn(at: 0) { $0.post(.scene, scene) }
        harness.turn(at: 1) { $0.post(.didBeginEditing, EditingInfo(view: "g")) }
        harness.turn(at: 2) { $0.post(.returnKey, ReturnKeyInfo(view: "g")) }
        #expect(harness.decisions == ["resign:g"])
        #expect(harness.bus.screen.firstResponder == nil)
    }

    @Test("Return in an unknown view is a warning, not a crash")
    func unknownView() {
        let harness = Harness(device: .iPhoneX, plugins: [.advancing])
        harness.turn(at: 0) { $0.post(.scene, Self.messyForm) }
        harness.turn(at: 1) { $0.post(.returnKey, ReturnKeyInfo(view: "ghost")) }
        #expect(harness.decisions == ["diagnostic:warning"])
        #expect(harness.diagnostics.first?.message.contains("ghost") == true)
    }

    @Test("a UI can ask for the Return key's role, and move next and previous on demand")
    func returnKeyRoleAndArrows() throws {
        let advancing = FieldAdvancing()
        let harness = Harness(device: .iPhoneX, plugins: [.advancing], advancing: advancing)
        harness.turn(at: 0) { $0.post(.scene, Self.messyForm) }
        let screen = harness.bus.screen
        #expect(advancing.returnKeyRole(on: screen) == nil)
        harness.turn(at: 1) { $0.post(.didBeginEditing, EditingInfo(view: "c")) }
        #expect(advancing.returnKeyRole(on: screen) == .next)
        #expect(advancing.hasPrevious(on: screen) == false)
        #expect(advancing.focusPrevious(on: harness.bus) == false)
        #expect(advancing.focusNext(on: harness.bus))
        #expect(screen.firstResponder?.id == "a")
        #expect(advancing.focusNext(on: harness.bus))
        #expect(advancing.returnKeyRole(on: screen) == .newline)
        #expect(advancing.focusNext(on: harness.bus))
        #expect(screen.firstResponder?.id == "g")
        #expect(advancing.returnKeyRole(on: screen) == .action("submit"))
        #expect(advancing.hasNext(on: screen) == false)
        #expect(advancing.focusPrevious(on: harness.bus))
        #expect(screen.firstResponder?.id == "e")
        #expect(harness.decisions == ["focusChange:c>a", "focusChange:a>e", "focusChange:e>g", "focusChange:g>e"])
    }
}

@Suite("FieldNavigator: neighbours agree with the ordered list")
struct FieldNavigatorNeighbourTests {
    /// A deterministic random scene: nested containers (some hidden), text fields and text views
    /// (some disabled, some untagged, tags repeating), plain views, frames on a coarse grid so that
    /// positions tie.
    static func randomScene(seed: UInt64) -> SceneInfo {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        var counter = 0
        func view(depth: Int) -> ViewSpec {
            counter += 1
            let id = ViewID("v\(counter)")
            let frame = Rect(x: Double(next(4) * 40), y: Double(next(8) * 50), width: 100, height: 44)
            if depth < 3 && next(4) == 0 {
                let children = (0..<next(5)).map { _ in view(depth: depth + 1) }
                return ViewSpec(id: id, kind: next(3) == 0 ? .scrollView : .view, frame: frame, isHidden: next(6) == 0, children: children)
            }
            let kinds: [ViewKind] = [.textField, .textField, .textView, .view]
            return ViewSpec(
                id: id, kind: kinds[next(kinds.count)], frame: frame, tag: next(4) == 0 ? nil : next(6),
                isHidden: next(8) == 0, isEnabled: next(6) != 0)
        }
        let children = (0..<(3 + next(10))).map { _ in view(depth: 1) }
        return SceneInfo(root: ViewSpec(id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812), children: children))
    }

    /// The ordered fields by their definition: visible, enabled text inputs in tree order, sorted
    /// stably by tag (untagged left out) or by position.
    static func referenceList(_ order: FieldOrder, _ screen: Screen) -> [ViewNode] {
        let candidates = Array(screen.textInputs.filter { $0.isVisible && $0.isEnabled }.enumerated())
        switch order {
        case .tag:
            return candidates.filter { $0.element.tag != nil }
                .sorted { ($0.element.tag!, $0.offset) < ($1.element.tag!, $1.offset) }.map(\.element)
        case .position:
            func key(_ item: (offset: Int, element: ViewNode)) -> (Double, Double, Int) {
                let frame = screen.frameInScreen(of: item.element, unmoved: true)
                return (frame.minY, frame.minX, item.offset)
            }
            return candidates.sorted { key($0) < key($1) }.map(\.element)
        }
    }

    /// The neighbour as the list defines it (the navigator's behaviour before its two-pass search).
    static func reference(_ navigator: FieldNavigator, _ field: ViewNode, _ screen: Screen, step: Int) -> ViewNode? {
        let fields = referenceList(navigator.order, screen)
        if let index = fields.firstIndex(where: { $0 === field }) {
            let target = index + step
            return fields.indices.contains(target) ? fields[target] : nil
        }
        guard navigator.order == .tag, let tag = field.tag else { return nil }
        return step > 0 ? fields.first { ($0.tag ?? .min) > tag } : fields.last { ($0.tag ?? .max) < tag }
    }

    @Test("field(after:) and field(before:) match the ordered list on random trees", arguments: [FieldOrder.tag, .position])
    func neighboursMatchList(order: FieldOrder) throws {
        let navigator = FieldNavigator(order: order)
        var compared = 0
        for seed in 1...200 as ClosedRange<UInt64> {
            let screen = Screen()
            try screen.load(Self.randomScene(seed: seed))
            #expect(navigator.orderedFields(in: screen).map(\.id) == Self.referenceList(order, screen).map(\.id), "seed \(seed)")
            for node in screen.allViews {
                #expect(
                    navigator.field(after: node, in: screen)?.id == Self.reference(navigator, node, screen, step: 1)?.id,
                    "seed \(seed), after \(node.id)")
                #expect(
                    navigator.field(before: node, in: screen)?.id == Self.reference(navigator, node, screen, step: -1)?.id,
                    "seed \(seed), before \(node.id)")
                compared += 1
            }
        }
        #expect(compared > 1_000)
    }
}
