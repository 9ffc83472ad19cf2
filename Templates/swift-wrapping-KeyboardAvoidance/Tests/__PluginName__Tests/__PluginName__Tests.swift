import BuiltinKeyboardAvoidance
import FieldAdvancing
import ResponderBus
import ResponderBusTesting
import Testing
import TextViewOrdering
import __PluginName__

/// The built-ins `responder-bus replay` runs before it (KeyboardAvoidance is the one it replaces).
func builtIns() -> [any ResponderPlugin] { [TextViewOrdering(), FieldAdvancing()] }

@Suite struct __PluginName__Tests {
    @Test("passes the ResponderBus plugin conformance suite in the pipeline it replaces avoidance in")
    func conformance() throws {
        try PluginConformance(companions: builtIns) { __PluginName__() }.check()
    }

    @Test("a password field keeps 40 points above the keyboard, another field 20", arguments: CannedScreens.Device.all)
    func gaps(_ device: CannedScreens.Device) throws {
        for (field, gap) in [("password", 40.0), ("username", 20.0)] {
            let scene = CannedScreens.login(on: device)
            let session = CannedScreens.session(on: device, scene: scene, focusing: ViewID(field))
            let outcome = try PluginHarness.replay(session, header: device.header, through: [__PluginName__()], companions: builtIns())
            let shifts = outcome.derived(by: "__PluginName__").compactMap { $0.event.as(.viewShift)?.payload }
            let moved = try #require(shifts.first { $0.originY < 0 }, "it moves the root for \(field) on \(device)")
            // Where the built-in's rule puts the root for that field and gap.
            let frame = try #require(Self.frame(of: ViewID(field), in: scene.root))
            let target = AvoidanceRule.rootTarget(
                fieldMinY: frame.minY, fieldMaxY: frame.maxY, gap: gap, keyboardTop: device.screen.height - device.keyboardHeight,
                screenHeight: device.screen.height, safeTop: device.safeArea.top)
            #expect(moved.originY == target)
        }
    }

    static func frame(of id: ViewID, in root: ViewSpec, origin: Point = .zero) -> Rect? {
        let frame = root.frame.offsetBy(dx: origin.x, dy: origin.y)
        if root.id == id { return frame }
        for child in root.children {
            if let found = self.frame(of: id, in: child, origin: frame.origin) { return found }
        }
        return nil
    }
}
