import ResponderBus
import Testing

@Suite("The bus's screen-model stage")
struct ScreenModelStageTests {
    static let form = SceneInfo(
        root: ViewSpec(
            id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812),
            children: [
                ViewSpec(id: "email", kind: .textField, frame: Rect(x: 20, y: 560, width: 335, height: 44), tag: 1),
                ViewSpec(id: "notes", kind: .textView, frame: Rect(x: 20, y: 620, width: 335, height: 120), tag: 2),
                ViewSpec(
                    id: "list", kind: .scrollView, frame: Rect(x: 0, y: 0, width: 375, height: 400),
                    contentSize: Size(width: 375, height: 1200)),
            ]), lastFieldAction: "signIn")

    @Test("external and derived events update the model before anyone sees them")
    func modelFollowsEvents() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        var seenFirstResponder: [String] = []
        let token = bus.observeAll { _ in seenFirstResponder.append(bus.screen.firstResponder?.id.rawValue ?? "-") }
        bus.post(.scene, Self.form)
        #expect(bus.screen.lastFieldAction == "signIn")
        bus.post(.didBeginEditing, EditingInfo(view: "email"))
        #expect(bus.screen.firstResponder?.id == "email")
        bus.post(.focusChange, FocusChange(from: "email", to: "notes"), origin: .derived(by: "FieldAdvancing"))
        #expect(bus.screen.firstResponder?.id == "notes")
        bus.post(.didBeginEditing, EditingInfo(view: "notes"))  // the echo changes nothing
        #expect(bus.screen.firstResponder?.id == "notes")
        bus.post(.viewShift, ViewShift(originY: -120), origin: .derived(by: "KeyboardAvoidance"))
        #expect(bus.screen.rootOriginY == -120)
        bus.post(.setFrame, FrameChange(view: "notes", frame: Rect(x: 20, y: 620, width: 335, height: 160)))
        #expect(bus.screen.view("notes")?.frame.height == 160)
        bus.post(.scroll, ScrollChange(view: "list", contentOffsetY: 80, bottomInset: 291), origin: .derived(by: "KeyboardAvoidance"))
        #expect(bus.screen.view("list")?.contentOffset.y == 80)
        #expect(bus.screen.view("list")?.contentInset.bottom == 291)
        bus.post(.screen, ScreenChange(width: 812, height: 375, safeArea: EdgeInsets(left: 44, right: 44)))
        #expect(bus.screen.size == Size(width: 812, height: 375))
        bus.post(.resign, ResignInfo(view: "notes"), origin: .derived(by: "FieldAdvancing"))
        #expect(bus.screen.firstResponder == nil)
        #expect(seenFirstResponder == ["-", "email", "notes", "notes", "notes", "notes", "notes", "notes", "-"])
        _ = token
    }

    @Test("didEndEditing for a field that is not first responder changes nothing")
    func staleEndEditing() {
        let bus = Bus(loop: VirtualTimeLoop())
        bus.post(.scene, Self.form)
        bus.post(.didBeginEditing, EditingInfo(view: "notes"))
        bus.post(.didEndEditing, EditingInfo(view: "email"))
        #expect(bus.screen.firstResponder?.id == "notes")
    }

    @Test("input that does not fit the model is a warning diagnostic, not a crash, and changes nothing")
    func badInputDiagnosed() {
        let bus = Bus(loop: VirtualTimeLoop())
        var diagnostics: [Event<Diagnostic>] = []
        let token = bus.observe(.diagnostic) { diagnostics.append($0) }
        bus.post(.scene, Self.form)
        bus.post(.didBeginEditing, EditingInfo(view: "email"))
        bus.post(.didBeginEditing, EditingInfo(view: "ghost"))
        bus.post(.setFrame, FrameChange(view: "ghost", frame: .zero))
        bus.post(.scroll, ScrollChange(view: "email", contentOffsetY: 1, bottomInset: 1))
        #expect(bus.screen.firstResponder?.id == "email")
        #expect(diagnostics.count == 3)
        #expect(diagnostics.allSatisfy { $0.payload.level == .warning && $0.origin == .derived(by: "screen") })
        #expect(diagnostics[0].payload.message.contains("ghost"))
        _ = token
    }
}
