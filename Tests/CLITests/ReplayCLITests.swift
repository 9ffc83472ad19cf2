import Foundation
import Testing

@Suite("responder-bus replay, end to end", .serialized)
struct ReplayCLITests {
    @Test("the bundled session's timeline matches the golden output")
    func timeline() throws {
        let run = try CLI.run(["replay", CLI.example])
        #expect(run.status == 0, "\(run.stderr)")
        try CLI.expectGolden(run.stdout, "sign-up-session.timeline.txt")
    }

    @Test("--format jsonl prints the derived records and a closing summary record")
    func jsonl() throws {
        let run = try CLI.run(["replay", CLI.example, "--format", "jsonl"])
        #expect(run.status == 0)
        try CLI.expectGolden(run.stdout, "sign-up-session.derived.jsonl")
        let last = try #require(run.stdout.split(separator: "\n").last)
        let summary = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
        #expect(summary?["event"] as? String == "summary")
        #expect(summary?["events"] as? Int == 43)
        #expect(summary?["derived"] as? Int == 10)
        #expect(summary?["originY"] as? Int == 0)
        #expect(summary?["violations"] as? Int == 0)
        #expect(summary?["firstResponder"] is NSNull)
    }

    @Test("--check and --verify pass on the bundled session")
    func checksPass() throws {
        let run = try CLI.run(["replay", CLI.example, "--check", "--verify"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("verify: 10 derived events match"))
        #expect(run.stdout.contains("0 covered-field violations"))
    }

    @Test("--verify shows the first difference and exits 1")
    func verifyFails() throws {
        let text = try String(contentsOfFile: CLI.example, encoding: .utf8)
        let tampered = text.replacingOccurrences(of: #""originY":-129"#, with: #""originY":-130"#)
        #expect(tampered != text)
        let run = try CLI.run(["replay", try CLI.temporaryFile(tampered), "--verify"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("verify: derived event #3 differs"))
        #expect(run.stderr.contains("-130"))
        #expect(run.stderr.contains("-129"))
    }

    @Test("--check names every covered moment and exits 1 when avoidance is off")
    func checkFails() throws {
        let run = try CLI.run(["replay", CLI.example, "--check", "--disable", "KeyboardAvoidance"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("1.259  ⚠ covered: 'name' is covered by 3 pt"))
        #expect(run.stderr.contains("check: the focused field was left covered"))
    }

    @Test(
        "issue 51: the rotation case (320×568 turned to 568×320, the password field not laid out again) says why it stays covered, with the numbers")
    func checkSaysWhy() throws {
        let log = try CLI.temporaryFile(
            """
            {"device":"iPhone SE","format":"responder-bus-log","screen":{"height":568,"width":320},"version":1}
            {"event":"scene","root":{"children":[{"frame":[20,300,280,44],"id":"user","kind":"textField","tag":1},{"frame":[20,360,280,44],"id":"password","kind":"textField","secure":true,"tag":2}],"frame":[0,0,320,568],"id":"root","kind":"view"},"t":0}
            {"event":"didBeginEditing","t":1,"view":"password"}
            {"begin":[0,568,320,0],"curve":7,"duration":0.25,"end":[0,315,320,253],"event":"keyboardWillShow","t":1}
            {"event":"screen","height":320,"t":3,"width":568}
            {"event":"setFrame","frame":[0,0,568,320],"t":3,"view":"root"}
            {"begin":[0,315,320,253],"curve":7,"duration":0.25,"end":[0,127,568,193],"event":"keyboardWillShow","t":3}

            """, name: "se-rotate.jsonl")
        let run = try CLI.run(["replay", log, "--check"])
        #expect(run.status == 1)
        let covered = try #require(run.stdout.split(separator: "\n").first { $0.contains("⚠ covered") })
        #expect(covered.hasPrefix("    3.250  ⚠ covered: 'password' is covered by 44 pt"), "one time per line: \(covered)")
        #expect(!covered.contains("t=3.25"))
        #expect(
            covered.contains("; why: 'password' stays covered by 44 pt: avoidance moves the root up at most the keyboard's covered height, 193 pt"))
        #expect(covered.contains("needs 297 pt"))
        #expect(covered.contains("84 pt below the screen's bottom edge"))
        #expect(run.stdout.contains("→ KeyboardAvoidance: diagnostic info: 'password' stays covered by 44 pt"))
    }

    @Test("standard input works as -")
    func standardInput() throws {
        let text = try String(contentsOfFile: CLI.example, encoding: .utf8)
        let run = try CLI.run(["replay", "-", "--format", "jsonl"], stdin: text)
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: "\n").count == 11)
    }

    @Test("--record writes a log that verifies against itself")
    func record() throws {
        let input = try CLI.temporaryFile(
            try String(contentsOfFile: CLI.example, encoding: .utf8).split(separator: "\n").filter { !$0.contains(#""origin":"derived""#) }.joined(
                separator: "\n") + "\n")
        let output = input + ".recorded.jsonl"
        let first = try CLI.run(["replay", input, "--record", output])
        #expect(first.status == 0)
        let second = try CLI.run(["replay", output, "--verify"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == String(contentsOfFile: CLI.example, encoding: .utf8))
    }

    @Test("--realtime at high speed derives the same decisions")
    func realtime() throws {
        let run = try CLI.run(["replay", CLI.example, "--realtime", "--speed", "50", "--verify", "--format", "jsonl"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("10 derived events match"))
    }

    @Test("--help for every command, with examples")
    func help() throws {
        for command in [["--help"], ["replay", "--help"], ["import", "--help"]] {
            let run = try CLI.run(command)
            #expect(run.status == 0)
            #expect(run.stdout.contains("Examples"), "\(command)")
        }
    }
}

@Suite("responder-bus replay: bad input and exit codes", .serialized)
struct ReplayCLIBadInputTests {
    static let header = #"{"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812}}"#
    static let scene =
        #"{"t":0,"event":"scene","root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[{"id":"email","kind":"textField","tag":1,"frame":[20,560,335,44]}]}}"#

    @Test("bad lines are named with line and column, skipped, counted; the good ones still count; --strict exits 65")
    func badLines() throws {
        let log =
            [
                Self.header, Self.scene,
                #"{"t":1,"event":"didBeginEditing","view":"email"}"#,
                #"{"t":1.5,"event":"keyboardWillShow","duration":NaN}"#,
                #"{"t":2,"event":"didBeginEditing","view":"ghost"}"#,
                #"{"t":2.5,"event":"keyboardWillPop"}"#,
                #"{"t":3,"event":"keyboardWillShow","end":[0,521,375,291],"duration":-1}"#,
                #"{"t":4,"event":"keyboardWillShow","end":[0,521,375,291],"duration":0.25,"curve":7}"#,
            ].joined(separator: "\n") + "\n" + #"{"t":5,"event":"keyboardWillHide","end":[0,8"#
        let path = try CLI.temporaryFile(log)
        let run = try CLI.run(["replay", path, "--format", "jsonl"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("line 4, column 48: NaN and infinite numbers are not allowed"))
        #expect(run.stderr.contains("line 5, column 41: 'didBeginEditing' names view 'ghost'"))
        #expect(run.stderr.contains("line 6, column 18: unknown event 'keyboardWillPop'"))
        #expect(run.stderr.contains("line 7, column 68: a negative duration"))
        // Reported in line order.
        let reported = run.stderr.split(separator: "\n").compactMap { line -> Int? in
            guard let range = line.range(of: ": line ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(reported == [4, 5, 6, 7, 9])
        #expect(run.stderr.contains("line 9, column"))
        #expect(run.stderr.contains("cut off"))
        #expect(run.stderr.contains("5 lines skipped"))
        #expect(run.stdout.contains(#""events":3"#))
        #expect(run.stdout.contains(#""originY":-103"#))

        let strict = try CLI.run(["replay", path, "--strict"])
        #expect(strict.status == 65)
        #expect(strict.stderr.contains("line 4"))
        #expect(!strict.stderr.contains("line 5"))
    }

    @Test(
        "input problems with the whole file",
        arguments: [
            ("empty", "", Int32(65), "the log is empty"),
            ("newer version", #"{"format":"responder-bus-log","version":2,"screen":{"width":1,"height":1}}"# + "\n", 65, "version 2"),
            ("no header", #"{"t":0,"event":"returnKey","view":"a"}"# + "\n", 65, "line 1 must be the header"),
            ("invalid UTF-8 header", "\u{FFFD}not json\n", 65, "line 1"),
        ])
    func wholeFile(_ name: String, _ contents: String, _ status: Int32, _ message: String) throws {
        let run = try CLI.run(["replay", try CLI.temporaryFile(contents)])
        #expect(run.status == status, "\(name)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test("missing files and directories exit 66; bad usage exits 64")
    func exitCodes() throws {
        let missing = try CLI.run(["replay", "/nonexistent/session.jsonl"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("No such file or directory"))
        let directory = try CLI.run(["replay", FileManager.default.temporaryDirectory.path])
        #expect(directory.status == 66)
        #expect(directory.stderr.contains("is a directory"))
        for arguments in [
            ["replay"], ["replay", CLI.example, "--speed", "-2"], ["replay", CLI.example, "--disable", "Nope"], ["replay", CLI.example, "--bogus"],
            ["frobnicate"],
        ] {
            let run = try CLI.run(arguments)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
        }
    }

    @Test("a 10 MB line is read (the limit is 64 MiB) and invalid UTF-8 in a record is rejected without harm")
    func hugeAndInvalid() throws {
        var bytes = Array((Self.header + "\n" + Self.scene + "\n").utf8)
        bytes +=
            Array(#"{"t":1,"event":"action","origin":"derived","by":"X","name":""#.utf8) + [UInt8](repeating: 0x61, count: 10 << 20)
            + Array("\"}\n".utf8)
        bytes += Array(#"{"t":2,"event":"returnKey","view":""#.utf8) + [0xFF, 0xFE] + Array("\"}\n".utf8)
        bytes += Array(#"{"t":3,"event":"didBeginEditing","view":"email"}"#.utf8) + [0x0A]
        let url = URL(fileURLWithPath: try CLI.temporaryFile(""))
        try Data(bytes).write(to: url)
        let run = try CLI.run(["replay", url.path, "--format", "jsonl"])
        #expect(run.status == 0)
        #expect(!run.stderr.contains("line 3"), "\(run.stderr)")
        #expect(run.stderr.contains("line 4, column 35: the string here is not valid UTF-8"))
        #expect(run.stdout.contains(#""firstResponder":"email""#))
    }
}
