import Foundation
import Testing

@Suite("responder-bus import, end to end", .serialized)
struct ImportCLITests {
    static let fixtures: [String] = {
        let folder = CLI.consoleDumps
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".txt") }.sorted()
    }()

    @Test("the fixtures are there, in the repository")
    func fixturesPresent() {
        #expect(Self.fixtures.count >= 20, "no fixtures under \(CLI.consoleDumps.path)")
    }

    @Test("every fixture imports to its golden log, or exits 65 saying why", arguments: fixtures)
    func importFixture(_ name: String) throws {
        let path = CLI.consoleDumps.appendingPathComponent(name).path
        let run = try CLI.run(["import", path])
        let base = String(name.dropLast(4))
        if run.status == 65 {
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("responder-bus: \(path): "))
            try CLI.expectGolden(run.stderr.replacingOccurrences(of: path, with: name), "import-\(base).stderr.txt")
            return
        }
        #expect(run.status == 0, "\(run.stderr)")
        try CLI.expectGolden(run.stdout, "import-\(base).jsonl")

        // What was imported replays: the plugins decide without any line being rejected.
        let log = try CLI.temporaryFile(run.stdout)
        let replay = try CLI.run(["replay", log, "--format", "jsonl", "--strict"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains(#""event":"summary""#))
    }

    @Test("--screen, --event, -o and standard input")
    func options() throws {
        let dump = """
            2019-04-30 21:44:27.627646+0800 test[7689:297428] -----{
                UIKeyboardAnimationCurveUserInfoKey = 7;
                UIKeyboardAnimationDurationUserInfoKey = "0.25";
                UIKeyboardFrameBeginUserInfoKey = "NSRect: {{0, 896}, {414, 288}}";
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 550}, {414, 346}}";
                UIKeyboardIsLocalUserInfoKey = 1;
            }
            """
        let output = try CLI.temporaryFile("") + ".out.jsonl"
        let run = try CLI.run(["import", "-", "--screen", "414x896", "--event", "keyboardWillShow", "-o", output], stdin: dump)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.hasPrefix(#"{"format":"responder-bus-log","#))
        #expect(written.contains(#""screenSource":"given""#))
        #expect(written.contains(#""event":"keyboardWillShow""#))
        #expect(written.contains(#""end":[0,550,414,346]"#))
    }

    @Test(
        "bad usage and missing input",
        arguments: [
            (["import", "x.txt", "--screen", "wide"], Int32(64), "--screen wide"),
            (["import", "x.txt", "--event", "keyboardWillDance"], 64, "--event keyboardWillDance"),
            (["import", "/nonexistent.txt"], 66, "No such file"),
            (["import", "/tmp"], 66, "is a directory"),
        ])
    func errors(_ arguments: [String], _ status: Int32, _ message: String) throws {
        let run = try CLI.run(arguments)
        #expect(run.status == status)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test("a dump with nothing importable exits 65")
    func nothing() throws {
        let run = try CLI.run(["import", "-"], stdin: "just some console noise\nno notifications here\n")
        #expect(run.status == 65)
        #expect(run.stdout.isEmpty)
        #expect(!run.stderr.isEmpty)
    }
}
