import FieldAdvancing
import KeyboardAvoidance
import ResponderBus
import ResponderBusTesting
import Testing
import TextViewOrdering
import __PluginName__

/// The plugins `responder-bus replay` runs before yours, in its order.
func builtIns() -> [any ResponderPlugin] { [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance()] }

@Suite struct __PluginName__Tests {
    @Test("passes the ResponderBus plugin conformance suite, alone and in the built-in pipeline")
    func conformance() throws {
        try PluginConformance { __PluginName__() }.check()
        try PluginConformance(companions: builtIns) { __PluginName__() }.check()
    }

    @Test("in the pipeline replay runs, it sees the keyboard avoidance moved the screen for")
    func inThePipeline() throws {
        let device = CannedScreens.Device.iPhoneX
        let session = CannedScreens.session(on: device, scene: CannedScreens.signUp(on: device), focusing: "password")
        let outcome = try PluginHarness.replay(session, header: device.header, through: [__PluginName__()], companions: builtIns())
        #expect(!outcome.derived(by: "KeyboardAvoidance").isEmpty)
        #expect(outcome.diagnostics.contains("info: the keyboard showed for 'password'"))
    }

    @Test("reports the field the keyboard showed for", arguments: CannedScreens.Device.all)
    func reportsTheField(_ device: CannedScreens.Device) throws {
        let session = CannedScreens.session(on: device, scene: CannedScreens.login(on: device), focusing: "password")
        let outcome = try PluginHarness.replay(session, header: device.header, through: [__PluginName__()])
        #expect(outcome.diagnostics == ["info: the keyboard showed for 'password'"])
    }

    @Test("speaks on a log of frame changes alone, as a console import gives: once each time the keyboard comes up")
    func frameChangesAlone() throws {
        let device = CannedScreens.Device.iPhoneX
        var session = CannedScreens.session(on: device, scene: CannedScreens.login(on: device), focusing: "password")
        session.removeAll { record in
            guard case .keyboard(let name, _) = record.event else { return false }
            return name != .keyboardWillChangeFrame
        }
        let outcome = try PluginHarness.replay(session, header: device.header, through: [__PluginName__()])
        #expect(outcome.diagnostics == ["info: the keyboard showed for 'password'"])
    }

    @Test("says so when a text view's keyboard comes first")
    func textView() throws {
        let device = CannedScreens.Device.iPhoneX
        let session = CannedScreens.session(
            on: device, scene: CannedScreens.textViewInScrollView(on: device), focusing: "notes", kind: .textView)
        let outcome = try PluginHarness.replay(session, header: device.header, through: [__PluginName__()])
        #expect(outcome.diagnostics == ["info: the keyboard showed for no field yet"])
    }
}
