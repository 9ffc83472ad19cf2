import EventLog
import FieldAdvancing
import Foundation
import KeyboardAvoidance
import ResponderBus
import ResponderBusReport
import ResponderBusTesting
import Testing

/// A session on the testing kit's bench with the report's recorder watching, and its page.
private func report(
    on device: CannedScreens.Device, plugins: [any ResponderPlugin], _ session: (PluginBench) -> Void
) throws -> (html: String, recorder: ReportRecorder) {
    let bench = try PluginBench(device: device, plugins: plugins)
    let recorder = ReportRecorder(bus: bench.bus) { bench.loop.now.seconds }
    session(bench)
    let document = ReportDocument(
        logName: "session.jsonl", header: device.header, recorder: recorder, summary: Replayer.Summary(),
        plugins: plugins.map(\.name), disabled: [])
    return (document.html(), recorder)
}

private func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}

@Suite("The HTML report, built in the test process")
struct ReportDocumentTests {
    let device = CannedScreens.Device.iPhoneX

    @Test("a session the avoidance decides on: the facts, one article per decision, every state drawn once, no violation")
    func decidedSession() throws {
        let (html, recorder) = try report(on: device, plugins: [FieldAdvancing(), KeyboardAvoidance()]) { bench in
            bench.turn(at: 0) { $0.post(.scene, CannedScreens.login(on: device)) }
            bench.turn(at: 1) { bus in
                bus.post(.didBeginEditing, EditingInfo(view: "password"))
                bus.post(.keyboardWillShow, device.keyboardShow)
            }
            bench.turn(at: 2) { $0.post(.keyboardWillHide, device.keyboardHide) }
        }
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.hasSuffix("</html>\n"))
        #expect(html.contains(#"data-count="violations" data-value="0""#))
        #expect(html.contains("Plugins that ran</dt><dd>FieldAdvancing → KeyboardAvoidance</dd>"))
        let decisions = recorder.items.filter { $0.record.origin != .external }.count
        #expect(decisions >= 2)  // the shift up and back
        #expect(count(#"<article class="decision"#, in: html) == decisions)
        // Each state shown is defined once and used by reference.
        let defined = count(#"<g class="rb-state" id="s"#, in: html)
        #expect(defined >= 2)
        #expect(count(##"<use href="#s"##, in: html) >= defined)
        #expect(!html.contains(#"id="violations""#))
        #expect(count(#"<tr id="r"#, in: html) == recorder.items.count)
    }

    @Test("the header counts the diagnostics apart from the decisions, each by the plugin that derived it")
    func diagnosticsCountedApart() throws {
        let (html, recorder) = try report(on: device, plugins: [FieldAdvancing(), KeyboardAvoidance()]) { bench in
            bench.turn(at: 0) { $0.post(.scene, CannedScreens.login(on: device)) }
            bench.turn(at: 1) { bus in
                bus.post(.didBeginEditing, EditingInfo(view: "password"))
                bus.post(.keyboardWillShow, device.keyboardShow)
                // Another plugin moves the root in the same turn: the bus names the conflict.
                bus.post(.viewShift, ViewShift(originY: -5), origin: .derived(by: "Mover"))
                bus.post(.diagnostic, Diagnostic(level: .info, message: "noted"), origin: .derived(by: "Warner"))
            }
        }
        let derived = recorder.items.filter { $0.record.origin != .external }
        let diagnostics = derived.filter { if case .diagnostic = $0.record.event { true } else { false } }
        #expect(diagnostics.count == 2, "Warner's and the bus's conflict: \(diagnostics.map(\.record))")
        let decisions = derived.count - diagnostics.count
        #expect(decisions >= 2, "avoidance's and Mover's moves")
        #expect(html.contains(#"data-count="decisions" data-value="\#(decisions)""#))
        #expect(html.contains(#"data-count="diagnostics" data-value="2">2 (bus 1, Warner 1)</dd>"#), "\(html.prefix(4000))")
        #expect(!html.contains("Mover 1, Warner"), "a diagnostic is no decision")
    }

    @Test("a session without decisions says so and still draws the end")
    func quietSession() throws {
        let (html, _) = try report(on: device, plugins: [KeyboardAvoidance()]) { bench in
            bench.turn(at: 0) { $0.post(.scene, CannedScreens.login(on: device)) }
        }
        #expect(html.contains("No plugin decided anything in this session."))
        #expect(html.contains(#"<article class="final" id="end">"#))
        #expect(html.contains(#"data-count="decisions" data-value="0""#))
        #expect(html.contains(#"data-count="diagnostics" data-value="0""#))
    }

    @Test("text from a log reaches the page escaped, and the terminal escaped its own way")
    func escaping() throws {
        let (html, _) = try report(on: device, plugins: [KeyboardAvoidance()]) { bench in
            bench.turn(at: 0) { bus in
                bus.post(
                    .scene,
                    SceneInfo(
                        root: ViewSpec(
                            id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812),
                            children: [
                                ViewSpec(id: "<script>alert(1)</script>", kind: .textField, frame: Rect(x: 20, y: 700, width: 335, height: 44))
                            ])))
            }
        }
        #expect(!html.contains("<script>alert(1)</script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(TerminalText.escaped("a\u{1B}]0;PWNED\u{07}b\tc é") == #"a\u{1B}]0;PWNED\u{7}b"# + "\tc é")
    }
}

@Suite("The timeline and the report show a password field")
struct SecureFieldReportTests {
    let device = CannedScreens.Device.iPhoneX

    var scene: SceneInfo {
        SceneInfo(
            root: ViewSpec(
                id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812),
                children: [
                    ViewSpec(id: "user", kind: .textField, frame: Rect(x: 20, y: 500, width: 335, height: 44), tag: 1),
                    ViewSpec(id: "pin", kind: .textField, frame: Rect(x: 20, y: 560, width: 335, height: 44), tag: 2, isSecure: true),
                    ViewSpec(id: "go", kind: .button, frame: Rect(x: 20, y: 620, width: 335, height: 44), isSecure: true),
                ]))
    }

    @Test("the timeline's scene line names the secure inputs, and says nothing when there are none")
    func timeline() {
        #expect(Timeline.describe(.scene(scene)) == "4 views, secure 'pin'")
        var plain = scene
        plain.root.children[1].isSecure = false
        #expect(Timeline.describe(.scene(plain)) == "4 views")
    }

    @Test("the drawing labels it '•••• secure', its details and the summary say so; other views are as before")
    func drawing() throws {
        let (html, recorder) = try report(on: device, plugins: [KeyboardAvoidance()]) { bench in
            bench.turn(at: 0) { $0.post(.scene, self.scene) }
            bench.turn(at: 1) { bus in
                bus.post(.didBeginEditing, EditingInfo(view: "pin"))
                bus.post(.keyboardWillShow, device.keyboardShow)
            }
        }
        let state = recorder.frame(at: 0).state
        #expect(state.summary.contains("text inputs: 'user' [20, 500, 335, 44], 'pin' [20, 560, 335, 44] secure;"), "\(state.summary)")
        let svg = state.svg(title: "login")
        #expect(count("•••• secure", in: svg) == 1)
        #expect(svg.contains("pin · textField · tag 2 · •••• secure</text>"))
        #expect(svg.contains("<title>pin: textField, tag 2, secure (a password field), [20, 560, 335, 44]</title>"))
        #expect(svg.contains(#"<g class="rb-view rb-textField rb-secure">"#))
        #expect(count("rb-secure", in: svg) == 1, "the button's flag is not the model's")
        #expect(svg.contains("user · textField · tag 1</text>"))
        // The page: the scene's record lists it, and the focused password field is drawn with its marker.
        #expect(html.contains("4 views, secure &#39;pin&#39;"))
        #expect(html.contains("▶ pin · textField · tag 2 · •••• secure"))
    }

    @Test("a view a plugin took out of avoidance: its viewSettings row in the page, 'not avoided' on its label and in its details")
    func notAvoided() throws {
        let (html, recorder) = try report(on: device, plugins: [KeyboardAvoidance()]) { bench in
            bench.turn(at: 0) { bus in
                bus.post(.scene, self.scene)
                bus.post(.viewSettings, ViewSettings(view: "user", keyboardDistance: 40, avoidsKeyboard: false), origin: .derived(by: "P"))
            }
        }
        let svg = recorder.frame(at: 0).state.svg(title: "login")
        #expect(svg.contains("user · textField · tag 1 · not avoided</text>"), "\(svg)")
        #expect(svg.contains("<title>user: textField, tag 1, left alone by keyboard avoidance (viewSettings), [20, 500, 335, 44]</title>"))
        #expect(svg.contains("pin · textField · tag 2 · •••• secure</text>"))
        #expect(html.contains("&#39;user&#39; gap 40, not avoided"), "the page lists the decision")
    }
}
