import EventLog
import Foundation
import ResponderBus
import Testing

@testable import ConsoleImport

/// What the reader and the scene builder make of a text: one scene per dump (shared by the
/// hierarchy tests).
func scenes(of bytes: [UInt8], kinds: [String: ViewKind] = [:]) -> (scenes: [SceneBuilder.Scene], problems: [ImportProblem]) {
    var reader = HierarchyReader(bytes: bytes)
    reader.run()
    var builder = SceneBuilder(kinds: kinds)
    let scenes = reader.dumps.compactMap { builder.scene(of: $0) }
    return (scenes, reader.problems + builder.problems)
}

func scenes(of text: String) -> (scenes: [SceneBuilder.Scene], problems: [ImportProblem]) {
    scenes(of: Array(text.utf8))
}

/// Every view of a tree in pre-order.
func preorder(_ root: ViewSpec) -> [ViewSpec] {
    var out: [ViewSpec] = []
    var pending = [root]
    while let view = pending.popLast() {
        out.append(view)
        pending.append(contentsOf: view.children.reversed())
    }
    return out
}

@Suite("View-hierarchy dumps: shapes, kinds, ids and bounds")
struct HierarchyReaderTests {
    @Test("buttons and labels: UIButton, its subclasses and the tapped controls are buttons; UILabel and its subclasses labels")
    func controls() {
        let text = """
            <UIView: 0x1; frame = (0 0; 10 10); layer = <CALayer: 0x9>>
               | <KEPActionButton: 0x2; baseClass = UIButton; frame = (0 0; 1 1); layer = <CALayer: 0x8>>
               | <UIButton: 0x3; frame = (0 0; 1 1); layer = <CALayer: 0x7>>
               |    | <UIButtonLabel: 0x4; frame = (0 0; 1 1); layer = <_UILabelLayer: 0x6>>
               | <UISwitch: 0x5; frame = (0 0; 1 1); layer = <CALayer: 0x5>>
               | <UILabel: 0x6; frame = (0 0; 1 1); layer = <_UILabelLayer: 0x4>>
               | <MyApp.SubmitButton: 0x7; frame = (0 0; 1 1); layer = <CALayer: 0x3>>
            """
        var reader = HierarchyReader(bytes: Array(text.utf8))
        reader.run()
        var builder = SceneBuilder(kinds: [:])
        let scene = builder.scene(of: reader.dumps[0])
        let kinds = scene.map { preorder($0.root).map(\.kind) } ?? []
        #expect(kinds == [.view, .button, .button, .label, .button, .label, .button])
    }

    @Test("entries nest by their | markers, collapsed or spread, and several may share a line")
    func pipes() {
        let text = """
            <UIWindow: 0x1; frame = (0 0; 320 480); layer = <UIWindowLayer: 0x9>> | <UIView: 0x2; frame = (0 0; 320 480); layer = <CALayer: 0x8>> | | <UITextField: 0x3; frame = (20 100; 280 31); tag = 4; layer = <CALayer: 0x7>>
            | | <UITextView: 0x4; frame = (20 200; 280 100); hidden = YES; layer = <CALayer: 0x6>>
            """
        let (found, problems) = scenes(of: text)
        #expect(problems.isEmpty)
        #expect(found.count == 1)
        let views = preorder(found[0].root)
        #expect(views.map(\.id.rawValue) == ["UIWindow@0x1", "UIView@0x2", "UITextField@0x3", "UITextView@0x4"])
        #expect(found[0].root.children.first?.children.count == 2)
        #expect(views[2].tag == 4 && views[2].kind == .textField)
        #expect(views[3].isHidden && views[3].kind == .textView)
    }

    @Test("indentation alone nests a dump printed without markers")
    func indentation() {
        let text = """
            <UIWebView: 0x1; frame = (0 0; 320 480); layer = <CALayer: 0x9>>
                <UIScroller: 0x2; frame = (0 0; 320 480); layer = <CALayer: 0x8>>
                    <UIImageView: 0x3; frame = (0 0; 54 54); alpha = 0; layer = <CALayer: 0x7>>
                <UIView: 0x4; frame = (0 0; 1 1); layer = <CALayer: 0x6>>
            """
        let (found, _) = scenes(of: text)
        #expect(found.count == 1)
        #expect(found[0].root.children.map(\.id.rawValue) == ["UIScroller@0x2", "UIView@0x4"])
        #expect(found[0].root.children[0].children.first?.isHidden == true)
    }

    @Test("prefixes, markers and wrappers around entries are skipped; values and lone objects are not views")
    func wrappers() {
        let text = """
            2015-10-09 15:12:20.568 app[1:2] <UISearchBar: 0x1; frame = (0 0; 375 44); text = 'a>b; c'; layer = <CALayer: 0x9>>
               | XX (<UIView: 0x2; frame = (0 0; 375 44); alpha = 0; layer = <CALayer: 0x8>>)
               |    | <UISearchBarTextField: 0x3; frame = (8 8; 359 28); userInteractionEnabled = NO; layer = <CALayer: 0x7>> - (null)
               |    |    | <CAShapeLayer: 0x5> (layer)
            <AppDelegate: 0x6>
            NSConcreteNotification 0x7 {name = UITextFieldTextDidBeginEditingNotification; object = <UITextField: 0x3; frame = (8 8; 359 28)>}
            """
        let (found, problems) = scenes(of: text)
        #expect(problems.isEmpty)
        #expect(found.count == 1)
        let views = preorder(found[0].root)
        #expect(views.map(\.id.rawValue) == ["UISearchBar@0x1", "UIView@0x2", "UISearchBarTextField@0x3"])
        #expect(views[1].isHidden)
        #expect(views[2].kind == .textField && !views[2].isEnabled)
    }

    @Test("a cut-off entry is left out and named with its line and column; the whole ones before it stay")
    func cutOff() {
        let text =
            "<UIView: 0x1; frame = (0 0; 10 10); layer = <CALayer: 0x9>>\n   | <UITextField: 0x2; frame = (1 1; 5 5); lay\n   | <UILabel: 0x3; frame = (0 0; 1 1); layer = <CALayer: 0x8>>\n"
        let (found, problems) = scenes(of: text)
        #expect(found.first?.viewCount == 2)
        #expect(problems.map { "\($0.kind) \($0.line):\($0.column ?? 0)" } == ["truncated 2:6"])
    }

    @Test("baseClass decides an app class's kind; UIKit names decide theirs; other app classes are guessed and settled by --kind")
    func kinds() {
        let text = """
            <UIView: 0x1; frame = (0 0; 10 10); layer = <CALayer: 0x9>>
               | <RichTextView: 0x2; baseClass = UILabel; frame = (0 0; 1 1); layer = <CALayer: 0x8>>
               | <LoginField: 0x3; baseClass = UITextField; frame = (0 0; 1 1); layer = <CALayer: 0x7>>
               | <MyApp.PaddedField: 0x4; frame = (0 0; 1 1); layer = <CALayer: 0x6>>
               | <MyApp.NoteBox: 0x5; frame = (0 0; 1 1); layer = <CALayer: 0x5>>
               | <UITableViewWrapperView: 0x6; frame = (0 0; 1 1); layer = <CALayer: 0x4>; contentOffset: {0, 12}; contentSize: {320, 900}>
               | <UICollectionView: 0x7; frame = (0 0; 1 1); layer = <CALayer: 0x3>>
               | <RCTTextView: 0x8; frame = (0 0; 1 1); layer = <CALayer: 0x2>>
               | <UISearchBarTextField: 0x9; frame = (0 0; 1 1); layer = <CALayer: 0x1>>
               | <RCTTextView: 0xa; frame = (0 0; 1 1); layer = <CALayer: 0x0>>
            """
        var reader = HierarchyReader(bytes: Array(text.utf8))
        reader.run()
        var builder = SceneBuilder(kinds: ["MyApp.NoteBox": .textView])
        let scene = builder.scene(of: reader.dumps[0])
        let kinds = scene.map { preorder($0.root).map(\.kind) } ?? []
        #expect(kinds == [.view, .label, .textField, .textField, .textView, .scrollView, .scrollView, .textView, .textField, .textView])
        // An app's name ending in TextView is a guess (React Native's RCTTextView is a label), said once;
        // UIKit's own subclass names are known.
        #expect(builder.guessed.map(\.className) == ["MyApp.PaddedField", "RCTTextView"])
        let wrapper = scene.map { preorder($0.root)[5] }
        #expect(wrapper?.contentOffset == Point(x: 0, y: 12))
        #expect(wrapper?.contentSize == Size(width: 320, height: 900))
    }

    @Test("the keyboard's windows are left out with everything under them; ids are unique and prefer the accessibility identifier")
    func keyboardAndIDs() {
        let text = """
            <UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x9>>
               | <UITextField: 0x2; frame = (0 0; 1 1); accessibilityIdentifier = 'email'; layer = <CALayer: 0x8>>
               | <UITextField: 0x3; frame = (0 0; 1 1); accessibilityIdentifier = 'email'; layer = <CALayer: 0x7>>
            <UITextEffectsWindow: 0x4; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x6>>
               | <UIInputSetContainerView: 0x5; frame = (0 0; 375 667); layer = <CALayer: 0x5>>
            """
        let (found, _) = scenes(of: text)
        #expect(found.count == 1)
        #expect(preorder(found[0].root).map(\.id.rawValue) == ["UIWindow@0x1", "email", "email#2"])
        #expect(found[0].id(ofAddress: "0x3") == "email#2")
    }

    @Test("views deeper than the log can hold are left out and said; what remains reads back")
    func depthBound() throws {
        var text = "<UIView: 0x0; frame = (0 0; 1 1)>\n"
        for depth in 1...300 {
            text += String(repeating: "   |", count: depth) + " <UIView: 0x\(depth); frame = (0 0; 1 1)>\n"
        }
        let (found, problems) = scenes(of: text)
        #expect(found.first?.viewCount == SceneBuilder.maxDepth + 1)
        #expect(problems.count == 1)
        let result = ConsoleImporter(options: .init(screen: Size(width: 10, height: 10))).importDump(text)
        let log = LogWriter.text(header: result.header, records: result.records)
        let reader = LogReader(bytes: Array(log.utf8))
        _ = try reader.readHeader()
        guard case .record? = reader.next() else {
            Issue.record("the scene does not read back")
            return
        }
    }

    @Test("a 100,000-view dump is read in one pass")
    func large() {
        var text = "<UIWindow: 0x0; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x1>>\n"
        for index in 1...100_000 {
            text += "   |    | <UILabel: 0x\(String(index, radix: 16)); frame = (0 \(index); 10 10); text = 'row \(index)'; layer = <CALayer: 0x2>>\n"
            if index % 1000 == 0 { text += "   | <UIView: 0xf\(index); frame = (0 0; 375 667); layer = <CALayer: 0x3>>\n" }
        }
        text = text.replacingOccurrences(of: "<UIWindowLayer: 0x1>>\n   |    |", with: "<UIWindowLayer: 0x1>>\n   |")
        let (found, problems) = scenes(of: text)
        #expect(problems.isEmpty)
        #expect(found.count == 1)
        #expect(found.first.map { $0.viewCount } == 100_000 + 100 + 1)
    }
}

@Suite("View-hierarchy dumps and notifications: one console, one session")
struct HierarchySessionTests {
    @Test("a second dump of the same window carries over the frames that moved; added views are said")
    func secondDump() {
        let text = """
            <UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x9>>
               | <UITextField: 0x2; frame = (20 500; 335 30); layer = <CALayer: 0x8>>
            UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 451}, {375, 216}}";
            <UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x9>>
               | <UITextField: 0x2; frame = (20 300; 335 30); layer = <CALayer: 0x8>>
               | <UILabel: 0x3; frame = (0 0; 1 1); layer = <CALayer: 0x7>>
            """
        let result = ConsoleImporter().importDump(text)
        #expect(result.header.screen == Size(width: 375, height: 667))
        let events = result.records.map(\.event.name)
        // The only text field is taken as focused (nothing else says which field was edited).
        #expect(events == ["scene", "didBeginEditing", "keyboardWillChangeFrame", "setFrame"])
        #expect(result.records.last?.event == .setFrame(FrameChange(view: "UITextField@0x2", frame: Rect(x: 20, y: 300, width: 335, height: 30))))
        #expect(result.problems.map(\.kind) == [.focusGuessed, .viewsAddedOrRemoved])
        #expect(result.summary.dumps == 2)
        // Printed in both dumps, counted and named once.
        #expect(result.summary.textInputs == 1)
        #expect(result.summary.textInputIDs == ["UITextField@0x2"])
    }

    @Test("--focus puts a text field's begin-editing before the keyboard's first notification, a text view's after it")
    func focus() {
        let text = """
            <UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x9>>
               | <UITextField: 0x2; frame = (20 500; 335 30); layer = <CALayer: 0x8>>
               | <UITextView: 0x3; frame = (20 550; 335 100); layer = <CALayer: 0x7>>
            UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 451}, {375, 216}}";
            """
        func events(focus: String) -> [String] {
            ConsoleImporter(options: .init(focus: focus)).importDump(text).records.map(\.event.name)
        }
        #expect(events(focus: "0x2") == ["scene", "didBeginEditing", "keyboardWillChangeFrame"])
        #expect(events(focus: "UITextView@0x3") == ["scene", "keyboardWillChangeFrame", "didBeginEditing"])
        let unknown = ConsoleImporter(options: .init(focus: "0x99")).importDump(text)
        #expect(unknown.problems.map(\.kind) == [.focusNotFound])
        #expect(unknown.isEmpty, "a focus that names nothing refuses the import")
    }
}
