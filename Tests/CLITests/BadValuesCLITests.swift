import Foundation
import Testing

/// Values that once trapped the CLI, and what the model rejects: refused with line and column,
/// never a crash (a trap exits with a signal, 132 or 133, and a backtrace).
@Suite("responder-bus on values too large to replay and on what the model rejects", .serialized)
struct BadValuesCLITests {
    static let header = #"{"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812}}"#
    static let scene =
        #"{"t":0,"event":"scene","root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[{"id":"email","kind":"textField","frame":[20,560,335,44]}]}}"#

    static func log(_ records: String...) throws -> String {
        try CLI.temporaryFile(([header, scene] + records).joined(separator: "\n") + "\n")
    }

    @Test("a t in Unix milliseconds: replay, --strict, --check, --report and render name the line, never crash")
    func millisecondTimes() throws {
        let log = try Self.log(
            #"{"t":0.5,"event":"didBeginEditing","view":"email"}"#,
            #"{"t":1700000000000,"event":"keyboardWillShow","end":[0,500,375,312]}"#,
            #"{"t":1,"event":"keyboardWillShow","end":[0,500,375,312],"duration":1e10}"#)
        let folder = URL(fileURLWithPath: log).deletingLastPathComponent().path
        let runs: [([String], Int32)] = [
            (["replay", log], 0),
            (["replay", log, "--strict"], 65),
            (["replay", log, "--check"], 0),
            (["replay", log, "--report", folder + "/r.html"], 0),
            (["render", log, "--at", "1", "-o", folder + "/f.svg"], 0),
        ]
        for (arguments, status) in runs {
            let run = try CLI.run(arguments)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("line 4, column 6: t is 1700000000000"), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("is it in milliseconds?"))
            #expect(!run.stderr.contains("crashed"))
        }
        let lenient = try CLI.run(["replay", log])
        #expect(lenient.stderr.contains("line 5, column 68: a duration of"))
    }

    @Test("a view kind the reader does not know: the scene keeps its views, one warning names line and column; --strict exits 65")
    func unknownViewKind() throws {
        let scene =
            #"{"t":0,"event":"scene","root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[{"id":"email","kind":"textField","frame":[20,560,335,44]},{"id":"go","kind":"stepper","frame":[20,700,335,44]}]}}"#
        let log = try CLI.temporaryFile(
            [
                Self.header, scene, #"{"t":1,"event":"didBeginEditing","view":"email"}"#,
                #"{"t":1.01,"event":"keyboardWillShow","end":[0,500,375,312]}"#,
            ]
            .joined(separator: "\n") + "\n")
        let lenient = try CLI.run(["replay", log, "--format", "jsonl"])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stderr.contains("warning: line 2, column 168: unknown view kind 'stepper'"), "\(lenient.stderr)")
        #expect(!lenient.stderr.contains("skipped"), "nothing after the scene is skipped: \(lenient.stderr)")
        #expect(lenient.stdout.contains(#""event":"viewShift""#), "the scene's fields are there to avoid: \(lenient.stdout)")
        let strict = try CLI.run(["replay", log, "--strict"])
        #expect(strict.status == 65)
        #expect(strict.stderr.contains("line 2, column 168"))
    }

    @Test("--speed that would push times past the clock is refused with 64; a slow but sane one is accepted")
    func speed() throws {
        let log = try Self.log(#"{"t":0.01,"event":"keyboardDidHide"}"#)
        for speed in ["1e-300", "0", "-1", "inf", "nan", "1e7"] {
            let run = try CLI.run(["replay", log, "--realtime", "--speed=\(speed)"])
            #expect(run.status == 64, "--speed \(speed): \(run.stderr)")
            #expect(run.stderr.contains("--speed must be between 0.001 and 1000000"), "\(run.stderr)")
        }
        let fast = try CLI.run(["replay", log, "--realtime", "--speed", "1000"])
        #expect(fast.status == 0, "\(fast.stderr)")
    }

    @Test("--strict stops with 65 at a scene with a repeated id and at editing begun on a plain view, naming line and column")
    func modelRejections() throws {
        let duplicate =
            #"{"t":1,"event":"scene","root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[{"id":"a","kind":"textField","frame":[0,0,10,10]},{"id":"a","kind":"view","frame":[0,0,10,10]}]}}"#
        let twice = try Self.log(duplicate)
        let strict = try CLI.run(["replay", twice, "--strict"])
        #expect(strict.status == 65)
        #expect(strict.stderr.contains("line 3, column 148: view id 'a' appears twice in the scene"), "\(strict.stderr)")
        #expect(try CLI.run(["replay", twice]).status == 0)

        let plain = try Self.log(#"{"t":1,"event":"didBeginEditing","view":"root"}"#)
        let editing = try CLI.run(["replay", plain, "--strict"])
        #expect(editing.status == 65)
        #expect(
            editing.stderr.contains("line 3, column 41: 'didBeginEditing' names view 'root', a view, which cannot edit text"), "\(editing.stderr)")
    }

    @Test("control characters from a log reach the terminal escaped, in the timeline, the summary and errors; JSON stays JSON")
    func controlCharacters() throws {
        let id = #"x\u001b]0;PWNED\u0007\u001b[2J"#
        let log = try CLI.temporaryFile(
            [
                Self.header,
                #"{"t":0,"event":"scene","root":{"id":"root","frame":[0,0,375,812],"children":[{"id":"\#(id)","kind":"textField","frame":[0,700,100,40]}]}}"#,
                #"{"t":1,"event":"didBeginEditing","view":"\#(id)"}"#,
                #"{"t":2,"event":"returnKey","view":"y\u001b[2J\u009b\u202e"}"#,
            ].joined(separator: "\n") + "\n")
        let text = try CLI.run(["replay", log, "--check", "--disable", "KeyboardAvoidance"])
        for output in [text.stdout, text.stderr] {
            #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x202E })
        }
        #expect(text.stdout.contains(#"didBeginEditing         'x\u{1B}]0;PWNED\u{7}\u{1B}[2J'"#), "\(text.stdout)")
        #expect(text.stdout.contains(#"first responder 'x\u{1B}]0;PWNED\u{7}\u{1B}[2J'"#))
        #expect(text.stderr.contains(#"names view 'y\u{1B}[2J\u{9B}\u{202E}'"#), "\(text.stderr)")

        let json = try CLI.run(["replay", log, "--format", "jsonl"])
        #expect(json.stdout.contains(#""firstResponder":"x\u001b]0;PWNED\u0007\u001b[2J""#), "\(json.stdout)")
    }
}
