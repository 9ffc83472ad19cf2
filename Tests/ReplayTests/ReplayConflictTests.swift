import EventLog
import ResponderBus
import ResponderBusReplay
import Testing

/// Moves the root on every keyboard frame change, as avoidance does, to a place of its own.
private final class RootMover: KeyboardObserving {
    let name = "RootMover"
    func keyboardWillChangeFrame(_ event: Event<KeyboardInfo>, context: PluginContext) {
        context.post(.viewShift, ViewShift(originY: -100))
    }
}

@Suite("A replay's conflicts between plugins, and the pipeline that allows them")
struct ReplayConflictTests {
    @Test("a replay's result lists the conflicts the bus named, with their log time and both plugins; the built-ins alone have none")
    func resultListsConflicts() throws {
        let plain = try replayExample()
        #expect(plain.result.conflicts.isEmpty)
        let fought = try replayExample(PipelineDescription(plugins: [PluginMaker { RootMover() }]))
        let conflicts = fought.result.conflicts
        #expect(conflicts.count == 5, "one per turn the keyboard moves in: \(conflicts)")
        let first = try #require(conflicts.first)
        #expect(first.t == 1)
        #expect(first.first == "RootMover" && first.second == "KeyboardAvoidance")
        #expect(first.involves("RootMover") && !first.involves("FieldAdvancing"))
        #expect(first.message.contains("'RootMover' and 'KeyboardAvoidance' fight over the root in one turn"), "\(first.message)")
        #expect(conflicts.map(\.t) == conflicts.map(\.t).sorted())
        // Collected whatever the session's options: the same with the timeline and the coverage check.
        let withOptions = try replayExample(PipelineDescription(plugins: [PluginMaker { RootMover() }]), options: [.timeline, .coverage])
        #expect(withOptions.result.conflicts == conflicts)
    }

    @Test("a diagnostic that is no conflict makes none")
    func onlyConflicts() {
        #expect(ReplayResult.Conflict(Diagnostic(level: .warning, message: "m"), t: 1) == nil)
        let conflict = ReplayResult.Conflict(
            Diagnostic(level: .warning, message: "m", failure: .conflictingDecisions, metadata: ["first": "A", "second": "B"]), t: 2)
        #expect(conflict == ReplayResult.Conflict(t: 2, message: "m", first: "A", second: "B"))
    }

    @Test("allowsConflicts: a project file's \"allowConflicts\" sets it; options allow them too, and never take the file's allowing back")
    func allowsConflicts() throws {
        #expect(!PipelineDescription().allowsConflicts)
        let allowing = try PipelineDescription(projectFile: ProjectFile(parsing: #"{"allowConflicts": true}"#, path: "/p/.responder-bus.json"))
        #expect(allowing.allowsConflicts)
        let refusing = try PipelineDescription(projectFile: ProjectFile(parsing: #"{"allowConflicts": false}"#, path: "/p/.responder-bus.json"))
        #expect(!refusing.allowsConflicts)
        #expect(allowing.overridden(by: PipelineDescription()).allowsConflicts)
        #expect(refusing.overridden(by: PipelineDescription(allowsConflicts: true)).allowsConflicts)
        #expect(!refusing.overridden(by: PipelineDescription()).allowsConflicts)
        // A misspelt key is ignored with a warning naming what it meant (replay goes on; test refuses
        // the file): conflicts stay failures.
        let typo = try ProjectFile(parsing: "{\n\"allowConflict\": true}", path: "/p/.responder-bus.json")
        #expect(typo.allowConflicts == nil)
        #expect(typo.warnings.count == 1)
        #expect(
            typo.warnings.first?.hasPrefix(
                "/p/.responder-bus.json:2: unknown key 'allowConflict' (ignored); did you mean 'allowConflicts'? the keys are ") == true)
        #expect(typo.warnings.first?.contains("allowConflicts") == true)
        #expect(!(try PipelineDescription(projectFile: typo)).allowsConflicts)
    }
}
