import EventLog
import Foundation
import ResponderBus
import ResponderBusReplay
import ResponderBusReport
import ResponderBusUV
import Synchronization
import Testing

/// A form with a field low on the screen and a text view, and a keyboard frame for it.
private enum Form {
    static let header = #"{"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812}}"#
    static let scene =
        #"{"t":0,"event":"scene","root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[{"id":"email","kind":"textField","tag":1,"frame":[20,600,335,44]},{"id":"notes","kind":"textView","tag":2,"frame":[20,660,335,100]}]}}"#
    static let show = #""begin":[0,812,375,291],"end":[0,521,375,291],"duration":0.25,"curve":7,"isLocal":true"#

    static func log(_ lines: [String]) -> String { ([header, scene] + lines).joined(separator: "\n") + "\n" }

    static func records(_ text: String) -> [LogRecord] { MatrixSession(name: "form", text: text).records }
}

/// A session made on `driver` with `settings`, whose decisions are collected.
private final class Collecting {
    let session: ReplaySession
    private let collector = Collector()
    var lines: [String] { collector.lines }
    var problems: [LogReadError] { collector.problems }

    init(_ text: String, driver: any BusLoop, settings: BuiltinSettings = BuiltinSettings(), options: ReplaySession.Options = []) throws {
        let reader = LogReader(bytes: Array(text.utf8))
        session = try ReplaySession(
            pipeline: ReplayPipeline(PipelineDescription(settings: settings)), header: try reader.readHeader(), drivenBy: driver, options: options,
            sinks: [collector])
    }
}

@Suite("Live sessions: log time, the watermark, lateness, pushing, and what a running session shows")
struct LiveSessionTests {
    @Test(
        "a plugin's timer in a live replay fires at its log time: a 1 s held frame at t 0.4 is reported at t 1.4, held since t=0.4 s, on a driver whose clock is far ahead"
    )
    func heldFrameInLogTime() throws {
        // The keyboard comes at t 0.4 for no field that began editing; the text view begins at t 3.
        let text = Form.log([#"{"t":0.4,"event":"keyboardWillChangeFrame",\#(Form.show)}"#, #"{"t":3,"event":"didBeginEditing","view":"notes"}"#])
        let fast = try LiveModes.fast(MatrixSession(name: "held", text: text), BuiltinSettings())
        let held = try #require(fast.first { $0.contains("has been held since") })
        #expect(held.contains(#""t":1.4"#) && held.contains("held since t=0.4 s"), "\(held)")

        for pushed in [false, true] {
            let driver = VirtualTimeLoop()
            driver.advance(by: .seconds(10_000))  // the wall clock, far ahead of the log
            let run = try Collecting(text, driver: driver)
            var done = false
            if pushed {
                let feed = run.session.replayLive { _ in done = true }
                feed.append(contentsOf: Form.records(text))
                feed.finish()
            } else {
                let reader = LogReader(bytes: Array(text.utf8))
                _ = try reader.readHeader()
                run.session.replayInRealTime(reader, speed: 1) { _ in done = true }
            }
            driver.runUntilQuiet()
            #expect(done)
            #expect(run.lines == fast, pushed ? "pushed" : "in real time")
        }
    }

    @Test("the last turn pushed is held until a later t or the end: a turn pushed in three parts is one turn, and is decided once it is known whole")
    func watermarkHoldsTheLastTurn() throws {
        // The text view's turn: its keyboard first, then its didBeginEditing, at one t (UIKit's order).
        let turn = [
            #"{"t":1,"event":"keyboardWillChangeFrame",\#(Form.show)}"#, #"{"t":1,"event":"keyboardWillShow",\#(Form.show)}"#,
            #"{"t":1,"event":"didBeginEditing","view":"notes"}"#,
        ]
        let text = Form.log(turn + [#"{"t":2,"event":"returnKey","view":"notes"}"#])
        let fast = try LiveModes.fast(MatrixSession(name: "turn", text: text), BuiltinSettings())
        #expect(fast.contains { $0.contains("viewShift") })
        let driver = VirtualTimeLoop()
        let run = try Collecting(text, driver: driver)
        var summary: Replayer.Summary?
        let feed = run.session.replayLive { summary = $0 }
        let records = Form.records(text)
        feed.append(records[0])  // the scene
        feed.append(records[1])
        driver.run()
        feed.append(contentsOf: records[2...3])
        driver.run()
        #expect(run.lines.isEmpty, "nothing decided while the turn may not be whole: \(run.lines)")
        #expect(run.session.replayer.currentSummary.externalEvents == 1, "the scene alone was posted")
        feed.append(records[4])
        driver.run()
        #expect(run.lines.contains { $0.contains("viewShift") }, "the turn at t 1 is whole once t 2 is pushed")
        feed.finish()
        driver.run()
        #expect(run.lines == fast)
        #expect(summary?.externalEvents == 5)
        #expect(feed.append(records[0]) == false, "a finished feed takes nothing more")
    }

    @Test(
        "with an allowed lateness the held turn is decided without waiting for more, and a record that arrives after is reported and posted then, not reordered"
    )
    func allowedLateness() throws {
        let text = Form.log([
            #"{"t":0.5,"event":"didBeginEditing","view":"email"}"#, #"{"t":0.5,"event":"keyboardWillShow",\#(Form.show)}"#,
            #"{"t":0.5,"event":"keyboardWillChangeFrame",\#(Form.show)}"#,
        ])
        let records = Form.records(text)
        let driver = VirtualTimeLoop()
        let run = try Collecting(text, driver: driver)
        var summary: Replayer.Summary?
        let feed = run.session.replayLive(allowedLateness: .milliseconds(50)) { summary = $0 }
        feed.append(contentsOf: records[0...2])
        driver.run()
        #expect(run.lines.isEmpty, "within the lateness, the turn waits")
        driver.advance(by: .milliseconds(49))
        #expect(run.lines.isEmpty)
        driver.advance(by: .milliseconds(2))
        let decided = run.lines
        #expect(decided.contains { $0.contains("viewShift") }, "past the lateness, the turn is decided: \(decided)")
        // The rest of the turn arrives late: reported, and posted after what was decided.
        feed.append(records[3])
        feed.finish()
        driver.runUntilQuiet()
        let late = try #require(run.problems.first)
        #expect(late.code == .lateRecord && late.isWarning)
        #expect(late.line == 5 && late.message.contains("keyboardWillChangeFrame") && late.message.contains("allowed lateness 50 ms"), "\(late)")
        #expect(summary?.externalEvents == 4)
        #expect(summary?.warnings == 1)
        #expect(Array(run.lines.prefix(decided.count)) == decided, "nothing decided before is changed")
    }

    @Test("without an allowed lateness nothing is late, however slowly the records come")
    func noLatenessByDefault() throws {
        let text = MatrixSession.example.text
        let driver = VirtualTimeLoop()
        let run = try Collecting(text, driver: driver)
        var done = false
        let feed = run.session.replayLive { _ in done = true }
        for record in Form.records(text) {
            feed.append(record)
            driver.advance(by: .seconds(30))
        }
        feed.finish()
        driver.runUntilQuiet()
        #expect(done)
        #expect(run.problems.isEmpty)
        #expect(run.lines == (try LiveModes.fast(MatrixSession.example, BuiltinSettings())))
    }

    @Test(
        "a running session's decisions so far come as an AsyncSequence, and a report snapshot taken mid-session shows what was decided then and stays so"
    )
    func decisionsAndReportMidSession() async throws {
        let text = MatrixSession.example.text
        let records = Form.records(text)
        let fast = try LiveModes.fast(MatrixSession.example, BuiltinSettings())
        let driver = VirtualTimeLoop()
        let run = try Collecting(text, driver: driver, options: .report)
        let stream = run.session.decisions()
        let feed = run.session.replayLive { _ in }
        let half = records.count / 2
        feed.append(contentsOf: records[..<half])
        driver.run()
        let decidedSoFar = run.lines.count
        #expect(decidedSoFar > 0 && decidedSoFar < fast.count)
        let snapshot = try #require(run.session.reportSnapshot(logName: "half.jsonl"))
        let decisionsInSnapshot = snapshot.recorder.records.filter { $0.origin != .external }.count
        #expect(decisionsInSnapshot == decidedSoFar)
        #expect(snapshot.summary.externalEvents > 0)
        #expect(snapshot.html().contains("half.jsonl"))
        feed.append(contentsOf: records[half...])
        feed.finish()
        driver.runUntilQuiet()
        _ = run.session.finish(run.session.replayer.currentSummary)
        #expect(snapshot.recorder.records.filter { $0.origin != .external }.count == decidedSoFar, "the snapshot is not changed by later turns")
        var streamed: [String] = []
        for await record in stream { streamed.append(LogWriter.line(for: record)) }
        #expect(streamed == fast)
        #expect(run.session.reportDocument(logName: "whole.jsonl")?.recorder.records.filter { $0.origin != .external }.count == fast.count)
    }

    @Test("a time read from the log is written back as it was read, in a turn and at a timer, fast and live, in the decisions and in a recording")
    func timesAsRead() throws {
        var settings = BuiltinSettings()
        settings.settleWindow = .milliseconds(50)
        let text = Form.log([
            #"{"t":1.31,"event":"didBeginEditing","view":"email"}"#, #"{"t":1.31,"event":"keyboardWillShow",\#(Form.show)}"#,
            #"{"t":1.68,"event":"keyboardWillHide","begin":[0,521,375,291],"end":[0,812,375,291],"duration":0.25,"curve":7}"#,
            #"{"t":2.000000001,"event":"didEndEditing","view":"email"}"#,
        ])
        let fast = try LiveModes.fast(MatrixSession(name: "times", text: text), settings)
        #expect(fast.contains { $0.contains(#""t":1.36"#) }, "the settle window's decision at 1.31 + 0.05: \(fast)")
        #expect(fast.contains { $0.contains(#""t":1.73"#) }, "\(fast)")
        #expect(!fast.contains { $0.contains("00000") || $0.contains("99999") }, "\(fast)")
        // A recording of the session: the external records at their times as read.
        let reader = LogReader(bytes: Array(text.utf8))
        let collector = Collector()
        let session = try ReplaySession(
            pipeline: ReplayPipeline(PipelineDescription(settings: settings)), header: try reader.readHeader(), options: .recording,
            sinks: [collector])
        _ = session.finish(session.replay(reader))
        #expect(collector.records.filter { $0.origin == .external }.map(\.t) == Form.records(text).map(\.t))
        // Live, the same bytes.
        let driver = VirtualTimeLoop()
        driver.advance(by: .seconds(3.7))
        let run = try Collecting(text, driver: driver, settings: settings)
        let feed = run.session.replayLive { _ in }
        feed.append(contentsOf: Form.records(text))
        feed.finish()
        driver.runUntilQuiet()
        #expect(run.lines == fast)
    }

    @Test("Duration.seconds gives back the Double a decimal of up to nine places was read as")
    func durationSecondsRoundTrips() {
        var random = SeededRandom(45)
        for _ in 0..<200_000 {
            let places = Int.random(in: 0...9, using: &random)
            let scale = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000][places]
            let whole = Int.random(in: 0...100_000, using: &random)
            let text = "\(whole).\(String(Int.random(in: 0..<scale, using: &random)).leftPadded(to: places))"
            let t = Double(places == 0 ? "\(whole)" : text)!
            #expect(Duration.saturating(seconds: t).seconds == t, "\(text)")
        }
        #expect(Duration.seconds(-1.5).seconds == -1.5)
        #expect(Duration(secondsComponent: 0, attosecondsComponent: 1).seconds == 1e-18)
    }
}

/// Pushing from threads, which the README's test command also runs under ThreadSanitizer (its
/// `CrossThread` filter).
@Suite("LiveFeed: CrossThread pushes into live sessions")
struct LiveFeedCrossThreadTests {
    @Test("several sessions on one libuv loop, pushed from a thread each in random batches, each decide what the fast replay of its records does")
    func sessionsPushedFromThreads() throws {
        let sessions = Array(MatrixSession.all.prefix(8))
        let live = try LiveModes.live(sessions, BuiltinSettings(), .pushed, seed: 7)
        for (index, session) in sessions.enumerated() {
            #expect(live[index] == (try LiveModes.fast(session, BuiltinSettings())), "\(session.name)")
        }
    }

}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
