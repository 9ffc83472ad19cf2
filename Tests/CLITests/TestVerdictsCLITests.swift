import Foundation
import Testing

/// Issue 51, items 2, 5 and 7: a failing test explains itself (every verdict, the file that holds
/// the cited line, a report that opens with expected and got), every snapshot written is said, and
/// a known bug can stay in the suite as an expected failure.
@Suite("responder-bus test: every verdict, the cited file and line, the failure's report, snapshots said, expected failures")
struct TestVerdictsCLITests {
    /// The issue's rotation: a password field not laid out again after 320×568 turned to 568×320,
    /// left covered; no recorded decisions.
    static let rotation = """
        {"device":"iPhone SE","format":"responder-bus-log","screen":{"height":568,"width":320},"version":1}
        {"event":"scene","root":{"children":[{"frame":[20,300,280,44],"id":"user","kind":"textField","tag":1},{"frame":[20,360,280,44],"id":"password","kind":"textField","secure":true,"tag":2}],"frame":[0,0,320,568],"id":"root","kind":"view"},"t":0}
        {"event":"didBeginEditing","t":1,"view":"password"}
        {"begin":[0,568,320,0],"curve":7,"duration":0.25,"end":[0,315,320,253],"event":"keyboardWillShow","t":1}
        {"event":"screen","height":320,"t":3,"width":568}
        {"event":"setFrame","frame":[0,0,568,320],"t":3,"view":"root"}
        {"begin":[0,315,320,253],"curve":7,"duration":0.25,"end":[0,127,568,193],"event":"keyboardWillShow","t":3}

        """

    /// A folder `suite/login/se-rotate.jsonl` (and `ok.jsonl`, the bundled session, when asked),
    /// with the current directory's relative paths: `(root, "login")`.
    static func makeSuite(withPassing: Bool = false) throws -> String {
        let root = TestFolders.root.appendingPathComponent("verdicts-\(UUID().uuidString)")
        let login = root.appendingPathComponent("login")
        try FileManager.default.createDirectory(at: login, withIntermediateDirectories: true)
        try rotation.write(to: login.appendingPathComponent("se-rotate.jsonl"), atomically: true, encoding: .utf8)
        if withPassing {
            try String(contentsOfFile: CLI.example, encoding: .utf8).write(
                to: login.appendingPathComponent("ok.jsonl"), atomically: true, encoding: .utf8)
        }
        return root.path
    }

    /// Records the rotation's snapshot under `root/snapshots` and edits its first decision (the
    /// root to y −100, where the replay derives −109): `(the folder, the snapshot)`.
    static func differingSnapshot(in root: String) throws -> (String, String) {
        let snapshots = root + "/snapshots"
        _ = try CLI.run(["test", root + "/login", "--record-missing", snapshots])
        let snapshot = snapshots + "/login/se-rotate.jsonl"
        let text = try String(contentsOfFile: snapshot, encoding: .utf8)
        try text.replacingOccurrences(of: "\"originY\":-109", with: "\"originY\":-100").write(
            toFile: snapshot, atomically: true, encoding: .utf8)
        return (snapshots, snapshot)
    }

    @Test("an unrecorded session left covered lists both verdicts; --record-missing's snapshot of a failing session is said, and counted")
    func everyVerdictAndEverySnapshot() throws {
        let root = try Self.makeSuite()
        let bare = try CLI.run(["test", root + "/login"])
        #expect(bare.status == 1)
        #expect(bare.stdout.contains(": unrecorded: the log holds no recorded decisions"))
        #expect(bare.stdout.contains("\n      also check: the focused field was left covered 1 time"), "\(bare.stdout)")
        #expect(bare.stdout.contains("why: 'password' stays covered by 44 pt"))

        let snapshots = root + "/snapshots"
        let recording = try CLI.run(["test", root + "/login", "--record-missing", snapshots])
        #expect(recording.status == 1, "a covered field still fails")
        #expect(recording.stdout.contains("FAIL  "))
        #expect(recording.stdout.contains("wrote its decisions to \(snapshots)/login/se-rotate.jsonl, though it failed"), "\(recording.stdout)")
        #expect(recording.stdout.contains("1 snapshot written (1 for failing sessions)"), "\(recording.stdout)")
        #expect(FileManager.default.fileExists(atPath: snapshots + "/login/se-rotate.jsonl"))
    }

    @Test("a difference in a snapshot's decisions cites the snapshot's file and line, in the terminal and in JUnit's file and line")
    func citesTheSnapshot() throws {
        let root = try Self.makeSuite()
        let (snapshots, snapshot) = try Self.differingSnapshot(in: root)
        let junit = root + "/junit.xml"
        let run = try CLI.run(["test", root + "/login", "--record-missing", snapshots, "--junit", junit])
        #expect(run.status == 1)
        let lines = try String(contentsOfFile: snapshot, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let cited = try #require(lines.firstIndex { $0.contains("\"originY\":-100") }) + 1
        #expect(run.stdout.contains("verify: derived event #1 differs: \(snapshot) has "), "\(run.stdout)")
        #expect(run.stdout.contains("(\(snapshot):\(cited))"))
        #expect(!run.stdout.contains("the log has"), "the line is not in the log")
        #expect(run.stdout.contains("also check: "))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("file=\"\(snapshot)\" line=\"\(cited)\""), "\(xml)")
        #expect(xml.contains("verify:\n\(snapshot):\(cited)"))
        #expect(xml.contains("check:\n"))
    }

    @Test("--report-dir: a failed session's report opens with its verdicts, the cited record, expected and got, and both screens")
    func reportOpensWithTheFailure() throws {
        let root = try Self.makeSuite()
        let (snapshots, snapshot) = try Self.differingSnapshot(in: root)
        let reports = root + "/reports"
        let run = try CLI.run(["test", root + "/login", "--record-missing", snapshots, "--report-dir", reports])
        #expect(run.status == 1)
        let html = try String(contentsOfFile: reports + "/login/se-rotate.jsonl.html", encoding: .utf8)
        let failure = try #require(html.range(of: "<section id=\"failure\""))
        let timeline = try #require(html.range(of: "<section id=\"timeline\""))
        #expect(failure.lowerBound < timeline.lowerBound, "the failure comes first")
        let section = String(html[failure.lowerBound..<timeline.lowerBound])
        #expect(section.contains("The session failed 2 ways"))
        #expect(section.contains("data-kind=\"verify\""))
        #expect(section.contains("data-kind=\"check\""))
        #expect(section.contains("<code class=\"place\">\(snapshot):"))
        // Expected is the snapshot's record, got the replay's: each in its own element.
        func code(_ name: String) -> String? {
            guard let start = section.range(of: "<code class=\"\(name)\">") else { return nil }
            return section[start.upperBound...].range(of: "</code>").map { String(section[start.upperBound..<$0.lowerBound]) }
        }
        let expected = try #require(code("expected"))
        let got = try #require(code("got"))
        #expect(expected.contains("&quot;event&quot;:&quot;viewShift&quot;") && expected.contains("&quot;originY&quot;:-100"), "\(expected)")
        #expect(got.contains("&quot;event&quot;:&quot;viewShift&quot;") && got.contains("&quot;originY&quot;:-109"), "\(got)")
        #expect(section.contains("<figure class=\"recorded\">") && section.contains("<figure class=\"replayed\">"))
        // The recorded screen has the root 100 pt up, the replayed one 109 pt.
        #expect(section.contains("root ↑ 100 pt") && section.contains("root ↑ 109 pt"), "\(section.prefix(4000))")
        #expect(html.contains("✘ failed: verify, check"))
    }

    @Test("expected failures: a project file's \"expectedFailures\" keeps a known bug in the suite, and fails it once it passes")
    func expectedFailures() throws {
        let root = try Self.makeSuite(withPassing: true)
        let project = root + "/login/.responder-bus.json"
        try #"{"expectedFailures": {"se-rotate.jsonl": "issue 12: covered after rotating"}}"#.write(
            toFile: project, atomically: true, encoding: .utf8)
        let junit = root + "/junit.xml"
        let kept = try CLI.run(["test", root + "/login", "--junit", junit])
        #expect(kept.status == 0, "\(kept.stdout)\(kept.stderr)")
        #expect(kept.stdout.contains("xfail  "), "\(kept.stdout)")
        #expect(kept.stdout.contains("expected to fail (issue 12: covered after rotating), and it did"))
        #expect(kept.stdout.contains("1 passed, 0 failed, 0 unreadable, 1 expected to fail"), "\(kept.stdout)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("skipped=\"1\""))
        #expect(xml.contains("<skipped message=\"expected to fail (issue 12"))

        try #"{"expectedFailures": {"./ok.jsonl": "bug 3"}}"#.write(toFile: project, atomically: true, encoding: .utf8)
        let fixed = try CLI.run(["test", root + "/login"])
        #expect(fixed.status == 1)
        #expect(fixed.stdout.contains("XPASS  "), "\(fixed.stdout)")
        #expect(fixed.stdout.contains("it passed, but its project file expects it to fail (bug 3)"))
        #expect(fixed.stdout.contains("1 passed unexpectedly"))

        try #"{"expectedFailures": {"ok.jsonl": ""}}"#.write(toFile: project, atomically: true, encoding: .utf8)
        let empty = try CLI.run(["test", root + "/login"])
        #expect(empty.status == 78)
        #expect(empty.stderr.contains("expectedFailures.ok.jsonl"))
    }

    @Test("colour only where a person reads it: through a pipe none; CLICOLOR_FORCE paints FAIL and ⚠ covered; NO_COLOR wins")
    func colourBehindIsatty() throws {
        let root = try Self.makeSuite(withPassing: true)
        let plain = try CLI.run(["test", root + "/login"])
        #expect(!plain.stdout.contains("\u{1B}["), "a pipe gets no escapes")
        let forced = try CLI.run(["test", root + "/login"], environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": ""])
        #expect(forced.stdout.contains("\u{1B}[1;31mFAIL\u{1B}[0m  login/se-rotate.jsonl"), "\(forced.stdout)")
        #expect(forced.stdout.contains("\u{1B}[32mpass\u{1B}[0m  login/ok.jsonl"))
        let timeline = try CLI.run(["replay", root + "/login/se-rotate.jsonl", "--check"], environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": ""])
        #expect(timeline.stdout.contains("\u{1B}[1;31m⚠ covered\u{1B}[0m: 'password'"))
        let records = try CLI.run(["replay", root + "/login/se-rotate.jsonl", "--format", "jsonl"], environment: ["CLICOLOR_FORCE": "1"])
        #expect(!records.stdout.contains("\u{1B}["), "JSON is never painted")
        let refused = try CLI.run(["test", root + "/login"], environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"])
        #expect(!refused.stdout.contains("\u{1B}["))
    }

    @Test("the reader's warnings are said under the session's verdict: a 250 s keyboard animation meant as milliseconds")
    func readerWarnings() throws {
        let root = try Self.makeSuite()
        let session = root + "/login/se-rotate.jsonl"
        let text = try String(contentsOfFile: session, encoding: .utf8)
        try text.replacingOccurrences(of: #""duration":0.25,"end":[0,315"#, with: #""duration":250,"end":[0,315"#).write(
            toFile: session, atomically: true, encoding: .utf8)
        let run = try CLI.run(["test", root + "/login"])
        #expect(run.stdout.contains("\n      warning: line 4"), "\(run.stdout)")
        #expect(run.stdout.contains("250 s"))
    }
}
