import KeyboardAvoidance
import ResponderBus
import Testing

@Suite("KeyboardAvoidance: matrices over devices and keyboards")
struct KeyboardAvoidanceTests {
    /// The expected origin for the sign-up form's email field under a docked keyboard of `height`.
    static func expectedShift(_ device: Device, keyboardHeight: Double, fieldMinY: Double? = nil, fieldHeight: Double = 44) -> Double {
        let minY = fieldMinY ?? (device.screen.height - 260)
        let top = device.screen.height - keyboardHeight
        return min(max(top - (minY + fieldHeight + 20), -(device.screen.height - top), device.safeArea.top - minY), 0)
    }

    @Test("a system keyboard over a text field: one move, Did events and duplicates add nothing, hide restores", arguments: Device.all)
    func systemKeyboard(_ device: Device) {
        let harness = Harness(device: device)
        let shown = KeyboardInfo.show(device, to: device.dockedKeyboard)
        harness.turn(at: 0) { $0.post(.scene, device.signUpForm) }
        harness.turn(at: 1) { bus in
            bus.post(.didBeginEditing, EditingInfo(view: "email"))
            bus.post(.keyboardWillChangeFrame, shown)
            bus.post(.keyboardWillShow, shown)
        }
        harness.turn(at: 1.25) { bus in
            bus.post(.keyboardDidChangeFrame, shown)
            bus.post(.keyboardDidShow, shown)
        }
        harness.turn(at: 2) { $0.post(.keyboardWillShow, shown) }  // a duplicate
        let expected = Self.expectedShift(device, keyboardHeight: device.keyboardHeight)
        #expect(expected < 0)
        #expect(harness.shifts == [expected])
        #expect(harness.bus.screen.rootOriginY == expected)

        harness.turn(at: 3) { bus in
            bus.post(.keyboardWillChangeFrame, .hide(device, from: device.dockedKeyboard))
            bus.post(.keyboardWillHide, .hide(device, from: device.dockedKeyboard))
        }
        harness.turn(at: 3.25) { $0.post(.keyboardDidHide, .hide(device, from: device.dockedKeyboard)) }
        #expect(harness.shifts == [expected, 0])
    }

    enum Keyboard: String, CaseIterable, CustomTestStringConvertible {
        case hardwareStrip, floating, otherApp, zeroHeight, infiniteFrame
        var testDescription: String { rawValue }
    }

    @Test("keyboards that cover little or nothing", arguments: Device.all, Keyboard.allCases)
    func partialKeyboards(_ device: Device, _ keyboard: Keyboard) {
        let harness = Harness(device: device)
        harness.turn(at: 0) { $0.post(.scene, device.signUpForm) }
        let info: KeyboardInfo =
            switch keyboard {
            case .hardwareStrip: .show(device, to: device.hardwareKeyboard)
            case .floating: .show(device, to: device.floatingKeyboard)
            case .otherApp: .show(device, to: device.dockedKeyboard, isLocal: false)
            case .zeroHeight: .show(device, to: Rect(x: 0, y: device.screen.height, width: device.screen.width, height: 0))
            case .infiniteFrame: .show(device, to: .infinite)
            }
        harness.turn(at: 1) { bus in
            bus.post(.didBeginEditing, EditingInfo(view: "email"))
            bus.post(.keyboardWillChangeFrame, info)
            bus.post(.keyboardWillShow, info)
        }
        if keyboard == .hardwareStrip {
            // Only the 44-point strip covers: the email field sits 260 points above the bottom, clear of it.
            #expect(harness.shifts == [])
            // The last field does need to clear the strip: bio ends 40 above the bottom.
            harness.turn(at: 2) { $0.post(.focusChange, FocusChange(from: "email", to: "bio")) }
            let bioMaxY = device.screen.height - 40
            let stripTop = device.screen.height - 44
            #expect(harness.shifts == [max(stripTop - (bioMaxY + 20), -44)])
        } else {
            #expect(harness.shifts == [])
        }
    }

    @Test("another app's keyboard is avoided when configured")
    func honorsOtherApps() {
        let device = Device.iPhoneX
        let harness = Harness(device: device, avoidance: KeyboardAvoidance(honorsOtherAppsKeyboards: true))
        harness.turn(at: 0) { $0.post(.scene, device.signUpForm) }
        harness.turn(at: 1) { bus in
            bus.post(.didBeginEditing, EditingInfo(view: "email"))
            bus.post(.keyboardWillShow, .show(device, to: device.dockedKeyboard, isLocal: false))
        }
        #expect(harness.shifts == [Self.expectedShift(device, keyboardHeight: device.keyboardHeight)])
    }

    @Test(
        "animation: the keyboard's duration and raw curve; a missing or zero duration becomes 0.25 s",
        arguments: [(0.4 as Double?, 7 as Int?, 0.4, 7), (0, 0, 0.25, 0), (nil, nil, 0.25, 7)])
    func animation(_ duration: Double?, _ curve: Int?, _ expectedDuration: Double, _ expectedCurve: Int) {
        let device = Device.iPhoneX
        let harness = Harness(device: device)
        harness.turn(at: 0) { $0.post(.scene, device.signUpForm) }
        harness.turn(at: 1) { bus in
            bus.post(.didBeginEditing, EditingInfo(view: "email"))
            bus.post(.keyboardWillShow, .show(device, to: device.dockedKeyboard, duration: duration, curve: curve))
        }
        #expect(harness.viewShifts.map(\.duration) == [expectedDuration])
        #expect(harness.viewShifts.map(\.curve) == [expectedCurve])
    }

    @Test("a per-field keyboardDistance replaces the 20-point gap")
    func perFieldGap() {
        let device = Device.iPhoneX
        var form = device.signUpForm
        form.root.children[0].keyboardDistance = 60
        let harness = Harness(device: device)
        harness.turn(at: 0) { $0.post(.scene, form) }
        harness.turn(at: 1) { bus in
            bus.post(.didBeginEditing, EditingInfo(view: "email"))
            bus.post(.keyboardWillShow, .show(device, to: device.dockedKeyboard))
        }
        // email 552…596, keyboard top 521 → 521 − (596 + 60) = −135.
        #expect(harness.shifts == [-135])
    }

    @Test("a text view growing while the user types is avoided again")
    func growingTextView() {
        let device = Device.iPhoneX
        let harness = Harness(device: device)
        harness.turn(at: 0) { $0.post(.scene, device.signUpForm) }
        harness.turn(at: 1) { bus in
            bus.post(.keyboardWillShow, .show(device, to: device.dockedKeyboard))
            bus.post(.didBeginEditing, EditingInfo(view: "bio"))
        }
        // bio 672…772: 521 − 792 = −271.
        #expect(harness.shifts == [-271])
        harness.turn(at: 2) { $0.post(.setFrame, FrameChange(view: "bio", frame: Rect(x: 20, y: 672, width: 335, height: 130))) }
        // bio 672…802: 521 − 822 = −301, capped at −291.
        #expect(harness.shifts == [-271, -291])
    }

    @Test("rotation with the keyboard up is one move to the new target, never a restore first")
    func rotation() {
        let portrait = Device.iPhoneX
        func run(_ plugins: Harness.Plugins) -> [Double] {
            let harness = Harness(device: portrait, plugins: plugins)
            harness.turn(at: 0) { $0.post(.scene, portrait.signUpForm) }
            harness.turn(at: 1) { bus in
                bus.post(.didBeginEditing, EditingInfo(view: "email"))
                bus.post(.keyboardWillShow, .show(portrait, to: portrait.dockedKeyboard))
            }
            // Landscape 812×375 with a 209-point keyboard; iOS hides and shows again in the same turn.
            let landscapeKeyboard = Rect(x: 0, y: 375 - 209, width: 812, height: 209)
            harness.turn(at: 2) { bus in
                bus.post(.screen, ScreenChange(width: 812, height: 375, safeArea: EdgeInsets(left: 44, bottom: 21, right: 44)))
                bus.post(.setFrame, FrameChange(view: "email", frame: Rect(x: 64, y: 150, width: 684, height: 44)))
                bus.post(
                    .keyboardWillHide,
                    KeyboardInfo(begin: portrait.dockedKeyboard, end: Rect(x: 0, y: 812, width: 375, height: 291), duration: 0.25, curve: 7))
                bus.post(
                    .keyboardWillShow,
                    KeyboardInfo(begin: Rect(x: 0, y: 375, width: 812, height: 209), end: landscapeKeyboard, duration: 0.25, curve: 7))
            }
            return harness.shifts
        }
        // Portrait: email 552…596, keyboard top 521 → 521 − 616 = −95.
        // Landscape: email 150…194, keyboard top 166 → 166 − 214 = −48 (cap −209, safe 0 − 150).
        #expect(run(.all) == [-95, -48])
        // Without text-view ordering too: avoidance decides a turn with a screen change at its end.
        #expect(run([.advancing, .avoidance]) == [-95, -48])
    }

    @Test("the unmoved origin is never taken from a moved state (IQKeyboardManager 1421)")
    func neverCapturesMovedOrigin() {
        let device = Device.iPhoneX
        let harness = Harness(device: device)
        harness.turn(at: 0) { $0.post(.scene, device.signUpForm) }
        // willShow first (moves for nothing: no field), then the field; then more shows and focus changes.
        harness.turn(at: 1) { bus in
            bus.post(.keyboardWillShow, .show(device, to: device.dockedKeyboard))
        }
        harness.turn(at: 1.1) { $0.post(.didBeginEditing, EditingInfo(view: "email")) }
        harness.turn(at: 2) { $0.post(.keyboardWillShow, .show(device, to: device.docked(height: 335))) }
        harness.turn(at: 3) { $0.post(.focusChange, FocusChange(from: "email", to: "password")) }
        harness.turn(at: 4) { $0.post(.keyboardWillHide, .hide(device, from: device.docked(height: 335))) }
        // email 552…596: 521 − 616 = −95… with 335: 477 − 616 = −139; password 612…656: 477 − 676 = −199; hide: 0.
        #expect(harness.shifts == [-95, -139, -199, 0])
        #expect(harness.bus.screen.rootOriginY == 0)
    }

    @Test("a field inside a scroll view: the scroll view scrolls and insets, and is restored when the keyboard goes")
    func fieldInScrollView() {
        let device = Device.iPhoneX
        let scene = SceneInfo(
            root: ViewSpec(
                id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812),
                children: [
                    ViewSpec(
                        id: "list", kind: .scrollView, frame: Rect(x: 0, y: 88, width: 375, height: 724), contentSize: Size(width: 375, height: 1400),
                        children: [
                            ViewSpec(id: "field", kind: .textField, frame: Rect(x: 20, y: 600, width: 335, height: 44), tag: 1)
                        ])
                ]))
        let harness = Harness(device: device)
        harness.turn(at: 0) { $0.post(.scene, scene) }
        harness.turn(at: 1) { bus in
            bus.post(.didBeginEditing, EditingInfo(view: "field"))
            bus.post(.keyboardWillShow, .show(device, to: device.dockedKeyboard))
        }
        // field in screen 688…732; overlap of list (88…812) with keyboard (521…812) = 291;
        // need 732 + 20 − 521 = 231 → offset 231; root stays.
        #expect(harness.decisions == ["scroll:list:231.0:291.0"])
        #expect(harness.shifts == [])
        harness.turn(at: 2) { $0.post(.keyboardWillHide, .hide(device, from: device.dockedKeyboard)) }
        #expect(harness.scrolls.last == ScrollChange(view: "list", contentOffsetY: 0, bottomInset: 0))
        #expect(harness.bus.screen.view("list")?.contentOffset.y == 0)
    }

    @Test("a turn that changes nothing avoidance reads decides nothing, and the next change is decided in full")
    func unchangedTurnsAndTheChangeAfter() {
        let device = Device.iPhoneX
        let avoidance = KeyboardAvoidance()
        let harness = Harness(device: device, avoidance: avoidance)
        let shown = KeyboardInfo.show(device, to: device.dockedKeyboard)
        harness.turn(at: 0) { $0.post(.scene, device.signUpForm) }
        harness.turn(at: 1) { $0.post(.didBeginEditing, EditingInfo(view: "email")) }
        harness.turn(at: 1.01) { $0.post(.keyboardWillShow, shown) }
        let first = Self.expectedShift(device, keyboardHeight: device.keyboardHeight)
        #expect(harness.shifts == [first])
        // Turns that change neither the screen nor the covered part: nothing, whatever comes.
        harness.turn(at: 1.26) { $0.post(.keyboardDidShow, shown) }
        harness.turn(at: 1.5) { $0.post(.didBeginEditing, EditingInfo(view: "email")) }
        harness.turn(at: 2) { $0.post(.keyboardWillShow, KeyboardInfo.show(device, to: device.dockedKeyboard, duration: 0.4)) }
        #expect(harness.shifts == [first])
        // The screen moves under the field: decided again, against the new frame.
        let email = harness.bus.screen.view("email")!
        let lower = Rect(x: email.frame.minX, y: email.frame.minY + 30, width: email.frame.width, height: email.frame.height)
        harness.turn(at: 3) { $0.post(.setFrame, FrameChange(view: "email", frame: lower)) }
        let second = Self.expectedShift(device, keyboardHeight: device.keyboardHeight, fieldMinY: lower.minY)
        #expect(second != first)
        #expect(harness.shifts == [first, second])
        // A setting changes between turns: the next turn decides with it, though the screen has not moved.
        avoidance.defaultGap = 60
        harness.turn(at: 4) { $0.post(.keyboardDidShow, shown) }
        let third = min(
            max(device.screen.height - device.keyboardHeight - (lower.maxY + 60), -device.keyboardHeight, device.safeArea.top - lower.minY), 0)
        #expect(harness.shifts == [first, second, third])
        #expect(harness.bus.screen.rootOriginY == third)
    }

    @Test("one avoidance instance moved to a second bus decides there from the start")
    func movedToAnotherBus() throws {
        let device = Device.iPhoneX
        let avoidance = KeyboardAvoidance(timing: .everyEvent)
        let shown = KeyboardInfo.show(device, to: device.dockedKeyboard)
        var shifts: [Double] = []
        for _ in 0..<2 {
            // A bus of its own each time, whose screen has the same history as the last one had.
            let bus = Bus(loop: VirtualTimeLoop(), screen: Screen(size: device.screen, safeArea: device.safeArea))
            try bus.register(avoidance)
            let token = bus.observe(.viewShift) { shifts.append($0.payload.originY) }
            bus.post(.scene, device.signUpForm)
            bus.post(.didBeginEditing, EditingInfo(view: "email"))
            bus.post(.keyboardWillShow, shown)
            #expect(bus.unregister(named: avoidance.name))
            token.cancel()
        }
        let expected = Self.expectedShift(device, keyboardHeight: device.keyboardHeight)
        #expect(shifts == [expected, expected])
    }
}
