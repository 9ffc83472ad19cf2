import Foundation
import Testing

/// A real app's session reaching the replay: a console's keyboard notifications and a view-hierarchy
/// dump, both real (`Tests/Fixtures/`), imported into one log that the plugins decide on.
@Suite("responder-bus import with view-hierarchy dumps, end to end", .serialized)
struct ImportHierarchyCLITests {
    static let fixtures = CLI.repository.appendingPathComponent("Tests/Fixtures")
    /// An iPhone 6 console (a keyboard 258 pt high) and a 375×667 window with a 427 pt text view.
    static let console = fixtures.appendingPathComponent("ios-logs/05-swift-iphone6-375x667-begin216-end258.txt").path
    static let window = fixtures.appendingPathComponent("hierarchy-dumps/03-monkeydev-cycript-pviews-375x667-textview-multiline-text-value.txt").path
    static let bundled = CLI.repository.appendingPathComponent("Sources/responder-bus/Examples/imported-textview-375x667.jsonl").path

    static func importSession() throws -> String {
        let log = try CLI.temporaryFile("", name: "session.jsonl")
        let run = try CLI.run(["import", console, "--scene", window, "--focus", "0x105836000", "-o", log])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains("found 4 dumps (15 views, 1 text input: UITextView@0x105836000), 1 keyboard and 0 editing notifications"),
            "\(run.stderr)")
        return log
    }

    @Test("the console and the window import to a log whose scene is the real window, classes and all")
    func scene() throws {
        let text = try String(contentsOfFile: try Self.importSession(), encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.first?.contains(#""screen":{"height":667,"width":375}"#) == true)
        #expect(lines.count == 4)
        #expect(text.contains(#""class":"UITextView","frame":[26,230,343,427],"id":"UITextView@0x105836000","kind":"textView"}"#))
        #expect(text.contains(#""class":"UIWindow""#))
        // A text view begins editing after the keyboard's first notification.
        #expect(lines[2].contains(#""event":"keyboardWillChangeFrame""#))
        #expect(lines[3] == #"{"event":"didBeginEditing","t":0,"view":"UITextView@0x105836000"}"#)
    }

    @Test("replayed, avoidance moves the real window and --check names the text view the keyboard still covers")
    func decisions() throws {
        let log = try Self.importSession()
        let run = try CLI.run(["replay", log, "--check", "--format", "jsonl"])
        #expect(run.status == 1)
        #expect(run.stdout.contains(#""by":"KeyboardAvoidance","curve":7,"duration":0.25,"event":"viewShift","origin":"derived","originY":-230"#))
        #expect(run.stderr.contains("'UITextView@0x105836000' is covered by 18 pt"), "\(run.stderr)")
        let report = URL(fileURLWithPath: log).deletingLastPathComponent().appendingPathComponent("r.html").path
        _ = try CLI.run(["replay", log, "--report", report])
        let page = try String(contentsOfFile: report, encoding: .utf8)
        #expect(page.contains("textView UITextView"))
        let svg = URL(fileURLWithPath: log).deletingLastPathComponent().appendingPathComponent("f.svg").path
        #expect(try CLI.run(["render", log, "--at", "0.3", "-o", svg]).status == 0)
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("UITextView@0x105836000 · textView"))
    }

    @Test("a failed UI test's XCUITest element list: imported with its keyboard and a --focus field, it replays")
    func uiTestDump() throws {
        let dump = Self.fixtures.appendingPathComponent("console-shapes/xcuitest-04-warba-cucumber-flat-list-keyboard-390x844.txt").path
        let log = try CLI.temporaryFile("", name: "ui-test.jsonl")
        let imported = try CLI.run(["import", dump, "--focus", "TextField@5:6943", "-o", log])
        #expect(imported.status == 0, "\(imported.stderr)")
        // The Keyboard element is its key plane; the keyboard is its window's host, with the accessory and the bar below.
        #expect(imported.stderr.contains("the Keyboard element {{0, 553}, {390, 233}} is its key plane alone"), "\(imported.stderr)")
        #expect(imported.stderr.contains("this dump shows the keyboard at {{0.0, 509.0}, {390.0, 335.0}}"), "\(imported.stderr)")
        // The keyboard's toolbar, its Previous, Next and Done, shift, Return, Emoji and Dictate are not the app's.
        #expect(
            imported.stderr.contains(
                "found 1 dump (58 views, 2 text inputs: TextField@5:6943, SecureTextField@5:7080), 2 keyboard and 0 editing notifications"),
            "\(imported.stderr)")
        let replayed = try CLI.run(["replay", log, "--check"])
        // The field lies below the screen's bottom (y 937.7 on an 844-point screen): no move uncovers it, and --check says why.
        #expect(replayed.status == 1, "\(replayed.stderr)")
        #expect(replayed.stdout.contains("below the screen's bottom edge"), "\(replayed.stdout)")
        #expect(replayed.stdout.contains("secure 'SecureTextField@5:7080'"), "\(replayed.stdout)")
        #expect(replayed.stdout.contains("keyboardWillShow        end [0, 509, 390, 335]"), "\(replayed.stdout)")
        #expect(replayed.stdout.contains("first responder 'TextField@5:6943'"), "\(replayed.stdout)")
    }

    @Test("a failed UI test's list of matched elements: the command asks for the screen as wide as the views, then places every match")
    func matchedElements() throws {
        let dump = Self.fixtures.appendingPathComponent("console-shapes/earlgrey-13-earlgrey1365-eg2-multiple-matched-tableviewcells-375.txt").path
        let log = try CLI.temporaryFile("", name: "matched.jsonl")
        let asked = try CLI.run(["import", dump, "-o", log])
        #expect(asked.status == 65)
        #expect(
            asked.stderr.contains("pass --screen WxH (the views fit a screen 375 points wide: --screen 375x667 or --screen 375x812)"),
            "\(asked.stderr)")
        let imported = try CLI.run(["import", dump, "--screen", "375x812", "-o", log])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("3 views printed apart, one after another"), "\(imported.stderr)")
        let replayed = try CLI.run(["replay", log])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout.contains("scene                   4 views"), "\(replayed.stdout)")
    }

    @Test("the bundled example is that import with its decisions recorded, and verifies")
    func bundledExample() throws {
        let fresh = try String(contentsOfFile: try Self.importSession(), encoding: .utf8)
        let bundled = try String(contentsOfFile: Self.bundled, encoding: .utf8)
        let external = bundled.split(separator: "\n").filter { !$0.contains(#""origin":"derived""#) }.joined(separator: "\n") + "\n"
        #expect(external == fresh)
        let run = try CLI.run(["replay", Self.bundled, "--verify"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("verify: 1 derived events match the log"))
    }

    @Test("--kind, --focus and addresses the dump lacks are named on stderr; a console of only a dump imports its scene")
    func options() throws {
        let dump = """
            <UIWindow: 0x7f01; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x1>>
               | <MyApp.NoteBox: 0x7f02; frame = (20 500; 335 120); layer = <CALayer: 0x2>>
               | <MyApp.PaddedField: 0x7f03; frame = (20 400; 335 40); tag = 7; layer = <CALayer: 0x3>>
            2019-04-30 21:44:27.627646+0800 a[1:2] NSConcreteNotification 0x6000 {name = UITextFieldTextDidBeginEditingNotification; object = <MyApp.PaddedField: 0x7f03; frame = (20 400; 335 40)>}
            2019-04-30 21:44:28.000000+0800 a[1:2] NSConcreteNotification 0x6001 {name = UITextFieldTextDidBeginEditingNotification; object = <UITextField: 0x9999; frame = (0 0; 1 1)>}
            """
        let file = try CLI.temporaryFile(dump, name: "console.txt")
        let run = try CLI.run(["import", file, "--kind", "MyApp.NoteBox=textView"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""class":"MyApp.NoteBox","frame":[20,500,335,120],"id":"MyApp.NoteBox@0x7f02","kind":"textView""#))
        #expect(
            run.stdout.contains(#""class":"MyApp.PaddedField","frame":[20,400,335,40],"id":"MyApp.PaddedField@0x7f03","kind":"textField","tag":7"#))
        #expect(run.stdout.contains(#"{"event":"didBeginEditing","t":0,"view":"MyApp.PaddedField@0x7f03"}"#))
        #expect(
            run.stderr.contains("line 3: MyApp.PaddedField is not a UIKit class and prints no baseClass; taken as a textField from its name"),
            "\(run.stderr)")
        #expect(!run.stderr.contains("MyApp.NoteBox is not a UIKit class"))
        #expect(
            run.stderr.contains(
                "line 5: this begin-editing notification names <UITextField: 0x9999>, which the view-hierarchy dump in force does not show; skipped"))
        #expect(run.stderr.contains("1 linked and 1 unlinked address"))

        let bad = try CLI.run(["import", file, "--kind", "MyApp.NoteBox=slider"])
        #expect(bad.status == 64)
    }
}
