import Foundation
import KeyboardAvoidance
import ResponderBus
import ResponderBusReport
import ResponderBusTesting
import Testing

/// Issue 48, item 7: a child view's label no longer prints over its parent's and siblings'; a
/// view that follows the keyboard is drawn where it went, labelled so.
@Suite("The drawing's labels: none over another, cut to their view, a follower named")
struct ReportLabelTests {
    /// The labels' boxes in `svg`, as the drawing estimates them (`x`, baseline, text).
    static func labels(_ svg: String) -> [(x: Double, y: Double, text: String)] {
        let pattern = #/<text class="rb-label" x="([-0-9.]+)" y="([-0-9.]+)">([^<]*)</text>/#
        return svg.matches(of: pattern).map { (Double($0.1)!, Double($0.2)!, String($0.3)) }
    }

    @Test("nested views sharing a top-left corner: every label on its own place, none overlapping, cut with … when too long")
    func noLabelOverLabel() throws {
        let bench = try PluginBench(device: .iPhoneX, plugins: [KeyboardAvoidance()])
        let recorder = ReportRecorder(bus: bench.bus) { bench.loop.now.seconds }
        let scene = SceneInfo(
            root: ViewSpec(
                id: "root", kind: .view, frame: Rect(x: 0, y: 0, width: 375, height: 812),
                children: [
                    ViewSpec(
                        id: "card", kind: .view, frame: Rect(x: 0, y: 0, width: 375, height: 120),
                        children: [
                            ViewSpec(id: "cardTitle", kind: .label, frame: Rect(x: 0, y: 0, width: 375, height: 60)),
                            ViewSpec(id: "aFieldWithAVeryLongIdentifierIndeed", kind: .textField, frame: Rect(x: 0, y: 60, width: 120, height: 44)),
                        ])
                ]))
        bench.turn(at: 0) { $0.post(.scene, scene) }
        let svg = recorder.frame(at: 0).state.svg(title: "nested")
        let labels = Self.labels(svg)
        let texts = labels.map(\.text)
        #expect(texts.contains("root · view") && texts.contains("card · view") && texts.contains("cardTitle · label"), "\(texts)")
        #expect(texts.contains { $0.hasPrefix("aFieldWith") && $0.hasSuffix("…") }, "cut to its view's width: \(texts)")
        // No two labels on one line overlap (a label's box: its text at 0.55 em a character).
        let fontSize = try #require(svg.firstMatch(of: #/font-size="([0-9.]+)"/#).flatMap { Double($0.1) })
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] where abs(a.y - b.y) < fontSize * 1.2 {
                let (left, right) = a.x <= b.x ? (a, b) : (b, a)
                #expect(left.x + Double(left.text.count) * fontSize * 0.55 <= right.x + 0.01, "'\(left.text)' runs into '\(right.text)'")
            }
        }
    }

    @Test("a view that follows the keyboard is drawn on the keyboard's top, labelled 'follows the keyboard'")
    func followerDrawn() throws {
        let device = CannedScreens.Device.iPhoneX
        let bench = try PluginBench(device: device, plugins: [KeyboardAvoidance()])
        let recorder = ReportRecorder(bus: bench.bus) { bench.loop.now.seconds }
        let bar = ViewSpec(
            id: "bar", kind: .view, frame: Rect(x: 0, y: 728, width: 375, height: 50),
            children: [ViewSpec(id: "message", kind: .textView, frame: Rect(x: 12, y: 7, width: 300, height: 36))])
        bench.turn(at: 0) { bus in
            bus.post(.scene, SceneInfo(root: ViewSpec(id: "root", kind: .view, frame: Rect(x: 0, y: 0, width: 375, height: 812), children: [bar])))
            bus.post(.viewSettings, ViewSettings(view: "bar", avoidsKeyboard: false, followsKeyboard: true), origin: .derived(by: "P"))
        }
        bench.turn(at: 1) { bus in
            bus.post(.keyboardWillShow, device.keyboardShow)
            bus.post(.didBeginEditing, EditingInfo(view: "message"))
        }
        let svg = recorder.frame(at: 2).state.svg(title: "chat")
        let top = try #require(device.keyboardShow.end).minY
        #expect(svg.contains("bar · view · not avoided · follows the keyboard</text>"), "\(svg)")
        #expect(svg.contains(#"<rect x="0" y="\#(Int(top) - 50)" width="375" height="50"/>"#), "the bar's outline on the keyboard's top")
    }

    /// Every text of a drawing, as a box the way the drawing estimates it: a character 0.55 of the
    /// font size wide, 0.62 in the bold labels (the keyboard's, "COVERED", a named view's, the
    /// focused field's "▶ …"); from a font size above the baseline to a fifth of one below.
    static func textBoxes(_ svg: String, fontSize: Double) -> [(box: Rect, text: String, className: String)] {
        let bold: Set<String> = ["rb-kb-label", "rb-covered-label", "rb-named-label"]
        return svg.matches(of: #/<text class="([a-z-]+)" x="([-0-9.]+)" y="([-0-9.]+)">([^<]*)</text>/#).map { match in
            let text = String(match.4).replacingOccurrences(of: "&#39;", with: "'")
            let isBold = bold.contains(String(match.1)) || text.hasPrefix("▶")
            let width = Double(text.count) * fontSize * (isBold ? 0.62 : 0.55)
            let box = Rect(x: Double(match.2)!, y: Double(match.3)! - fontSize, width: width, height: fontSize * 1.2)
            return (box, text, String(match.1))
        }
    }

    /// Issue 51: a view's label under the keyboard's label, or under "⚠ COVERED" when it goes
    /// below a barely covered field, printed over it.
    @Test("the keyboard's label, 'COVERED' below a barely covered field, the focused label, the shift: no view's label over any of them")
    func marksKeepClear() throws {
        let device = CannedScreens.Device.iPhoneSE
        let bench = try PluginBench(device: device, plugins: [])
        let recorder = ReportRecorder(bus: bench.bus) { bench.loop.now.seconds }
        let scene = SceneInfo(
            root: ViewSpec(
                id: "root", kind: .view, frame: Rect(x: 0, y: 0, width: 320, height: 568),
                children: [
                    // 5 pt of it under the keyboard (top 315): "COVERED" goes under it.
                    ViewSpec(id: "code", kind: .textField, frame: Rect(x: 20, y: 300, width: 280, height: 20)),
                    ViewSpec(id: "hint", kind: .label, frame: Rect(x: 20, y: 322, width: 280, height: 40)),
                    // On the keyboard's bottom edge, where its label is.
                    ViewSpec(id: "footer", kind: .button, frame: Rect(x: 0, y: 540, width: 320, height: 28)),
                ]))
        bench.turn(at: 0) { $0.post(.scene, scene) }
        bench.turn(at: 1) { bus in
            bus.post(.didBeginEditing, EditingInfo(view: "code"))
            bus.post(.keyboardWillShow, device.keyboardShow)
        }
        let state = recorder.frame(at: 2).state
        let svg = state.svg(title: "covered")
        let fontSize = try #require(svg.firstMatch(of: #/font-size="([0-9.]+)"/#).flatMap { Double($0.1) })
        let texts = Self.textBoxes(svg, fontSize: fontSize)
        let names = texts.map(\.text)
        #expect(names.contains("⚠ COVERED 5 pt") && names.contains { $0.hasPrefix("keyboard [0, 315") }, "\(names)")
        #expect(names.contains("▶ code · textField"), "\(names)")
        #expect(names.contains("hint · label"), "the hint's label, a line lower: \(names)")
        for (i, a) in texts.enumerated() {
            for b in texts[(i + 1)...] {
                let overlaps = a.box.minX < b.box.maxX && b.box.minX < a.box.maxX && a.box.minY < b.box.maxY && b.box.minY < a.box.maxY
                #expect(!overlaps, "'\(a.text)' over '\(b.text)'")
            }
        }
    }
}
