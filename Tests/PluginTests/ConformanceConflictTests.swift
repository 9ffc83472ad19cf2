import FieldAdvancing
import KeyboardAvoidance
import PasswordGap
import ResponderBus
import ResponderBusTesting
import Testing
import TextViewOrdering

/// The "second mover": it moves the root on every keyboard event, as avoidance does, to a
/// place of its own, and so fights avoidance in every turn the keyboard moves in.
final class SecondMover: KeyboardObserving {
    let name = "SecondMover"
    let position: PluginPosition?
    init(position: PluginPosition? = nil) { self.position = position }
    var preferredPosition: PluginPosition? { position }
    func keyboardWillChangeFrame(_ event: Event<KeyboardInfo>, context: PluginContext) {
        context.post(.viewShift, ViewShift(originY: -100))
    }
}

@Suite("The conformance suite fails a plugin that fights the built-ins, and says where it runs")
struct ConformanceConflictTests {
    static let corpus = [LogCorpus.named("sign-up-session")!, LogCorpus.named("edge-text-view-order")!]
    static func builtIns() -> [any ResponderPlugin] { [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance()] }

    @Test("a second mover after the built-ins fails 'no conflicts', once per session, naming the session, the time and the fight")
    func secondMoverAfter() throws {
        let failures = PluginConformance(corpus: Self.corpus, companions: Self.builtIns) { SecondMover() }.failures()
        let conflicts = failures.filter { $0.check == "no conflicts" }
        #expect(conflicts.count == 2, "one per session: \(conflicts)")
        #expect(failures.count == conflicts.count, "no other check fails: \(failures)")
        let first = try #require(conflicts.first)
        #expect(first.message.hasPrefix("sign-up-session, t "), "\(first.message)")
        #expect(first.message.contains("'SecondMover' and 'KeyboardAvoidance' fight over the root in one turn"), "\(first.message)")
        #expect(first.message.contains("conflicts in this session)"), "\(first.message)")
        #expect(conflicts.last?.message.hasPrefix("edge-text-view-order, t ") == true)
        #expect {
            try PluginConformance(corpus: Self.corpus, companions: Self.builtIns) { SecondMover() }.check()
        } throws: { error in
            "\(error)".contains("- no conflicts: sign-up-session, t ")
        }
    }

    @Test("placed before avoidance, it fights too")
    func secondMoverBefore() {
        let suite = PluginConformance(corpus: Self.corpus, companions: Self.builtIns) { SecondMover(position: .before("KeyboardAvoidance")) }
        #expect(Set(suite.failures().map(\.check)) == ["no conflicts"])
    }

    @Test("a plugin that cooperates through the model (PasswordGap) fails nothing, nor do conflicts between its companions")
    func cooperating() {
        #expect(PluginConformance(corpus: Self.corpus, companions: Self.builtIns) { PasswordGap() }.failures().isEmpty)
        // Two companions fight; the plugin checked is in neither conflict.
        let fighting = PluginConformance(corpus: Self.corpus, companions: { Self.builtIns() + [SecondMover()] }) { PasswordGap() }
        #expect(fighting.failures().isEmpty)
        // Alone, the second mover has no one to fight: the check is against the companions given.
        #expect(PluginConformance(corpus: Self.corpus) { SecondMover() }.failures().isEmpty)
        #expect(PluginConformance.checks.map(\.name).contains("no conflicts"))
    }

    @Test("placement: where its position puts it among the companions, else last")
    func placement() throws {
        let before = try PluginConformance(companions: Self.builtIns) { SecondMover(position: .before("KeyboardAvoidance")) }.placement()
        #expect(before == .init(after: ["TextViewOrdering", "FieldAdvancing"], before: ["KeyboardAvoidance"]))
        let last = try PluginConformance(companions: Self.builtIns) { SecondMover() }.placement()
        #expect(last == .init(after: ["TextViewOrdering", "FieldAdvancing", "KeyboardAvoidance"], before: []))
        let first = try PluginConformance(companions: Self.builtIns) { SecondMover(position: .first) }.placement()
        #expect(first == .init(after: [], before: ["TextViewOrdering", "FieldAdvancing", "KeyboardAvoidance"]))
        #expect(throws: PluginRegistrationError.self) {
            try PluginConformance { SecondMover(position: .after("KeyboardAvoidance")) }.placement()
        }
    }
}
