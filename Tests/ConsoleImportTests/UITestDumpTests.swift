import EventLog
import ResponderBus
import Testing

@testable import ConsoleImport

/// Issue 33, items 1 and 2: the rules of EarlGrey's and XCUITest's dumps, each on a text written
/// for the test in the form the real ones print (the real pastes are `ConsoleShapeFixtureTests`'s).
@Suite("UI tests' dumps: EarlGrey's entries, XCUITest's element trees, a dump's keyboard")
struct UITestDumpTests {
    private func keyboardEvents(_ result: ImportResult) -> [(String, Rect?)] {
        result.records.compactMap { record in
            if case .keyboard(let event, let info) = record.event { (event.rawValue, info.end) } else { nil }
        }
    }

    private func sceneViews(_ result: ImportResult) -> [ViewSpec] {
        result.records.compactMap { record -> ViewSpec? in
            if case .scene(let scene) = record.event { return scene.root }
            return nil
        }.flatMap(preorder)
    }

    @Test("EarlGrey: `<Class:0x…>` entries, `frame={{…}}`, a bare `hidden`, `AX.id`, and a label with `;` and `>` in its quotes")
    func earlGreyEntries() throws {
        let text = """
            UI Hierarchy on test failure: <UIWindow:0x7f01; AX=N; AX.frame={{0, 0}, {375, 667}}; frame={{0, 0}, {375, 667}}; opaque; alpha=1>
              |--<UIView:0x7f02; AX=N; AX.label='a > b; c'; AX.frame={{0, 64}, {375, 603}}; frame={{0, 64}, {375, 603}}; opaque; alpha=1>
              |  |--<UITextField:0x7f03; AX=Y; AX.id='email'; AX.frame={{20, 164}, {335, 34}}; frame={{20, 100}, {335, 34}}; alpha=1; text=''>
              |  |--<UIButton:0x7f04; AX=Y; AX.frame={{20, 264}, {335, 44}}; frame={{20, 200}, {335, 44}}; opaque; hidden; alpha=0>
              |  |--<UIAccessibilityElementKBKey:0x7f05; AX=Y; AX.label='q'; AX.frame={{0, 460}, {34, 46}}; AX.focused='N'>
            """
        let result = ConsoleImporter().importDump(text)
        #expect(result.header.screen == Size(width: 375, height: 667))
        let views = sceneViews(result)
        #expect(views.map(\.id.rawValue) == ["UIWindow@0x7f01", "UIView@0x7f02", "email", "UIButton@0x7f04"])
        let field = try #require(views.first { $0.id == "email" })
        #expect(field.kind == .textField)
        #expect(field.frame == Rect(x: 20, y: 100, width: 335, height: 34), "frame=, not AX.frame, below the root")
        #expect(views.first { $0.id == "UIButton@0x7f04" }?.isHidden == true)
        #expect(result.problems.isEmpty, "\(result.problems)")
    }

    @Test("EarlGrey: a keyboard window's host view gives the keyboard, only when the console has no keyboard notification")
    func earlGreyKeyboard() {
        let window = """
            <UIWindow:0x7f01; AX=N; AX.frame={{0, 0}, {375, 667}}; frame={{0, 0}, {375, 667}}; opaque; alpha=1>
              |--<UITextField:0x7f03; AX=Y; AX.frame={{20, 500}, {335, 34}}; frame={{20, 500}, {335, 34}}; alpha=1>

            ========== Window 2 ==========

            <UIRemoteKeyboardWindow:0x7f10; AX=N; AX.frame={{0, 0}, {375, 667}}; frame={{0, 0}, {375, 667}}; opaque; alpha=1>
              |--<UIInputSetContainerView:0x7f11; AX=N; AX.frame={{0, 0}, {375, 667}}; frame={{0, 0}, {375, 667}}; alpha=1>
              |  |--<UIInputSetHostView:0x7f12; AX=N; AX.frame={{0, 451}, {375, 216}}; frame={{0, 451}, {375, 216}}; alpha=1>
            """
        let alone = ConsoleImporter().importDump(window)
        #expect(keyboardEvents(alone).map(\.0) == ["keyboardWillShow", "keyboardDidShow"])
        #expect(keyboardEvents(alone).map(\.1) == [Rect(x: 0, y: 451, width: 375, height: 216), Rect(x: 0, y: 451, width: 375, height: 216)])
        // The keyboard shows and the window has one text field: it is taken as focused, and said.
        #expect(alone.problems.map(\.kind) == [.focusGuessed, .keyboardFromDump])
        #expect(alone.problems.last?.line == 6, "said at the keyboard window's dump")
        #expect(alone.records.map(\.event.name) == ["scene", "didBeginEditing", "keyboardWillShow", "keyboardDidShow"])

        let withNotification = ConsoleImporter().importDump(
            window + """

                UIKeyboardWillShowNotification userInfo: {
                    UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 409}, {375, 258}}";
                }
                """)
        #expect(keyboardEvents(withNotification).map(\.1) == [Rect(x: 0, y: 409, width: 375, height: 258)])
        #expect(!withNotification.problems.contains { $0.kind == .keyboardFromDump })

        // A put-away keyboard (no height) is no keyboard.
        let putAway = ConsoleImporter().importDump(window.replacingOccurrences(of: "{{0, 451}, {375, 216}}", with: "{{0, 667}, {375, 0}}"))
        #expect(keyboardEvents(putAway).isEmpty)
    }

    @Test("XCUITest: a tree by indentation, frames made the parent's, the keyboard's window read for the keyboard only")
    func xcuiTree() throws {
        let text = """
            Attributes: Application, pid: 4242, label: 'Demo'
            Element subtree:
             →Application, 0x600001, pid: 4242, label: 'Demo'
                Window (Main), 0x600002, {{0.0, 0.0}, {390.0, 844.0}}
                  Other, 0x600003, {{0.0, 100.0}, {390.0, 600.0}}
                    TextField, 0x600004, {{20.0, 150.0}, {350.0, 34.0}}, identifier: 'email', placeholderValue: 'Email'
                    SecureTextField, 0x600005, {{20.0, 200.0}, {350.0, 34.0}}, identifier: 'password'
                    Button, 0x600006, {{20.0, 260.0}, {350.0, 44.0}}, label: 'Sign in', Disabled
                Window, 0x600007, {{0.0, 0.0}, {390.0, 844.0}}
                  Keyboard, 0x600008, {{0.0, 553.0}, {390.0, 291.0}}
                    Key, 0x600009, {{0.0, 560.0}, {39.0, 42.0}}, label: 'q'
            Path to element:
             →Application, 0x600001, pid: 4242, label: 'Demo'
              ↳Window, 0x600002, {{0.0, 0.0}, {390.0, 844.0}}
            """
        let result = ConsoleImporter().importDump(text)
        #expect(result.header.screen == Size(width: 390, height: 844))
        let views = sceneViews(result)
        #expect(views.map(\.id.rawValue) == ["Window@0x600002", "Other@0x600003", "email", "password", "Button@0x600006"])
        let email = try #require(views.first { $0.id == "email" })
        #expect(email.frame == Rect(x: 20, y: 50, width: 350, height: 34), "in the Other's coordinates")
        #expect(views.first { $0.id == "password" }?.isSecure == true)
        #expect(views.first { $0.id == "Button@0x600006" }.map { ($0.kind, $0.isEnabled) } ?? (.view, true) == (.button, false))
        #expect(keyboardEvents(result).map(\.0) == ["keyboardWillShow", "keyboardDidShow"])
        #expect(keyboardEvents(result).map(\.1) == Array(repeating: Rect(x: 0, y: 553, width: 390, height: 291), count: 2))
        #expect(result.records.count { if case .scene = $0.event { true } else { false } } == 1, "the path repeats the tree: no scene of its own")
    }

    @Test(
        "XCUITest: an element whose frame cannot be read (nan, past a Double, a line cut inside it) is left out with its insides and named; its siblings keep their places"
    )
    func xcuiUnreadableFrames() throws {
        let text = """
            Element subtree:
             →Application, 0x600001, pid: 4242, label: 'Demo'
                Window (Main), 0x600002, {{0.0, 0.0}, {390.0, 844.0}}
                  Other, 0x600003, {{0.0, 100.0}, {390.0, 600.0}}
                    TextField, 0x600004, {{nan, 150.0}, {350.0, 34.0}}, identifier: 'broken'
                      StaticText, 0x600005, {{30.0, 150.0}, {100.0, 20.0}}, label: 'inside the broken one'
                    TextField, 0x600006, {{20.0, 200.0}, {350.0, 34.0}}, identifier: 'email'
                    Other, 0x600007, {{1e400, 260.0}, {350.0, 44.0}}
                    TextView, 0x600008, {{20.0, 320.0}, {350.0, 100.0}}, identifier: 'notes'
                    TextField, 0x600009, {{20.0, 6
            """
        let result = ConsoleImporter().importDump(text)
        let views = sceneViews(result)
        #expect(views.map(\.id.rawValue) == ["Window@0x600002", "Other@0x600003", "email", "notes"], "\(views.map(\.id))")
        #expect(views.first { $0.id == "email" }?.frame == Rect(x: 20, y: 100, width: 350, height: 34))
        let named = result.problems.filter { $0.message.contains("frame cannot be read") }
        #expect(named.map(\.line) == [5, 8, 10], "\(result.problems)")
        #expect(named.first?.message.hasPrefix("the TextField element's frame cannot be read") == true)
    }

    @Test("EarlGrey: an entry whose frame={{…}} cannot be read (nan, past a Double) is named and left out with its insides")
    func earlGreyUnreadableFrames() throws {
        let text = """
            UI Hierarchy on test failure: <UIWindow:0x7f01; AX=N; AX.frame={{0, 0}, {375, 667}}; frame={{0, 0}, {375, 667}}; opaque; alpha=1>
              |--<UITextField:0x7f03; AX=Y; AX.id='nanField'; AX.frame={{nan, 560}, {335, 34}}; frame={{nan, 560}, {335, 34}}; alpha=1>
              |  |--<UILabel:0x7f06; AX=Y; AX.frame={{20, 560}, {100, 20}}; frame={{0, 0}, {100, 20}}; alpha=1>
              |--<UITextField:0x7f04; AX=Y; AX.id='hugeField'; AX.frame={{1e400, 600}, {335, 34}}; frame={{1e400, 600}, {335, 34}}; alpha=1>
              |--<UITextField:0x7f05; AX=Y; AX.id='email'; AX.frame={{20, 164}, {335, 34}}; frame={{20, 164}, {335, 34}}; alpha=1>
            """
        let result = ConsoleImporter().importDump(text)
        #expect(sceneViews(result).map(\.id.rawValue) == ["UIWindow@0x7f01", "email"])
        let named = result.problems.filter { $0.message.contains("has a frame that cannot be read") }
        #expect(named.map(\.line) == [2, 4], "\(result.problems)")
    }

    @Test("XCUITest: Xcode 7's `Type 0xADDR: traits: N, {{…}}` lines, and a flat list stored with escaped breaks")
    func xcuiOtherForms() {
        let old = """
            Application 0x6080001: traits: 8388608, {{0.0, 0.0}, {320.0, 568.0}}, label: 'Demo'
              Window 0x6080002: traits: 8589934592, {{0.0, 0.0}, {320.0, 568.0}}
                TextView 0x6080003: traits: 8589934592, {{10.0, 300.0}, {300.0, 100.0}}, identifier: 'notes'
            """
        let oldViews = sceneViews(ConsoleImporter().importDump(old))
        #expect(oldViews.map(\.id.rawValue) == ["Window@0x6080002", "notes"])
        #expect(oldViews.last?.kind == .textView)

        let flat =
            #"error: {(\n    Window, {{0.0, 0.0}, {390.0, 844.0}},\n    Other, {{0.0, 0.0}, {390.0, 844.0}},\n    TextField, {{32.0, 400.0}, {326.0, 44.0}}, identifier: \'phone\',\n    Keyboard, {{0.0, 553.0}, {390.0, 291.0}},\n    Key, {{0.0, 560.0}, {39.0, 42.0}}\n)}"#
        let result = ConsoleImporter().importDump(flat)
        let views = sceneViews(result)
        #expect(views.map(\.kind) == [.view, .view, .textField], "the window holds the others; the keyboard's are not views")
        #expect(views.last?.id == "phone")
        #expect(views.last?.frame == Rect(x: 32, y: 400, width: 326, height: 44))
        #expect(keyboardEvents(result).count == 2)
    }

    @Test("ordinary console text is no element tree: words that are element types, in sentences and in a userInfo")
    func notElements() {
        let text = """
            2024-05-01 12:00:00.123 Demo[1:2] Button tapped, retrying
            Window resized to {{0, 0}, {390, 844}}
            Other apps: none
            UIKeyboardWillShowNotification userInfo: {
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 451}, {375, 216}}";
            }
            """
        let result = ConsoleImporter().importDump(text)
        #expect(sceneViews(result).isEmpty)
        #expect(keyboardEvents(result).map(\.0) == ["keyboardWillShow"])
    }

    @Test("Texture: a node printed alone is placed at its frameInWindow; its kind is known")
    func textureNode() {
        let text = """
            (lldb) po node
            <ASEditableTextNode: 0x7fcd01; frameInWindow = (16 400; 343 120); frame = (16 8; 343 120); interfaceState = { Visible }; view = <_ASDisplayView: 0x7fcd02>>
            """
        let result = ConsoleImporter(options: .init(screen: Size(width: 375, height: 667))).importDump(text)
        let views = sceneViews(result)
        #expect(views.map(\.kind) == [.textView])
        #expect(views.first?.frame == Rect(x: 16, y: 400, width: 343, height: 120))
    }

    @Test("XCUITest: a section ends at a blank line; a query's Output block is no tree; the app's window is the main one")
    func xcuiSections() {
        let tree = """
            Application, pid: 65228, label: 'X'
              Window (Main), {{0.0, 0.0}, {375.0, 812.0}}
                Other, {{0.0, 0.0}, {375.0, 812.0}}
                  TextField, {{102.7, 60.0}, {256.3, 21.0}}, identifier: 'user'
            """
        let afterQuery = ConsoleImporter().importDump(
            "Query chain:\n →Find: Target Application 'x'\n  Output: {\n    Application, pid: 1, label: 'X'\n  }\n\n" + tree)
        #expect(sceneViews(afterQuery).map(\.id.rawValue).last == "user", "the tree after the section is read")

        let output = """
            Find: Target Application 'com.x'
              Output: {
                Application, 0x14702f270, pid: 8736, label: 'XCUITest_study'
              }
              ↪︎Find: Descendants matching type Button
                Output: {
                  Button, 0x1470505a0, {{25.0, 542.0}, {369.0, 41.0}}, identifier: 'enrollButton', label: 'Enroll'
                  Button, 0x147054e40, {{9.0, 825.1}, {72.4, 73.1}}, label: 'Emoji'
                }
            """
        var builder = SceneBuilder()
        // A query's answer is read only when nothing else is printed (issue 49): the button it
        // found, alone; the keyboard's Emoji button is never an app view.
        let answer = HierarchyReader.readAll(Array(output.utf8), building: &builder).scenes
        #expect(answer.map(\.scene.root.id.rawValue) == ["enrollButton"])
        let withTree = ConsoleImporter().importDump(output + "\n\n" + tree)
        #expect(sceneViews(withTree).map(\.id.rawValue).contains("enrollButton") == false, "with a tree, the answer repeats it")

        let keyboardFirst = ConsoleImporter().importDump(
            """
            Application, pid: 1, label: 'X'
              Window, {{0.0, 0.0}, {375.0, 812.0}}
                Other, {{0.0, 0.0}, {375.0, 812.0}}
                  Keyboard, {{0.0, 521.0}, {375.0, 291.0}}
              Window (Main), {{0.0, 0.0}, {375.0, 812.0}}
                Other, {{0.0, 0.0}, {375.0, 812.0}}
                  TextField, {{10.0, 100.0}, {200.0, 30.0}}, identifier: 'email'
            """)
        #expect(sceneViews(keyboardFirst).map(\.id.rawValue).contains("email"), "the main window, not the keyboard's")
        #expect(keyboardEvents(keyboardFirst).first?.1 == Rect(x: 0, y: 521, width: 375, height: 291))
    }

    @Test("XCUITest: a piece of a tree with siblings at its top is a dump each; none is dropped")
    func xcuiSiblings() {
        let text = """
            Other, {{0.0, 0.0}, {375.0, 400.0}}
              Button, {{10.0, 10.0}, {50.0, 20.0}}
            Other, {{0.0, 400.0}, {375.0, 412.0}}
              TextField, {{10.0, 410.0}, {200.0, 30.0}}, identifier: 'kept'
            """
        var builder = SceneBuilder()
        let found = HierarchyReader.readAll(Array(text.utf8), building: &builder)
        #expect(found.scenes.map(\.scene.viewCount) == [2, 2])
        let second = found.scenes.last.map { preorder($0.scene.root) } ?? []
        #expect(second.last?.id == "kept")
        #expect(second.last?.frame == Rect(x: 10, y: 10, width: 200, height: 30))
    }

    @Test("XCUITest attributes: `Disabled` only as an attribute of its own; ids quoted as \\u0027, and in CRLF text")
    func xcuiAttributes() {
        let label = sceneViews(
            ConsoleImporter().importDump(
                """
                Window, {{0.0, 0.0}, {375.0, 812.0}}
                  Button, {{10.0, 100.0}, {200.0, 30.0}}, label: 'Wi-Fi, Disabled, tap to enable'
                """))
        #expect(label.last?.isEnabled == true)

        let escaped = sceneViews(
            ConsoleImporter().importDump(
                #"Window, {{0.0, 0.0}, {375.0, 812.0}},\n    TextField, {{10.0, 100.0}, {200.0, 30.0}}, identifier: \u0027email\u0027,\n    Other, {{0.0, 0.0}, {1.0, 1.0}}"#
            ))
        #expect(escaped.map(\.id.rawValue).contains("email"))

        let crlf = sceneViews(
            ConsoleImporter().importDump(
                "Window, {{0.0, 0.0}, {375.0, 812.0}}\r\n  TextField, {{10.0, 100.0}, {200.0, 30.0}}, identifier: 'email'\r\n  Button, {{10.0, 200.0}, {200.0, 30.0}}, Disabled\r\n"
            ))
        #expect(crlf.map(\.id.rawValue).contains("email"))
        #expect(crlf.last.map { ($0.kind, $0.isEnabled) } ?? (.view, true) == (.button, false))
    }

    @Test("XCUITest: a frame too large to place in its parent's is left out and said, never written as infinity")
    func xcuiOverflow() {
        let result = ConsoleImporter(options: .init(screen: Size(width: 375, height: 812))).importDump(
            """
            Window, {{-1e308, 0.0}, {375.0, 812.0}}
              TextField, {{1e308, 100.0}, {200.0, 30.0}}, identifier: 'inf'
            """)
        #expect(!sceneViews(result).contains { $0.id == "inf" })
        #expect(result.problems.contains { $0.kind == .unreadableValue && $0.line == 2 })
    }

    @Test("UIKit's keyboard window: its host view's place added up through its parents; below the window's bottom it is put away")
    func uikitKeyboardWindow() {
        let shown = ConsoleImporter().importDump(
            """
            <UIRemoteKeyboardWindow: 0x7f10; frame = (0 0; 375 667); opaque = NO; layer = <UIWindowLayer: 0x1>>
               | <UIInputSetContainerView: 0x7f11; frame = (0 20; 375 647); layer = <CALayer: 0x2>>
               |    | <UIInputSetHostView: 0x7f12; frame = (0 431; 375 216); layer = <CALayer: 0x3>>
            """)
        #expect(keyboardEvents(shown).map(\.1) == Array(repeating: Rect(x: 0, y: 451, width: 375, height: 216), count: 2))

        let putAway = ConsoleImporter(options: .init(screen: Size(width: 375, height: 667))).importDump(
            """
            <UIRemoteKeyboardWindow: 0x7f10; frame = (0 0; 375 667); opaque = NO; layer = <UIWindowLayer: 0x1>>
               | <UIInputSetContainerView: 0x7f11; frame = (0 0; 375 667); layer = <CALayer: 0x2>>
               |    | <UIInputSetHostView: 0x7f12; frame = (0 667; 375 216); layer = <CALayer: 0x3>>
            """)
        #expect(keyboardEvents(putAway).isEmpty)
    }
}
