import EventLog
import Foundation
import ResponderBus
import ResponderBusReplay
import ResponderBusReport
import Testing

/// The bundled example: a sign-up session with its recorded decisions (43 events, 10 derived).
let exampleLog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/responder-bus/Examples/sign-up-session.jsonl").path

/// The header and every record of a log, read with `LogReader`.
func readLog(_ path: String) throws -> (header: LogHeader, records: [LogRecord]) {
    let reader = try LogReader(path: path)
    let header = try reader.readHeader()
    var records: [LogRecord] = []
    while let item = reader.next() {
        guard case .record(let record, _) = item else {
            Issue.record("\(path): \(item)")
            continue
        }
        records.append(record)
    }
    return (header, records)
}

/// What one replay of a log gave: the result, the derived records and the timeline lines, as the
/// session's sink saw them.
struct Replayed {
    var session: ReplaySession
    var result: ReplayResult
    var derived: [LogRecord] = []
    var timeline: [String] = []

    /// The root's origins the plugins decided, in order.
    var shifts: [Double] {
        derived.compactMap {
            guard case .viewShift(let shift) = $0.event else { return nil }
            return shift.originY
        }
    }
}

/// Replays the example (or its records, read first, with `inMemory`) through `description`.
func replayExample(_ description: PipelineDescription = PipelineDescription(), options: ReplaySession.Options = [], inMemory: Bool = false) throws
    -> Replayed
{
    try replayExample(with: ReplayPipeline(description), options: options, inMemory: inMemory)
}

/// Replays the example (or its records, read first, with `inMemory`) through `pipeline`.
func replayExample(with pipeline: ReplayPipeline, options: ReplaySession.Options = [], inMemory: Bool = false) throws -> Replayed {
    let collected = Collector()
    let reader = try LogReader(path: exampleLog)
    let header = try reader.readHeader()
    let session = try ReplaySession(pipeline: pipeline, header: header, options: options, sinks: [collected])
    let summary = inMemory ? session.replay(records: try readLog(exampleLog).records) : session.replay(reader)
    let result = session.finish(summary)
    return Replayed(session: session, result: result, derived: collected.derived, timeline: collected.timeline)
}

@Suite("ReplaySession: the bundled example through the pipeline's sinks")
struct ReplaySessionTests {
    @Test("the built-ins derive exactly the example's recorded decisions")
    func verifies() throws {
        let replayed = try replayExample(options: .verify)
        let result = replayed.result
        #expect(result.summary.externalEvents == 43)
        #expect(result.summary.recordedDerived == 10)
        #expect(result.summary.rejectedLines == 0)
        #expect(result.summary.stoppedAt == nil)
        #expect(result.derived == 10)
        #expect(replayed.derived.count == 10)
        #expect(try #require(result.verification).matched == 10)
        #expect(try #require(result.verification).difference == nil)
        #expect(result.plugins == BuiltinPlugins.names)
        #expect(result.addedPlugins == [])
        #expect(result.violations == [])
        #expect(result.rootOriginY == 0)
        #expect(replayed.shifts == [-23, -129, -169, -223, -283, -168, 0])
        #expect(replayed.session.finish(Replayer.Summary()).derived == 10, "finish again: the same result")
        // Without the verify sink, no verification.
        #expect(try replayExample().result.verification == nil)
    }

    @Test("replay(records:) of the example's records derives and counts exactly what the replay of its text does")
    func recordsInMemory() throws {
        let text = try replayExample(options: .verify)
        let memory = try replayExample(options: .verify, inMemory: true)
        #expect(memory.derived == text.derived)
        #expect(memory.derived.count == 10)
        #expect(memory.result.summary.externalEvents == text.result.summary.externalEvents)
        #expect(memory.result.summary.recordedDerived == text.result.summary.recordedDerived)
        #expect(memory.result.summary.rejectedLines == text.result.summary.rejectedLines)
        #expect(memory.result.summary.warnings == text.result.summary.warnings)
        #expect(memory.result.summary.stoppedAt == nil)
        #expect(memory.result.derived == text.result.derived)
        #expect(memory.result.verification == text.result.verification)
        #expect(memory.result.verification?.matched == 10)
        #expect(memory.result.rootOriginY == text.result.rootOriginY)
        #expect(memory.result.firstResponder == text.result.firstResponder)
    }

    @Test("the records in memory in another order are taken in time order: the same decisions")
    func recordsShuffled() throws {
        let (header, records) = try readLog(exampleLog)
        // Reversed, then put back stably by time: records that share a `t` swap places, which
        // changes what is derived; so reverse only the order of the distinct times.
        var byTime: [[LogRecord]] = []
        for record in records {
            if byTime.last?.first?.t == record.t { byTime[byTime.count - 1].append(record) } else { byTime.append([record]) }
        }
        let shuffled = Array(byTime.reversed().joined())
        let session = try ReplaySession(pipeline: ReplayPipeline(PipelineDescription()), header: header, options: .verify)
        let result = session.finish(session.replay(records: shuffled))
        #expect(result.summary.externalEvents == 43)
        #expect(try #require(result.verification).matched == 10)
        #expect(try #require(result.verification).difference == nil)
    }

    @Test("a keyboard distance of 40 keeps 20 pt more between field and keyboard: the first shift differs from the recorded one")
    func keyboardDistance() throws {
        var description = PipelineDescription()
        description.settings.keyboardDistance = 40
        let replayed = try replayExample(description, options: .verify)
        #expect(replayed.shifts.first == -43)
        let verification = try #require(replayed.result.verification)
        let difference = try #require(verification.difference)
        #expect(difference.number == 1)
        #expect(difference.t == 1.009)
        #expect(difference.expected?.contains(#""originY":-23"#) == true, "\(difference)")
        #expect(difference.got?.contains(#""originY":-43"#) == true, "\(difference)")
        // The default, said explicitly, changes nothing.
        description.settings.keyboardDistance = 20
        #expect(try replayExample(description).shifts == [-23, -129, -169, -223, -283, -168, 0])
    }

    @Test("without KeyboardAvoidance nothing moves the root, and the coverage check finds the fields left covered")
    func withoutAvoidance() throws {
        let replayed = try replayExample(PipelineDescription(disabled: ["KeyboardAvoidance"]), options: [.verify, .coverage])
        #expect(replayed.shifts == [])
        #expect(replayed.derived.count == 3, "FieldAdvancing's two focus changes and its action")
        #expect(replayed.result.plugins == ["TextViewOrdering", "FieldAdvancing"])
        #expect(replayed.result.violations.count == 6)
        #expect(replayed.result.violations.map(\.field.rawValue).contains("bio"))
        #expect(replayed.result.rootOriginY == 0)
        #expect(try #require(replayed.result.verification).difference != nil)
        // With avoidance, no violation; without the coverage sink, none collected.
        #expect(try replayExample(options: .coverage).result.violations == [])
        #expect(try replayExample(PipelineDescription(disabled: ["KeyboardAvoidance"])).result.violations == [])
    }

    @Test("the timeline: a line for every external event and every decision, only with the timeline sink")
    func timeline() throws {
        let replayed = try replayExample(options: .timeline)
        #expect(replayed.timeline.count == 53, "\(replayed.timeline.joined(separator: "\n"))")
        #expect(replayed.timeline.filter { $0.contains("    → ") }.count == 10)
        #expect(replayed.timeline.contains("    1.009    → KeyboardAvoidance: viewShift root to y -23 (0.25 s, curve 7)"))
        #expect(replayed.timeline.contains("    3.000    → FieldAdvancing: focusChange 'name' → 'bio'"))
        #expect(replayed.timeline.first?.hasPrefix("    0.000  scene") == true)
        let ordered = replayed.timeline.firstIndex { $0.contains("returnKey") && $0.contains("in 'name'") }
        let decided = replayed.timeline.firstIndex { $0.contains("focusChange 'name' → 'bio'") }
        #expect(try #require(ordered) < #require(decided))
        #expect(try replayExample().timeline == [])

        let uncovered = try replayExample(PipelineDescription(disabled: ["KeyboardAvoidance"]), options: [.timeline, .coverage])
        #expect(uncovered.timeline.filter { $0.contains("⚠ covered: ") }.count == 6)
    }

    @Test("the report sink: a report document with a row for every record, after finish")
    func report() throws {
        let replayed = try replayExample(options: .report)
        let document = try #require(replayed.session.reportDocument(logName: "sign-up-session.jsonl"))
        #expect(document.recorder.records.count == 53)
        let html = document.html()
        #expect(html.contains("<title>Replay report: sign-up-session.jsonl</title>"))
        #expect(html.components(separatedBy: "<tr id=\"r").count - 1 == 53)
        #expect(html.contains("viewShift"))
        #expect(html.contains("TextViewOrdering → FieldAdvancing → KeyboardAvoidance"))
        #expect(try replayExample().session.reportDocument(logName: "x") == nil, "no report sink, no report")

        let reader = try LogReader(path: exampleLog)
        let session = try ReplaySession(pipeline: ReplayPipeline(PipelineDescription()), header: try reader.readHeader(), options: .report)
        let summary = session.replay(reader)
        #expect(session.reportDocument(logName: "x") == nil, "not before finish")
        _ = session.finish(summary)
        #expect(session.reportDocument(logName: "x") != nil)
    }

    @Test("an in-process plugin sees the log's events, is named among the added plugins, and is made anew for each session")
    func inProcessPlugin() throws {
        let tally = CounterTally()
        let pipeline = try ReplayPipeline(PipelineDescription(plugins: [tally.maker(at: .after("FieldAdvancing"))]))
        let made = tally.madeCount
        let first = try replayExample(with: pipeline, options: .verify)
        let second = try replayExample(with: pipeline, options: .verify, inMemory: true)
        for replayed in [first, second] {
            #expect(replayed.session.addedPlugins == ["KeyboardEventCounter"])
            #expect(replayed.result.addedPlugins == ["KeyboardEventCounter"])
            #expect(replayed.result.plugins == ["TextViewOrdering", "FieldAdvancing", "KeyboardEventCounter", "KeyboardAvoidance"])
            #expect(try #require(replayed.result.verification).difference == nil, "it derives nothing")
        }
        #expect(tally.madeCount == made + 2, "one instance per session")
        // Each session's own instance saw the log's 19 keyboard events, and no other's.
        #expect(tally.seen == [made + 1: 19, made + 2: 19])
    }
}
