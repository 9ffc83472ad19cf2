import EventLog
import FieldAdvancing
import Foundation
import KeyboardAvoidance
import ResponderBus
import ResponderBusReplay
import ResponderBusReport
import ResponderBusTesting
import Testing
import TextViewOrdering

#if canImport(FoundationXML)
    import FoundationXML
#endif

// The library as a program that embeds the package uses it: only its public API.

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let example = repository.appendingPathComponent("Sources/responder-bus/Examples/sign-up-session.jsonl").path
private let keyboardBeforeScene = repository.appendingPathComponent("Tests/Fixtures/logs/keyboard-before-scene.jsonl").path

/// What `responder-bus render` wrote for a log and a moment (`Tests/CLITests` checks the command
/// against the same files).
private func renderGolden(_ name: String) throws -> String {
    try String(contentsOf: repository.appendingPathComponent("Tests/CLITests/Golden/\(name)"), encoding: .utf8)
}

/// The built-in plugins `replay` and `render` run, less KeyboardAvoidance unless `avoiding`.
private func builtins(avoiding: Bool = true) -> PipelineDescription {
    PipelineDescription(disabled: avoiding ? [] : ["KeyboardAvoidance"])
}

/// A log replayed through the replay pipeline on a virtual-time loop, with the report's recorder
/// watching (and, when `checking`, the coverage check noting its violations).
private func replay(
    _ path: String, plugins: PipelineDescription, disabled: [String] = [], checking: Bool = false
) throws -> ReportDocument {
    let reader = try LogReader(path: path)
    let header = try reader.readHeader()
    let name = URL(fileURLWithPath: path).lastPathComponent
    let session = try ReplaySession(pipeline: ReplayPipeline(plugins), header: header, options: checking ? [.report, .coverage] : .report)
    _ = session.finish(session.replay(reader))
    return try #require(session.reportDocument(logName: name))
}

private func isWellFormed(_ text: String) -> Bool {
    XMLParser(data: Data(text.utf8)).parse()
}

private func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}

@Suite("The report as a library: a program's report of a replay")
struct ReportLibraryDocumentTests {
    @Test("a report of a replay has a row for every record, in order, and loads nothing from outside")
    func everyRecord() throws {
        let document = try replay(example, plugins: builtins())
        let records = document.recorder.records
        #expect(records.count == 53)
        #expect(document.summary.externalEvents == records.count { $0.origin == .external })
        let html = document.html()
        #expect(html.hasPrefix("<!DOCTYPE html>\n"))
        #expect(html.hasSuffix("</html>\n"))
        #expect(html.contains("<title>Replay report: sign-up-session.jsonl</title>"))
        // Self-contained: no resource is fetched, every link is to the page itself.
        for outside in ["<link", "<img", " src=", "url(http", "@import", "href=\"http", "href=\"//"] {
            #expect(!html.contains(outside), "\(outside)")
        }
        #expect(count("<style>", in: html) == 1)
        // One row per record, in order, with its event and who produced it.
        let rows = html.components(separatedBy: "<tr id=\"r").dropFirst()
        #expect(rows.count == records.count)
        for (index, (row, record)) in zip(rows, records).enumerated() {
            let by = record.origin.derivingPlugin.map { "→ " + $0 } ?? "external"
            #expect(row.hasPrefix("\(index + 1)\" class=\"\(record.origin == .external ? "ext" : "dec")\"><td>\(index + 1)</td>"))
            #expect(row.contains("<td>\(record.event.name)</td><td>\(by)</td>"), "row \(index + 1)")
        }
        let decisions = records.count { $0.origin != .external }
        #expect(html.contains(#"data-count="events" data-value="\#(records.count - decisions)""#))
        let diagnostics = records.count { record in
            guard case .diagnostic = record.event else { return false }
            return record.origin != .external
        }
        #expect(html.contains(#"data-count="decisions" data-value="\#(decisions - diagnostics)""#))
        #expect(html.contains(#"data-count="diagnostics" data-value="\#(diagnostics)""#))
        #expect(html.contains("Plugins that ran</dt><dd>TextViewOrdering → FieldAdvancing → KeyboardAvoidance</dd>"))
        #expect(html.contains(#"data-count="violations" data-value="0""#))
        #expect(document.recorder.violations.isEmpty)  // nothing checked
    }

    @Test("with the check, the violations it finds are kept with their time and shown on the page")
    func violations() throws {
        let document = try replay(example, plugins: builtins(avoiding: false), disabled: ["KeyboardAvoidance"], checking: true)
        let found = document.recorder.violations
        #expect(found.count == 6)  // what `replay --check --disable KeyboardAvoidance` reports
        #expect(found.map(\.t) == found.map(\.violation.t))
        #expect(found.map(\.t) == found.map(\.t).sorted())
        let html = document.html()
        #expect(html.contains(#"data-count="violations" data-value="6""#))
        #expect(html.contains("TextViewOrdering → FieldAdvancing (turned off: KeyboardAvoidance)"))
        #expect(count("<article class=\"violation\"", in: html) == 6)
        for (index, violation) in found.enumerated() {
            let description = violation.violation.description.replacingOccurrences(of: "'", with: "&#39;")
            #expect(html.contains("<h3>⚠ Violation \(index + 1): \(description)</h3>"))
        }
    }

    @Test("a program's own session: the recorder on its bus, a check's violations noted, the page and the frames")
    func ownSession() throws {
        let device = CannedScreens.Device.iPhoneX
        let bench = try PluginBench(device: device, plugins: [FieldAdvancing()])
        let recorder = ReportRecorder(bus: bench.bus) { bench.loop.now.seconds }
        let check = CoverageCheck(bus: bench.bus)
        check.onViolation = { recorder.note($0) }
        bench.turn(at: 0) { $0.post(.scene, CannedScreens.login(on: device)) }
        bench.turn(at: 1) { bus in
            bus.post(.didBeginEditing, EditingInfo(view: "password"))
            bus.post(.keyboardWillShow, device.keyboardShow)
        }
        bench.wait(2)
        check.stop()
        recorder.stop()
        let violation = try #require(recorder.violations.first)
        #expect(recorder.violations.count == 1)
        #expect(violation.violation.field == "password")
        #expect(violation.t > 1)  // once the keyboard settled
        #expect(recorder.records.map(\.event.name) == ["scene", "didBeginEditing", "keyboardWillShow"])
        let html = ReportDocument(
            logName: "own <session>", header: device.header, recorder: recorder, summary: Replayer.Summary(), plugins: ["FieldAdvancing"]
        ).html()
        #expect(html.contains("<title>Replay report: own &lt;session&gt;</title>"))
        #expect(html.contains(#"<article class="violation" id="v1">"#))
        #expect(!html.contains(#"id="v2""#))
        #expect(count("<tr id=\"r", in: html) == 3)
        #expect(recorder.frame(at: 0.5).state.summary.contains("no first responder"))
        #expect(recorder.frame(at: 1).state.summary.contains("COVERED: 'password'"))
    }
}

@Suite("The report as a library: a frame at a time")
struct ReportLibraryFrameTests {
    @Test(
        "a frame is the one render writes: between records, exactly at a record's time, after the last",
        arguments: [
            (0.5, 0, "render-sign-up-session-at-0.5.svg"),
            (1.009, 8, "render-sign-up-session-at-1.009.svg"),
            (1000, 52, "render-sign-up-session-at-1000.svg"),
        ])
    func afterRecords(_ t: Double, _ recordIndex: Int, _ golden: String) throws {
        let recorder = try replay(example, plugins: builtins()).recorder
        let frame = recorder.frame(at: t)
        #expect(frame.t == t)
        #expect(frame.recordIndex == recordIndex)
        #expect(frame.record == recorder.records[recordIndex])
        #expect(frame.stateIndex != 0)  // the scene is loaded
        let svg = frame.svg(logName: "sign-up-session.jsonl")
        #expect(svg == (try renderGolden(golden)))
        #expect(isWellFormed(svg))
    }

    @Test("exactly at a record's time the frame follows the last record at that time; a moment earlier, the one before")
    func atARecord() throws {
        let recorder = try replay(example, plugins: builtins()).recorder
        let at = recorder.frame(at: 1.009)
        let record = try #require(at.record)
        #expect(record.t == 1.009)
        #expect(record.event.name == "viewShift")
        #expect(record.origin.derivingPlugin == "KeyboardAvoidance")
        #expect(recorder.records[9].t > 1.009)
        let before = recorder.frame(at: 1.0089)
        let earlier = try #require(before.recordIndex)
        #expect(earlier < 8)
        #expect(recorder.records[earlier].t < 1.009)
        #expect(before.stateIndex != at.stateIndex)  // the shift moved the root
        #expect(before.svg(logName: "sign-up-session.jsonl").contains("root at y 0, not moved"))
        #expect(at.svg(logName: "sign-up-session.jsonl").contains("root at y -23, moved 23 pt up"))
    }

    @Test("a covered field, drawn as render draws it with KeyboardAvoidance off")
    func covered() throws {
        let recorder = try replay(example, plugins: builtins(avoiding: false)).recorder
        let svg = recorder.frame(at: 3.26).svg(logName: "sign-up-session.jsonl")
        #expect(svg == (try renderGolden("render-sign-up-session-no-avoidance-at-3.26.svg")))
        #expect(svg.contains("⚠ COVERED 90 pt"))
    }

    @Test("before the first record the frame is the header's screen, and follows no record")
    func beforeTheFirstRecord() throws {
        let recorder = try replay(keyboardBeforeScene, plugins: builtins()).recorder
        #expect(recorder.records.first?.event.name == "keyboardWillShow")
        #expect(recorder.records.first?.t == 2)
        let frame = recorder.frame(at: 1)
        #expect(frame.recordIndex == nil)
        #expect(frame.record == nil)
        #expect(frame.stateIndex == 0)
        #expect(frame.state.summary == "320×568 screen; no scene loaded; no keyboard.")
        #expect(frame.svg(logName: "keyboard-before-scene.jsonl") == (try renderGolden("render-keyboard-before-scene-at-1.svg")))
        // At the record's time, the keyboard is there.
        let after = recorder.frame(at: 2)
        #expect(after.recordIndex == 0)
        #expect(after.stateIndex != 0)
        #expect(after.state.summary.contains("keyboard [0, 352, 320, 216]"))
    }
}

@Suite("The report as a library: a frame of a live screen")
struct ReportLibraryScreenTests {
    let device = CannedScreens.Device.iPhoneX

    @Test("the state of a live screen is the one the recorder took at that moment, and draws as SVG")
    func liveScreen() throws {
        let bench = try PluginBench(device: device, plugins: [KeyboardAvoidance()])
        let recorder = ReportRecorder(bus: bench.bus) { bench.loop.now.seconds }
        let empty = ScreenState(bench.bus.screen)
        #expect(empty.summary == "375×812 screen (safe area top 44, bottom 34); no scene loaded; no keyboard.")
        bench.turn(at: 0) { $0.post(.scene, CannedScreens.login(on: self.device)) }
        bench.turn(at: 1) { bus in
            bus.post(.didBeginEditing, EditingInfo(view: "password"))
            bus.post(.keyboardWillShow, self.device.keyboardShow)
        }
        recorder.stop()
        let state = ScreenState(bench.bus.screen)
        #expect(state != empty)
        #expect(state == recorder.frame(at: 1).state)
        #expect(state.summary.contains("first responder 'password'"))
        #expect(state.summary.contains("pt up"))  // avoidance moved the root

        let svg = state.svg(title: "login <password>", caption: ["iPhone X", "after the keyboard"])
        #expect(isWellFormed(svg))
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("<title id=\"rb-title\">login &lt;password&gt;</title>"))
        #expect(svg.contains(">iPhone X</text>"))
        #expect(svg.contains(">after the keyboard</text>"))
        #expect(count("class=\"rb-caption\"", in: svg) == 2)
        #expect(svg.contains("▶ password · textField"))
        #expect(svg.contains("class=\"rb-kb-covering\""))
        // Without a caption, no caption line; the same state draws the same document.
        #expect(count("class=\"rb-caption\"", in: state.svg(title: "login")) == 0)
        #expect(state.svg(title: "login") == ScreenState(bench.bus.screen).svg(title: "login"))
    }
}
