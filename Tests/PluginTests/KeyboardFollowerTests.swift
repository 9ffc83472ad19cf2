import ChatInputBar
import EventLog
import FieldAdvancing
import Foundation
import KeyboardAvoidance
import PasswordGap
import ResponderBus
import ResponderBusTesting
import Testing
import TextViewOrdering

/// Issue 48, item 1: a view that follows the keyboard (UIKit's `keyboardLayoutGuide`), a derived
/// move of one view, and view settings that reach a subtree.
@Suite("Views that follow the keyboard, viewMove, and settings that reach a subtree")
struct KeyboardFollowerTests {
    static func builtIns() -> [any ResponderPlugin] { [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance()] }

    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static var chatSession: String {
        get throws { try String(contentsOf: repository.appendingPathComponent("PluginKits/sessions/chat-input-bar.jsonl"), encoding: .utf8) }
    }

    /// A chat screen: messages above, an input bar on the safe area's bottom holding a text view.
    static func chat(on device: CannedScreens.Device) -> SceneInfo {
        let width = device.screen.width
        let bottom = device.screen.height - device.safeArea.bottom
        let bar = ViewSpec(
            id: "inputBar", kind: .view, frame: Rect(x: 0, y: bottom - 50, width: width, height: 50),
            children: [
                ViewSpec(id: "message", kind: .textView, frame: Rect(x: 12, y: 7, width: width - 80, height: 36)),
                ViewSpec(id: "send", kind: .button, frame: Rect(x: width - 60, y: 7, width: 48, height: 36)),
            ])
        let messages = ViewSpec(
            id: "messages", kind: .scrollView, frame: Rect(x: 0, y: device.safeArea.top, width: width, height: bottom - 50 - device.safeArea.top))
        return SceneInfo(
            root: ViewSpec(id: "root", kind: .view, frame: Rect(x: 0, y: 0, width: width, height: device.screen.height), children: [messages, bar]))
    }

    static func moves(_ outcome: ReplayOutcome) -> [ViewMove] {
        outcome.derived.compactMap { if case .viewMove(let move) = $0.event { move } else { nil } }
    }

    static func bus() throws -> (Bus, VirtualTimeLoop) {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        for plugin in builtIns() { try bus.register(plugin) }
        return (bus, loop)
    }

    @Test("the bar's bottom sits on the keyboard's top on every device, follows a height change, and goes back when the keyboard hides")
    func followsOnEveryDevice() throws {
        for device in CannedScreens.Device.all {
            let (bus, loop) = try Self.bus()
            bus.post(.screen, ScreenChange(size: device.screen, safeArea: device.safeArea))
            bus.post(.scene, Self.chat(on: device))
            let home = try #require(bus.screen.view("inputBar")).frame
            bus.post(.viewSettings, ViewSettings(view: "inputBar", avoidsKeyboard: false, followsKeyboard: true), origin: .derived(by: "P"))
            bus.post(.keyboardWillShow, device.keyboardShow)
            bus.post(.didBeginEditing, EditingInfo(view: "message"))
            loop.run()
            let bar = try #require(bus.screen.view("inputBar"))
            let keyboardTop = try #require(bus.screen.keyboard.coveredPart).minY
            #expect(bus.screen.frameInScreen(of: bar).maxY == keyboardTop, "\(device)")
            #expect(bus.screen.rootOriginY == 0, "\(device): the field is in a view out of avoidance: the root stays")
            // A shorter keyboard (the prediction bar gone): the bar follows it down.
            let shorter = try #require(device.keyboardShow.end).offsetBy(dx: 0, dy: 44)
            bus.post(.keyboardWillChangeFrame, KeyboardInfo(begin: device.keyboardShow.end, end: shorter, duration: 0.25, curve: 7, isLocal: true))
            loop.run()
            #expect(bus.screen.frameInScreen(of: bar).maxY == shorter.minY, "\(device)")
            bus.post(
                .keyboardWillHide,
                KeyboardInfo(begin: shorter, end: shorter.offsetBy(dx: 0, dy: shorter.height), duration: 0.25, curve: 7, isLocal: true))
            loop.run()
            #expect(bar.frame == home, "\(device): back on its own frame")
        }
    }

    @Test("the shipped ChatInputBar on the chat session: one viewSettings, avoidance's moves to 458, 503 and 760, nothing covered")
    func chatSession() throws {
        let outcome = try PluginHarness.replay(Self.chatSession, through: [ChatInputBar()], companions: Self.builtIns())
        let settings = outcome.derived.compactMap { if case .viewSettings(let settings) = $0.event { settings } else { nil } }
        #expect(settings == [ViewSettings(view: "inputBar", avoidsKeyboard: false, followsKeyboard: true)])
        #expect(Self.moves(outcome).map(\.frame.origin.y) == [458, 503, 760])
        #expect(outcome.derived.allSatisfy { if case .viewShift = $0.event { false } else { true } }, "the root never moves")
        #expect(outcome.derived.filter { $0.event.isDerivedKind && $0.origin.derivingPlugin == "KeyboardAvoidance" }.count == 3)
    }

    @Test("the coverage check measures the focused field where its following bar went")
    func coverageUnderstandsFollowers() throws {
        let (bus, loop) = try Self.bus()
        let check = CoverageCheck(bus: bus)
        let device = CannedScreens.Device.iPhoneX
        bus.post(.scene, Self.chat(on: device))
        bus.post(.viewSettings, ViewSettings(view: "inputBar", avoidsKeyboard: false, followsKeyboard: true), origin: .derived(by: "P"))
        bus.post(.keyboardWillShow, device.keyboardShow)
        bus.post(.didBeginEditing, EditingInfo(view: "message"))
        loop.run()
        check.check()
        #expect(check.violations.isEmpty, "\(check.violations)")
        // Out of avoidance and not following: the field stays under the keyboard, and the check says so.
        bus.post(.viewSettings, ViewSettings(view: "inputBar", avoidsKeyboard: false, followsKeyboard: false), origin: .derived(by: "P"))
        loop.run()
        check.check()
        #expect(check.violations.map(\.field) == ["message"])
        check.stop()
    }

    @Test("avoidsKeyboard off on a container reaches the fields inside it; on, a field decides for itself")
    func settingsReachTheSubtree() throws {
        let (bus, loop) = try Self.bus()
        let device = CannedScreens.Device.iPhoneX
        bus.post(.scene, Self.chat(on: device))
        bus.post(.keyboardWillShow, device.keyboardShow)
        bus.post(.didBeginEditing, EditingInfo(view: "message"))
        loop.run()
        #expect(bus.screen.rootOriginY < 0, "the bar avoided like any field")
        bus.post(.viewSettings, ViewSettings(view: "inputBar", avoidsKeyboard: false), origin: .derived(by: "P"))
        loop.run()
        #expect(bus.screen.rootOriginY == 0)
        let field = try #require(bus.screen.view("message"))
        #expect(field.avoidsKeyboard && !field.isAvoidingKeyboard)
        bus.post(.viewSettings, ViewSettings(view: "inputBar"), origin: .derived(by: "P"))
        loop.run()
        #expect(field.isAvoidingKeyboard && bus.screen.rootOriginY < 0)
    }

    @Test("turning following off, a floating keyboard and a new layout of the bar each put it where it belongs")
    func followingEnds() throws {
        let (bus, loop) = try Self.bus()
        let device = CannedScreens.Device.iPadLandscape
        bus.post(.screen, ScreenChange(size: device.screen, safeArea: device.safeArea))
        bus.post(.scene, Self.chat(on: device))
        let home = try #require(bus.screen.view("inputBar")).frame
        bus.post(.viewSettings, ViewSettings(view: "inputBar", avoidsKeyboard: false, followsKeyboard: true), origin: .derived(by: "P"))
        bus.post(.keyboardWillShow, device.keyboardShow)
        loop.run()
        let bar = try #require(bus.screen.view("inputBar"))
        #expect(bar.frame != home)
        // The app lays the bar out again (a taller bar): that is its own frame from now on.
        var relaid = home
        relaid.size.height += 20
        relaid.origin.y -= 20
        bus.post(.setFrame, FrameChange(view: "inputBar", frame: relaid))
        loop.run()
        #expect(bus.screen.frameInScreen(of: bar).maxY == bus.screen.keyboard.coveredPart?.minY)
        // An undocked keyboard covers nothing: the bar goes back to its own frame.
        let keyboard = device.dockedKeyboard
        let floating = device.floatingKeyboard
        bus.post(.keyboardWillChangeFrame, KeyboardInfo(begin: keyboard, end: floating, duration: 0.25, curve: 7, isLocal: true))
        loop.run()
        #expect(bar.frame == relaid)
        bus.post(.keyboardWillChangeFrame, KeyboardInfo(begin: floating, end: keyboard, duration: 0.25, curve: 7, isLocal: true))
        loop.run()
        #expect(bar.frame != relaid)
        bus.post(.viewSettings, ViewSettings(view: "inputBar", avoidsKeyboard: false), origin: .derived(by: "P"))
        loop.run()
        #expect(bar.frame == relaid, "following turned off: back on its own frame")
        #expect(!bus.screen.hasKeyboardFollowers && bus.screen.keyboardFollowers.isEmpty)
    }

    @Test("viewMove moves one view, keeps the root's resting origin, refuses a bad frame, and two movers in one turn are a conflict")
    func viewMove() throws {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        var diagnostics: [Diagnostic] = []
        let token = bus.observe(.diagnostic) { diagnostics.append($0.payload) }
        bus.post(.scene, Self.chat(on: .iPhoneX))
        let target = Rect(x: 0, y: 400, width: 375, height: 50)
        bus.post(.viewMove, ViewMove(view: "inputBar", frame: target), origin: .derived(by: "A"))
        #expect(bus.screen.view("inputBar")?.frame == target)
        bus.post(.viewMove, ViewMove(view: "root", frame: Rect(x: 0, y: -10, width: 375, height: 812)), origin: .derived(by: "A"))
        #expect(bus.screen.rootOriginY == -10 && bus.screen.restingRootOriginY == 0)
        for bad in [Rect(x: 0, y: .nan, width: 1, height: 1), Rect(x: 0, y: 0, width: -1, height: 1)] {
            bus.post(.viewMove, ViewMove(view: "inputBar", frame: bad), origin: .derived(by: "A"))
        }
        #expect(bus.screen.view("inputBar")?.frame == target)
        #expect(diagnostics.filter { $0.failure == .notApplied && $0.message.contains("is not a frame") }.count == 2, "\(diagnostics)")
        bus.post(.viewMove, ViewMove(view: "inputBar", frame: target.offsetBy(dx: 0, dy: 10)), origin: .derived(by: "B"))
        loop.run()
        let conflicts = diagnostics.filter { $0.failure == .conflictingDecisions }
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.metadata["target"] == "frame")
        #expect(conflicts.first?.message.contains("the frame of 'inputBar'") == true, "\(conflicts)")
        #expect(conflicts.first?.views == ["inputBar"])
        token.cancel()
    }

    @Test("the guide's step 10 shows ChatInputBar as it ships, doc comments left out")
    func guideListing() throws {
        try GuideListing.expectListing(step: "### 10. ", is: "Plugins/ChatInputBar/ChatInputBar.swift")
    }
}
