import EventLog
import FieldAdvancing
import KeyboardAvoidance
import ResponderBus
import Testing
import TextViewOrdering

/// Replays a log text through the built-in plugins on the virtual-time loop.
final class TurnCursor {
    let loop = VirtualTimeLoop()
    let bus: Bus
    let replayer: Replayer
    var derived: [LogRecord] = []
    var problems: [LogReadError] = []
    var recordedDerived: [LogRecord] = []
    let verifier = DerivedVerifier()
    var check: CoverageCheck?
    private var recorder: LogRecorder?

    init(plugins: [any ResponderPlugin] = [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance()], check: Bool = false) {
        bus = Bus(loop: loop)
        for plugin in plugins { try! bus.register(plugin) }
        replayer = Replayer(bus: bus)
        recorder = LogRecorder(bus: bus, selection: .derived) { [unowned self] record in
            derived.append(record)
            verifier.addProduced(record)
        }
        if check { self.check = CoverageCheck(bus: bus) }
        replayer.onProblem = { [unowned self] in problems.append($0) }
        replayer.onRecordedDerived = { [unowned self] record, location in
            recordedDerived.append(record)
            verifier.addRecorded(record, at: location)
        }
    }

    @discardableResult
    func run(_ text: String, strict: Bool = false, readAhead: Bool = true) throws -> Replayer.Summary {
        let reader = LogReader(bytes: Array(text.utf8))
        replayer.apply(try reader.readHeader())
        return replayer.replay(reader, on: loop, strict: strict, readAhead: readAhead)
    }
}

@Suite("Replayer, verifier and coverage check")
struct ReplayerTests {
    static let scene =
        #"{"t":0,"event":"scene","lastFieldAction":"signIn","root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[{"id":"email","kind":"textField","tag":1,"frame":[20,560,335,44]},{"id":"notes","kind":"textView","tag":2,"frame":[20,620,335,120]}]}}"#
    static let show = #""begin":[0,812,375,291],"end":[0,521,375,291],"duration":0.25,"curve":7,"isLocal":true"#

    static let session =
        [
            header, scene,
            #"{"t":0.5,"event":"didBeginEditing","view":"email"}"#,
            #"{"t":0.51,"event":"keyboardWillChangeFrame",\#(show)}"#,
            #"{"t":0.51,"event":"keyboardWillShow",\#(show)}"#,
            #"{"t":2,"event":"returnKey","view":"email"}"#,
            #"{"t":2.01,"event":"didBeginEditing","view":"notes"}"#,
            #"{"t":3,"event":"keyboardWillHide","begin":[0,521,375,291],"end":[0,812,375,291],"duration":0.25,"curve":7}"#,
        ].joined(separator: "\n") + "\n"

    @Test("external events drive the plugins at their recorded times; same-t events share a turn")
    func replay() throws {
        let run = TurnCursor()
        let summary = try run.run(Self.session)
        #expect(summary.externalEvents == 7)
        #expect(run.problems.isEmpty)
        // email 560…604 → 521 − 624 = −103; notes 620…740 → 521 − 760 = −239; hide → 0.
        #expect(
            run.derived.map { LogWriter.line(for: $0) } == [
                #"{"by":"KeyboardAvoidance","curve":7,"duration":0.25,"event":"viewShift","origin":"derived","originY":-103,"t":0.51}"#,
                #"{"by":"FieldAdvancing","event":"focusChange","from":"email","origin":"derived","t":2,"to":"notes"}"#,
                #"{"by":"KeyboardAvoidance","curve":7,"duration":0.25,"event":"viewShift","origin":"derived","originY":-239,"t":2}"#,
                #"{"by":"KeyboardAvoidance","curve":7,"duration":0.25,"event":"viewShift","origin":"derived","originY":0,"t":3}"#,
            ])
        #expect(run.bus.screen.rootOriginY == 0)
    }

    @Test("verify: a log with its own recorded decisions matches; a changed one shows the first difference")
    func verify() throws {
        let first = TurnCursor()
        try first.run(Self.session)
        var lines = Self.session.split(separator: "\n").map(String.init)
        let recorded = first.derived.map { LogWriter.line(for: $0) }
        // Interleave by time: each derived record after the external ones of its time.
        lines.insert(contentsOf: recorded[0...0], at: 5)
        lines.insert(contentsOf: recorded[1...2], at: 7)
        lines.append(recorded[3])
        let good = TurnCursor()
        try good.run(lines.joined(separator: "\n"))
        #expect(good.verifier.finish() == nil)
        #expect(good.verifier.matched == 4)

        lines[5] = lines[5].replacingOriginY(-103, with: -100)
        let bad = TurnCursor()
        try bad.run(lines.joined(separator: "\n"))
        let difference = try #require(bad.verifier.finish())
        #expect(difference.contains("#1"))
        #expect(difference.contains("-100"))
        #expect(difference.contains("-103"))
        #expect(difference.contains("line 6"))
    }

    @Test("check: a field left covered after the keyboard settles is reported once; with avoidance nothing is")
    func check() throws {
        let unavoided = TurnCursor(plugins: [], check: true)
        try unavoided.run(Self.session)
        let violations = try #require(unavoided.check?.violations)
        // Without field advancing, Return leaves the focus on email; the recorded echo then moves it
        // to notes, also covered.
        #expect(violations.map(\.field) == ["email", "notes"])
        #expect(violations.first?.t == 0.76)
        #expect(violations.first?.coveredHeight == 44)
        #expect(violations.last?.coveredHeight == 120)

        let avoided = TurnCursor(check: true)
        try avoided.run(Self.session)
        #expect(avoided.check?.violations == [])
    }

    @Test("unknown view ids are rejected with their line and column, and skipped")
    func unknownView() throws {
        let text = [header, Self.scene, #"{"t":1,"event":"didBeginEditing","view":"ghost"}"#, #"{"t":2,"event":"didBeginEditing","view":"email"}"#]
            .joined(separator: "\n")
        let run = TurnCursor()
        let summary = try run.run(text)
        #expect(summary.externalEvents == 2)
        #expect(summary.rejectedLines == 1)
        #expect(run.problems.first?.code == .unknownView)
        #expect(run.problems.first?.line == 3)
        #expect(run.problems.first?.column == 41)
        #expect(run.bus.screen.firstResponder?.id == "email")
    }

    @Test("strict stops at the first rejected line")
    func strict() throws {
        let text = [header, Self.scene, #"{"t":1,"event":"nope"}"#, #"{"t":2,"event":"didBeginEditing","view":"email"}"#].joined(separator: "\n")
        let run = TurnCursor()
        let summary = try run.run(text, strict: true)
        #expect(summary.stoppedAt?.code == .unknownEvent)
        #expect(summary.externalEvents == 1)
        #expect(run.bus.screen.firstResponder == nil)
    }
}

@Suite("Replayer, reading ahead on a second thread")
struct ReplayerReadAheadTests {
    /// A long session (many read-ahead batches): fields focused in turn with the keyboard showing
    /// and hiding, Return, recorded derived lines, and now and then a bad line, an unknown view or
    /// an unknown event.
    static func longLog(turns: Int) -> String {
        var lines = [header, ReplayerTests.scene]
        let show = ReplayerTests.show
        for turn in 0..<turns {
            let t = Double(turn) + 1
            let field = turn % 2 == 0 ? "email" : "notes"
            lines.append(#"{"t":\#(t),"event":"didBeginEditing","view":"\#(field)"}"#)
            lines.append(#"{"t":\#(t),"event":"keyboardWillChangeFrame",\#(show)}"#)
            lines.append(#"{"t":\#(t),"event":"keyboardWillShow",\#(show)}"#)
            switch turn % 7 {
            case 1: lines.append(#"{"t":\#(t + 0.5),"event":"returnKey","view":"email"}"#)
            case 2: lines.append(#"{"t":\#(t + 0.5),"event":"didBeginEditing","view":"ghost"}"#)
            case 3: lines.append(#"{"t":\#(t + 0.5),"event":"#)
            case 4: lines.append(#"{"t":\#(t + 0.5),"event":"nope"}"#)
            case 5: lines.append(#"{"by":"KeyboardAvoidance","event":"viewShift","origin":"derived","originY":-1,"t":\#(t + 0.5)}"#)
            default: break
            }
            lines.append(#"{"t":\#(t + 0.75),"event":"keyboardWillHide","begin":[0,521,375,291],"end":[0,812,375,291],"duration":0.25,"curve":7}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    struct Outcome: Equatable {
        var derived: [String]
        var problems: [String]
        var recorded: [String]
        var external: Int
        var rejected: Int
        var stoppedAt: String?

        init(_ run: TurnCursor, _ summary: Replayer.Summary) {
            derived = run.derived.map { LogWriter.line(for: $0) }
            problems = run.problems.map { "\($0.line):\($0.column) \($0.code) \($0.message)" }
            recorded = run.recordedDerived.map { LogWriter.line(for: $0) }
            external = summary.externalEvents
            rejected = summary.rejectedLines
            stoppedAt = summary.stoppedAt.map { "\($0.line):\($0.column) \($0.code)" }
        }
    }

    @Test("what is posted, reported and recorded is the same with and without reading ahead", arguments: [false, true])
    func sameOutcome(strict: Bool) throws {
        let log = Self.longLog(turns: 1_500)  // about 6,000 lines: many batches of 256
        let ahead = TurnCursor()
        let withReadAhead = Outcome(ahead, try ahead.run(log, strict: strict, readAhead: true))
        let inline = TurnCursor()
        let withoutReadAhead = Outcome(inline, try inline.run(log, strict: strict, readAhead: false))
        #expect(withReadAhead == withoutReadAhead)
        if strict {
            // Turn 2's didBeginEditing of "ghost" (line 15), after the scene and the 12 events before it.
            #expect(withReadAhead.stoppedAt == "15:43 unknownView")
            #expect(withReadAhead.external == 13)
        } else {
            #expect(withReadAhead.external > 5_000)
            #expect(withReadAhead.rejected > 600)
            #expect(withReadAhead.recorded.count > 200)
            #expect(withReadAhead.derived.count > 3_000)
        }
    }

    @Test("a real-time replay groups turns as the fast one does: same posts, problems, recorded records and summary", arguments: [false, true])
    func realTimeMatchesFast(strict: Bool) throws {
        let log = Self.longLog(turns: 300)
        let fast = TurnCursor()
        let fastOutcome = Outcome(fast, try fast.run(log, strict: strict))
        // The real-time replay, paced by a second virtual-time loop standing for the wall clock.
        let paced = TurnCursor()
        let reader = LogReader(bytes: Array(log.utf8))
        paced.replayer.apply(try reader.readHeader())
        var finished: Replayer.Summary?
        let driver = VirtualTimeLoop()
        paced.replayer.replayInRealTime(reader, on: driver, strict: strict) { finished = $0 }
        driver.runUntilQuiet(limit: 1_000_000)
        let summary = try #require(finished)
        #expect(Outcome(paced, summary) == fastOutcome)
        #expect(paced.replayer.currentSummary.externalEvents == summary.externalEvents)
    }

    @Test("logClock times a recorder's records as logTime does, fast and in real time, and does not keep the replayer")
    func logClock() throws {
        var timesByReplay: [[Double]] = []
        for realTime in [false, true] {
            let loop = VirtualTimeLoop()
            let bus = Bus(loop: loop)
            for plugin: any ResponderPlugin in [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance()] { try bus.register(plugin) }
            var replayer: Replayer? = Replayer(bus: bus)
            weak let gone = replayer
            var viaClock: [Double] = []
            var viaProperty: [Double] = []
            let clocked = LogRecorder(bus: bus, selection: .derived, clock: replayer!.logClock) { viaClock.append($0.t) }
            let read = LogRecorder(bus: bus, selection: .derived, clock: { [unowned replayer = replayer!] in replayer.logTime }) {
                viaProperty.append($0.t)
            }
            let reader = LogReader(bytes: Array(ReplayerTests.session.utf8))
            replayer!.apply(try reader.readHeader())
            if realTime {
                var finished = false
                let driver = VirtualTimeLoop()
                replayer!.replayInRealTime(reader, on: driver) { _ in finished = true }
                driver.runUntilQuiet(limit: 1_000_000)
                #expect(finished)
            } else {
                _ = replayer!.replay(reader, on: loop)
            }
            #expect(viaClock == viaProperty)
            #expect(viaClock == [0.51, 2, 2, 3])
            timesByReplay.append(viaClock)
            // The clock holds the replay's time, not the replayer.
            let clock = replayer!.logClock
            replayer = nil
            #expect(gone == nil)
            #expect(clock() >= 3)
            _ = (clocked, read)
        }
        #expect(timesByReplay[0] == timesByReplay[1])
    }

    @Test("after a strict stop the reader can be read on: the read-ahead thread has been stopped and joined")
    func readerIsFreeAfterStrictStop() throws {
        let log = Self.longLog(turns: 1_500)
        let run = TurnCursor()
        let reader = LogReader(bytes: Array(log.utf8))
        run.replayer.apply(try reader.readHeader())
        let summary = run.replayer.replay(reader, on: run.loop, strict: true)
        #expect(summary.stoppedAt != nil)
        // The thread read ahead of the stop and is gone: the rest of the input is still there to read.
        var rest = 0
        while reader.next() != nil { rest += 1 }
        #expect(rest > 0)
        #expect(reader.bytesConsumed == log.utf8.count)
    }
}

extension String {
    func replacingOriginY(_ old: Int, with new: Int) -> String {
        let parts = split(separator: "\"originY\":\(old)", omittingEmptySubsequences: false)
        return parts.joined(separator: "\"originY\":\(new)")
    }
}
