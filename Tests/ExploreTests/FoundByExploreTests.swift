import FieldAdvancing
import KeyboardAvoidance
import ResponderBusTesting
import Testing
import TextViewOrdering

/// Says it broke a property of its own: a diagnostic with `property` in its metadata whenever
/// Return is pressed in a secure field.
final class SaysItBroke: ReturnKeyObserving {
    let name = "SaysItBroke"
    func returnKey(_ event: Event<ReturnKeyInfo>, context: PluginContext) {
        guard context.screen.view(event.payload.view)?.isSecure == true else { return }
        context.diagnose(.warning, "Return in a secure field", metadata: [SessionProperty.metadataKey: "no-return-in-secure"])
    }
}

/// The sessions `explore` found KeyboardAvoidance failing on, each shrunk, kept as tests: each
/// fails without its fix.
@Suite("Found by explore")
struct FoundByExploreTests {
    func check(_ session: GeneratedSession, _ plugins: @escaping @Sendable () -> [any ResponderPlugin] = builtins) throws -> [PropertyFailure] {
        try Explorer(seed: 0).check(session, on: PluginTarget(plugins))
    }

    @Test("a scroll view that runs below the screen is inset down to its bottom, so its last field clears the keyboard")
    func scrollViewBelowTheScreen() throws {
        // iPhone SE in landscape, a hardware keyboard's bar: the form's scroll view runs 80 pt
        // past the screen's bottom; inset by the keyboard's overlap alone, it could not scroll
        // its last field far enough.
        var session = GeneratedSession(
            device: try #require(Device.named("iPhone SE")), keyboard: .hardware(bar: 55),
            groups: [
                .init(container: .none, fields: [.init(id: "f3", kind: .text)]),
                .init(container: .none, fields: [.init(id: "f4", kind: .text), .init(id: "f5", kind: .text)]),
                .init(container: .scrollView, fields: ["f6", "f7", "f8", "f9"].map { .init(id: ViewID($0), kind: .text) }),
            ])
        session.steps = [.init(after: 0.3, .rotate), .init(after: 0.5, .tap("f9"))]
        #expect(try check(session).isEmpty)
    }

    @Test("a field in a scroll view inside another is scrolled by the outer one when the inner one cannot")
    func nestedScrollViews() throws {
        var session = GeneratedSession(
            device: try #require(Device.named("iPhone X")), keyboard: .system(predictionBar: false),
            groups: [
                .init(container: .none, fields: [.init(id: "f1", kind: .text), .init(id: "f2", kind: .text)]),
                .init(container: .scrollView, fields: [.init(id: "f3", kind: .text)]),
                .init(container: .nestedScrollView, fields: [.init(id: "f4", kind: .textView)]),
            ])
        session.steps = [.init(after: 0.8, .rotate), .init(after: 0.5, .tap("f4"))]
        #expect(try check(session).isEmpty)
    }

    @Test("scroll views are put back in the same order on every run")
    func restoreOrder() throws {
        var session = GeneratedSession(
            device: try #require(Device.named("iPhone SE")), keyboard: .system(predictionBar: false),
            groups: [.init(container: .nestedScrollView, fields: [.init(id: "f1", kind: .text)])])
        session.steps = [.init(after: 0, .tap("f1")), .init(after: 0.5, .dismiss)]
        for _ in 0..<30 { #expect(try check(session).isEmpty) }
    }

    @Test("what covered means: a tall text view passes with its top in view, a field below the screen's bottom passes")
    func uncoverable() throws {
        var tall = GeneratedSession(
            device: try #require(Device.named("iPhone SE")), groups: [.init(container: .none, fields: [.init(id: "t", kind: .textView, height: 400)])]
        )
        tall.steps = [.init(after: 0, .tap("t"))]
        #expect(try check(tall).isEmpty)
        // Landscape, a form taller than the screen: the last field lies below the screen's bottom.
        var below = GeneratedSession(
            device: try #require(Device.named("iPhone SE")), orientation: .landscape, placement: .top,
            groups: [.init(container: .none, fields: (1...6).map { .init(id: ViewID("f\($0)"), kind: .text) })])
        below.steps = [.init(after: 0, .tap("f6"))]
        #expect(try check(below).isEmpty)
        // The same field on a screen where it fits is covered when nothing moves.
        var fits = below
        fits.orientation = .portrait
        #expect(try check(fits) { [MovesNothing()] }.map(\.property) == ["coverage"])
    }

    @Test("a property a plugin says it broke is a finding of its own, shrunk")
    func saidByThePlugin() throws {
        let report = try Explorer(seed: 3).explore(count: 600) { PluginTarget { builtins() + [SaysItBroke()] } }
        let found = try #require(report.findings.first { $0.property == "no-return-in-secure" }, "\(report.summary)")
        #expect(found.failure.message == "SaysItBroke: Return in a secure field")
        #expect(found.shrunk.records().count <= 12, "\(found.shrunk)")
    }

    @Test("the built-ins keep every property with the settle window on")
    func settleWindow() throws {
        let report = try Explorer(seed: 9).explore(count: 1_500) {
            PluginTarget { [TextViewOrdering(settleWindow: .milliseconds(30)), FieldAdvancing(), KeyboardAvoidance()] }
        }
        #expect(report.findings.isEmpty, "\(report.summary)")
    }
}

@Suite("The properties on real sessions")
struct RealSessionPropertyTests {
    @Test("the built-ins keep every property a replay can check on each real session of the bundled corpus")
    func corpus() throws {
        let explorer = Explorer(seed: 0, properties: SessionProperty.builtins)
        var broken: [String] = []
        for entry in LogCorpus.all {
            let reader = LogReader(bytes: Array(entry.text.utf8))
            let header = try reader.readHeader()
            var records: [LogRecord] = []
            while let item = reader.next() {
                if case .record(let record, _) = item, record.origin == .external { records.append(record) }
            }
            let failures = try explorer.check(header: header, records: records, on: PluginTarget(builtins))
            broken += failures.map { "\(entry.name): \($0)" }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }
}

/// Fails on the iPad's split keyboard alone: an error when a keyboard's frame lies above the screen.
final class FailsOnSplit: KeyboardObserving {
    let name = "FailsOnSplit"
    func keyboardEvent(_ event: Event<KeyboardInfo>, context: PluginContext) {
        if let end = event.payload.end, end.minY < 0 { context.diagnose(.error, "a keyboard above the screen") }
    }
}

/// Fails on every scene.
final class FailsOnScene: EventObserving {
    let name = "FailsOnScene"
    var observedEvents: Set<AnyEventName>? { [EventName.scene.erased] }
    func observe(_ event: AnyEvent, context: PluginContext) { context.diagnose(.error, "no scenes, please") }
}

@Suite("Shrinking stays where the generator goes")
struct ShrinkingTests {
    @Test("a finding on the iPad's split keyboard shrinks to an iPad, never to an iPhone with a split keyboard")
    func staysOnAnIPad() throws {
        let report = try Explorer(seed: 2).explore(count: 800) { PluginTarget { [FailsOnSplit()] } }
        let found = try #require(report.findings.first { $0.property == "no-fault" }, "\(report.summary)")
        #expect(found.shrunk.device.idiom == .pad, "\(found.shrunk)")
        #expect(found.shrunk.keyboard == .split)
    }

    @Test("a failure on the scene alone shrinks to no step at all")
    func noStep() throws {
        let report = try Explorer(seed: 2).explore(count: 5) { PluginTarget { [FailsOnScene()] } }
        let found = try #require(report.findings.first { $0.property == "no-fault" }, "\(report.summary)")
        #expect(found.shrunk.steps.isEmpty && found.shrunk.records().count == 1, "\(found.shrunk)")
    }

    @Test("the generator's containers bound the shrinking: a chat bar finding stays in a chat bar")
    func containers() throws {
        var explorer = Explorer(seed: 1)
        explorer.generator = SessionGenerator(containers: [.chatBar])
        let report = try explorer.explore(count: 100) { PluginTarget { [MovesNothing()] } }
        let found = try #require(report.findings.first { $0.property == "coverage" }, "\(report.summary)")
        #expect(found.shrunk.groups.map(\.container) == [.chatBar], "\(found.shrunk)")
    }
}
