import EventLog
import Foundation
import ResponderBus
import ResponderBusReplay
import ResponderBusReport
import Testing

// Issue 51, item 9: the report of a rotation describes the session truthfully (both screens, a
// duration that covers the last violation), draws a root `setFrame` as what it is, and draws the
// screens large enough to read on a wide page.

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
/// A 320×568 iPhone SE turned to 568×320 with the password field focused: avoidance stops 193 pt up
/// (the landscape keyboard's height) and the field stays covered by 40 pt, found at 3.6 s, after the
/// last record (3.3 s).
let rotationFixture = repository.appendingPathComponent("Tests/Fixtures/logs/se-rotate-password.jsonl").path

/// The page of a log (its lines) replayed with the built-in plugins and the coverage check.
func rotationReport(lines: [String]) throws -> String {
    let reader = LogReader(bytes: Array(lines.joined(separator: "\n").utf8))
    let header = try reader.readHeader()
    let session = try ReplaySession(pipeline: ReplayPipeline(PipelineDescription()), header: header, options: [.report, .coverage])
    _ = session.finish(session.replay(reader))
    return try #require(session.reportDocument(logName: "session.jsonl")).html()
}

/// The fixture's lines, each changed by `edit`.
func rotationLines(_ edit: (String) -> String = { $0 }) throws -> [String] {
    try String(contentsOfFile: rotationFixture, encoding: .utf8).split(separator: "\n").map { edit(String($0)) }
}

/// The y coordinates a path's `M` and `V` commands go to, in order, with the command.
private func verticals(_ d: String) -> [(command: Character, y: Double)] {
    d.matches(of: #/([MV])(-?[0-9.]+)(?: (-?[0-9.]+))?/#).compactMap { match in
        let command = match.1.first!
        return (command, Double(command == "M" ? String(match.3 ?? "") : String(match.2)) ?? .nan)
    }
}

private func seriesPath(_ name: String, in html: String) throws -> String {
    try #require(html.firstMatch(of: try Regex(#"data-series="\#(name)" data-points="\d+" d="([^"]*)""#))?.output[1].substring.map(String.init))
}

@Suite("The report of a rotation: the header, the timeline and the drawings tell it as it was")
struct ReportRotationTests {
    @Test("the header names both screens with the moment the second began, and a duration that reaches the last violation")
    func header() throws {
        let html = try rotationReport(lines: try rotationLines())
        #expect(
            html.contains(
                #"<dt>Screens</dt><dd data-count="screens-sizes" data-value="2">320×568 pt, safe area top 20; then 568×320 pt from 3.000 s, safe area none</dd>"#
            ), "\(html.prefix(3000))")
        #expect(html.contains(#"Violation 1: t=3.6 s: &#39;password&#39; is covered by 40 pt"#))
        // Not 3.300 s (the last record) before a violation at 3.6 s.
        #expect(
            html.contains(
                #"<dt>Duration</dt><dd>3.600 s <span class="note">(to the last violation the check found; the last record is at 3.300 s)</span></dd>"#
            ))
        // Each drawing's caption names its screen, as the session has two.
        #expect(html.contains("Before. 320×568 screen, root y 0"))
        #expect(html.contains("After. 568×320 screen, root y -193"))
    }

    @Test("a session on one screen, its last record last: 'Screen', one size, the duration to the last record")
    func oneScreen() throws {
        let lines = try rotationLines().prefix(5)
        let html = try rotationReport(lines: Array(lines))
        #expect(html.contains(#"<dt>Screen</dt><dd data-count="screens-sizes" data-value="1">320×568 pt, safe area top 20</dd>"#))
        #expect(html.contains(#"<dt>Duration</dt><dd>1.250 s <span class="note">(to the last record)</span></dd>"#))
        #expect(!html.contains("then 568×320"))
        #expect(!html.contains("Before. 320×568 screen"), "one size: the captions need not name it")
    }

    @Test("the root's setFrame at the rotation is drawn as a layout: the root line breaks, a dotted jump and a □ titled with it")
    func rootSetFrameAsLayout() throws {
        let html = try rotationReport(lines: try rotationLines())
        #expect(html.contains(#"<rect class="tl-layout-mark""#))
        #expect(
            html.contains(
                "<title>3.000 s: the app set the root&#39;s frame (setFrame), root y -65 → 0: a layout, which undoes any shift, not a move by a plugin</title>"
            ))
        #expect(html.contains(#"<path class="tl-root-layout" d="M"#))
        #expect(html.contains("root&#39;s frame set by the app (setFrame)"), "the legend names the mark")
        #expect(html.contains("0 at 3.000 s (the app set the root&#39;s frame)"), "the chart's text alternative says it too")
        // The root's line does not climb to y 0 at 3 s: it breaks and starts again there.
        let root = verticals(try seriesPath("root", in: html))
        let rest = try #require(root.first?.y)
        let moves = root.dropFirst()
        #expect(moves.filter { $0.command == "M" }.map(\.y) == [rest], "\(root)")
        #expect(!moves.contains { $0.command == "V" && $0.y == rest }, "no step of the line to y 0: \(root)")
    }

    @Test("records of one moment are one change: the rotation and the shift at 3 s leave no spike to y 0, and no layout mark")
    func oneMomentOneChange() throws {
        // The landscape keyboard in the same moment as the rotation: the shift follows the
        // setFrame at once.
        let lines = try rotationLines { $0.replacingOccurrences(of: #""t":3.01}"#, with: #""t":3}"#) }
        let html = try rotationReport(lines: lines)
        #expect(html.contains("<td>3.000</td><td>viewShift</td><td>→ KeyboardAvoidance</td><td>root to y -193"))
        let root = verticals(try seriesPath("root", in: html))
        let rest = try #require(root.first?.y)
        #expect(root.count == 3, "one step to -65, one to -193: \(root)")
        #expect(!root.dropFirst().contains { $0.y == rest }, "\(root)")
        #expect(!html.contains("<rect class=\"tl-layout-mark\""))
        // The field's line neither: the field never stood at y 380 on the screen.
        let field = verticals(try seriesPath("fieldBottom", in: html))
        #expect(field.count == 2, "from the focus at 1 s, one step at 3 s: \(field)")
    }

    @Test("the screens use the page: a 320×568 phone drawn over 330 px wide, a huge screen kept within 640 px, a tiny one at most doubled")
    func drawingScale() throws {
        func widths(_ html: String) -> [Double] {
            html.matches(of: #/<svg class="shot" viewBox="[^"]*" width="([0-9.]+)"/#).map { Double($0.1)! }
        }
        let phone = widths(try rotationReport(lines: try rotationLines()))
        #expect(!phone.isEmpty)
        #expect(phone.min()! > 330 && phone.max()! <= 660, "\(phone)")
        // One screen, its scene inside it: drawn once, the screen and its margins.
        for (width, height, most) in [(2732, 2048, 640.0), (100, 120, 2 * 100 + 40.0)] {
            let lines = [
                #"{"format":"responder-bus-log","screen":{"height":\#(height),"width":\#(width)},"version":1}"#,
                #"{"event":"scene","root":{"children":[{"frame":[10,\#(height / 2),\#(width - 20),30],"id":"field","kind":"textField"}],"frame":[0,0,\#(width),\#(height)],"id":"root","kind":"view"},"t":0}"#,
            ]
            let drawn = widths(try rotationReport(lines: lines))
            #expect(drawn.count == 1 && drawn[0] <= most && drawn[0] >= Double(min(width, 500)), "\(width)×\(height): \(drawn)")
        }
    }
}
