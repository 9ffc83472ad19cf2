import EventLog
import ResponderBus
import Testing

@testable import ConsoleImport

/// Issue 49: a failed UI test's log in, the screen it failed on out. Each rule on a text written
/// for it in the form the real ones print (the real pastes are `ConsoleShapeFixtureTests`'s).
@Suite("A failed UI test's log: every matched view kept, the real keyboard, the app's window only")
struct FailedUITestImportTests {
    private func scenes(_ result: ImportResult) -> [ViewSpec] {
        result.records.compactMap { record -> ViewSpec? in
            if case .scene(let scene) = record.event { return scene.root }
            return nil
        }
    }

    private func keyboardEnds(_ result: ImportResult) -> [Rect?] {
        result.records.compactMap { record in
            if case .keyboard(_, let info) = record.event { info.end } else { nil }
        }
    }

    private func problem(_ kind: ImportProblem.Kind, in result: ImportResult) -> ImportProblem? {
        result.problems.first { $0.kind == kind }
    }

    private static let screen667 = ConsoleImporter.Options(screen: Size(width: 375, height: 667))

    // MARK: 1. Lone views

    @Test("a 'Multiple elements were matched' list: every match placed side by side at its window place, the one on the screen keeps the id")
    func multipleMatches() throws {
        let text = """
            Multiple elements were matched: (
                "<RCTView:0x7f01; AX=Y; AX.id='menu'; AX.frame={{0, 3001.5}, {61, 41}}; frame={{0, 0}, {61, 41}}; alpha=1>",
                "<RCTView:0x7f02; AX=Y; AX.id='menu'; AX.frame={{0, 21.5}, {61, 41}}; frame={{0, 0}, {61, 41}}; alpha=1>",
                "<UILabel:0x7f03; AX=Y; AX.frame={{80, 30}, {100, 20}}; frame={{8, 8}, {100, 20}}; hidden; alpha=1>"
            ). Please use selection matchers to narrow the selection down to single element.
            """
        let result = ConsoleImporter(options: Self.screen667).importDump(text)
        let roots = scenes(result)
        try #require(roots.count == 1, "one screen, not a screen per match")
        let root = roots[0]
        #expect(root.frame == Rect(x: 0, y: 0, width: 375, height: 667))
        #expect(root.children.map(\.id.rawValue) == ["menu#2", "menu", "UILabel@0x7f03"], "printed order; the visible match keeps 'menu'")
        #expect(
            root.children.map(\.frame) == [
                Rect(x: 0, y: 3001.5, width: 61, height: 41), Rect(x: 0, y: 21.5, width: 61, height: 41), Rect(x: 80, y: 30, width: 100, height: 20),
            ])
        let said = try #require(problem(.loneViewsPlaced, in: result))
        #expect(said.message.contains("3 views printed apart"))
        #expect(said.message.contains("<RCTView: 0x7f01>, <UILabel: 0x7f03> are hidden or off the screen"), "\(said.message)")
        #expect(problem(.renamedViews, in: result)?.message.contains("the one on the screen keeps it") == true)
        #expect(!result.problems.contains { $0.kind == .unknownAddress }, "nothing is left out")
    }

    @Test("two matched text fields, one off the screen: the one on the screen is taken as focused, the other named")
    func focusOnScreen() throws {
        let text = """
            UIKeyboardWillShowNotification userInfo = {
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 451}, {375, 216}}";
            }
            Multiple elements were matched: (
                "<UITextField:0x7f01; AX=Y; AX.frame={{20, 3001}, {335, 34}}; frame={{20, 3001}, {335, 34}}; alpha=1; text=''>",
                "<UITextField:0x7f02; AX=Y; AX.frame={{20, 300}, {335, 34}}; frame={{20, 100}, {335, 34}}; alpha=1; text=''>"
            )
            """
        let result = ConsoleImporter(options: Self.screen667).importDump(text)
        let guessed = try #require(problem(.focusGuessed, in: result))
        #expect(guessed.message.contains("UITextField@0x7f02, the only text field"), "\(guessed.message)")
        #expect(guessed.message.contains("(UITextField@0x7f01 lies off it)"), "\(guessed.message)")
        let begins = result.records.compactMap { record -> ViewID? in
            if case .didBeginEditing(let info) = record.event { info.view } else { nil }
        }
        #expect(begins == ["UITextField@0x7f02"])
    }

    @Test("matched elements printed before the window dump that holds them: the window is the screen from the start")
    func matchesThenWindow() throws {
        let text = """
            Multiple elements were matched: (
                "<UITextField:0x7f03; AX=Y; AX.frame={{20, 164}, {335, 34}}; frame={{20, 100}, {335, 34}}; alpha=1>",
                "<UITextField:0x7f04; AX=Y; AX.frame={{20, 214}, {335, 34}}; frame={{20, 150}, {335, 34}}; alpha=1>"
            )
            UI Hierarchy on test failure: <UIWindow:0x7f01; AX=N; AX.frame={{0, 0}, {375, 667}}; frame={{0, 0}, {375, 667}}; alpha=1>
              |--<UIView:0x7f02; AX=N; AX.frame={{0, 64}, {375, 603}}; frame={{0, 64}, {375, 603}}; alpha=1>
              |  |--<UITextField:0x7f03; AX=Y; AX.frame={{20, 164}, {335, 34}}; frame={{20, 100}, {335, 34}}; alpha=1>
              |  |--<UITextField:0x7f04; AX=Y; AX.frame={{20, 214}, {335, 34}}; frame={{20, 150}, {335, 34}}; alpha=1>
            """
        let result = ConsoleImporter().importDump(text)
        let roots = scenes(result)
        #expect(roots.map(\.id.rawValue) == ["UIWindow@0x7f01"], "one scene, the window's")
        #expect(result.records.first.map(\.t) == 0)
        #expect(problem(.loneViewsPlaced, in: result) == nil)
        #expect(!result.problems.contains { $0.kind == .unknownAddress || $0.kind == .anotherScreen }, "\(result.problems)")
    }

    @Test("a UIFieldEditor printed after its field, and a view printed with its subviews after another: all placed, nested as printed")
    func viewsPrintedApart() throws {
        let text = """
            (lldb) po field
            <UITextField: 0x7f01; frame = (20 100; 335 34); text = ''; layer = <CALayer: 0x901>>
            (lldb) po editor
            <UIFieldEditor: 0x7f02; frame = (0 0; 335 34); text = ''; layer = <CALayer: 0x902>>
            <UIView: 0x7f03; frame = (0 400; 375 100); layer = <CALayer: 0x903>>
                -----<UIButton: 0x7f04; frame = (10 10; 80 40); layer = <CALayer: 0x904>>
            """
        let result = ConsoleImporter(options: Self.screen667).importDump(text)
        let root = try #require(scenes(result).first)
        #expect(root.children.map(\.id.rawValue) == ["UITextField@0x7f01", "UIFieldEditor@0x7f02", "UIView@0x7f03"])
        #expect(root.children[2].children.map(\.id.rawValue) == ["UIButton@0x7f04"], "a `-----` line is a child")
        let said = try #require(problem(.loneViewsPlaced, in: result))
        #expect(said.message.contains("print no place in the window and are placed at their frames in their superviews"), "\(said.message)")
    }

    // MARK: 2. XCUITest's keyboard

    @Test("XCUITest: the Keyboard element is its key plane; the keyboard is its window's host with the accessory and the bar below the keys")
    func xcuitestKeyboardHost() throws {
        let text = """
            Attributes: Application, pid: 4242, label: 'Shop'
            Element subtree:
             →Application, 0x600001, pid: 4242, label: 'Shop'
                Window (Main), 0x600002, {{0.0, 0.0}, {390.0, 844.0}}
                  Other, 0x600003, {{0.0, 0.0}, {390.0, 844.0}}
                    TextField, 0x600004, {{20.0, 600.0}, {350.0, 44.0}}, identifier: 'email'
                Window, 0x600010, {{0.0, 0.0}, {390.0, 844.0}}
                  Other, 0x600011, {{0.0, 0.0}, {390.0, 844.0}}
                    Other, 0x600012, {{0.0, 509.0}, {390.0, 335.0}}
                      Toolbar, 0x600013, {{0.0, 509.0}, {390.0, 44.0}}, identifier: 'Toolbar'
                        Button, 0x600014, {{324.0, 509.0}, {66.0, 44.0}}, label: 'Done'
                      Other, 0x600015, {{0.0, 553.0}, {390.0, 291.0}}
                        Keyboard, 0x600016, {{0.0, 553.0}, {390.0, 233.0}}
                          Key, 0x600017, {{0.0, 560.0}, {39.0, 46.0}}, label: 'q'
                        Button, 0x600018, {{9.0, 777.7}, {65.2, 65.8}}, label: 'Emoji'
            """
        let result = ConsoleImporter().importDump(text)
        #expect(keyboardEnds(result) == [Rect(x: 0, y: 509, width: 390, height: 335), Rect(x: 0, y: 509, width: 390, height: 335)])
        let said = try #require(problem(.keyboardFrameFromTree, in: result))
        #expect(said.message.contains("{{0, 553}, {390, 233}} is its key plane alone"), "\(said.message)")
        #expect(said.message.contains("with the input accessory above it and the bar below the keys"), "\(said.message)")
        let ids = scenes(result).flatMap(preorder).map(\.id.rawValue)
        #expect(ids == ["Window@0x600002", "Other@0x600003", "email"], "the keyboard's window is no scene, its buttons no app views")
    }

    @Test("XCUITest: a Keyboard element alone, as wide as the window and short of its bottom by the bar below the keys, is docked to it")
    func xcuitestKeyPlaneAlone() {
        let text = """
                Window (Main), 0x600002, {{0.0, 0.0}, {390.0, 844.0}}
                  TextField, 0x600004, {{20.0, 300.0}, {350.0, 44.0}}, identifier: 'email'
                  Keyboard, 0x600016, {{0.0, 553.0}, {390.0, 233.0}}
            """
        let result = ConsoleImporter().importDump(text)
        #expect(keyboardEnds(result).first == Rect(x: 0, y: 553, width: 390, height: 291))
        #expect(problem(.keyboardFrameFromTree, in: result)?.message.contains("the bar below the keys") == true)
    }

    @Test("XCUITest: an iPad's floating keyboard reaches no bottom edge: imported as printed and said not to be docked")
    func xcuitestFloatingKeyboard() {
        let text = """
                Window (Main), 0x600002, {{0.0, 0.0}, {1024.0, 768.0}}
                  TextField, 0x600004, {{20.0, 300.0}, {350.0, 44.0}}, identifier: 'email'
                  Keyboard, 0x600016, {{350.0, 300.0}, {320.0, 260.0}}
            """
        let result = ConsoleImporter().importDump(text)
        #expect(keyboardEnds(result).first == Rect(x: 350, y: 300, width: 320, height: 260))
        let said = problem(.keyboardFrameFromTree, in: result)
        #expect(said?.message.contains("a floating, undocked or split keyboard, not docked") == true, "\(result.problems)")
    }

    @Test("XCUITest flat list: the keyboard's toolbar, its Done, shift, Return and Emoji are not app views; the app's button under the keyboard is")
    func xcuitestFlatList() throws {
        let text = """
            from input {(
                Window, {{0.0, 0.0}, {390.0, 844.0}},
                Other, {{0.0, 509.0}, {390.0, 335.0}},
                Toolbar, {{0.0, 509.0}, {390.0, 44.0}}, identifier: 'Toolbar',
                Button, {{324.0, 509.0}, {66.0, 44.0}}, label: 'Done',
                Keyboard, {{0.0, 553.0}, {390.0, 233.0}},
                Button, {{0.0, 668.0}, {50.0, 46.0}}, identifier: 'shift', label: 'shift',
                Button, {{292.7, 722.0}, {97.3, 46.0}}, identifier: 'Return', label: 'return',
                Button, {{9.0, 777.7}, {65.2, 65.8}}, label: 'Emoji',
                TextField, {{20.0, 200.0}, {350.0, 44.0}}, identifier: 'email',
                Button, {{20.0, 700.0}, {350.0, 50.0}}, identifier: 'signIn'
            )}
            """
        let result = ConsoleImporter().importDump(text)
        let ids = scenes(result).flatMap(preorder).map(\.id.rawValue)
        #expect(ids.contains("email") && ids.contains("signIn"), "\(ids)")
        #expect(!ids.contains { $0.hasPrefix("Toolbar") || $0.hasPrefix("Button@") || $0.hasPrefix("Other@") }, "\(ids)")
        #expect(keyboardEnds(result).first == Rect(x: 0, y: 509, width: 390, height: 335))
    }

    // MARK: 3. The app's window

    @Test("XCUITest: a `Window (Main), {{…}}` header line over the tree is no view of its own")
    func windowHeader() {
        let text = """
            Window (Main), {{0.0, 0.0}, {390.0, 844.0}}

                Window (Main), 0x600002, {{0.0, 0.0}, {390.0, 844.0}}
                  TextField, 0x600004, {{20.0, 300.0}, {350.0, 44.0}}, identifier: 'email'
            """
        let result = ConsoleImporter().importDump(text)
        #expect(scenes(result).map(\.id.rawValue) == ["Window@0x600002"])
        #expect(result.summary.dumps == 1)
    }

    @Test("another window printed with the app's never replaces it; the app's is taken whichever comes first")
    func otherWindows() throws {
        let app = """
            <UIWindow: 0x7f01; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x901>>
               | <UITextField: 0x7f02; frame = (20 100; 335 34); text = ''; layer = <CALayer: 0x902>>
            """
        let alert = """
            <_UIAlertControllerShimPresenterWindow: 0x7f10; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x910>>
               | <UIView: 0x7f11; frame = (52 250; 270 150); layer = <CALayer: 0x911>>
            """
        for text in [app + "\n" + alert, alert + "\n" + app] {
            let result = ConsoleImporter().importDump(text)
            #expect(scenes(result).map(\.id.rawValue) == ["UIWindow@0x7f01"], "\(text)")
            let said = try #require(problem(.otherWindow, in: result))
            #expect(
                said.message.contains("<_UIAlertControllerShimPresenterWindow: 0x7f10> (2 views) is another window printed with <UIWindow: 0x7f01>"))
        }
        let alone = ConsoleImporter().importDump(alert)
        #expect(problem(.otherWindow, in: alone)?.message.contains("is not the app's window") == true)
    }

    @Test("the keyboard area alone: backdrop views at a docked keyboard's place are where the keyboard is, not app views")
    func keyboardAreaAlone() {
        let text = """
              |  |  |--<UIView:0x7f01; AX=N; AX.frame={{0, 451}, {375, 216}}; frame={{0, 0}, {375, 216}}; alpha=0.3>
              |  |  |--<_UIBackdropEffectView:0x7f02; AX=N; AX.frame={{0, 451}, {375, 216}}; frame={{0, 0}, {375, 216}}; alpha=1>
            """
        let result = ConsoleImporter().importDump(text)
        #expect(scenes(result).isEmpty)
        #expect(keyboardEnds(result) == [Rect(x: 0, y: 451, width: 375, height: 216), Rect(x: 0, y: 451, width: 375, height: 216)])
        #expect(result.header.screen == Size(width: 375, height: 667))
        #expect(problem(.keyboardBackdrop, in: result) != nil)
        // A navigation bar's backdrop (44 points tall, at the top) stays the app's.
        let bar = ConsoleImporter(options: Self.screen667).importDump(
            "<_UIBackdropView:0x7f09; AX=N; AX.frame={{0, 20}, {375, 44}}; frame={{0, 0}, {375, 44}}; alpha=1>")
        #expect(scenes(bar).count == 1)
    }

    // MARK: 4. A new screen in the same window

    @Test("a later dump of the window that adds a text field is the screen again with it; the field being edited is begun again")
    func addedTextInput() throws {
        let first = """
            <UIWindow: 0x7f01; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x901>>
               | <UITabBar: 0x7f02; frame = (0 618; 375 49); layer = <CALayer: 0x902>>
               | <UIView: 0x7f03; frame = (0 0; 375 618); layer = <CALayer: 0x903>>
               |    | <UITextField: 0x7f04; frame = (20 100; 335 34); text = ''; layer = <CALayer: 0x904>>
            """
        let second = """
            <UIWindow: 0x7f01; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x901>>
               | <UITabBar: 0x7f02; frame = (0 618; 375 49); layer = <CALayer: 0x902>>
               | <UIView: 0x7f03; frame = (0 0; 375 618); layer = <CALayer: 0x903>>
               |    | <UITextField: 0x7f04; frame = (20 100; 335 34); text = ''; layer = <CALayer: 0x904>>
               |    | <UITextView: 0x7f05; frame = (20 150; 335 200); text = ''; layer = <CALayer: 0x905>>
            """
        let text = """
            \(first)
            UITextFieldTextDidBeginEditingNotification object = <UITextField: 0x7f04; frame = (20 100; 335 34)>
            UIKeyboardWillShowNotification userInfo = {
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 451}, {375, 216}}";
            }
            \(second)
            """
        let result = ConsoleImporter().importDump(text)
        let roots = scenes(result)
        try #require(roots.count == 2)
        #expect(preorder(roots[1]).map(\.id.rawValue).contains("UITextView@0x7f05"))
        let said = try #require(problem(.textInputsAdded, in: result))
        #expect(said.message.contains("adds a text input the first dump did not show (UITextView@0x7f05)"), "\(said.message)")
        let events = result.records.map(\.event.name)
        #expect(events.suffix(2) == ["scene", "didBeginEditing"], "\(events)")
        // Only moved frames: no new scene.
        let moved = ConsoleImporter().importDump(first + "\n" + first.replacingOccurrences(of: "(20 100; 335 34)", with: "(20 90; 335 34)"))
        #expect(scenes(moved).count == 1)
    }

    // MARK: 5. Smaller ones

    @Test("a Swift dump of a notification is one notification, not a second empty one")
    func mirrorDump() {
        let text = """
             ▿ name = UIKeyboardWillChangeFrameNotification, object = nil, userInfo = Optional([AnyHashable("UIKeyboardFrameEndUserInfoKey"): NSRect: {{0, 451}, {375, 216}}])
             - name : "UIKeyboardWillChangeFrameNotification"
             ▿ userInfo : 1 element
             ▿ 0 : 2 elements
             ▿ key : AnyHashable("UIKeyboardFrameEndUserInfoKey")
             - value : "UIKeyboardFrameEndUserInfoKey"
             - value : NSRect: {{0, 451}, {375, 216}}
            """
        let result = ConsoleImporter().importDump(text)
        #expect(keyboardEnds(result) == [Rect(x: 0, y: 451, width: 375, height: 216)])
    }

    @Test("Markdown's emphasis around a key or a name, and a `**/` closer, are read past")
    func markdownEmphasis() {
        let text = """
            /** **UIKeyboardWillShowNotification** userInfo = {
                **UIKeyboardFrameEndUserInfoKey** = "NSRect: {{0, 352}, {320, 216}}";
                UIKeyboardAnimationDurationUserInfoKey = "0.25"; **/
            """
        let result = ConsoleImporter().importDump(text)
        #expect(keyboardEnds(result) == [Rect(x: 0, y: 352, width: 320, height: 216)])
        #expect(result.problems.isEmpty, "\(result.problems)")
        let dump = ConsoleImporter().importDump(
            """
            <**UIWindow**: 0x7f01; frame = (0 0; 320 568); layer = <UIWindowLayer: 0x901>>
               | <UITableView: 0x7f02; frame = (0 0; 320 568); **contentOffset: {0, 120}**; contentSize: {320, 900}>
            """)
        let table = scenes(dump).flatMap(preorder).first { $0.kind == .scrollView }
        #expect(table?.contentOffset == Point(x: 0, y: 120))
    }

    @Test("an entry cut where the text ends, before its address, is named")
    func cutLastEntry() {
        let text = """
            <UIWindow: 0x7f01; frame = (0 0; 320 568); layer = <UIWindowLayer: 0x901>>
               | <UITextField: 0x7f02; frame = (20 100; 280 30); text = ''; layer = <CALayer: 0x902>>
               | <UITextFie
            """
        let result = ConsoleImporter().importDump(text)
        let cut = result.problems.first { $0.kind == .truncated }
        #expect(cut?.line == 3)
        #expect(cut?.message.contains("<UITextFie… is cut off where the text ends") == true, "\(result.problems)")
    }

    @Test("iOS 7's keyboard host in landscape, in portrait coordinates, is said")
    func iOS7Landscape() {
        let text = """
            <UIWindow: 0x7f01; frame = (0 0; 320 568); layer = <UIWindowLayer: 0x901>>
               | <UITextField: 0x7f02; frame = (20 100; 280 30); text = ''; layer = <CALayer: 0x902>>
            <UITextEffectsWindow: 0x7f10; frame = (0 0; 320 568); layer = <UIWindowLayer: 0x910>>
               | <UIPeripheralHostView: 0x7f11; frame = (158 0; 162 568); transform = [0, 1, -1, 0, 0, 0]; layer = <CALayer: 0x911>>
               |    | <UIKeyboardAutomatic: 0x7f12; frame = (0 0; 568 162); layer = <CALayer: 0x912>>
            """
        let result = ConsoleImporter().importDump(text)
        #expect(keyboardEnds(result).first == Rect(x: 158, y: 0, width: 162, height: 568))
        #expect(result.problems.contains { $0.kind == .sidewaysKeyboardFrames }, "\(result.problems)")
        #expect(!scenes(result).flatMap(preorder).contains { $0.className == "UIPeripheralHostView" })
    }

    @Test("EarlGrey's entries without an address are views, named by their place; AX.traits settles an app class's kind")
    func earlGreyWithoutAddresses() throws {
        let text = """
            <UITableViewCell; AX=N; AX.label='7116'; AX.frame={{0, 64}, {375, 44}}; AX.traits='UIAccessibilityTraitButton'; frame={{0, 0}, {375, 44}}; alpha=1>
            |--<RCTTextView; AX=Y; AX.label='Austin'; AX.frame={{16, 70}, {42, 18}}; AX.traits='UIAccessibilityTraitStaticText'; frame={{16, 6}, {42, 18}}; alpha=1>
            """
        let result = ConsoleImporter(options: Self.screen667).importDump(text)
        let views = scenes(result).flatMap(preorder)
        #expect(views.map(\.id.rawValue) == ["UITableViewCell@1:1", "RCTTextView@2:4"])
        #expect(views.last?.kind == .label, "the traits say a label, not the name's text view")
        #expect(!result.problems.contains { $0.kind == .guessedKind })
    }

    @Test("a view that fills an iOS device's screen from its corner gives the screen")
    func fullScreenView() {
        let result = ConsoleImporter().importDump(
            """
            <UIScrollView: 0x7f01; frame = (0 0; 428 926); contentOffset: {0, 0}; contentSize: {0, 532}>
               | <UILabel: 0x7f02; frame = (50 214; 328 36); text = 'Hi'>
            """)
        #expect(result.header.screen == Size(width: 428, height: 926))
        #expect(result.header.screenSource == "inferred")
    }

    // MARK: Failures that print the element on their own line

    @Test("a failure's sentence before a UIKit entry introduces the view; a notification's `object:` stays a value")
    func sentenceBeforeEntry() {
        let text = """
            View is not tappable: <UITextField: 0x7f01; frame = (20 56.5; 335 30); text = ''; layer = <CALayer: 0x901>>
            """
        let result = ConsoleImporter(options: Self.screen667).importDump(text)
        #expect(scenes(result).flatMap(preorder).map(\.id.rawValue) == ["UITextField@0x7f01"])
        let notification = ConsoleImporter(options: Self.screen667).importDump(
            "UITextFieldTextDidBeginEditingNotification object: <UITextField: 0x7f01; frame = (20 56.5; 335 30)>")
        #expect(notification.summary.dumps == 0, "the notification's object, not a dump")
        #expect(notification.summary.editingNotifications == 1)
    }

    @Test("XCUITest's failure: the snapshot after words, the Attributes line, the subtree and the path from the window are one field in the window")
    func xcuitestFailure() throws {
        let text = """
            <unknown>:0: error: -[AppUITests testLogin] : Failed to synthesize event: Neither element nor any descendant has keyboard focus. Event dispatch snapshot: TextField, {{21.0, 620.0}, {388.0, 22.0}}, identifier: 'email'
            Element debug description:
            Attributes: TextField, 0x100cb4c20, {{21.0, 620.0}, {388.0, 22.0}}, identifier: 'email'
            Element subtree:
             →TextField, 0x100cb4c20, {{21.0, 620.0}, {388.0, 22.0}}, identifier: 'email'
            Path to element:
             →Application, 0x100c15010, pid: 30716, label: 'Shop'
              ↳Window (Main), 0x100c97a30, {{0.0, 0.0}, {430.0, 932.0}}
               ↳Other, 0x100cb3120, {{0.0, 69.0}, {430.0, 863.0}}
            """
        let result = ConsoleImporter().importDump(text)
        #expect(result.header.screen == Size(width: 430, height: 932), "the path's window gives the screen")
        let roots = scenes(result)
        try #require(roots.count == 1)
        #expect(preorder(roots[0]).map(\.id.rawValue) == ["Window@0x100c97a30", "Other@0x100cb3120", "email"])
        #expect(roots[0].children.last?.frame == Rect(x: 21, y: 620, width: 388, height: 22))
        #expect(result.summary.textInputs == 1, "the snapshot without an address is the same field")
        #expect(problem(.loneViewsPlaced, in: result)?.message.contains("is placed in it at its place in the window") == true)
    }

    @Test("XCUITest: a frame with spaces inside its braces, after `Attributes:`")
    func spacedBraces() {
        let text = "Attributes: SecureTextField, { {151.0, 284.0}, {254.0, 40.0} }, identifier: 'password'"
        let result = ConsoleImporter(options: Self.screen667).importDump(text)
        let field = scenes(result).flatMap(preorder).first
        #expect(field?.id == "password")
        #expect(field?.frame == Rect(x: 151, y: 284, width: 254, height: 40))
        #expect(field?.isSecure == true)
    }

    @Test("XCUITest: a tree's window after the app's that holds elements is left out and said; a query's answer alone is read")
    func treeWindowsAndAnswers() throws {
        let tree = """
             →Application, 0x600001, pid: 1, label: 'Shop'
                Window (Main), 0x600002, {{0.0, 0.0}, {390.0, 844.0}}
                  TextField, 0x600004, {{20.0, 300.0}, {350.0, 44.0}}, identifier: 'email'
                Window, 0x600010, {{0.0, 0.0}, {390.0, 844.0}}
                  Other, 0x600011, {{0.0, 0.0}, {390.0, 844.0}}
                    Button, 0x600012, {{20.0, 400.0}, {350.0, 44.0}}, label: 'Allow'
            """
        let result = ConsoleImporter().importDump(tree)
        #expect(scenes(result).flatMap(preorder).map(\.id.rawValue) == ["Window@0x600002", "email"])
        #expect(problem(.otherWindow, in: result)?.message.contains("holds 2 elements, left out") == true, "\(result.problems)")
        let answer = """
            ↪︎Find: Descendants matching type Button
              Output: {
                Button 0x60000016ccc0: traits: 8589934593, {{19.0, 71.0}, {46.0, 30.0}}, identifier: 'button1', label: 'Button'
                Button 0x60000016cd80: traits: 8589934593, {{300.0, 700.0}, {60.0, 40.0}}, identifier: 'Return', label: 'return'
              }
            """
        let answered = ConsoleImporter(options: Self.screen667).importDump(answer)
        #expect(scenes(answered).flatMap(preorder).map(\.id.rawValue) == ["button1"], "the keyboard's Return is not the app's")
    }

    @Test("views that lie wholly outside the screen from the start are named; a scroll view's content is not")
    func viewsOffScreen() throws {
        let text = """
            <UIWindow: 0x7f01; frame = (0 0; 320 568); layer = <UIWindowLayer: 0x901>>
               | <UIView: 0x7f02; frame = (0 400; 320 100); layer = <CALayer: 0x902>>
               |    | <UIView: 0x7f03; frame = (0 400; 320 100); layer = <CALayer: 0x903>>
               | <UIScrollView: 0x7f04; frame = (0 0; 320 300); contentOffset: {0, 0}; contentSize: {320, 2000}>
               |    | <UILabel: 0x7f05; frame = (0 1500; 320 20); text = 'far down'>
            """
        let result = ConsoleImporter().importDump(text)
        let said = try #require(problem(.viewsOffScreen, in: result))
        #expect(said.message.contains("a view lies wholly outside the {{0, 0}, {320, 568}} screen from the start: UIView@0x7f03"), "\(said.message)")
        #expect(!said.message.contains("UILabel"))
    }

    @Test("the --screen request names the screens the views fit: margins alike on both sides, or the narrowest they fit in")
    func screenSuggestion() throws {
        let margins = ConsoleImporter().importDump("Attributes: TextField, 0x1, {{20.0, 274.0}, {362.0, 44.0}}, identifier: 'secure-field'")
        #expect(margins.problems.last?.message.contains("(the views fit a screen 402 points wide: --screen 402x874)") == true, "\(margins.problems)")
        let wide = ConsoleImporter().importDump("Attributes: StaticText, 0x1, {{580.0, 20.0}, {349.0, 20.0}}, label: 'Glossary'")
        #expect(wide.problems.last?.message.contains("--screen 1024x1366") == true, "\(wide.problems)")
    }

    @Test("a path interrupted by a line that is no element is read up to it, and the rest after it (found by fuzzing: it trapped)")
    func interruptedPath() {
        let text = """
            Path to element:
             →Application, 0x1, pid: 1, label: 'A'
              ↳Window (Main), 0x2, {{0.0, 0.0}, {390.0, 844.0}}
              note: this line is no element
               ↳Other, 0x3, {{0.0, 0.0}, {390.0, 844.0}}
            """
        let result = ConsoleImporter().importDump(text)
        #expect(result.header.screen == Size(width: 390, height: 844))
        #expect(scenes(result).first?.id == "Window@0x2")
    }

    @Test("a view the screen has elsewhere, dumped again inside the subtree that adds a text input, keeps one id each (found by fuzzing)")
    func movedViewKeepsIDsUnique() throws {
        let text = """
            <UIWindow: 0x7f01; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x901>>
               | <UIView: 0x7f02; frame = (0 0; 375 300); layer = <CALayer: 0x902>>
               |    | <UILabel: 0x7f03; frame = (10 10; 100 20); text = 'Name'>
               | <UIView: 0x7f04; frame = (0 300; 375 300); layer = <CALayer: 0x904>>
            UIKeyboardWillShowNotification userInfo = {
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 451}, {375, 216}}";
            }
            <UIView: 0x7f04; frame = (0 300; 375 300); layer = <CALayer: 0x904>>
               | <UILabel: 0x7f03; frame = (10 10; 100 20); text = 'Name'>
               | <UITextField: 0x7f05; frame = (10 40; 300 30); text = ''>
            """
        let result = ConsoleImporter().importDump(text)
        let last = try #require(scenes(result).last)
        let ids = preorder(last).map(\.id)
        #expect(Set(ids).count == ids.count, "\(ids)")
        #expect(ids.contains("UITextField@0x7f05"))
        #expect(problem(.textInputsAdded, in: result) != nil)
    }

    @Test("an address printed twice, outside the subtree a later dump adds a text input to and inside it: every view keeps one id (found by fuzzing)")
    func repeatedAddressKeepsIDsUnique() throws {
        let text = """
            <UIWindow: 0x7f01; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x901>>
               | <UIView: 0x7f02; frame = (0 0; 375 300); layer = <CALayer: 0x902>>
               |    | <UIStackView: 0x7f03; frame = (10 10; 100 20)>
               |    | <UIStackView: 0x7f03; frame = (10 40; 100 20)>
               | <UIView: 0x7f04; frame = (0 300; 375 300); layer = <CALayer: 0x904>>
            UIKeyboardWillShowNotification userInfo = {
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 451}, {375, 216}}";
            }
            <UIView: 0x7f04; frame = (0 300; 375 300); layer = <CALayer: 0x904>>
               | <UIStackView: 0x7f03; frame = (10 10; 100 20)>
               | <UIStackView: 0x7f03; frame = (10 40; 100 20)>
               | <UITextField: 0x7f05; frame = (10 70; 300 30); text = ''>
            """
        let result = ConsoleImporter().importDump(text)
        let last = try #require(scenes(result).last)
        let ids = preorder(last).map(\.id)
        #expect(Set(ids).count == ids.count, "\(ids)")
        #expect(ids.contains("UITextField@0x7f05"))
    }
}
