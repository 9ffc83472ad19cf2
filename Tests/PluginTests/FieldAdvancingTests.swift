import FieldAdvancing
import ResponderBus
import Testing

@Suite("FieldAdvancing: tag and position order, last field, text views")
struct FieldAdvancingTests {
    /// Fields with gaps in their tags, a hidden container, a disabled field, an untagged field and a
    /// text view: a (tag 10), b (tag 3, disabled), c (tag 7), d (tag 20, in a hidden container),
    /// e (text view, tag 15), f (untagged), g (tag 30).
    static let messyForm = SceneInfo(
        root: ViewSpec(id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812), children: [
            ViewSpec(id: "a", kind: .textField, frame: Rect(x: 20, y: 100, width: 160, height: 44), tag: 10),
            ViewSpec(id: "b", kind: .textField, frame: Rect(x: 200, y: 100, width: 160, height: 44), tag: 3, isEnabled: false),
            ViewSpec(id: "c", kind: .textField, frame: Rect(x: 200, y: 160, width: 160, height: 44), tag: 7),
            ViewSpec(id: "box", frame: Rect(x: 0, y: 220, width: 375, height: 100), isHidden: true, children: [
                ViewSpec(id: "d", kind: .textField, frame: Rect(x: 20, y: 10, width: 335, height: 44), tag: 20),
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

    @Test("Return decisions", arguments: [
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
