import EventLog
import Foundation
import ResponderBus
import Testing

@Suite("Values a replay cannot use are refused where they are read, never trapped on")
struct ReplayLimitsTests {
    private func lines(_ records: String...) -> String { ([header] + records).joined(separator: "\n") }

    @Test("a t in Unix milliseconds is rejected with its line, column and a hint; lenient replay goes on, strict stops")
    func timeInMilliseconds() throws {
        let text = lines(
            ReplayerTests.scene,
            #"{"t":1700000000000,"event":"keyboardWillShow","end":[0,500,375,312]}"#,
            #"{"t":2,"event":"didBeginEditing","view":"email"}"#)
        let run = TurnCursor()
        let summary = try run.run(text)
        #expect(summary.rejectedLines == 1)
        #expect(summary.externalEvents == 2)
        let problem = try #require(run.problems.first)
        #expect(problem.code == .invalidValue)
        #expect(problem.line == 3)
        #expect(problem.column == 6)
        #expect(problem.message.contains("milliseconds"))

        let strict = TurnCursor()
        #expect(try strict.run(text, strict: true).stoppedAt?.line == 3)
    }

    @Test(
        "the largest replayable t is accepted; anything above it, or not finite, is not",
        arguments: [
            (LogLimits.maximumSeconds, true), (LogLimits.maximumSeconds * 1.0000001, false), (9.3e9, false), (1e300, false),
        ])
    func bound(t: Double, accepted: Bool) throws {
        let reader = LogReader(bytes: Array(lines(#"{"t":\#(t),"event":"keyboardDidHide"}"#).utf8))
        _ = try reader.readHeader()
        switch reader.next() {
        case .record(let record, _)?: #expect(accepted && record.t == t)
        case .problem(let problem)?: #expect(!accepted && problem.code == .invalidValue)
        case nil: Issue.record("nothing read")
        }
    }

    @Test("a keyboard or shift duration beyond what can be replayed is rejected; with the check on, nothing traps")
    func longDurations() throws {
        let text = lines(
            ReplayerTests.scene,
            #"{"t":1,"event":"didBeginEditing","view":"email"}"#,
            #"{"t":1,"event":"keyboardWillShow","end":[0,500,375,312],"duration":1e10}"#,
            #"{"t":1,"event":"viewShift","originY":-100,"duration":1e12,"origin":"derived","by":"KeyboardAvoidance"}"#,
            #"{"t":2,"event":"keyboardWillShow","end":[0,500,375,312],"duration":3e9}"#)
        let run = TurnCursor(check: true)
        let summary = try run.run(text)
        #expect(run.problems.map(\.line) == [4, 5, 6])
        #expect(run.problems.prefix(2).allSatisfy { $0.code == .invalidValue && $0.message.contains("duration") })
        // 3·10⁹ s can be replayed: it is read, with a warning.
        #expect(run.problems[2].code == .implausibleValue && run.problems[2].isWarning)
        #expect(summary.externalEvents == 3)
        run.loop.runUntilQuiet()
    }

    @Test("Duration.saturating(seconds:) saturates instead of trapping")
    func saturatingSeconds() {
        #expect(Duration.saturating(seconds: 1e300) == .nanoseconds(Int64.max))
        #expect(Duration.saturating(seconds: -1e300) == .nanoseconds(Int64.min))
        #expect(Duration.saturating(seconds: .nan) == .zero)
        #expect(Duration.saturating(seconds: 1.5) == .milliseconds(1500))
    }
}

@Suite("What the model would reject is a problem with its line and column")
struct ModelRejectionTests {
    @Test("a scene with the same view id twice is rejected where the second id stands; strict stops")
    func duplicateIDs() throws {
        let scene =
            #"{"t":0,"event":"scene","root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[{"id":"email","kind":"textField","frame":[20,560,335,44]},{"id":"email","kind":"textView","frame":[20,620,335,120]}]}}"#
        let text = [header, scene, #"{"t":1,"event":"keyboardDidHide"}"#].joined(separator: "\n")
        let run = TurnCursor()
        let summary = try run.run(text)
        let problem = try #require(run.problems.first)
        #expect(problem.code == .invalidValue)
        #expect(problem.line == 2)
        #expect(problem.column == scene.distance(from: scene.startIndex, to: scene.range(of: #""email","kind":"textView""#)!.lowerBound) + 1)
        #expect(problem.message.contains("'email' appears twice"))
        #expect(summary.rejectedLines == 1)
        #expect(try TurnCursor().run(text, strict: true).stoppedAt?.line == 2)
    }

    @Test("two scenes may reuse each other's ids: the check is per scene")
    func idsPerScene() throws {
        let text = [header, ReplayerTests.scene, ReplayerTests.scene.replacingOccurrences(of: #""t":0"#, with: #""t":1"#)].joined(separator: "\n")
        let run = TurnCursor()
        #expect(try run.run(text).rejectedLines == 0)
    }

    @Test("didBeginEditing on a view that is not a text input is rejected with its line and column; strict stops")
    func editingAPlainView() throws {
        let text = [
            header, ReplayerTests.scene, #"{"t":1,"event":"didBeginEditing","view":"root"}"#, #"{"t":2,"event":"didBeginEditing","view":"email"}"#,
        ]
        .joined(separator: "\n")
        let run = TurnCursor()
        let summary = try run.run(text)
        let problem = try #require(run.problems.first)
        #expect(problem.code == .notATextInput)
        #expect(problem.line == 3)
        #expect(problem.column == 41)
        #expect(summary.externalEvents == 2)
        #expect(run.bus.screen.firstResponder?.id == "email")
        #expect(try TurnCursor().run(text, strict: true).stoppedAt?.code == .notATextInput)
    }
}

@Suite("A keyboard animation longer than any real one is read with a warning")
struct ImplausibleDurationTests {
    private func lines(_ records: String...) -> String { ([header, ReplayerTests.scene] + records).joined(separator: "\n") }

    static let show = #"{"t":1,"event":"keyboardWillShow","end":[0,521,375,291],"duration":250}"#

    @Test("a keyboard duration of 250 (milliseconds meant): a warning at its column that offers 0.25 seconds, then the record as written")
    func milliseconds() throws {
        let reader = LogReader(bytes: Array(lines(Self.show).utf8))
        _ = try reader.readHeader()
        guard case .record = reader.next() else { throw ReaderExpectation("the scene") }
        guard case .problem(let warning)? = reader.next() else { throw ReaderExpectation("a warning before the record") }
        #expect(warning.code == .implausibleValue)
        #expect(warning.isWarning)
        #expect(warning.line == 3)
        #expect(warning.column == Self.show.distance(from: Self.show.startIndex, to: Self.show.range(of: "250")!.lowerBound) + 1)
        #expect(warning.message == "duration 250 s is not a keyboard animation; did you mean 0.25 (seconds)? Read as written")
        guard case .record(let record, _)? = reader.next(), case .keyboard(_, let info) = record.event else { throw ReaderExpectation("the record") }
        #expect(info.duration == 250)
        #expect(reader.next() == nil)
    }

    @Test(
        "no warning up to 2 s, nor for a plugin's slow shift; beyond 2 s without a plausible reading in milliseconds, no suggestion",
        arguments: [0.25, 0.5, 2])
    func plausible(duration: Double) throws {
        let run = TurnCursor()
        try run.run(
            lines(
                #"{"t":1,"event":"keyboardWillShow","end":[0,521,375,291],"duration":\#(duration)}"#,
                #"{"t":2,"event":"viewShift","originY":-100,"duration":250,"origin":"derived","by":"KeyboardAvoidance"}"#))
        #expect(run.problems.isEmpty)
        let long = TurnCursor()
        try long.run(lines(#"{"t":1,"event":"keyboardWillShow","end":[0,521,375,291],"duration":5000}"#))
        #expect(
            long.problems.map(\.message) == [
                "duration 5000 s is not a keyboard animation (iOS animates the keyboard in 0.25 s); durations are seconds. Read as written"
            ])
    }

    @Test("a lenient replay goes on with the record and counts a warning; a strict one stops there")
    func replays() throws {
        let text = lines(#"{"t":0.5,"event":"didBeginEditing","view":"email"}"#, Self.show)
        let run = TurnCursor()
        let summary = try run.run(text)
        #expect(summary.warnings == 1 && summary.rejectedLines == 0)
        #expect(summary.externalEvents == 3)
        #expect(try TurnCursor().run(text, strict: true).stoppedAt?.code == .implausibleValue)
    }

    @Test("records given in memory get the same warning before the record")
    func inMemory() throws {
        let show = LogRecord(t: 1, event: .keyboard(.keyboardWillShow, KeyboardInfo(end: Rect(x: 0, y: 521, width: 375, height: 291), duration: 250)))
        let reader = LogReader(header: LogHeader(screen: Size(width: 375, height: 812)), records: [show])
        guard case .problem(let warning)? = reader.next() else { throw ReaderExpectation("a warning first") }
        #expect(warning.code == .implausibleValue && warning.line == 2)
        #expect(warning.message.contains("did you mean 0.25 (seconds)?"))
        guard case .record(let record, _)? = reader.next() else { throw ReaderExpectation("the record") }
        #expect(record == show)
        #expect(reader.next() == nil)
    }
}

private struct ReaderExpectation: Error, CustomStringConvertible {
    var description: String
    init(_ expected: String) { description = "expected \(expected)" }
}
