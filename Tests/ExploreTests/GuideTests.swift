import FieldAdvancing
import Foundation
import KeyboardAvoidance
import ResponderBusTesting
import Testing
import TextViewOrdering

// The plugin of the guide "Finding keyboard bugs before users do" in its three versions, as the
// guide's listings write them, and what exploring each finds.

/// Version 1: lifts the root on the keyboard's events, measuring the field where it is now.
final class LiftOnKeyboardEvents: KeyboardObserving {
    let name = "Lift"
    func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
        let screen = context.screen
        guard let field = screen.firstResponder, let covering = context.keyboard.coveredPart else { return }
        let lift = min(max(0, screen.frameInScreen(of: field).maxY + 20 - covering.minY), covering.height)
        context.post(.viewShift, ViewShift(originY: screen.restingRootOriginY - lift))
    }
    func keyboardWillHide(_ event: Event<KeyboardInfo>, context: PluginContext) {
        context.post(.viewShift, ViewShift(originY: context.screen.restingRootOriginY))
    }
}

/// Versions 2 and 3: decides once a turn has settled (after TextViewOrdering), measuring the field
/// where it is now (2) or where it rests (3).
final class Lift: TurnSettledObserving {
    let name = "Lift"
    let measuresAtRest: Bool
    init(measuresAtRest: Bool) { self.measuresAtRest = measuresAtRest }

    func turnSettled(_ event: Event<TurnSettled>, context: PluginContext) {
        let screen = context.screen
        var target = screen.restingRootOriginY
        if let field = screen.firstResponder, let covering = context.keyboard.coveredPart {
            let bottom = screen.frameInScreen(of: field, unmoved: measuresAtRest).maxY + 20
            target -= min(max(0, bottom - covering.minY), covering.height)
        }
        if target != screen.rootOriginY { context.post(.viewShift, ViewShift(originY: target)) }
    }
}

@Suite("The guide's plugin")
struct GuideTests {
    /// The guide: what each exploration printed must be in it, word for word.
    static let article: String = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ResponderBusExplore/ResponderBusExplore.docc/FindingKeyboardBugsBeforeUsersDo.md")
        return (try? String(contentsOf: path, encoding: .utf8)) ?? ""
    }()

    let companions: @Sendable () -> [any ResponderPlugin] = { [TextViewOrdering(), FieldAdvancing()] }
    /// Forms in the root: the plugin leaves scroll views alone.
    let forms = SessionGenerator(containers: [.none])

    @Test("version 1 leaves a text view covered and moves twice on a rotation; the findings are the guide's")
    func version1() throws {
        let report = try PluginExploration.explore(seed: 1, count: 2_000, generator: forms, companions: companions) { LiftOnKeyboardEvents() }
        #expect(report.findings.map(\.property) == ["coverage", "one-move"], "\(report.summary)")
        #expect(Self.article.contains(report.summary), "the guide shows another summary than:\n\(report.summary)")
        let log = try #require(report.findings.first).log
        #expect(log.split(separator: "\n").count == 7, "\(log)")
    }

    @Test("version 2 decides once a turn, but measures a moved field: it moves back and forth")
    func version2() throws {
        let report = try PluginExploration.explore(seed: 1, count: 2_000, generator: forms, companions: companions) { Lift(measuresAtRest: false) }
        #expect(report.findings.map(\.property) == ["coverage", "one-move"], "\(report.summary)")
        #expect(Self.article.contains(report.summary), "the guide shows another summary than:\n\(report.summary)")
    }

    @Test("version 3 keeps every property")
    func version3() throws {
        let report = try PluginExploration.explore(seed: 1, count: 2_000, generator: forms, companions: companions) { Lift(measuresAtRest: true) }
        #expect(report.findings.isEmpty, "\(report.summary)")
        #expect(Self.article.contains(report.summary))
    }
}
