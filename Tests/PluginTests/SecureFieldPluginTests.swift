import ResponderBus
import ResponderBusTesting
import Testing

/// Notes, when a field begins editing, whether the model says it is a password field.
private final class SecureProbe: EditingObserving {
    var seen: [(id: ViewID, secure: Bool, firstResponderSecure: Bool?)] = []

    func didBeginEditing(_ event: Event<EditingInfo>, context: PluginContext) {
        let view = context.screen.view(event.payload.view)
        seen.append((event.payload.view, view?.isSecure ?? false, context.screen.firstResponder?.isSecure))
    }
}

@Suite("A plugin reads a text input's secure flag from the screen model")
struct SecureFieldPluginTests {
    static let log = """
        {"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812}}
        {"t":0,"event":"scene","root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[{"id":"email","kind":"textField","frame":[20,500,335,44]},{"id":"password","kind":"textField","frame":[20,560,335,44],"secure":true},{"id":"go","kind":"button","frame":[20,620,335,44],"secure":true}]}}
        {"t":1,"event":"didBeginEditing","view":"email"}
        {"t":2,"event":"didEndEditing","view":"email"}
        {"t":2,"event":"didBeginEditing","view":"password"}

        """

    @Test("a log's \"secure\":true reaches ViewNode.isSecure; a field without it, and a button with it, are not secure")
    func fromALog() throws {
        let probe = SecureProbe()
        let outcome = try PluginHarness.replay(Self.log, through: [probe])
        #expect(outcome.problems.isEmpty)
        #expect(probe.seen.map(\.id) == ["email", "password"])
        #expect(probe.seen.map(\.secure) == [false, true])
        #expect(outcome.finalFirstResponder == "password")
    }

    @Test("a scene posted in code: the node keeps the spec's flag on text inputs only, and gives it back in its spec")
    func fromCode() throws {
        let device = CannedScreens.Device.iPhoneX
        let bench = try PluginBench(device: device, plugins: [])
        let root = ViewSpec(
            id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812),
            children: [
                ViewSpec(id: "pin", kind: .textField, frame: Rect(x: 20, y: 500, width: 335, height: 44), isSecure: true),
                ViewSpec(id: "note", kind: .textView, frame: Rect(x: 20, y: 560, width: 335, height: 88)),
                ViewSpec(id: "label", kind: .label, frame: Rect(x: 20, y: 660, width: 335, height: 20), isSecure: true),
            ])
        bench.turn(at: 0) { $0.post(.scene, SceneInfo(root: root)) }
        let screen = bench.bus.screen
        #expect(screen.view("pin")?.isSecure == true)
        #expect(screen.view("note")?.isSecure == false)
        #expect(screen.view("label")?.isSecure == false)
        #expect(screen.view("pin")?.spec.isSecure == true)
        #expect(screen.view("pin").map { "\($0)" }?.hasSuffix(" secure") == true)
    }
}
