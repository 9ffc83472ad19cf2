import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A fresh folder for one test's files.
func reportFolder() throws -> String {
    let folder = TestFolders.root.appendingPathComponent("report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.path
}

/// How many violations `--check` reported on standard error (0 when it reported none).
func reportedViolations(_ stderr: String) -> Int {
    guard let range = stderr.range(of: "the focused field was left covered ") else { return 0 }
    return Int(stderr[range.upperBound...].prefix { $0.isNumber }) ?? -1
}

/// The bundled session's external events, repeated `cycles` times 12 s apart, as log lines (the
/// header first): a long session that goes through the same few screens.
func longSessionLog(cycles: Int) throws -> [String] {
    let lines = try String(contentsOfFile: CLI.example, encoding: .utf8).split(separator: "\n")
    let header = String(lines[0])
    let records = try lines.dropFirst().filter { !$0.contains(#""origin":"derived""#) }.map {
        try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    var log = [header]
    for cycle in 0..<cycles {
        let offset = Double(cycle) * 12
        if cycle > 0 {
            // Back to portrait, as the session starts.
            log.append(#"{"t":\#(offset),"event":"screen","width":375,"height":812,"safeArea":{"top":44,"left":0,"bottom":34,"right":0}}"#)
        }
        for record in records {
            var moved = record
            moved["t"] = ((((record["t"] as? NSNumber)?.doubleValue ?? 0) + offset) * 1000).rounded() / 1000
            let data = try JSONSerialization.data(withJSONObject: moved, options: [.sortedKeys])
            log.append(String(decoding: data, as: UTF8.self))
        }
    }
    return log
}

@Suite("replay --report: the HTML report's structure against the log", .serialized)
struct ReportCLITests {
    @Test("the bundled session's report: every record, decision, series point and screen, self-contained and small")
    func example() throws {
        let report = try reportFolder() + "/sign-up.html"
        let run = try CLI.run(["replay", CLI.example, "--format", "jsonl", "--report", report])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("report: wrote \(report)"))
        let output = try ReplayOutput(run.stdout)
        #expect(output.events == 43 && output.derivedCount == 10)
        let page = try ReportPage(path: report)
        try page.expectConsistent(with: output, violations: 0)

        #expect(page.html.hasPrefix("<!DOCTYPE html>"))
        let size = try FileManager.default.attributesOfItem(atPath: report)[.size] as? Int ?? .max
        #expect(size < 2 << 20, "\(size) bytes")
        // The header: the device, the screen, the plugins in pipeline order.
        #expect(page.html.contains("iPhone X, example sign-up session"))
        #expect(page.html.contains("375×812 pt, safe area top 44, bottom 34"))
        #expect(page.html.contains("TextViewOrdering → FieldAdvancing → KeyboardAvoidance"))
        // Ten decisions, but fewer distinct screens than twice that: shared states are drawn once.
        let states = try page.states
        #expect(states.count < 20 && states.count >= 10)
        // The first decision: avoidance moves the root 23 pt up; before it 'name' is 3 pt under the
        // keyboard, after it clear by the gap.
        let first = try #require(page.articles("decision").first)
        #expect(first.contains("viewShift: root to y -23"))
        #expect(first.contains("Before: 375×812 screen"))
        #expect(first.contains("COVERED: &#39;name&#39; is 3 pt under the keyboard"))
        #expect(first.contains("After: 375×812 screen"))
        #expect(first.contains("root at y -23, moved 23 pt up"))
        #expect(first.contains("&#39;name&#39; is clear of the keyboard by 20 pt"))
        // The focus moves to 'bio' at t=3: the screen after shows it as first responder.
        let focus = try #require(page.articles("decision").first { $0.contains("focusChange") })
        #expect(focus.contains("After: ") && focus.contains("first responder &#39;bio&#39; (textView, tag 2)"))
        // The series: the keyboard is up at 521 after t=1.009, and the session ends in landscape with
        // the keyboard gone (its top at the screen's bottom, 375).
        let series = try page.series
        let shown = try #require(series.t.firstIndex { $0 >= 1.009 })
        #expect(series.keyboardTop[shown] == 521)
        #expect(series.keyboardTop.last == 375)
        #expect(series.fieldBottom.last == .some(nil))
        // Every state a decision shows is in the page as a drawing with views and a screen.
        for (_, svg) in states {
            #expect(svg.contains("class=\"rb-screen\""))
        }
    }

    @Test("violations are marked: in the header, on the timeline, with the covered screen; --report alone does not fail")
    func violations() throws {
        let folder = try reportFolder()
        let checked = try CLI.run([
            "replay", CLI.example, "--format", "jsonl", "--check", "--disable", "KeyboardAvoidance", "--report", folder + "/checked.html",
        ])
        #expect(checked.status == 1)
        let count = reportedViolations(checked.stderr)
        #expect(count == 6, "\(checked.stderr)")
        let page = try ReportPage(path: folder + "/checked.html")
        try page.expectConsistent(with: try ReplayOutput(checked.stdout), violations: count)
        #expect(page.html.contains("⚠ \(count): the focused field was left covered"))
        #expect(page.html.contains("(turned off: KeyboardAvoidance)"))
        let states = try page.states
        for article in page.articles("violation") {
            #expect(article.contains("is covered by"))
            let used = try #require(try page.captures(##"<use href="#(s\d+)"/>"##, in: article).first?[0])
            let svg = try #require(states[used])
            #expect(svg.contains("class=\"rb-covered-part\"") && svg.contains("⚠ COVERED"), "\(used)")
        }
        // The check runs for the report even without --check, and then does not fail the replay.
        let unchecked = try CLI.run([
            "replay", CLI.example, "--format", "jsonl", "--disable", "KeyboardAvoidance", "--report", folder + "/unchecked.html",
        ])
        #expect(unchecked.status == 0, "\(unchecked.stderr)")
        let second = try ReportPage(path: folder + "/unchecked.html")
        #expect(try second.headerCount("violations") == count)
        #expect(second.count("<a class=\"mark violation\"") == count)
    }

    @Test("every imported fixture's report matches its replay", arguments: ImportCLITests.fixtures)
    func fixture(_ name: String) throws {
        let folder = try reportFolder()
        let log = folder + "/log.jsonl"
        let imported = try CLI.run(["import", CLI.consoleDumps.appendingPathComponent(name).path, "-o", log])
        guard imported.status == 0 else {
            // Dumps with nothing importable have their own golden test.
            #expect(imported.status == 65)
            return
        }
        let report = folder + "/report.html"
        let run = try CLI.run(["replay", log, "--format", "jsonl", "--check", "--report", report])
        #expect(run.status == 0 || run.status == 1, "\(run.stderr)")
        let violations = reportedViolations(run.stderr)
        #expect((run.status == 1) == (violations > 0))
        let page = try ReportPage(path: report)
        try page.expectConsistent(with: try ReplayOutput(run.stdout), violations: violations)
        // Imported logs have no scene: the screens show the keyboard on an empty screen.
        #expect(page.html.contains("no scene loaded") || page.html.contains("rb-view"))
    }

    @Test("a session of thousands of events: identical screens are drawn once, and the file stays small")
    func longSession() throws {
        let log = try longSessionLog(cycles: 100)
        let folder = try reportFolder()
        let path = folder + "/long.jsonl"
        try (log.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let report = folder + "/long.html"
        let run = try CLI.run(["replay", path, "--format", "jsonl", "--report", report])
        #expect(run.status == 0, "\(run.stderr)")
        let output = try ReplayOutput(run.stdout)
        #expect(output.events == 4399 && output.derivedCount == 1000)
        let page = try ReportPage(path: report)
        try page.expectConsistent(with: output, violations: 0)
        // The same few states, whatever the length: drawn once each, and later decisions link back.
        #expect(try page.states.count < 20)
        #expect(page.articles("decision repeat").count > 950)
        let size = try FileManager.default.attributesOfItem(atPath: report)[.size] as? Int ?? .max
        #expect(size < 3 << 20, "\(size) bytes for 5,399 records")
    }

    @Test("what the log names is text, never markup: ids, the device and actions are escaped")
    func escaping() throws {
        let evil = "<img src=x onerror=alert(1)>"
        let log =
            [
                #"{"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812},"device":"<script>alert(1)</script> & \"x\""}"#,
                #"{"t":0,"event":"scene","lastFieldAction":"</script><b>","root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[{"id":"\#(evil)","kind":"textField","tag":1,"frame":[20,560,335,44]}]}}"#,
                #"{"t":1,"event":"didBeginEditing","view":"\#(evil)"}"#,
                #"{"t":1,"event":"keyboardWillShow","end":[0,521,375,291]}"#,
                #"{"t":2,"event":"returnKey","view":"\#(evil)"}"#,
            ].joined(separator: "\n") + "\n"
        let folder = try reportFolder()
        try log.write(toFile: folder + "/log.jsonl", atomically: true, encoding: .utf8)
        let run = try CLI.run(["replay", folder + "/log.jsonl", "--format", "jsonl", "--report", folder + "/r.html"])
        #expect(run.status == 0, "\(run.stderr)")
        let page = try ReportPage(path: folder + "/r.html")
        try page.expectConsistent(with: try ReplayOutput(run.stdout), violations: 0)
        #expect(!page.html.contains("<img") && !page.html.contains("<b>"))
        #expect(page.count("<script") == 2, "the series data and the page's own script, nothing else")
        #expect(page.html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(page.html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;"))
        let render = try CLI.run(["render", folder + "/log.jsonl", "--at", "1"])
        #expect(render.status == 0)
        #expect(ReportRenderCLITests.isWellFormed(render.stdout))
        #expect(!render.stdout.contains("<img"))
    }

    @Test("skipped lines are counted in the report's header, and the good ones are all there")
    func skippedLines() throws {
        let log =
            [
                #"{"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812}}"#,
                #"{"t":0,"event":"scene","root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[{"id":"email","kind":"textField","tag":1,"frame":[20,560,335,44]}]}}"#,
                #"{"t":1,"event":"didBeginEditing","view":"email"}"#,
                #"{"t":1.5,"event":"keyboardWillPop"}"#,
                #"{"t":2,"event":"keyboardWillShow","end":[0,521,375,291],"duration":0.25,"curve":7}"#,
            ].joined(separator: "\n") + "\n"
        let folder = try reportFolder()
        let path = folder + "/log.jsonl"
        try log.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try CLI.run(["replay", path, "--format", "jsonl", "--report", folder + "/r.html"])
        #expect(run.status == 0)
        let page = try ReportPage(path: folder + "/r.html")
        try page.expectConsistent(with: try ReplayOutput(run.stdout), violations: 0)
        #expect(try page.headerCount("skipped") == 1)
        #expect(try page.rows.map(\.event) == ["scene", "didBeginEditing", "keyboardWillShow", "viewShift"])
    }
}

@Suite("responder-bus render: one moment as SVG", .serialized)
struct ReportRenderCLITests {
    /// Whether `text` is well-formed XML.
    static func isWellFormed(_ text: String) -> Bool {
        XMLParser(data: Data(text.utf8)).parse()
    }

    @Test("render --at draws the screen after the last record at or before that time")
    func render() throws {
        let folder = try reportFolder()
        let run = try CLI.run(["render", CLI.example, "--at", "1.009", "-o", folder + "/frame.svg"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        let svg = try String(contentsOfFile: folder + "/frame.svg", encoding: .utf8)
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(Self.isWellFormed(svg))
        #expect(svg.contains("<title id=\"rb-title\">sign-up-session.jsonl at t = 1.009 s</title>"))
        #expect(svg.contains("after record #9 at 1.009 s, viewShift (KeyboardAvoidance)."))
        // The model at that moment: shifted 23 pt up, 'name' focused and clear of the keyboard.
        #expect(svg.contains("root at y -23, moved 23 pt up"))
        #expect(svg.contains("first responder &#39;name&#39; (textField, tag 1) at [20, 457, 335, 44]"))
        #expect(svg.contains("keyboard [0, 521, 375, 291]"))
        #expect(!svg.contains("class=\"rb-covered-part\""))
        // Every view of the scene, with its id, kind and tag.
        for label in [
            "title · label", "signUpButton · button", "▶ name · textField · tag 1", "bio · textView · tag 2", "email · textField · tag 3",
            "password · textField · tag 4", "createAccountButton · button",
        ] {
            #expect(svg.contains(label), "\(label)")
        }
        #expect(svg.components(separatedBy: "<g class=\"rb-view").count - 1 == 8)
    }

    @Test(
        "a covered field is drawn covered; before the scene, an empty screen; after the end, the last state",
        arguments: [
            (
                ["--at", "3.26", "--disable", "KeyboardAvoidance"],
                ["⚠ COVERED 90 pt", "class=\"rb-covered-part\"", "COVERED: &#39;bio&#39; is 90 pt under the keyboard"]
            ),
            (["--at", "0.5"], ["after record #1 at 0.000 s, scene (external)", "no keyboard", "no first responder"]),
            (["--at", "1000"], ["812×375 screen", "root at y 0, not moved", "no keyboard", "after record #53 at 11.350 s"]),
        ])
    func moments(_ arguments: [String], _ expected: [String]) throws {
        let run = try CLI.run(["render", CLI.example] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.isWellFormed(run.stdout))
        for text in expected { #expect(run.stdout.contains(text), "\(text)") }
    }

    /// A log whose only record, a keyboard at 2 s, comes before any scene.
    static let keyboardBeforeScene = CLI.repository.appendingPathComponent("Tests/Fixtures/logs/keyboard-before-scene.jsonl").path

    /// The frames `Tests/ReportTests` also draws with `ReportRecorder.frame(at:)`, from the same
    /// goldens: after a record, exactly at one's time, after the last, covered, before the first.
    @Test(
        "render writes the golden frames, byte for byte",
        arguments: [
            (CLI.example, ["--at", "0.5"], "render-sign-up-session-at-0.5.svg"),
            (CLI.example, ["--at", "1.009"], "render-sign-up-session-at-1.009.svg"),
            (CLI.example, ["--at", "1000"], "render-sign-up-session-at-1000.svg"),
            (CLI.example, ["--at", "3.26", "--disable", "KeyboardAvoidance"], "render-sign-up-session-no-avoidance-at-3.26.svg"),
            (keyboardBeforeScene, ["--at", "1"], "render-keyboard-before-scene-at-1.svg"),
        ])
    func goldenFrames(_ log: String, _ arguments: [String], _ golden: String) throws {
        let run = try CLI.run(["render", log] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        try CLI.expectGolden(run.stdout, golden)
    }

    @Test("render before the first record draws the header's screen, empty")
    func beforeAnything() throws {
        let run = try CLI.run(["render", Self.keyboardBeforeScene, "--at", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("before the first record"))
        #expect(run.stdout.contains("320×568 screen; no scene loaded; no keyboard."))
    }

    @Test(
        "bad input and bad usage exit as the CLI contract says",
        arguments: [
            (["render", CLI.example], Int32(64), "--at"),
            (["render", CLI.example, "--at=-1"], 64, "--at must be a number of seconds"),
            (["render", CLI.example, "--at", "nan"], 64, "--at must be"),
            (["render", CLI.example, "--at", "soon"], 64, "soon"),
            (["render", CLI.example, "--at", "1", "--disable", "Nope"], 64, "--disable Nope"),
            (["render", "/nonexistent/session.jsonl", "--at", "1"], 66, "No such file"),
            (["render", "/tmp", "--at", "1"], 66, "is a directory"),
            (["render", CLI.example, "--at", "1", "-o", "/nonexistent/frame.svg"], 73, "cannot create '/nonexistent/frame.svg'"),
            (["replay", CLI.example, "--report", "-"], 64, "--report needs a file"),
            (["replay", CLI.example, "--report", "/nonexistent/report.html"], 73, "cannot create '/nonexistent/report.html'"),
            (["replay", "/nonexistent/session.jsonl", "--report", "/tmp/responder-bus-unused.html"], 66, "No such file"),
        ])
    func errors(_ arguments: [String], _ status: Int32, _ message: String) throws {
        let run = try CLI.run(arguments)
        #expect(run.status == status, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test("a log whose header is bad exits 65, before drawing anything")
    func badHeader() throws {
        let path = try CLI.temporaryFile(#"{"t":0,"event":"returnKey","view":"a"}"# + "\n")
        let folder = try reportFolder()
        let render = try CLI.run(["render", path, "--at", "1", "-o", folder + "/x.svg"])
        #expect(render.status == 65)
        #expect(render.stderr.contains("line 1 must be the header"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.svg"))
        let replay = try CLI.run(["replay", path, "--report", folder + "/x.html"])
        #expect(replay.status == 65)
    }
}
