import FieldAdvancing
import KeyboardAvoidance
import ResponderBusTesting
import Synchronization
import Testing
import TextViewOrdering

/// Plugins that break the rules, to show the conformance suite catches each.
enum Misbehaving {
    /// Derives a different number each replay: a global counter shared by every instance.
    final class Nondeterministic: KeyboardObserving {
        static let counter = Atomic<Int>(0)
        func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
            let n = Self.counter.add(1, ordering: .relaxed).newValue
            context.diagnose(.info, "show number \(n)")
        }
    }

    /// Throws on every show.
    final class Thrower: KeyboardObserving {
        struct Oops: Error {}
        func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) throws { throw Oops() }
    }

    /// Checks avoidance's decisions, so it is placed after it.
    final class AfterAvoidance: TurnObserving {
        var preferredPosition: PluginPosition? { .after("KeyboardAvoidance") }
        func turnDidSettle(context: PluginContext) {}
    }

    /// Has no name, so what it derives has an empty "by".
    final class Nameless: ReturnKeyObserving {
        var name: String { "" }
        func returnKey(_ event: Event<ReturnKeyInfo>, context: PluginContext) {
            context.diagnose(.info, "return")
        }
    }

    /// Observes only the scene, but keeps talking on a timer, long after (after its removal the bus
    /// drops what it says).
    final class Chatty: EventObserving {
        var observedEvents: Set<AnyEventName>? { [EventName.scene.erased] }
        func observe(_ event: AnyEvent, context: PluginContext) {
            func tick(_ n: Int) {
                guard n < 20 else { return }
                context.loop.schedule(after: .milliseconds(500)) {
                    context.diagnose(.info, "tick \(n)")
                    tick(n + 1)
                }
            }
            tick(0)
        }
    }
}

@Suite("The conformance suite catches what it promises to")
struct ConformanceSuiteTests {
    static let corpus = [LogCorpus.named("sign-up-session")!, LogCorpus.named("edge-text-view-order")!]

    func failedChecks(_ make: @escaping () -> any ResponderPlugin) -> Set<String> {
        Set(PluginConformance(corpus: Self.corpus, make).failures().map(\.check))
    }

    @Test("a plugin whose output differs between two replays fails determinism")
    func determinism() {
        #expect(failedChecks { Misbehaving.Nondeterministic() }.contains("determinism"))
    }

    @Test("a plugin that throws fails 'no errors', naming the log and the error")
    func errors() throws {
        let failures = PluginConformance(corpus: Self.corpus) { Misbehaving.Thrower() }.failures()
        let failure = try #require(failures.first { $0.check == "no errors" })
        #expect(failure.message.contains("sign-up-session"))
        #expect(failure.message.contains("Oops"))
    }

    @Test("a plugin without a name fails 'name' and 'by'")
    func nameless() {
        let checks = failedChecks { Misbehaving.Nameless() }
        #expect(checks.isSuperset(of: ["name", "by"]))
    }

    @Test("a plugin that talks without cause fails silence")
    func chatty() {
        let checks = failedChecks { Misbehaving.Chatty() }
        #expect(checks.contains("silence"))
        // Removal is enforced by the bus: its timers' posts after removal are dropped.
        #expect(!checks.contains("add/remove"))
    }

    @Test("a plugin placed after KeyboardAvoidance without it as a companion fails once, saying to pass companions; with them it passes")
    func positionWithoutCompanions() throws {
        let failures = PluginConformance(corpus: Self.corpus) { Misbehaving.AfterAvoidance() }.failures()
        #expect(failures.count == 1)
        let failure = try #require(failures.first)
        #expect(failure.check == "position")
        #expect(failure.message.contains("'KeyboardAvoidance'") && failure.message.contains("companions"))
        let builtIns: () -> [any ResponderPlugin] = { [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance()] }
        #expect(PluginConformance(corpus: Self.corpus, companions: builtIns) { Misbehaving.AfterAvoidance() }.failures().isEmpty)
        // The harness says the same when it cannot place the plugin.
        let log = try #require(LogCorpus.named("sign-up-session")).text
        #expect {
            try PluginHarness.replay(log, through: [Misbehaving.AfterAvoidance()])
        } throws: { error in
            "\(error)".contains("no plugin named 'KeyboardAvoidance'") && "\(error)".contains("companions")
        }
    }

    @Test("check() throws every failure at once, one per line")
    func throwsAll() {
        #expect {
            try PluginConformance(corpus: Self.corpus) { Misbehaving.Thrower() }.check()
        } throws: { error in
            "\(error)".contains("conformance check") && "\(error)".contains("- no errors:")
        }
    }

    @Test("the corpus holds the example, every importable real dump, and the edge cases, all readable")
    func corpus() throws {
        let names = LogCorpus.all.map(\.name)
        #expect(names.contains("sign-up-session"))
        #expect(names.filter { $0.hasPrefix("ios-") }.count >= 15)
        #expect(names.filter { $0.hasPrefix("edge-") }.count == 3)
        for entry in LogCorpus.all {
            let outcome = try PluginHarness.replay(entry.text, through: [])
            #expect(outcome.problems.isEmpty, "\(entry.name): \(outcome.problems)")
        }
    }

    @Test("canned screens: each form's fields sit where the docked keyboard covers them", arguments: CannedScreens.Device.all)
    func cannedScreens(_ device: CannedScreens.Device) throws {
        for scene in [CannedScreens.signUp(on: device), CannedScreens.login(on: device)] {
            let screen = Screen(size: device.screen, safeArea: device.safeArea)
            try screen.load(scene)
            let covered = screen.textInputs.filter { screen.frameInScreen(of: $0).maxY + 20 > device.dockedKeyboard.minY }
            #expect(!covered.isEmpty)
        }
        let scrolling = Screen(size: device.screen)
        try scrolling.load(CannedScreens.textViewInScrollView(on: device))
        #expect(scrolling.view("notes")?.enclosingScrollView?.id == "scroller")
    }
}
