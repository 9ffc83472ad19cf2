import Foundation
import Testing

/// Issue 51, item 3, end to end: `import` says what it guessed. An iOS 5 iPad console's landscape
/// keyboard (portrait coordinates) is said with the `--screen` that converts it, and converted by
/// it; the text inputs are named; the only one is focused when nothing says which (and said), so
/// that the replay's avoidance acts; a `--focus` that names nothing exits 64 listing them.
@Suite("responder-bus import says what it guessed", .serialized)
struct ImportGuessesCLITests {
    static let ipadConsole = CLI.consoleDumps.appendingPathComponent("23-objc-ipad-ios5-landscape-nsconcretenotification-full-edit-session.txt").path
    static let window = """
        <UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x9>>
           | <UITextField: 0x2; frame = (20 600; 335 30); layer = <CALayer: 0x8>>
           | <UILabel: 0x3; frame = (0 0; 1 1); layer = <CALayer: 0x7>>
        UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 451}, {375, 216}}";

        """

    @Test("the iOS 5 landscape console: the hint the article promises, and --screen 1024x768 turns a false 'covered' into none")
    func landscapeKeyboard() throws {
        let inferred = try CLI.run(["import", Self.ipadConsole])
        #expect(inferred.status == 0, "\(inferred.stderr)")
        #expect(inferred.stderr.contains("line 23, column 34: the end frame [0, 0, 352, 1024] of keyboardWillChangeFrame"), "\(inferred.stderr)")
        #expect(inferred.stderr.contains("It fits the screen turned the other way: on the 1024×768 screen it is [0, 416, 1024, 352]"))
        #expect(inferred.stderr.contains("import with --screen 1024x768 to convert the frames"))
        let portraitLog = try CLI.temporaryFile(inferred.stdout, name: "portrait.jsonl")
        let portrait = try CLI.run(["replay", portraitLog, "--check"])
        #expect(portrait.status == 1, "the sideways strip covers the field: \(portrait.stdout)")

        let log = try CLI.temporaryFile("", name: "landscape.jsonl")
        let converted = try CLI.run(["import", Self.ipadConsole, "--screen", "1024x768", "-o", log])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stderr.contains("converted to the 1024×768 screen (given), where it is [0, 416, 1024, 352]"), "\(converted.stderr)")
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.contains(#"{"begin":[0,768,1024,352],"curve":0,"duration":0.25,"end":[0,416,1024,352],"event":"keyboardWillShow","t":0.011}"#))
        #expect(!text.contains("1024]"), "no frame left in portrait coordinates")
        let replay = try CLI.run(["replay", log, "--check"])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout.contains("0 covered-field violations"))
    }

    @Test("the only text field is named in the summary and focused, said on stderr; replayed, avoidance moves the window")
    func onlyTextInputFocused() throws {
        let console = try CLI.temporaryFile(Self.window, name: "console.txt")
        let run = try CLI.run(["import", console])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("found 1 dump (3 views, 1 text input: UITextField@0x2), 1 keyboard"), "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "UITextField@0x2, the only text field of the first view-hierarchy dump that is neither hidden nor disabled, is taken as focused"))
        #expect(run.stdout.contains(#"{"event":"didBeginEditing","t":0,"view":"UITextField@0x2"}"#))
        let log = try CLI.temporaryFile(run.stdout, name: "focused.jsonl")
        let replay = try CLI.run(["replay", log, "--check"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("KeyboardAvoidance: viewShift root to y -199"), "\(replay.stdout)")
        #expect(!replay.stdout.contains("has not begun editing"))
    }

    @Test("a --focus that names nothing exits 64, lists the text inputs, and writes nothing")
    func focusNotFound() throws {
        let console = try CLI.temporaryFile(Self.window, name: "console.txt")
        let output = try CLI.temporaryFile("", name: "out.jsonl") + ".new"
        let run = try CLI.run(["import", console, "--focus", "0x99", "-o", output])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr.contains(
                "--focus 0x99 names no view of the first view-hierarchy dump (the screen from the start): its text input is UITextField@0x2 (give an id, or the address printed for it); nothing is imported"
            ), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        // Without a dump there is nothing to name.
        let bare = try CLI.run(["import", "-", "--focus", "0x2"], stdin: "UIKeyboardFrameEndUserInfoKey = \"NSRect: {{0, 451}, {375, 216}}\";\n")
        #expect(bare.status == 64)
        #expect(bare.stderr.contains("the console has no view-hierarchy dump to find it in"), "\(bare.stderr)")
        // A focus that names the field works as before.
        let named = try CLI.run(["import", console, "--focus", "0x2"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(!named.stderr.contains("is taken as focused"))
    }
}
