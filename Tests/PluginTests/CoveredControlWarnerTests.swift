import CoveredControlWarner
import FieldAdvancing
import Foundation
import KeyboardAvoidance
import ResponderBus
import ResponderBusTesting
import Testing
import TextViewOrdering

@Suite("CoveredControlWarner: the buttons the keyboard covers after avoidance, the guide's second example")
struct CoveredControlWarnerTests {
    /// The pipeline `responder-bus replay` runs it in: the built-in plugins, then it.
    static func builtIns() -> [any ResponderPlugin] { [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance()] }

    @Test("the guide's step 8 shows this plugin as it ships: the two files, doc comments left out, are its listing")
    func guideListing() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        func text(_ path: String) throws -> String { try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8) }
        /// Lines that are code, trimmed, without doc comments, blank lines or `import`s.
        func code(_ text: some StringProtocol) -> [String] {
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("///") && !$0.hasPrefix("import ") }
        }
        let guide = try text("Sources/ResponderBus/ResponderBus.docc/WritingAPlugin.md")
        let step = try #require(guide.range(of: "### 8. ").map { guide[$0.upperBound...] })
        let start = try #require(step.range(of: "```swift\n"))
        let end = try #require(step[start.upperBound...].range(of: "```"))
        let shipped =
            try code(text("Plugins/CoveredControlWarner/CoveredControls.swift"))
            + code(text("Plugins/CoveredControlWarner/CoveredControlWarner.swift"))
        #expect(code(step[start.upperBound..<end.lowerBound]) == shipped)
    }

    @Test("the rule: visible, enabled controls the covered part overlaps by more than half a point")
    func rule() {
        let covering = Rect(x: 0, y: 500, width: 375, height: 312)
        let controls: [CoveredControls.Control] = [
            .init(id: "under", frame: Rect(x: 20, y: 700, width: 335, height: 44)),
            .init(id: "edge", frame: Rect(x: 20, y: 456, width: 335, height: 44.4)),
            .init(id: "half", frame: Rect(x: 20, y: 480, width: 335, height: 40)),
            .init(id: "hidden", frame: Rect(x: 20, y: 700, width: 335, height: 44), isVisible: false),
            .init(id: "disabled", frame: Rect(x: 20, y: 700, width: 335, height: 44), isEnabled: false),
        ]
        #expect(CoveredControls.covered(controls, by: covering) == [.init(id: "under", coveredHeight: 44), .init(id: "half", coveredHeight: 20)])
        #expect(CoveredControls.covered(controls, by: nil).isEmpty)
    }

    @Test("on the sign-up form, after avoidance moved the field up, the button below is still covered and named", arguments: CannedScreens.Device.all)
    func coveredButton(_ device: CannedScreens.Device) throws {
        let session = CannedScreens.session(on: device, scene: CannedScreens.signUp(on: device), focusing: "password")
        let outcome = try PluginHarness.replay(session, header: device.header, through: [CoveredControlWarner()], companions: Self.builtIns())
        #expect(outcome.derived(by: "KeyboardAvoidance").contains { $0.event.name == EventName.viewShift.erased })
        let warnings = outcome.derived(by: "CoveredControlWarner").compactMap { $0.event.as(.diagnostic)?.payload }
        let warning = try #require(warnings.first)
        #expect(warnings.count == 1, "said once, not on every turn: \(warnings)")
        #expect(warning.level == .warning)
        #expect(warning.views == ["signUpButton"])
        #expect(warning.message.contains("'signUpButton'"))
        #expect(warning.metadata["covered.signUpButton"] != nil)
    }

    @Test("nothing where the keyboard covers no button: a login form, or an iPad-style floating keyboard")
    func nothingCovered() throws {
        let device = CannedScreens.Device.iPhoneX
        let login = CannedScreens.session(on: device, scene: CannedScreens.login(on: device), focusing: "password")
        let outcome = try PluginHarness.replay(login, header: device.header, through: [CoveredControlWarner()], companions: Self.builtIns())
        #expect(outcome.derived(by: "CoveredControlWarner").isEmpty)

        let bench = try PluginBench(device: device, plugins: Self.builtIns() + [CoveredControlWarner()])
        bench.turn(at: 0) { $0.post(.scene, CannedScreens.signUp(on: device)) }
        bench.turn(at: 1) { bus in
            bus.post(.didBeginEditing, EditingInfo(view: "name"))
            bus.post(.keyboardWillShow, KeyboardInfo(end: device.floatingKeyboard, isLocal: true))
        }
        #expect(bench.derived(by: "CoveredControlWarner").isEmpty)
        // A hardware keyboard's strip is docked: the bottom button under it is named.
        bench.turn(at: 2) { $0.post(.keyboardWillChangeFrame, KeyboardInfo(end: device.hardwareKeyboard, isLocal: true)) }
        #expect(bench.diagnostics.last?.views == ["signUpButton"])
    }

    @Test("placed after KeyboardAvoidance by its preferred position; without it in the pipeline, registration says so")
    func position() throws {
        let bus = Bus(loop: VirtualTimeLoop())
        for plugin in Self.builtIns() { try bus.register(plugin) }
        try bus.register(CoveredControlWarner(), at: nil)
        #expect(bus.pluginNames.last == "CoveredControlWarner")
        let alone = Bus(loop: VirtualTimeLoop())
        #expect(throws: PluginRegistrationError.self) { try alone.register(CoveredControlWarner()) }
    }

    @Test("passes the conformance suite in the built-in pipeline")
    func conformance() throws {
        try PluginConformance(companions: Self.builtIns) { CoveredControlWarner() }.check()
    }
}
