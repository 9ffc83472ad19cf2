import FieldAdvancing
import KeyboardAvoidance
import ResponderBusTesting
import Testing
import TextViewOrdering

/// The built-in plugins, fresh, in pipeline order.
@Sendable func builtins() -> [any ResponderPlugin] { [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance()] }

/// Explores `plugins` and returns the finding for `property`, checking what every finding must be:
/// a shrunk session of at most 12 events that still breaks the property, whose log reads back.
func finding(
    _ property: SessionProperty, count: Int = 400, seed: UInt64 = 1, properties: [SessionProperty] = SessionProperty.builtins,
    _ plugins: @escaping @Sendable () -> [any ResponderPlugin]
) throws -> Finding? {
    let explorer = Explorer(seed: seed, properties: properties)
    let report = try explorer.explore(count: count) { PluginTarget(plugins) }
    guard let found = report.findings.first(where: { $0.property == property.name }) else { return nil }
    let records = found.shrunk.records()
    #expect(records.count <= 12, "shrunk to \(records.count) events:\n\(found.shrunk)")
    #expect(records.count <= found.original.records().count)
    let again = try explorer.check(found.shrunk, on: PluginTarget(plugins))
    #expect(again.contains { $0.property == property.name }, "the shrunk session no longer breaks \(property.name): \(again)")
    let reader = LogReader(bytes: Array(found.log.utf8))
    #expect(try reader.readHeader() == found.shrunk.header)
    var read = 0
    while let item = reader.next() { if case .record = item { read += 1 } }
    #expect(read == records.count)
    return found
}

@Suite("A deliberately broken plugin is caught, with a shrunk session of at most 12 events")
struct BrokenPluginTests {
    @Test("coverage: a plugin that moves nothing leaves a field covered")
    func coverage() throws {
        let found = try #require(try finding(.coverage) { [MovesNothing()] })
        #expect(found.failure.message.contains("is covered by"))
    }

    @Test("restored: a plugin that never moves the root back")
    func restored() throws {
        let found = try #require(try finding(.restored) { [NeverRestores()] })
        #expect(found.failure.message.contains("the root's origin is"))
    }

    @Test("one-move: a plugin that moves the root twice for one keyboard frame")
    func oneMove() throws {
        let found = try #require(try finding(.oneMove) { [MovesTwice()] })
        #expect(found.failure.message.contains("moved 2 times for one change"))
    }

    @Test("no-conflict: two plugins that set the root to different places in one turn")
    func noConflict() throws {
        let found = try #require(try finding(.noConflict) { [SetsRoot("Up", originY: -100), SetsRoot("Less", originY: -50)] })
        #expect(found.failure.message.contains("Up") && found.failure.message.contains("Less"), "\(found.failure)")
    }

    @Test("no-fault: a plugin that posts an error, and one that throws")
    func noFault() throws {
        let posted = try #require(try finding(.noFault) { builtins() + [FailsOnReturn()] })
        #expect(posted.failure.message.contains("FailsOnReturn: cannot handle Return"))
        let thrown = try #require(try finding(.noFault) { [ThrowsOnHide()] })
        #expect(thrown.failure.message.contains("ThrowsOnHide"))
    }

    @Test("deterministic: a plugin that decides from state shared between runs")
    func deterministic() throws {
        let found = try #require(try finding(.deterministic) { [RemembersRuns()] })
        #expect(found.failure.message.contains("differs"))
    }

    @Test("a property the plugin declares: the root never moves up more than 100 pt")
    func declared() throws {
        let limit = SessionProperty("root-within-100", "the root moves up at most 100 pt") { settled in
            settled.screen.rootOriginY < -100 ? "the root is at \(settled.screen.rootOriginY)" : nil
        }
        let found = try #require(try finding(limit, properties: SessionProperty.builtins + [limit], builtins))
        #expect(found.failure.property == "root-within-100")
    }
}

@Suite("Exploring the built-ins")
struct BuiltinExplorationTests {
    @Test("the built-ins keep every property on a fixed budget and seed (the CI exploration)")
    func builtinsPass() throws {
        var explorer = Explorer(seed: 2026, workers: 2)
        explorer.generator.maxSteps = 10
        let report = try explorer.explore(count: 6_000) { PluginTarget(builtins) }
        #expect(report.checked == 6_000)
        #expect(report.findings.isEmpty, "\(report.summary)")
    }

    @Test("the same seed gives the same sessions and the same findings, on one thread or two")
    func reproducible() throws {
        let generator = SessionGenerator()
        #expect(generator.session(seed: 99) == generator.session(seed: 99))
        #expect(generator.session(seed: 99) != generator.session(seed: 100))
        #expect(SeededRandom.sessionSeed(42, index: 0) == 42)
        let one = try Explorer(seed: 5).explore(count: 300) { PluginTarget { [NeverRestores()] } }
        let two = try Explorer(seed: 5, workers: 2).explore(count: 300) { PluginTarget { [NeverRestores()] } }
        #expect(one.findings.map(\.index) == two.findings.map(\.index))
        #expect(one.findings.map(\.shrunk) == two.findings.map(\.shrunk))
        #expect(one.findings.map(\.failure) == two.findings.map(\.failure))
        #expect(!one.findings.isEmpty)
    }

    @Test("a time limit stops the checking; the sessions checked are the first ones, as a count of them checks")
    func timeLimit() throws {
        let timed = try Explorer(seed: 3, workers: 2).explore(seconds: 0.3) { PluginTarget { [NeverRestores()] } }
        #expect(timed.checked > 0)
        let counted = try Explorer(seed: 3).explore(count: timed.checked) { PluginTarget { [NeverRestores()] } }
        #expect(timed.findings.map(\.index) == counted.findings.map(\.index))
        #expect(timed.findings.map(\.failingSessions) == counted.findings.map(\.failingSessions))
        #expect(!timed.findings.isEmpty)
        #expect(throws: ExplorationError.self) { try Explorer(seed: 3).explore { PluginTarget(builtins) } }
    }

    @Test("the kit explores a plugin after its companions")
    func kit() throws {
        let clean = try PluginExploration.explore(seed: 11, count: 200, companions: { [TextViewOrdering(), FieldAdvancing()] }) {
            KeyboardAvoidance()
        }
        #expect(clean.findings.isEmpty, "\(clean.summary)")
        let broken = try PluginExploration.explore(seed: 11, count: 200) { NeverRestores() }
        #expect(broken.findings.contains { $0.property == "restored" }, "\(broken.summary)")
        #expect(broken.summary.contains("restored"))
    }
}
