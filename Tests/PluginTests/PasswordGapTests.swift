import FieldAdvancing
import Foundation
import KeyboardAvoidance
import PasswordGap
import ResponderBus
import ResponderBusTesting
import Testing
import TextViewOrdering

/// The "second mover after avoidance": once avoidance's move is in the model, it moves the
/// root again so that a password field keeps 40 points. It fights avoidance on every later decision.
final class PasswordFieldExtraGap: TurnObserving {
    let name = "PasswordFieldExtraGap"
    var preferredPosition: PluginPosition? { .after("KeyboardAvoidance") }

    func turnDidSettle(context: PluginContext) {
        let screen = context.screen
        guard let field = screen.firstResponder, PasswordGap.isPassword(field.id), let covering = context.keyboard.coveredPart else { return }
        let frame = screen.frameInScreen(of: field, unmoved: true)
        let target =
            screen.restingRootOriginY
            + AvoidanceRule.rootTarget(
                fieldMinY: frame.minY, fieldMaxY: frame.maxY, gap: 40, keyboardTop: covering.minY, screenHeight: screen.size.height,
                safeTop: screen.safeArea.top)
        if target != screen.rootOriginY { context.post(.viewShift, ViewShift(originY: target)) }
    }
}

@Suite("PasswordGap: a per-field gap through the model, the guide's third example; conflicts between plugins named")
struct PasswordGapTests {
    static func builtIns() -> [any ResponderPlugin] { [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance()] }
    static var session: String { LogCorpus.named("sign-up-session")!.text }

    static func shifts(_ outcome: ReplayOutcome) -> [(t: Double, by: String, y: Double)] {
        outcome.derived.compactMap {
            guard case .viewShift(let shift) = $0.event else { return nil }
            return ($0.t, $0.origin.derivingPlugin ?? "", shift.originY)
        }
    }

    static func conflicts(_ outcome: ReplayOutcome) -> [Diagnostic] {
        outcome.derivedEvents.compactMap { $0.event.as(.diagnostic)?.payload }.filter { $0.failure == .conflictingDecisions }
    }

    @Test("the guide's step 9 shows this plugin as it ships, doc comments left out")
    func guideListing() throws {
        try GuideListing.expectListing(step: "### 9. ", is: "Plugins/PasswordGap/PasswordGap.swift")
    }

    @Test("on the sign-up session: one viewSettings, and avoidance alone moves the root, once per focus change, 40 points clear")
    func oneMovePerFocusChange() throws {
        let plain = try PluginHarness.replay(Self.session, through: [], companions: Self.builtIns())
        let gapped = try PluginHarness.replay(Self.session, through: [PasswordGap()], companions: Self.builtIns())
        let settings = gapped.derived(by: "PasswordGap").compactMap { $0.event.as(.viewSettings)?.payload }
        #expect(settings == [ViewSettings(view: "password", keyboardDistance: 40)])
        let before = Self.shifts(plain)
        let after = Self.shifts(gapped)
        #expect(after.count == before.count, "one move per focus change, as without the rule: \(after)")
        #expect(after.allSatisfy { $0.by == "KeyboardAvoidance" })
        // Only the moves made for `password` change: 20 points more, as far as the keyboard's height allows.
        let changed = zip(before, after).filter { $0.y != $1.y }.map { ($0.t, $0.y, $1.y) }
        #expect(changed.map(\.0) == [7.5, 9.0])
        #expect(changed.map(\.2) == [-291, -188])
        #expect(Self.conflicts(gapped).isEmpty)
        // No warning; avoidance says why the 40-point gap is not kept whole (the cap: the keyboard's height).
        #expect(gapped.diagnostics.allSatisfy { $0.hasPrefix("info: ") && $0.contains("the cap") }, "\(gapped.diagnostics)")
        #expect(gapped.diagnostics.contains { $0.hasPrefix("info: 'password' keeps 28 of its 40 pt gap above the keyboard") })
    }

    @Test("avoidance deciding on every event (no text-view ordering) moves once too: the settings are in the model before focus")
    func everyEventTiming() throws {
        let outcome = try PluginHarness.replay(
            Self.session, through: [PasswordGap()], companions: [FieldAdvancing(), KeyboardAvoidance(timing: .everyEvent)])
        let shifts = Self.shifts(outcome)
        #expect(shifts.allSatisfy { $0.by == "KeyboardAvoidance" })
        let forPassword = shifts.filter { $0.t == 7.5 }
        #expect(forPassword.map(\.y) == [-291])
        #expect(Self.conflicts(outcome).isEmpty)
    }

    @Test("a view taken out of avoidance: nothing moves while it is focused, and the root goes back")
    func notAvoided() throws {
        final class LeaveEmailAlone: EventObserving {
            let name = "LeaveEmailAlone"
            var preferredPosition: PluginPosition? { .before("KeyboardAvoidance") }
            var observedEvents: Set<AnyEventName>? { [EventName.scene.erased] }
            func observe(_ event: AnyEvent, context: PluginContext) {
                context.post(.viewSettings, ViewSettings(view: "email", avoidsKeyboard: false))
            }
        }
        let outcome = try PluginHarness.replay(Self.session, through: [LeaveEmailAlone()], companions: Self.builtIns())
        let shifts = Self.shifts(outcome)
        // 6.000 focuses email: the root goes back to rest rather than up; 7.500 (password) moves it again.
        #expect(shifts.first { $0.t == 6.0 }?.y == 0)
        #expect(shifts.first { $0.t == 7.5 }?.y == -283)
    }

    @Test("the second mover after avoidance is named as a conflict, once per turn it happens, naming both plugins")
    func secondMoverConflicts() throws {
        let outcome = try PluginHarness.replay(Self.session, through: [PasswordFieldExtraGap()], companions: Self.builtIns())
        let shifts = Self.shifts(outcome)
        let extra = shifts.filter { $0.by == "PasswordFieldExtraGap" }
        #expect(extra.count >= 2, "it fights avoidance more than once: \(shifts)")
        let conflicts = Self.conflicts(outcome)
        #expect(conflicts.count == extra.count, "one per turn in which both moved the root: \(conflicts)")
        for conflict in conflicts {
            #expect(conflict.level == .warning)
            #expect(conflict.metadata["first"] == "KeyboardAvoidance")
            #expect(conflict.metadata["second"] == "PasswordFieldExtraGap")
            #expect(conflict.metadata["target"] == "root")
            #expect(conflict.views == ["root"])
            #expect(conflict.message.hasPrefix("'KeyboardAvoidance' and 'PasswordFieldExtraGap' fight over the root in one turn"))
        }
        #expect(conflicts.first?.message.hasSuffix("set it to y -283, then 'PasswordFieldExtraGap' changed it to y -291") == true)
        #expect(conflicts.dropFirst().contains { $0.message.contains("set it back to") }, "later turns undo avoidance's move: \(conflicts)")
        let diagnostics = outcome.derived.filter { $0.event.name == "diagnostic" }
        #expect(diagnostics.allSatisfy { $0.origin.derivingPlugin == "bus" })
    }

    @Test("the same plugin changing its own decision in a turn, and decisions in different turns, are no conflict")
    func noConflictAlone() throws {
        final class Mover: EventObserving {
            let name: String
            let y: Double
            init(_ name: String, y: Double) {
                self.name = name
                self.y = y
            }
            var observedEvents: Set<AnyEventName>? { [EventName.returnKey.erased] }
            func observe(_ event: AnyEvent, context: PluginContext) {
                context.post(.viewShift, ViewShift(originY: y))
                context.post(.viewShift, ViewShift(originY: y - 1))
            }
        }
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        try bus.register(Mover("A", y: -10))
        var diagnostics: [Diagnostic] = []
        let token = bus.observe(.diagnostic) { diagnostics.append($0.payload) }
        bus.post(.scene, CannedScreens.login(on: .iPhoneX))
        bus.post(.returnKey, ReturnKeyInfo(view: "username"))
        loop.run()
        bus.post(.returnKey, ReturnKeyInfo(view: "username"))
        loop.run()
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        try bus.register(Mover("B", y: -20))
        bus.post(.returnKey, ReturnKeyInfo(view: "username"))
        #expect(diagnostics.count == 1, "\(diagnostics)")
        #expect(diagnostics.first?.metadata["first"] == "A")
        #expect(diagnostics.first?.metadata["second"] == "B")
        #expect(diagnostics.first?.failure == .conflictingDecisions)
        bus.post(.returnKey, ReturnKeyInfo(view: "username"))
        #expect(diagnostics.count == 1, "once per turn: \(diagnostics)")
        loop.run()
        bus.post(.returnKey, ReturnKeyInfo(view: "username"))
        #expect(diagnostics.count == 2, "again in the next turn: \(diagnostics)")
        token.cancel()
    }

    @Test("the built-in pipeline raises no conflict on any bundled, fixture or canned session")
    func builtInsRaiseNone() throws {
        // The fixture consoles' sequences (RealSequenceTests) are replayed through the built-ins with
        // no warning allowed at all; here, the bundled corpus, the fixture logs and the canned sessions.
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/logs")
        let logs = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".jsonl") }
        #expect(!logs.isEmpty)
        for name in logs {
            let text = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
            let outcome = try PluginHarness.replay(text, through: [], companions: Self.builtIns())
            #expect(Self.conflicts(outcome).isEmpty, "\(name): \(Self.conflicts(outcome))")
        }
        for entry in LogCorpus.all {
            let outcome = try PluginHarness.replay(entry.text, through: [], companions: Self.builtIns())
            #expect(Self.conflicts(outcome).isEmpty, "\(entry.name): \(Self.conflicts(outcome))")
        }
        for device in CannedScreens.Device.all {
            for (scene, field, kind) in [
                (CannedScreens.signUp(on: device), ViewID("password"), ViewKind.textField),
                (CannedScreens.login(on: device), "password", .textField), (CannedScreens.textViewInScrollView(on: device), "notes", .textView),
            ] {
                let outcome = try PluginHarness.replay(
                    CannedScreens.session(on: device, scene: scene, focusing: field, kind: kind), header: device.header, through: [],
                    companions: Self.builtIns())
                #expect(Self.conflicts(outcome).isEmpty, "\(device): \(Self.conflicts(outcome))")
            }
        }
    }

    @Test("settings posted alone in a turn, with text-view ordering ahead of avoidance: avoidance decides again in that turn")
    func settingsAloneInATurn() throws {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        for plugin in Self.builtIns() { try bus.register(plugin) }
        let device = CannedScreens.Device.iPhoneX
        bus.post(.scene, CannedScreens.login(on: device))
        bus.post(.didBeginEditing, EditingInfo(view: "password"))
        bus.post(.keyboardWillShow, device.keyboardShow)
        loop.run()
        let moved = bus.screen.rootOriginY
        #expect(moved < 0)
        bus.post(.viewSettings, ViewSettings(view: "password", avoidsKeyboard: false), origin: .derived(by: "P"))
        loop.run()
        #expect(bus.screen.rootOriginY == 0, "taken out of avoidance: the root goes back at once")
        bus.post(.viewSettings, ViewSettings(view: "password", keyboardDistance: 60), origin: .derived(by: "P"))
        loop.run()
        #expect(bus.screen.rootOriginY < moved, "a bigger gap: the root goes further up")
    }

    @Test("a gap that is negative or not finite is not applied, and a warning says so")
    func badGapsRefused() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        var warnings: [Diagnostic] = []
        let token = bus.observe(.diagnostic) { warnings.append($0.payload) }
        bus.post(.scene, CannedScreens.login(on: .iPhoneX))
        for gap in [-1, Double.nan, .infinity] {
            bus.post(.viewSettings, ViewSettings(view: "password", keyboardDistance: gap, avoidsKeyboard: false), origin: .derived(by: "P"))
        }
        #expect(bus.screen.view("password")?.keyboardDistance == nil)
        #expect(bus.screen.view("password")?.avoidsKeyboard == true)
        #expect(warnings.count == 3)
        #expect(warnings.allSatisfy { $0.failure == .notApplied && $0.message.contains("is not a gap") }, "\(warnings)")
        token.cancel()
    }

    @Test("a decision the model refuses is no decision: another plugin's valid one after it is no conflict")
    func refusedDecisionIsNoConflict() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        var conflicts: [Diagnostic] = []
        let token = bus.observe(.diagnostic) { if $0.payload.failure == .conflictingDecisions { conflicts.append($0.payload) } }
        bus.post(.scene, CannedScreens.signUp(on: .iPhoneX))
        bus.post(.focusChange, FocusChange(from: nil, to: "signUpButton"), origin: .derived(by: "A"))
        bus.post(.focusChange, FocusChange(from: nil, to: "email"), origin: .derived(by: "B"))
        bus.post(.focusChange, FocusChange(from: "email", to: "password"), origin: .derived(by: "C"))
        #expect(conflicts.count == 1, "B then C is one; A's refused one is none: \(conflicts)")
        #expect(conflicts.first?.metadata["first"] == "B")
        #expect(conflicts.first?.metadata["target"] == "firstResponder")
        #expect(conflicts.first?.views == ["email", "password"])
        token.cancel()
    }
}
