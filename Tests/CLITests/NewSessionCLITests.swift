import Foundation
import Testing

/// `responder-bus new-session`: a bug report's sentence becomes a session `replay` reads.
@Suite("responder-bus new-session", .serialized)
struct NewSessionCLITests {
    static func folder() throws -> String {
        URL(fileURLWithPath: try CLI.temporaryFile("", name: "unused")).deletingLastPathComponent().path
    }

    @Test("the issue's sentence: an iPhone SE, user and a secure password, rotated at 3 s; replay --check reads it, rotated right")
    func issueSentence() throws {
        let path = try Self.folder() + "/se-rotate.jsonl"
        let made = try CLI.run([
            "new-session", "--device", "iPhone SE", "--fields", "user,password:secure", "--focus", "password", "--rotate-at", "3", "-o", path,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.isEmpty)
        #expect(
            made.stderr.contains(
                "new-session: wrote \(path): iPhone SE (320×568), portrait, 2 fields, 16 records: focus 'password' at 1 s, the rotation at 3 s"))
        let log = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            log.hasPrefix(
                #"{"device":"iPhone SE, portrait, the system keyboard with the prediction bar; a sketched session","format":"responder-bus-log""#))
        #expect(log.contains(#"{"event":"screen","height":320,"safeArea":{"bottom":0,"left":0,"right":0,"top":0},"t":3,"width":568}"#))
        #expect(log.contains(#"{"event":"setFrame","frame":[20,256,528,44],"t":3,"view":"password"}"#))
        #expect(
            log.contains(
                #"{"begin":[0,320,568,199],"curve":7,"duration":0.25,"end":[0,121,568,199],"event":"keyboardWillShow","isLocal":true,"t":3}"#))
        #expect(log.contains(#""id":"password","kind":"textField","secure":true,"tag":2"#))

        let replay = try CLI.run(["replay", path, "--check"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stderr.isEmpty, "no line rejected, no warning: \(replay.stderr)")
        #expect(replay.stdout.contains("root at y -199; first responder 'password'; 0 covered-field violations"), "\(replay.stdout)")
    }

    @Test("to standard output, piped into replay; a text view too tall for the landscape keyboard is reported covered (exit 1)")
    func pipedAndCovered() throws {
        let run = try CLI.shell(
            "\(CLI.quoted(CLI.binary.path)) new-session --device 320x568 --fields notes:textView:height=200 --rotate-at 3 | \(CLI.quoted(CLI.binary.path)) replay - --check"
        )
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stdout.contains("'notes' is covered by 79 pt"), "\(run.stdout)")
    }

    @Test("what cannot be read or cannot happen exits 64 saying why; the known devices are listed")
    func usageErrors() throws {
        let unknown = try CLI.run(["new-session", "--device", "iPhone 99", "--fields", "user"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown device 'iPhone 99'; known: iPhone SE, iPhone 8, iPhone 8 Plus, iPhone X"), "\(unknown.stderr)")
        #expect(unknown.stdout.isEmpty)
        let cases: [([String], String)] = [
            (["--fields", "user:bold"], "unknown word 'bold'"),
            (["--fields", "user", "--focus", "nobody@1"], "the screen has no such field; its fields are 'user'"),
            (
                ["--fields", "user", "--return-at", "0.5"],
                "no field is focused then; focus one before it (without --focus, the first field is focused at 1 s)"
            ),
            (["--fields", "user", "--rotate-at", "1.01"], "leave at least 50 ms between actions"),
            (["--fields", "user", "--layout", "middle"], "--layout middle: expected bottom or top"),
            (["--fields", "user", "--third-party-keyboard", "0,x"], "expected heights in points separated by commas"),
            (["--fields", "user", "--duration", "250"], "keyboard animations last 0 to 2 s"),
            (["--device", "iPhone SE"], "--fields is required"),
        ]
        for (arguments, message) in cases {
            let device = arguments.contains("--device") ? [] : ["--device", "iPhone SE"]
            let run = try CLI.run(["new-session"] + device + arguments)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        let list = try CLI.run(["new-session", "--list-devices"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("iPhone SE: 320x568, keyboard 216/253 portrait, 162/199 landscape (without/with the prediction bar)"))
        #expect(list.stdout.split(separator: "\n").count == 14)
    }

    @Test("an output that cannot be created exits 73 and leaves nothing")
    func cannotCreate() throws {
        let run = try CLI.run(["new-session", "--device", "iPhone SE", "--fields", "user", "-o", "/nonexistent-folder/se.jsonl"])
        #expect(run.status == 73)
        #expect(run.stderr.contains("cannot create '/nonexistent-folder/se.jsonl'"))
    }

    @Test("replay warns of a keyboard animation of 250 s and offers 0.25; --strict stops there with 65")
    func implausibleDuration() throws {
        let show = #"{"t":1,"event":"keyboardWillShow","end":[0,500,375,312],"duration":250}"#
        let log = try CLI.temporaryFile(
            [BadValuesCLITests.header, BadValuesCLITests.scene, #"{"t":0.5,"event":"didBeginEditing","view":"email"}"#, show].joined(separator: "\n")
                + "\n")
        let column = show.distance(from: show.startIndex, to: show.range(of: "250")!.lowerBound) + 1
        let lenient = try CLI.run(["replay", log, "--check"])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(
            lenient.stderr.contains("warning: line 4, column \(column): duration 250 s is not a keyboard animation; did you mean 0.25 (seconds)?"),
            "\(lenient.stderr)")
        #expect(lenient.stderr.contains("1 line read with a warning"))
        #expect(lenient.stdout.contains("keyboardWillShow"), "the record is read as written")
        let strict = try CLI.run(["replay", log, "--strict"])
        #expect(strict.status == 65)
    }

    @Test(
        "values no session can hold are refused saying which and why, never written: a field past any screen, a height split by a space, a time of inf"
    )
    func refusesWhatNoScreenHolds() throws {
        for (arguments, words) in [
            (["--fields", "a:y=1e308", "--rotate-at", "3"], "y=1e308 needs a number of points from 0 to 10000"),
            (["--fields", "a,b:height=20000"], "height=20000 needs a number of points more than 0 to 10000"),
            (["--fields", "a", "--third-party-keyboard", "2 16"], "--third-party-keyboard 2 16: expected heights"),
            (["--fields", "a", "--third-party-keyboard", ",,216,"], "--third-party-keyboard ,,216,: expected heights"),
            (["--fields", "a", "--focus", "a@inf"], "focus 'a' at inf s: times are seconds from the start of the log, from 0 to"),
            (
                ["--fields", "a", "--third-party-keyboard", "420", "--rotate-at", "3"],
                "keyboard heights 330 in landscape (scaled from the starting orientation's"
            ),
        ] {
            let run = try CLI.run(["new-session", "--device", "iPhone SE"] + arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.contains(words), "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "nothing written for \(arguments)")
        }
        // Spaces around a height are fine, and a keyboard taller than the landscape screen is no
        // concern of a session that never turns.
        let spaced = try CLI.run(["new-session", "--device", "iPhone SE", "--fields", "a", "--third-party-keyboard", " 0, 216 "])
        #expect(spaced.status == 0, "\(spaced.stderr)")
        #expect(spaced.stdout.contains("\"end\":[0,352,320,216]"))
        let portrait = try CLI.run(["new-session", "--device", "iPhone SE", "--fields", "a", "--third-party-keyboard", "420"])
        #expect(portrait.status == 0, "\(portrait.stderr)")
    }
}
