import EventLog
import FieldAdvancing
import KeyboardAvoidance
import ResponderBus
import Testing
import TextViewOrdering

/// Issue 51, item 1: why a focused field stays under the keyboard — the rule's cap and clamp, a
/// view taken out of avoidance, a keyboard not docked — said with the numbers, and quoted by the
/// covered-field check.
@Suite("Why a field stays covered: avoidance explains its limits")
struct AvoidanceExplanationTests {
    /// A bus with the built-ins, the diagnostics they post, and a covered-field check.
    final class Rig {
        let loop = VirtualTimeLoop()
        let bus: Bus
        let check: CoverageCheck
        var diagnostics: [Diagnostic] = []
        var token: ObservationToken?

        init(size: Size, safeArea: EdgeInsets = EdgeInsets(), root: [ViewSpec]) throws {
            bus = Bus(loop: loop)
            for plugin: any ResponderPlugin in [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance()] { try bus.register(plugin) }
            check = CoverageCheck(bus: bus)
            token = bus.observe(.diagnostic) { [unowned self] event in diagnostics.append(event.payload) }
            bus.post(.screen, ScreenChange(size: size, safeArea: safeArea))
            bus.post(.scene, SceneInfo(root: ViewSpec(id: "root", kind: .view, frame: Rect(origin: .zero, size: size), children: root)))
        }

        func show(_ end: Rect, height screen: Double) {
            bus.post(
                .keyboardWillShow,
                KeyboardInfo(begin: Rect(x: end.minX, y: screen, width: end.width, height: 0), end: end, duration: 0.25, curve: 7, isLocal: true))
            loop.run()
        }

        /// The reasons posted (diagnostics with `metadata["why"]`).
        var reasons: [Diagnostic] { diagnostics.filter { $0.metadata["why"] != nil } }
    }

    @Test("the rule names the term that held the root: the cap, the top clamp, or none")
    func ruleLimits() {
        // A field 84 pt below a 320 pt screen's bottom, a 193 pt keyboard: the cap.
        #expect(
            AvoidanceRule.limit(fieldMinY: 360, fieldMaxY: 404, gap: 20, keyboardTop: 127, screenHeight: 320, safeTop: 0)
                == .coveredHeight(193))
        // A 400 pt text view under a safe area 20 pt from the top: the clamp.
        #expect(
            AvoidanceRule.limit(fieldMinY: 100, fieldMaxY: 500, gap: 20, keyboardTop: 407, screenHeight: 667, safeTop: 20)
                == .safeAreaTop(20))
        // A field the move clears with its whole gap: no limit; nor one the keyboard does not reach.
        #expect(AvoidanceRule.limit(fieldMinY: 300, fieldMaxY: 344, gap: 20, keyboardTop: 315, screenHeight: 568, safeTop: 20) == nil)
        #expect(AvoidanceRule.limit(fieldMinY: 100, fieldMaxY: 144, gap: 20, keyboardTop: 315, screenHeight: 568, safeTop: 20) == nil)
    }

    @Test("the issue's rotation: a password field below the keyboard's height on 320×568 turned to 568×320 says why it stays covered")
    func rotationSaysWhy() throws {
        let rig = try Rig(
            size: Size(width: 320, height: 568),
            root: [
                ViewSpec(id: "user", kind: .textField, frame: Rect(x: 20, y: 300, width: 280, height: 44)),
                ViewSpec(id: "password", kind: .textField, frame: Rect(x: 20, y: 360, width: 280, height: 44), isSecure: true),
            ])
        rig.bus.post(.didBeginEditing, EditingInfo(view: "password"))
        rig.show(Rect(x: 0, y: 315, width: 320, height: 253), height: 568)
        #expect(rig.reasons.isEmpty, "portrait: the field clears the keyboard with its gap")
        #expect(rig.check.violations.isEmpty)

        // The rotation as a hand-written log has it: the screen and the root, not the fields.
        rig.bus.post(.screen, ScreenChange(size: Size(width: 568, height: 320)))
        rig.bus.post(.setFrame, FrameChange(view: "root", frame: Rect(x: 0, y: 0, width: 568, height: 320)))
        rig.show(Rect(x: 0, y: 127, width: 568, height: 193), height: 320)
        rig.check.check()

        #expect(rig.bus.screen.rootOriginY == -193)
        let why = try #require(rig.reasons.last)
        #expect(why.level == .info)
        #expect(why.views == ["password"])
        #expect(why.metadata == ["why": "coveredHeight", "coveredBy": "44"])
        #expect(why.message.contains("'password' stays covered by 44 pt"))
        #expect(why.message.contains("at most the keyboard's covered height, 193 pt"))
        #expect(why.message.contains("needs 297 pt"))
        #expect(why.message.contains("84 pt below the screen's bottom edge"))
        let violation = try #require(rig.check.violations.last)
        #expect(violation.coveredHeight == 44)
        #expect(violation.reason == why.message)
        #expect(violation.description.hasSuffix("; why: " + why.message))
    }

    @Test("a field laid out at the landscape screen's bottom keeps only part of its gap, and says so without a violation")
    func capShortensTheGap() throws {
        let rig = try Rig(
            size: Size(width: 568, height: 320),
            root: [ViewSpec(id: "password", kind: .textField, frame: Rect(x: 20, y: 266, width: 280, height: 44))])
        rig.bus.post(.didBeginEditing, EditingInfo(view: "password"))
        rig.show(Rect(x: 0, y: 127, width: 568, height: 193), height: 320)
        rig.check.check()
        let why = try #require(rig.reasons.last)
        #expect(why.message.hasPrefix("'password' keeps 10 of its 20 pt gap above the keyboard"))
        #expect(why.metadata == ["why": "coveredHeight"])
        #expect(rig.check.violations.isEmpty)
        // Said once: the Did events after their Will decide nothing new.
        rig.bus.post(
            .keyboardDidShow, KeyboardInfo(begin: Rect(x: 0, y: 320, width: 568, height: 0), end: Rect(x: 0, y: 127, width: 568, height: 193)))
        rig.loop.run()
        #expect(rig.reasons.count == 1)
    }

    @Test("a tall text view keeps its top below the safe area and says so: the top clamp")
    func clampSaysWhy() throws {
        let rig = try Rig(
            size: Size(width: 375, height: 667), safeArea: EdgeInsets(top: 20, left: 0, bottom: 0, right: 0),
            root: [ViewSpec(id: "notes", kind: .textView, frame: Rect(x: 20, y: 100, width: 335, height: 400))])
        rig.bus.post(.didBeginEditing, EditingInfo(view: "notes"))
        rig.show(Rect(x: 0, y: 407, width: 375, height: 260), height: 667)
        rig.check.check()
        #expect(rig.bus.screen.rootOriginY == -80)
        let why = try #require(rig.reasons.last)
        #expect(why.metadata == ["why": "safeAreaTop", "coveredBy": "13"])
        #expect(why.message.contains("'notes' stays covered by 13 pt"))
        #expect(why.message.contains("safe area's top (y 20)"))
        #expect(why.message.contains("moves up 80 pt, not the 113 pt"))
        #expect(rig.check.violations.last?.reason == why.message)
    }

    @Test("a field in a view taken out of avoidance names that view")
    func optedOutSaysWhich() throws {
        let rig = try Rig(
            size: Size(width: 375, height: 667),
            root: [
                ViewSpec(
                    id: "form", kind: .view, frame: Rect(x: 0, y: 400, width: 375, height: 267),
                    children: [ViewSpec(id: "comment", kind: .textField, frame: Rect(x: 20, y: 200, width: 335, height: 44))])
            ])
        rig.bus.post(.viewSettings, ViewSettings(view: "form", avoidsKeyboard: false), origin: .derived(by: "App"))
        rig.bus.post(.didBeginEditing, EditingInfo(view: "comment"))
        rig.show(Rect(x: 0, y: 407, width: 375, height: 260), height: 667)
        rig.check.check()
        #expect(rig.bus.screen.rootOriginY == 0)
        let why = try #require(rig.reasons.last)
        #expect(why.metadata == ["why": "notAvoided", "coveredBy": "44"])
        #expect(why.message.contains("avoidsKeyboard is off on 'form'"))
        #expect(rig.check.violations.last?.reason == why.message)
    }

    @Test("a floating iPad keyboard over the field: not docked, so nothing moves, and it says so")
    func floatingSaysWhy() throws {
        let rig = try Rig(
            size: Size(width: 768, height: 1024),
            root: [ViewSpec(id: "search", kind: .textField, frame: Rect(x: 100, y: 640, width: 400, height: 44))])
        rig.bus.post(.didBeginEditing, EditingInfo(view: "search"))
        rig.show(Rect(x: 200, y: 500, width: 320, height: 250), height: 1024)
        #expect(rig.bus.screen.rootOriginY == 0)
        let why = try #require(rig.reasons.last)
        #expect(why.metadata == ["why": "notDocked"])
        #expect(why.message.contains("not docked"))
        #expect(why.message.contains("ends at y 750"))
    }

    @Test("a session whose fields all clear the keyboard says nothing more")
    func quietWhenNothingLimits() throws {
        let rig = try Rig(
            size: Size(width: 375, height: 812),
            root: [
                ViewSpec(id: "name", kind: .textField, frame: Rect(x: 20, y: 480, width: 335, height: 44)),
                ViewSpec(id: "email", kind: .textField, frame: Rect(x: 20, y: 700, width: 335, height: 44)),
            ])
        rig.bus.post(.didBeginEditing, EditingInfo(view: "name"))
        rig.show(Rect(x: 0, y: 521, width: 375, height: 291), height: 812)
        rig.bus.post(.focusChange, FocusChange(from: "name", to: "email"), origin: .derived(by: "App"))
        rig.loop.run()
        #expect(rig.diagnostics.isEmpty)
    }
}
