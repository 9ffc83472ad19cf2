import KeyboardNoise
import ResponderBus
import ResponderBusTesting
import Testing

@Suite("KeyboardNoise: how noisy each keyboard session was")
struct KeyboardNoiseTests {
    static let screen = Size(width: 375, height: 812)
    static func frame(_ height: Double) -> KeyboardInfo {
        KeyboardInfo(end: Rect(x: 0, y: 812 - height, width: 375, height: height), duration: 0.25, curve: 7, isLocal: true)
    }
    static let hide = KeyboardInfo(end: Rect(x: 0, y: 812, width: 375, height: 291), duration: 0.25, curve: 7, isLocal: true)

    @Test("a quiet session reports nothing noisy")
    func quiet() throws {
        var counter = NoiseCounter()
        let first = counter.note(.keyboardWillChangeFrame, Self.frame(291), at: 1, screen: Self.screen)
        let second = counter.note(.keyboardWillShow, Self.frame(291), at: 1, screen: Self.screen)
        #expect(first == nil && second == nil)
        let ended = counter.note(.keyboardWillHide, Self.hide, at: 3, screen: Self.screen)
        let report = try #require(ended)
        #expect(report.isQuiet)
        #expect(report.frames == 2)
        #expect(report.start == 1 && report.end == 3)
    }

    @Test("a SwiftKey burst (0 → 216 → 259 within milliseconds) is one burst; a repeated show is a duplicate")
    func burstAndDuplicate() throws {
        var counter = NoiseCounter()
        for (offset, height) in [0.0, 216, 259].enumerated() {
            _ = counter.note(.keyboardWillShow, Self.frame(height), at: 1 + Double(offset) * 0.004, screen: Self.screen)
        }
        _ = counter.note(.keyboardWillShow, Self.frame(259), at: 2, screen: Self.screen)
        let ended = counter.note(.keyboardWillHide, Self.hide, at: 3, screen: Self.screen)
        let report = try #require(ended)
        #expect(report.bursts == 1)
        #expect(report.duplicateShows == 1)
        #expect(report.frames == 4)
    }

    @Test("a hide still drawn on screen and another app's keyboard are counted")
    func hideOnScreenAndOtherApp() throws {
        var counter = NoiseCounter()
        _ = counter.note(
            .keyboardWillShow, KeyboardInfo(end: Rect(x: 0, y: 521, width: 375, height: 291), isLocal: false), at: 0.5, screen: Self.screen)
        _ = counter.note(.keyboardWillShow, Self.frame(291), at: 1, screen: Self.screen)
        let ended = counter.note(.keyboardWillHide, Self.frame(71), at: 2, screen: Self.screen)
        let report = try #require(ended)
        #expect(report.hidesOnScreen == 1)
        #expect(report.otherAppEvents == 1)
        #expect(
            report.description
                == "keyboard session 0.5–2 s: 1 frame, 0 bursts, 0 duplicate shows, 1 hide with an on-screen frame, 1 event from another app's keyboard"
        )
    }

    @Test("on the bus: one info diagnostic per noisy session, derived by KeyboardNoise")
    func onTheBus() throws {
        let device = CannedScreens.Device.iPhoneX
        var records = CannedScreens.session(on: device, scene: CannedScreens.login(on: device), focusing: "password")
        records.append(
            LogRecord(
                t: 1.004,
                event: .keyboard(.keyboardWillShow, KeyboardInfo(end: Rect(x: 0, y: 553, width: 375, height: 259), duration: 0.25, curve: 7))))
        let outcome = try PluginHarness.replay(records, header: device.header, through: [KeyboardNoise()])
        #expect(
            outcome.diagnostics == [
                "info: keyboard session 1–3 s: 4 frames, 1 burst, 0 duplicate shows, 0 hides with an on-screen frame, 0 events from another app's keyboard"
            ])
        #expect(outcome.derived(by: "KeyboardNoise").count == 1)
    }
}

@Suite("The four plugins pass the conformance suite")
struct PluginConformanceTests {
    @Test("KeyboardAvoidance") func avoidance() throws { try PluginConformance { KeyboardAvoidanceFactory.make() }.check() }
    @Test("FieldAdvancing") func advancing() throws { try PluginConformance { FieldAdvancingFactory.make() }.check() }
    @Test("TextViewOrdering") func ordering() throws { try PluginConformance { TextViewOrderingFactory.make() }.check() }
    @Test("KeyboardNoise") func noise() throws { try PluginConformance { KeyboardNoise() }.check() }
}
