import KeyboardAvoidance
import ResponderBus
import ResponderBusTesting
import Testing
import TextViewOrdering

/// Looks at the root's origin at each of the three moments a plugin placed after avoidance can look.
private final class RootProbe: KeyboardObserving, EventObserving, TurnObserving {
    var onEvent: [Double] = []
    var onTurnSettled: [Double] = []
    var afterTurn: [Double] = []
    var keyboards: [KeyboardModel] = []
    var preferredPosition: PluginPosition? { .after("KeyboardAvoidance") }
    var observedEvents: Set<AnyEventName>? { [EventName.turnSettled.erased] }

    func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
        onEvent.append(context.screen.root?.frame.origin.y ?? .nan)
        keyboards.append(context.keyboard)
    }
    func observe(_ event: AnyEvent, context: PluginContext) {
        onTurnSettled.append(context.screen.root?.frame.origin.y ?? .nan)
    }
    func turnDidSettle(context: PluginContext) {
        afterTurn.append(context.screen.root?.frame.origin.y ?? .nan)
    }
}

@Suite("TurnObserving: another plugin's decision is visible once the turn is over")
struct TurnObservingTests {
    static let device = CannedScreens.Device.iPhoneX

    @Test("after avoidance, the root is unmoved on the event and on turnSettled, and moved in turnDidSettle")
    func decisionVisibleAfterTurn() throws {
        let probe = RootProbe()
        let bench = try PluginBench(device: Self.device, plugins: [TextViewOrdering(), KeyboardAvoidance(), probe])
        bench.turn(at: 0) { $0.post(.scene, CannedScreens.login(on: Self.device)) }
        bench.turn(at: 1) { bus in
            bus.post(.didBeginEditing, EditingInfo(view: "password"))
            bus.post(.keyboardWillShow, Self.device.keyboardShow)
        }
        let moved = try #require(bench.shifts.last)
        #expect(moved < 0)
        #expect(probe.onEvent == [0])
        #expect(probe.onTurnSettled.last == 0, "turnSettled is delivered before avoidance's shift is applied")
        #expect(probe.afterTurn.last == moved)
    }

    @Test("turnDidSettle is called once per turn with activity, not for a turn with none")
    func oncePerTurn() throws {
        let probe = RootProbe()
        let bench = try PluginBench(device: Self.device, plugins: [KeyboardAvoidance(), probe])
        bench.turn(at: 0) { $0.post(.scene, CannedScreens.login(on: Self.device)) }
        #expect(probe.afterTurn.count == 1)
        bench.turn(at: 1) { bus in
            bus.post(.didBeginEditing, EditingInfo(view: "password"))
            bus.post(.keyboardWillChangeFrame, Self.device.keyboardShow)
            bus.post(.keyboardWillShow, Self.device.keyboardShow)
        }
        #expect(probe.afterTurn.count == 2)
        bench.wait(5)
        #expect(probe.afterTurn.count == 2)
    }

    @Test("a plugin that only observes turns can be registered; one that throws there gets a diagnostic")
    func turnOnlyPlugin() throws {
        final class Thrower: TurnObserving {
            struct Failure: Error {}
            func turnDidSettle(context: PluginContext) throws { throw Failure() }
        }
        let bench = try PluginBench(device: Self.device, plugins: [Thrower()])
        bench.turn(at: 0) { $0.post(.scene, CannedScreens.login(on: Self.device)) }
        let failure = try #require(bench.diagnostics.first)
        #expect(failure.failure == .pluginThrew)
        #expect(failure.message.contains("turnDidSettle"))
    }
}

@Suite("The keyboard in the model: one state for every plugin")
struct KeyboardModelTests {
    static let device = CannedScreens.Device.iPhoneX

    @Test("the bus notes each keyboard event before the plugins see it")
    func modelBeforePlugins() throws {
        let probe = RootProbe()
        let bench = try PluginBench(device: Self.device, plugins: [KeyboardAvoidance(), probe])
        bench.turn(at: 0) { $0.post(.scene, CannedScreens.login(on: Self.device)) }
        #expect(bench.bus.screen.keyboard.placement == .hidden)
        bench.turn(at: 1) { $0.post(.keyboardWillShow, Self.device.keyboardShow) }
        let seen = try #require(probe.keyboards.first)
        #expect(seen.frame == Self.device.dockedKeyboard)
        #expect(seen.coveredPart == Self.device.dockedKeyboard)
        #expect(seen.placement == .docked)
        #expect(seen.isLocal == true)
        bench.turn(at: 2) { $0.post(.keyboardWillHide, Self.device.keyboardHide) }
        #expect(bench.bus.screen.keyboard.coveredPart == nil)
        #expect(bench.bus.screen.keyboard.placement == .hidden)
    }

    @Test("docked, floating and the hardware keyboard's strip are told apart; another app's keyboard is kept apart")
    func placements() {
        let device = Self.device
        let screen = Screen(size: device.screen, safeArea: device.safeArea)
        let bus = Bus(loop: VirtualTimeLoop(), screen: screen)
        bus.post(.keyboardWillShow, KeyboardInfo(end: device.hardwareKeyboard, isLocal: true))
        #expect(screen.keyboard.placement == .hardwareStrip)
        #expect(screen.keyboard.coveredPart.map { $0.maxY } == device.screen.height)
        bus.post(.keyboardWillChangeFrame, KeyboardInfo(end: device.floatingKeyboard, isLocal: true))
        #expect(screen.keyboard.placement == .floating)
        #expect(screen.keyboard.coveredPart == nil)
        bus.post(.keyboardWillShow, KeyboardInfo(end: device.dockedKeyboard, isLocal: false))
        #expect(screen.keyboard.placement == .floating, "another app's keyboard leaves this app's as it was")
        #expect(screen.keyboard.isLocal == false)
        #expect(screen.keyboard.coveredPart(includingOtherApps: true) == device.dockedKeyboard)
    }
}

@Suite("Positions: a plugin's preferred place, and the anchor that was meant")
struct PluginPositionTests {
    @Test("register without a position honours preferredPosition; an explicit position wins")
    func preferred() throws {
        let bus = Bus(loop: VirtualTimeLoop())
        try bus.register(KeyboardAvoidance())
        try bus.register(RootProbe())
        try bus.register(TextViewOrdering(), at: .first)
        #expect(bus.pluginNames == ["TextViewOrdering", "KeyboardAvoidance", "RootProbe"])
        let second = Bus(loop: VirtualTimeLoop())
        try second.register(KeyboardAvoidance())
        try second.register(TextViewOrdering())
        try second.register(RootProbe(), at: .first)
        #expect(second.pluginNames == ["RootProbe", "KeyboardAvoidance", "TextViewOrdering"])
    }

    @Test("an unknown anchor suggests the nearest registered name")
    func suggestion() throws {
        let bus = Bus(loop: VirtualTimeLoop())
        try bus.register(KeyboardAvoidance())
        let error = #expect(throws: PluginRegistrationError.self) {
            try bus.register(TextViewOrdering(), at: .after("KeyboardAvoidanc"))
        }
        #expect(error?.code == .unknownAnchor)
        #expect(error?.message.contains("did you mean 'KeyboardAvoidance'?") == true)
        #expect(PluginNames.nearest(to: "fieldadvancing", among: ["FieldAdvancing"]) == "FieldAdvancing")
        #expect(PluginNames.nearest(to: "Zebra", among: ["KeyboardAvoidance"]) == nil)
    }
}
