import Foundation
import Testing

/// Issue 30's import faults (item 13) at the command: what `--scene` files and options are said to
/// be, and the exit codes.
@Suite("responder-bus import: the --scene file and the options, said", .serialized)
struct ImportFaultsCLITests {
    static let console = """
        2019-04-30 21:44:27.627646+0800 a[1:2] NSConcreteNotification 0x6000 {name = UITextFieldTextDidBeginEditingNotification; object = <UITextField: 0x3; frame = (20 200; 335 40)>}
        """

    @Test("problems in the --scene file are labelled with its name and its own lines")
    func sceneProblemsNameTheSceneFile() throws {
        let scene = """
            <UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x91>>
               | <UITextField: 0x2; frame = (20 100; 335 40); lay
               | <UITextField: 0x3; frame = (20 200; 335 40); layer = <CALayer: 0x93>>
            """
        let consolePath = try CLI.temporaryFile(Self.console, name: "console.txt")
        let scenePath = try CLI.temporaryFile(scene, name: "hierarchy.txt")
        let run = try CLI.run(["import", consolePath, "--scene", scenePath])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "responder-bus: \(scenePath): line 2, column 6: the view entry <UITextField: …> is cut off before its closing '>'; it is left out of the scene"
            ), "\(run.stderr)")
        #expect(!run.stderr.contains("\(consolePath): in the scene"), "\(run.stderr)")
        #expect(run.stdout.contains(#"{"event":"didBeginEditing","t":0,"view":"UITextField@0x3"}"#))
    }

    @Test("a --scene file with no view-hierarchy dump in it (random bytes) exits 65 naming it")
    func unreadableSceneExits65() throws {
        let consolePath = try CLI.temporaryFile(Self.console, name: "console.txt")
        let scenePath = try CLI.temporaryFile("", name: "random.bin")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bytes = (0..<8192).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: scenePath))
        let output = URL(fileURLWithPath: scenePath).deletingLastPathComponent().appendingPathComponent("out.jsonl").path
        let run = try CLI.run(["import", consolePath, "--scene", scenePath, "--screen", "375x667", "-o", output])
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("responder-bus: \(scenePath): no view-hierarchy dump was found"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("import - --scene - is refused with 64: standard input cannot be both")
    func bothFromStandardInput() throws {
        let run = try CLI.run(["import", "-", "--scene", "-"], stdin: Self.console)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--scene -"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test("a --kind class that no view has, a renamed duplicate and a non-ASCII class are said or read")
    func notesOnStderr() throws {
        let dump = """
            <UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x91>>
               | <MyApp.CaféField: 0x2; frame = (20 100; 335 40); layer = <CALayer: 0x92>>
               | <UITextField: 0x3; frame = (20 200; 335 40); layer = <CALayer: 0x93>>
               | <UITextField: 0x3; frame = (20 300; 335 40); layer = <CALayer: 0x94>>
            """
        let path = try CLI.temporaryFile(dump, name: "console.txt")
        let run = try CLI.run(["import", path, "--kind", "MyApp.CafeField=textView"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains(#""class":"MyApp.CaféField","frame":[20,100,335,40],"id":"MyApp.CaféField@0x2","kind":"textField""#), "\(run.stdout)")
        #expect(run.stderr.contains("line 4, column 6: the address 0x3 is printed 2 times in this dump"), "\(run.stderr)")
        #expect(
            run.stderr.contains("--kind MyApp.CafeField=textView is not used: no view of the view-hierarchy dumps has that class"), "\(run.stderr)")
        let log = try CLI.temporaryFile(run.stdout, name: "session.jsonl")
        let replay = try CLI.run(["replay", log, "--strict"])
        #expect(replay.status == 0, "\(replay.stderr)")
    }
}
