import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `responder-bus test`: a folder of recorded sessions as a regression suite.
@Suite("responder-bus test: recorded sessions as a test suite, in parallel, with JUnit, reports, snapshots and shards")
struct TestCommandCLITests {
    /// A corpus with one session of each kind: two that pass, one whose recorded decision differs,
    /// one left covered, one unreadable, one with no recorded decisions.
    static func makeCorpus() throws -> (folder: String, names: [String]) {
        let folder = TestFolders.root.appendingPathComponent("corpus-\(UUID().uuidString)/sessions")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("nested/deeper"), withIntermediateDirectories: true)
        let example = try String(contentsOfFile: CLI.example, encoding: .utf8)
        func write(_ name: String, _ text: String) throws {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try write("a-passes.jsonl", example)
        try write("nested/b-passes-too.jsonl", example)
        try write("nested/c-differs.jsonl", example.replacingOccurrences(of: "\"originY\":-129", with: "\"originY\":-130"))
        try write("nested/deeper/d-unreadable.jsonl", "this is not a log\n")
        try write(
            "e-unrecorded.jsonl", example.split(separator: "\n").filter { !$0.contains("\"origin\":\"derived\"") }.joined(separator: "\n") + "\n")
        // The bundled imported session ends with its text view covered by 18 pt: the check fails it.
        let covered = try String(
            contentsOf: CLI.repository.appendingPathComponent("Sources/responder-bus/Examples/imported-textview-375x667.jsonl"), encoding: .utf8)
        try write("f-covered.jsonl", covered)
        try write("notes.txt", "not a session: ignored\n")
        let names = [
            "a-passes.jsonl", "e-unrecorded.jsonl", "f-covered.jsonl", "nested/b-passes-too.jsonl", "nested/c-differs.jsonl",
            "nested/deeper/d-unreadable.jsonl",
        ]
        return (folder.path, names.map { "sessions/" + $0 })
    }

    /// The session lines without their timings.
    static func verdicts(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").dropLast().map { line in
            line.replacingOccurrences(of: #", [0-9.]+ m?s\)"#, with: ")", options: .regularExpression)
        }
    }

    @Test("a corpus of every kind: one line per session in input order, the failures named, a summary, exit 1")
    func everyKind() throws {
        let (folder, names) = try Self.makeCorpus()
        let run = try CLI.run(["test", folder, "--jobs", "2"])
        #expect(run.status == 1, "\(run.stderr)")
        let lines = Self.verdicts(run.stdout)
        try #require(lines.count == names.count, "\(run.stdout)")
        for (line, name) in zip(lines, names) { #expect(line.contains(" \(name)"), "\(line) should be about \(name)") }
        #expect(lines[0] == "pass  sessions/a-passes.jsonl (43 events, 10 derived)")
        #expect(lines[1].hasPrefix("FAIL  sessions/e-unrecorded.jsonl: unrecorded: "))
        #expect(lines[2].hasPrefix("FAIL  sessions/f-covered.jsonl: check: the focused field was left covered 1 time"))
        #expect(lines[3] == "pass  sessions/nested/b-passes-too.jsonl (43 events, 10 derived)")
        #expect(
            lines[4].hasPrefix("FAIL  sessions/nested/c-differs.jsonl: verify: derived event #3 differs: the log has ")
                && lines[4].contains("\"originY\":-130") && lines[4].contains("(line 15)") && lines[4].contains("the replay derived ")
                && lines[4].contains("\"originY\":-129"))
        #expect(lines[5].hasPrefix("UNREADABLE  sessions/nested/deeper/d-unreadable.jsonl: unreadable: line 1, column 1: "))
        let summary = try #require(run.stdout.split(separator: "\n").last)
        #expect(summary.hasPrefix("6 sessions: 2 passed, 3 failed, 1 unreadable; 175 events in "), "\(summary)")
        #expect(summary.hasSuffix("2 jobs)"))
    }

    @Test("--jobs 1 and --jobs 4 give the same results, in the same order")
    func jobsAgree() throws {
        let (folder, _) = try Self.makeCorpus()
        let one = try CLI.run(["test", folder, "--jobs", "1"])
        let four = try CLI.run(["test", folder, "--jobs", "4"])
        #expect(one.status == 1 && four.status == 1)
        #expect(Self.verdicts(one.stdout) == Self.verdicts(four.stdout))
        #expect(one.stdout.split(separator: "\n").count == 7)
    }

    @Test("shards partition the corpus exactly, whatever order the paths come in")
    func shardsPartition() throws {
        let (folder, names) = try Self.makeCorpus()
        let paths = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jsonl") }.map { folder + "/" + $0 }
        var seen: [String: Int] = [:]
        for shard in 1...3 {
            let forward = try CLI.run(["test", "-", "--shard", "\(shard)/3", "--jobs", "1"], stdin: paths.joined(separator: "\n"))
            let backward = try CLI.run(["test", "-", "--shard", "\(shard)/3", "--jobs", "1"], stdin: paths.reversed().joined(separator: "\n"))
            let name = { (line: String) in String(line.split(separator: " ")[1].trimmingCharacters(in: CharacterSet(charactersIn: ":"))) }
            let taken = Set(Self.verdicts(forward.stdout).map(name))
            let takenBackward = Set(Self.verdicts(backward.stdout).map(name))
            #expect(taken == takenBackward, "shard \(shard) depends on the order of its inputs")
            #expect(forward.stderr.contains("shard \(shard)/3: \(taken.count) of 6 sessions"), "\(forward.stderr)")
            for name in taken { seen[name, default: 0] += 1 }
        }
        let expected = Set(names.map { folder + "/" + $0.dropFirst("sessions/".count) })
        #expect(Set(seen.keys) == expected, "every session in exactly one shard")
        #expect(seen.values.allSatisfy { $0 == 1 })
    }

    @Test("--junit writes one well-formed test case per session: failures, errors and their messages")
    func junit() throws {
        let (folder, names) = try Self.makeCorpus()
        let xmlPath = TestFolders.root.appendingPathComponent("junit-\(UUID().uuidString).xml").path
        let run = try CLI.run(["test", folder, "--junit", xmlPath])
        #expect(run.status == 1)
        let xml = try String(contentsOfFile: xmlPath, encoding: .utf8)
        #expect(XMLParser(data: Data(xml.utf8)).parse(), "not well-formed XML")
        #expect(xml.contains("<testsuites name=\"responder-bus test\" tests=\"6\" failures=\"3\" errors=\"1\""))
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == names.count)
        #expect(xml.contains("classname=\"sessions.nested\" name=\"c-differs.jsonl\""))
        #expect(xml.contains("<failure type=\"verify\" message=\"derived event #3 differs"))
        #expect(xml.contains("expected: {&quot;by&quot;:&quot;KeyboardAvoidance&quot;"))
        #expect(xml.contains("<failure type=\"check\""))
        #expect(xml.contains("<failure type=\"unrecorded\""))
        #expect(xml.contains("<error type=\"unreadable\""))
    }

    @Test("--junit stays well-formed XML when a message holds markup and control characters")
    func junitEscaping() throws {
        let session = try CLI.temporaryFile("{\"<log>\u{1B}[31m & \u{01}'quoted'\": 1}\n", name: "odd <name> & 'more'\u{01}.jsonl")
        let xmlPath = TestFolders.root.appendingPathComponent("junit-\(UUID().uuidString).xml").path
        let run = try CLI.run(["test", session, "--junit", xmlPath])
        #expect(run.status == 65, "its only session is unreadable")
        let xml = try String(contentsOfFile: xmlPath, encoding: .utf8)
        #expect(XMLParser(data: Data(xml.utf8)).parse(), "not well-formed XML:\n\(xml)")
        #expect(xml.contains("odd &lt;name&gt; &amp; &#39;more&#39;\u{FFFD}.jsonl"), "\(xml)")
        #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "a control character reached the XML")
    }

    @Test("--report-dir writes the report of each failing session and an index linking them")
    func reportDir() throws {
        let (folder, _) = try Self.makeCorpus()
        let reports = TestFolders.root.appendingPathComponent("reports-\(UUID().uuidString)").path
        let run = try CLI.run(["test", folder, "--report-dir", reports])
        #expect(run.status == 1)
        let index = try String(contentsOfFile: reports + "/index.html", encoding: .utf8)
        #expect(index.contains("4 of 6 sessions failed"))
        for failing in ["sessions/e-unrecorded.jsonl", "sessions/f-covered.jsonl", "sessions/nested/c-differs.jsonl"] {
            #expect(index.contains("<a href=\"\(failing).html\">"), "\(failing) not linked")
            let page = try String(contentsOfFile: reports + "/" + failing + ".html", encoding: .utf8)
            #expect(page.hasPrefix("<!DOCTYPE html>"))
        }
        #expect(index.contains("sessions/nested/deeper/d-unreadable.jsonl"), "the unreadable one is listed, without a report")
        #expect(!FileManager.default.fileExists(atPath: reports + "/sessions/a-passes.jsonl.html"), "no report for a passing session")
    }

    @Test("--record-missing given with a trailing slash names its snapshots with one slash (issue 51: snapshots//…)")
    func snapshotFolderWithSlash() throws {
        let (folder, _) = try Self.makeCorpus()
        let snapshots = TestFolders.root.appendingPathComponent("snapshots-\(UUID().uuidString)").path
        let session = folder + "/e-unrecorded.jsonl"
        let run = try CLI.run(["test", session, "--record-missing", snapshots + "//"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("recorded  \(session): wrote 10 decisions to \(snapshots + session)"), "\(run.stdout)")
        #expect(!run.stdout.contains("//"), "\(run.stdout)")
    }

    @Test("--record-missing writes the snapshot of a session without decisions, and the next run verifies against it")
    func snapshots() throws {
        let (folder, _) = try Self.makeCorpus()
        let snapshots = TestFolders.root.appendingPathComponent("snapshots-\(UUID().uuidString)").path
        let session = folder + "/e-unrecorded.jsonl"
        let first = try CLI.run(["test", session, "--record-missing", snapshots])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        // A file given by its path is named by it: its snapshot sits at that path under the folder.
        let snapshot = snapshots + session
        #expect(first.stdout.hasPrefix("recorded  \(session): wrote 10 decisions to \(snapshot)"), "\(first.stdout)")
        let written = try String(contentsOfFile: snapshot, encoding: .utf8)
        #expect(written.components(separatedBy: "\"origin\":\"derived\"").count - 1 == 10)
        let second = try CLI.run(["test", session, "--record-missing", snapshots])
        #expect(second.status == 0)
        #expect(second.stdout.hasPrefix("pass  \(session)"), "\(second.stdout)")
        // A snapshot that no longer matches fails the session.
        try written.replacingOccurrences(of: "\"originY\":-129", with: "\"originY\":-1").write(
            toFile: snapshot, atomically: true, encoding: .utf8)
        let third = try CLI.run(["test", session, "--record-missing", snapshots])
        #expect(third.status == 1)
        #expect(third.stdout.contains("verify: derived event #3 differs"), "\(third.stdout)")
        // A snapshot that cannot be read fails the session (the session itself was read).
        try "garbage\n".write(toFile: snapshot, atomically: true, encoding: .utf8)
        let fourth = try CLI.run(["test", session, "--record-missing", snapshots])
        #expect(fourth.status == 1)
        #expect(fourth.stdout.hasPrefix("FAIL  \(session): snapshot: its snapshot \(snapshot) cannot be read"), "\(fourth.stdout)")
    }

    @Test("--update rewrites the decisions that changed, says how many, and the next run passes")
    func update() throws {
        let (folder, _) = try Self.makeCorpus()
        let session = folder + "/nested/c-differs.jsonl"
        let before = try String(contentsOfFile: session, encoding: .utf8)
        let updated = try CLI.run(["test", session, "--update"])
        #expect(updated.status == 0, "\(updated.stdout)\(updated.stderr)")
        #expect(
            updated.stdout.contains(
                "updated  \(session): rewrote \(session): 1 decision changed (10 before, 10 now); the first: derived event #3 differs"))
        let after = try String(contentsOfFile: session, encoding: .utf8)
        #expect(after != before)
        #expect(after.contains("\"originY\":-129") && !after.contains("\"originY\":-130"))
        #expect(after.split(separator: "\n").count == before.split(separator: "\n").count, "the external events stay")
        let again = try CLI.run(["test", session])
        #expect(again.status == 0 && again.stdout.hasPrefix("pass  "))
    }

    @Test("exit codes: 65 when no session can be read, 66 when none is found, 64 for bad options; 0 when all pass")
    func exitCodes() throws {
        let (folder, _) = try Self.makeCorpus()
        let unreadable = try CLI.run(["test", folder + "/nested/deeper"])
        #expect(unreadable.status == 65, "\(unreadable.stdout)")
        let empty = TestFolders.root.appendingPathComponent("empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try CLI.run(["test", empty.path])
        #expect(none.status == 66)
        #expect(none.stderr.contains("no sessions found"))
        #expect(try CLI.run(["test", "/no/such/folder"]).status == 66)
        for bad in [["--shard", "0/3"], ["--shard", "4/3"], ["--shard", "x"], ["--jobs", "0"]] {
            let run = try CLI.run(["test", folder] + bad)
            #expect(run.status == 64, "\(bad)")
        }
        #expect(try CLI.run(["test"]).status == 64)
        // Two folders with one last component would give two sessions one name: refused.
        let twin = TestFolders.root.appendingPathComponent("twin-\(UUID().uuidString)/sessions")
        try FileManager.default.createDirectory(at: twin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder + "/a-passes.jsonl", toPath: twin.path + "/a-passes.jsonl")
        let twins = try CLI.run(["test", folder, twin.path])
        #expect(twins.status == 64)
        #expect(twins.stderr.contains("would both be named 'sessions/a-passes.jsonl'"), "\(twins.stderr)")
        let clash = try CLI.run(["test", folder, "--junit", folder + "/a-passes.jsonl"])
        #expect(clash.status == 64, "a JUnit file that is a session would overwrite it")
        #expect(try String(contentsOfFile: folder + "/a-passes.jsonl", encoding: .utf8).hasPrefix("{\"device\""))
        let passing = try CLI.run(["test", folder + "/a-passes.jsonl", folder + "/nested/b-passes-too.jsonl", "-q"])
        #expect(passing.status == 0)
        #expect(passing.stdout.hasPrefix("2 sessions: 2 passed, 0 failed, 0 unreadable; 86 events in "), "quiet prints the summary alone")
    }
}
