import KeyboardAvoidance
import ResponderBus
import Testing
import TextViewOrdering

@Suite("TurnSettler: the text-view ordering state machine, without a bus")
struct TurnSettlerTests {
    @Test("without a window every event asks for a settle at the end of the turn, and a settle counts them")
    func endOfTurn() {
        var settler = TurnSettler()
        #expect(settler.note(isKeyboard: false) == .settleAtEndOfTurn)
        #expect(settler.note(isKeyboard: true) == .settleAtEndOfTurn)
        #expect(settler.settle() == 2)
        #expect(settler.pendingEvents == 0)
    }

    @Test("with a window, keyboard frames restart it and other events wait for it")
    func window() {
        var settler = TurnSettler(settleWindow: .milliseconds(50))
        #expect(settler.note(isKeyboard: false) == .restartWindow(.milliseconds(50)))
        #expect(settler.note(isKeyboard: true) == .restartWindow(.milliseconds(50)))
        #expect(settler.note(isKeyboard: true) == .restartWindow(.milliseconds(50)))
        #expect(settler.note(isKeyboard: false) == .waitForWindow)
        settler.windowElapsed()
        #expect(settler.settle() == 4)
        #expect(settler.note(isKeyboard: false) == .restartWindow(.milliseconds(50)))
    }

    @Test("held frames: started by a keyboard frame with no field, still held, used; or abandoned when the keyboard goes")
    func holds() {
        var settler = TurnSettler()
        /// A turn of `events` settles: the hold it leaves.
        func turn(_ events: [Bool], covers: Bool, field: Bool, at seconds: Int) -> TurnSettler.Hold {
            for isKeyboard in events { _ = settler.note(isKeyboard: isKeyboard) }
            _ = settler.settle()
            return settler.settled(keyboardCovers: covers, hasField: field, now: .seconds(seconds))
        }
        #expect(turn([false], covers: false, field: false, at: 0) == .none)
        #expect(turn([true, true], covers: true, field: false, at: 1) == .started)
        #expect(turn([false], covers: true, field: false, at: 2) == .stillHeld)
        #expect(turn([false], covers: true, field: true, at: 3) == .used)
        // The field resigns with the keyboard up (Return on the last field): no frame came for a
        // field, so nothing is held, and the keyboard's going says nothing.
        #expect(turn([false], covers: true, field: false, at: 4) == .none)
        #expect(turn([true], covers: false, field: false, at: 5) == .none)
        // A frame that arrives with no field is held, and abandoned when the keyboard goes.
        #expect(turn([true], covers: true, field: false, at: 6) == .started)
        #expect(turn([true], covers: false, field: false, at: 7) == .abandoned(since: .seconds(6)))
        #expect(settler.heldSince == nil)
    }
}

@Suite("TextViewOrdering: the same decisions whatever order UIKit delivers")
struct TextViewOrderingTests {
    enum FieldKind: String, CaseIterable, CustomTestStringConvertible {
        case textField, textView
        var testDescription: String { rawValue }
    }

    /// A form with one field of the given kind at the same place.
    static func form(_ device: Device, kind: FieldKind) -> SceneInfo {
        SceneInfo(
            root: ViewSpec(
                id: "root", frame: Rect(origin: .zero, size: device.screen),
                children: [
                    ViewSpec(
                        id: "field", kind: kind == .textField ? .textField : .textView,
                        frame: Rect(x: 20, y: device.screen.height - 200, width: device.screen.width - 40, height: 60), tag: 1)
                ]))
    }

    /// Posts a focus in UIKit's order for the kind: a text field's didBeginEditing before the
    /// keyboard events, a text view's after them, in the same turn.
    static func focus(_ bus: Bus, _ kind: FieldKind, _ view: ViewID, keyboard: KeyboardInfo) {
        if kind == .textField { bus.post(.didBeginEditing, EditingInfo(view: view)) }
        bus.post(.keyboardWillChangeFrame, keyboard)
        bus.post(.keyboardWillShow, keyboard)
        if kind == .textView { bus.post(.didBeginEditing, EditingInfo(view: view)) }
    }

    @Test("a session gives the same viewShifts with a text field and with a text view", arguments: Device.all)
    func sameShiftsForBothKinds(_ device: Device) {
        var results: [[Double]] = []
        for kind in FieldKind.allCases {
            let harness = Harness(device: device)
            harness.turn(at: 0) { $0.post(.scene, Self.form(device, kind: kind)) }
            harness.turn(at: 1) { Self.focus($0, kind, "field", keyboard: .show(device, to: device.dockedKeyboard)) }
            harness.turn(at: 2) { $0.post(.keyboardWillChangeFrame, .show(device, to: device.docked(height: device.keyboardHeight + 40))) }
            harness.turn(at: 3) { $0.post(.keyboardWillHide, .hide(device, from: device.docked(height: device.keyboardHeight + 40))) }
            results.append(harness.shifts)
        }
        let fieldMaxY = device.screen.height - 140
        let first = min(max(device.screen.height - device.keyboardHeight - (fieldMaxY + 20), -device.keyboardHeight), 0)
        let second = min(max(device.screen.height - device.keyboardHeight - 40 - (fieldMaxY + 20), -device.keyboardHeight - 40), 0)
        #expect(results[0] == [first, second, 0])
        #expect(results[1] == results[0])
    }

    @Test("without ordering, a text view is still avoided once it begins editing (naive avoidance decides per event)")
    func naiveTextView() {
        let device = Device.iPhoneX
        let harness = Harness(device: device, plugins: [.avoidance])
        harness.turn(at: 0) { $0.post(.scene, Self.form(device, kind: .textView)) }
        harness.turn(at: 1) { Self.focus($0, .textView, "field", keyboard: .show(device, to: device.dockedKeyboard)) }
        // field 612…672: 521 − 692 = −171.
        #expect(harness.shifts == [-171])
    }

    /// A text field high up and a text view low down.
    static func twoFields(_ device: Device) -> SceneInfo {
        SceneInfo(
            root: ViewSpec(
                id: "root", frame: Rect(origin: .zero, size: device.screen),
                children: [
                    ViewSpec(
                        id: "name", kind: .textField, frame: Rect(x: 20, y: device.screen.height - 330, width: device.screen.width - 40, height: 44),
                        tag: 1),
                    ViewSpec(
                        id: "notes", kind: .textView, frame: Rect(x: 20, y: device.screen.height - 170, width: device.screen.width - 40, height: 120),
                        tag: 2),
                ]))
    }

    @Test(
        "text field → text view with the keyboard up (and a taller keyboard): one move, straight to the text view's target",
        arguments: Device.all)
    func fieldToTextViewOneMove(_ device: Device) {
        let taller = device.docked(height: device.keyboardHeight + 30)
        func run(_ plugins: Harness.Plugins) -> [Double] {
            let harness = Harness(device: device, plugins: plugins)
            harness.turn(at: 0) { $0.post(.scene, Self.twoFields(device)) }
            harness.turn(at: 1) { Self.focus($0, .textField, "name", keyboard: .show(device, to: device.dockedKeyboard)) }
            harness.clear()
            harness.turn(at: 2) { bus in
                bus.post(.didEndEditing, EditingInfo(view: "name"))
                bus.post(.keyboardWillChangeFrame, KeyboardInfo(begin: device.dockedKeyboard, end: taller, duration: 0.25, curve: 7))
                bus.post(.keyboardWillShow, KeyboardInfo(begin: device.dockedKeyboard, end: taller, duration: 0.25, curve: 7))
                bus.post(.didBeginEditing, EditingInfo(view: "notes"))
            }
            return harness.shifts
        }
        let notesMaxY = device.screen.height - 50
        let top = taller.minY
        let target = min(max(top - (notesMaxY + 20), -(device.screen.height - top), device.safeArea.top - (device.screen.height - 170)), 0)
        #expect(run(.all) == [target])
        // Without the ordering plugin, naive avoidance first restores the text field's move (on its
        // didEndEditing), then moves for the text view: two moves wherever the text field had moved.
        let nameMaxY = device.screen.height - 286
        let nameMoved = device.screen.height - device.keyboardHeight < nameMaxY + 20
        let naive = run([.advancing, .avoidance])
        #expect(naive.last == target)
        #expect(naive.count == (nameMoved ? 2 : 1))
    }

    @Test("a keyboard frame held for a field that never comes moves nothing, and a diagnostic says so")
    func heldFrame() {
        let device = Device.iPhoneX
        let harness = Harness(device: device)
        harness.turn(at: 0) { $0.post(.scene, Self.form(device, kind: .textView)) }
        harness.turn(at: 1) { $0.post(.keyboardWillShow, .show(device, to: device.dockedKeyboard)) }
        #expect(harness.shifts == [])
        #expect(harness.diagnostics.isEmpty)
        harness.wait(1.5)
        #expect(harness.shifts == [])
        #expect(harness.diagnostics.count == 1)
        #expect(harness.diagnostics.first?.level == .warning)
        #expect(harness.diagnostics.first?.message.contains("held") == true)
        harness.turn(at: 3) { $0.post(.keyboardWillHide, .hide(device, from: device.dockedKeyboard)) }
        #expect(harness.diagnostics.count == 1, "said once")
    }

    @Test("a held frame is used when the field comes in a later turn")
    func heldFrameUsed() {
        let device = Device.iPhoneX
        let harness = Harness(device: device)
        harness.turn(at: 0) { $0.post(.scene, Self.form(device, kind: .textView)) }
        harness.turn(at: 1) { $0.post(.keyboardWillShow, .show(device, to: device.dockedKeyboard)) }
        harness.turn(at: 1.2) { $0.post(.didBeginEditing, EditingInfo(view: "field")) }
        harness.wait(2)
        #expect(harness.shifts == [-171])
        #expect(harness.diagnostics.isEmpty)
    }

    @Test("the keyboard going away with a held frame is reported once")
    func heldFrameAbandoned() {
        let device = Device.iPhoneX
        let harness = Harness(device: device)
        harness.turn(at: 0) { $0.post(.scene, Self.form(device, kind: .textView)) }
        harness.turn(at: 1) { $0.post(.keyboardWillShow, .show(device, to: device.dockedKeyboard)) }
        harness.turn(at: 1.5) { $0.post(.keyboardWillHide, .hide(device, from: device.dockedKeyboard)) }
        #expect(harness.shifts == [])
        #expect(harness.diagnostics.count == 1)
        #expect(harness.diagnostics.first?.message.contains("never found a field") == true)
        harness.wait(2)
        #expect(harness.diagnostics.count == 1)
    }

    @Test("a third-party burst (0 → 216 → 259 within milliseconds) collapses into one move with a settle window")
    func settleWindow() {
        let device = Device.iPhoneX
        func run(window: Duration?) -> [Double] {
            let harness = Harness(device: device, ordering: TextViewOrdering(settleWindow: window))
            harness.turn(at: 0) { $0.post(.scene, Self.form(device, kind: .textField)) }
            harness.turn(at: 1) { $0.post(.didBeginEditing, EditingInfo(view: "field")) }
            for (index, height) in [0.0, 216, 259].enumerated() {
                harness.turn(at: 1.001 + Double(index) * 0.004) { $0.post(.keyboardWillShow, .show(device, to: device.docked(height: height))) }
            }
            harness.wait(0.2)
            return harness.shifts
        }
        // field 612…672; 216: 596 − 692 = −96; 259: 553 − 692 = −139.
        #expect(run(window: nil) == [-96, -139])
        #expect(run(window: .milliseconds(50)) == [-139])
    }

    @Test("turnSettled comes once per turn, with how many events it collapsed")
    func oncePerTurn() {
        let device = Device.iPhoneX
        let harness = Harness(device: device, plugins: [.ordering])
        harness.turn(at: 0) { $0.post(.scene, Self.form(device, kind: .textField)) }
        harness.turn(at: 1) { Self.focus($0, .textField, "field", keyboard: .show(device, to: device.dockedKeyboard)) }
        let settles = harness.derived.compactMap { $0.as(.turnSettled)?.payload }
        #expect(settles == [TurnSettled(collapsedEvents: 1, firstResponder: nil), TurnSettled(collapsedEvents: 3, firstResponder: "field")])
    }
}

@Suite("Each plugin works with any of the others disabled")
struct PluginIndependenceTests {
    static let subsets: [Harness.Plugins] = [
        [.ordering], [.advancing], [.avoidance], [.ordering, .advancing], [.ordering, .avoidance], [.advancing, .avoidance], .all,
    ]

    @Test("the decisions each plugin owns survive the others being disabled", arguments: subsets.indices)
    func independence(_ index: Int) {
        let plugins = Self.subsets[index]
        let device = Device.iPhoneX
        let harness = Harness(device: device, plugins: plugins)
        harness.turn(at: 0) { $0.post(.scene, device.signUpForm) }
        harness.turn(at: 1) { bus in
            bus.post(.didBeginEditing, EditingInfo(view: "email"))
            bus.post(.keyboardWillShow, .show(device, to: device.dockedKeyboard))
        }
        harness.turn(at: 2) { $0.post(.returnKey, ReturnKeyInfo(view: "email")) }
        harness.turn(at: 3) { $0.post(.keyboardWillHide, .hide(device, from: device.dockedKeyboard)) }
        let focusChanges = harness.decisions.filter { $0.hasPrefix("focusChange") }
        #expect(focusChanges == (plugins.contains(.advancing) ? ["focusChange:email>password"] : []))
        if plugins.contains(.avoidance) {
            // email 552…596 → −95; password 612…656 → −155 (only when advancing moved the focus); hide → 0.
            #expect(harness.shifts == (plugins.contains(.advancing) ? [-95, -155, 0] : [-95, 0]))
        } else {
            #expect(harness.shifts.isEmpty)
        }
        let settled = harness.derived.contains { $0.name == EventName.turnSettled }
        #expect(settled == plugins.contains(.ordering))
        #expect(harness.diagnostics.isEmpty)
    }
}
