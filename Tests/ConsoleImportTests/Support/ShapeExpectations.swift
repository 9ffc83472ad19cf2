import ResponderBus

@testable import ConsoleImport

/// What a person reading a fixture of `Tests/Fixtures/console-shapes/` sees in it, written down by
/// hand from its text — never produced by the importer. Each file is a real, public paste in one of
/// the shapes the importer reads beside UIKit's own dumps and NSLog consoles: EarlGrey's and
/// Detox's hierarchy dumps (`earlgrey-`), XCUITest's element trees (`xcuitest-`), Texture's node
/// descriptions (`texture-`), scroll views known by their base class, offset or private class
/// (`scrollview-`), Swift's unwrapped userInfo keys (`unwrapped-`), and the consoles a Mac shows:
/// the unified log (`unifiedlog-`), Xcode's console (`xcode-`) and the device's syslog
/// (`syslog-`).
///
/// The counting rules for views are those of ``HierarchyFixtureExpectation``, with these for the
/// new shapes:
/// - EarlGrey: an entry is `<Class:0xADDR; …>` after its `|--` markers; accessibility elements
///   that print only an `AX.frame` (keyboard keys) are not views; a root's place is its `AX.frame`.
/// - XCUITest: a view is an element line with a frame under the app's first window that holds
///   elements (or under the tree's first element when the tree is not an application's);
///   `Keyboard` and `Key` elements are the keyboard's, not the app's. In a flat list the first
///   window holds every other element that is not a window or the keyboard's.
/// - Texture: a node printed alone is placed at its `frameInWindow`.
struct ShapeExpectation {
    /// The screen given to the import (`--screen`), when the text shows none.
    var given: Size? = nil
    /// The screen of the imported log, or `nil` when nothing is imported.
    var screen: Size?
    /// Every dump of the text, in order (the scenes the reader builds, before they are put together).
    var dumps: [ShapeDump] = []
    /// The scenes of the imported log (a later dump of another screen is a new one).
    var scenes: Int = 0
    /// The keyboard events of the imported log, in order: name and end frame.
    var keyboard: [(event: String, end: Rect?)] = []
    /// The problem kinds the import reports (each at least once; no other kind).
    var problems: Set<ImportProblem.Kind> = []
}

/// One dump of a shape fixture.
struct ShapeDump {
    /// The root's class as printed (an XCUITest element's type).
    var root: String
    /// The root's frame: its place on the screen (`nil`: not checked).
    var frame: Rect?
    var views: Int
    /// Every text input: id, kind, frame in its parent's coordinates, secure.
    var inputs: [(id: String, kind: ViewKind, frame: Rect, secure: Bool)] = []
    /// Every scroll view's class, in order.
    var scrollViews: [String] = []
}

private func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }
private func size(_ w: Double, _ h: Double) -> Size { Size(width: w, height: h) }

enum ShapeExpectations {
    static let all: [String: ShapeExpectation] = [
        // MARK: EarlGrey and Detox
        // Keys print only an AX.frame (not views); the backdrop's root is the keyboard's, at {{0, 451}, {375, 216}}.
        "earlgrey-01-earlgrey539-keyboard-keys.txt": ShapeExpectation(
            screen: size(375, 667), keyboard: [("keyboardWillShow", rect(0, 451, 375, 216)), ("keyboardDidShow", rect(0, 451, 375, 216))],
            problems: [.keyboardFromDump]),
        // The put-away keyboard's host view (no height: no keyboard), then Window 3: a window and 4 views.
        "earlgrey-03-earlgrey167-inputsethostview-window3.txt": ShapeExpectation(
            screen: size(375, 667), dumps: [ShapeDump(root: "iConsoleWindow", frame: rect(0, 0, 375, 667), views: 5)], scenes: 1),
        // EarlGrey 2's isAccessible=N form; the hidden toolbar is a view.
        "earlgrey-04-earlgrey1164-eg2-isAccessible.txt": ShapeExpectation(
            // A toolbar below the screen's bottom edge: said.
            screen: size(414, 896), dumps: [ShapeDump(root: "UIWindow", frame: rect(0, 0, 414, 896), views: 5)], scenes: 1,
            problems: [.viewsOffScreen]),
        "earlgrey-05-earlgrey784-eg2-signin.txt": ShapeExpectation(
            screen: size(375, 667), dumps: [ShapeDump(root: "UIWindow", frame: rect(0, 0, 375, 667), views: 5)], scenes: 1),
        // Detox's "UI Hierarchy on test failure: <UIWindow:…" after an NSLog prefix: the window is the dump's root.
        "earlgrey-07-detox33-nslog-prefixed-hierarchy.txt": ShapeExpectation(
            screen: size(375, 667), dumps: [ShapeDump(root: "UIWindow", frame: rect(0, 0, 375, 667), views: 5)], scenes: 1),
        // The error JSON, then a syslog line, then the dump indented with spaces and a tab: an iPad in landscape.
        "earlgrey-08-detox360-ipad-syslog-prefixed.txt": ShapeExpectation(
            screen: size(1024, 768), dumps: [ShapeDump(root: "UIWindow", frame: rect(0, 0, 1024, 768), views: 3)], scenes: 1),
        "earlgrey-10-detox1490-hierarchy-prefix.txt": ShapeExpectation(
            screen: size(375, 667), dumps: [ShapeDump(root: "UIWindow", frame: rect(0, 0, 375, 667), views: 5)], scenes: 1),
        // Two elements in an error's JSON, each alone: the scroll view, then the field editor at its AX.frame (not on it): placed
        // side by side, each at its window place.
        "earlgrey-11-noomorph-readme-uifieldeditor.txt": ShapeExpectation(
            given: size(375, 667), screen: size(375, 667),
            dumps: [
                ShapeDump(root: "RCTCustomScrollView", frame: rect(0, 0, 375, 667), views: 1, scrollViews: ["RCTCustomScrollView"]),
                ShapeDump(root: "UIFieldEditor", frame: rect(1, 36, 373, 38), views: 1),
            ],
            scenes: 1, problems: [.guessedKind, .loneViewsPlaced]),

        // MARK: XCUITest
        // Two runs of one SwiftUI login screen, each a tree under "Application, pid: …"; fields without identifiers.
        "xcuitest-01-fb6211230-swiftui-textfields-375x812.txt": ShapeExpectation(
            screen: size(375, 812),
            dumps: [
                ShapeDump(
                    root: "Window", frame: rect(0, 0, 375, 812), views: 9,
                    inputs: [
                        ("TextField@11:11", .textField, rect(102.7, 60, 256.3, 21), false),
                        ("TextField@13:11", .textField, rect(97.7, 93.3, 261.3, 21), false),
                    ]),
                ShapeDump(
                    root: "Window", frame: rect(0, 0, 375, 812), views: 10,
                    inputs: [
                        // Inside the Other identified 'login.username', at its origin.
                        ("TextField@30:13", .textField, rect(0, 0, 256.3, 21), false),
                        ("TextField@32:11", .textField, rect(97.7, 93.3, 261.3, 21), false),
                    ]),
            ],
            // The three windows after the app's (containers only) are left out, and said.
            scenes: 2, problems: [.otherWindow]),
        // Xcode 7's "Type 0xADDR: traits: N, {{…}}" lines, a piece of the keyboard's window: four
        // containers side by side, then a fifth holding the Keyboard (at y 315) and its keys. Each
        // container is a dump of one view; the later four, printed alone and not on the first, are said.
        "xcuitest-02-phfcomposebarview63-keyboard-traits-320x568.txt": ShapeExpectation(
            // A piece of the keyboard's window: its containers at the keyboard's frame are the keyboard's, no app views.
            screen: size(320, 568), dumps: [],
            scenes: 0, keyboard: [("keyboardWillShow", rect(0, 315, 320, 253)), ("keyboardDidShow", rect(0, 315, 320, 253))],
            problems: [.keyboardFromDump]),
        // A fragment, then "Path to element:" and "Query chain:" (skipped), then the window's subtree.
        "xcuitest-03-wda416-path-querychain-414x896.txt": ShapeExpectation(
            screen: size(414, 896),
            dumps: [
                ShapeDump(root: "Other", frame: rect(0, 0, 414, 896), views: 4),
                ShapeDump(root: "Window", frame: rect(0, 0, 414, 896), views: 7),
            ],
            scenes: 2),
        // One JSON-escaped line: a flat list of elements; the keyboard up, the two fields below the fold.
        "xcuitest-04-warba-cucumber-flat-list-keyboard-390x844.txt": ShapeExpectation(
            screen: size(390, 844),
            dumps: [
                ShapeDump(
                    root: "Window", frame: rect(0, 0, 390, 844), views: 58,
                    inputs: [
                        ("TextField@5:6943", .textField, rect(32, 937.7, 326, 72), false),
                        ("SecureTextField@5:7080", .textField, rect(32, 1010.7, 326, 72), true),
                    ])
            ],
            // The Keyboard element is the key plane: the keyboard is its window's host, accessory and bottom bar in.
            scenes: 1, keyboard: [("keyboardWillShow", rect(0, 509, 390, 335)), ("keyboardDidShow", rect(0, 509, 390, 335))],
            problems: [.keyboardFromDump, .keyboardFrameFromTree, .viewsOffScreen]),
        // `po` of the tree as one escaped string (`\n`, `\'`): the 'city' field.
        "xcuitest-05-xcuitest-study-notes-po-debugdescription-escaped-then-keyboard-buttons.txt": ShapeExpectation(
            screen: size(414, 896),
            dumps: [
                ShapeDump(root: "Window", frame: rect(0, 0, 414, 896), views: 10, inputs: [("city", .textField, rect(189, 422.5, 36, 51.5), false)])
            ],
            scenes: 1),
        "xcuitest-06-testpilot-readme-full-tree-393x852-tabbar.txt": ShapeExpectation(
            screen: size(393, 852), dumps: [ShapeDump(root: "Window", frame: rect(0, 0, 393, 852), views: 33)], scenes: 1),
        // Starts at "Element subtree:" with no "Attributes:" line, in a comment.
        "xcuitest-07-axuitests-comment-lldb-po-app-390x844.txt": ShapeExpectation(
            screen: size(390, 844), dumps: [ShapeDump(root: "Window", frame: rect(0, 0, 390, 844), views: 7)], scenes: 1),

        // MARK: Texture
        // The text node alone, at its frameInWindow (not its frame in the cell); the cell node is a value of it.
        "texture-01-asdk2208-node-descriptions.txt": ShapeExpectation(
            given: size(320, 568), screen: size(320, 568),
            dumps: [
                ShapeDump(root: "ASTextNode", frame: rect(106, 350.5, 198, 210), views: 1),
                ShapeDump(root: "KittenNode", frame: rect(0, 334.5, 320, 242), views: 1),
            ],
            scenes: 1, problems: [.loneViewsPlaced]),

        // MARK: Scroll views by base class, offset or private class
        "scrollview-02-wechat-cycript-mmmaintableview-wrapperview.txt": ShapeExpectation(
            screen: size(320, 568),
            dumps: [
                ShapeDump(root: "iConsoleWindow", frame: rect(0, 0, 320, 568), views: 20, scrollViews: ["MMMainTableView", "UITableViewWrapperView"])
            ],
            scenes: 1),
        // lldb's `search UIScrollView`: 16 scroll views, each printed alone.
        "scrollview-03-rwdevcon-notes-lldb-search-uiscrollview-springboard.txt": ShapeExpectation(
            given: size(414, 736), screen: size(414, 736),
            dumps: [
                "CCUIImmediateTouchScrollView", "NCNotificationListCollectionView", "UICollectionView", "UIScrollView", "SearchUITableView",
                "SBSearchScrollView", "UITableViewWrapperView", "SearchUITableView", "CCUIImmediateTouchScrollView", "UICollectionView",
                "UITableView", "CCUIImmediateTouchScrollView", "UITableViewWrapperView", "SBIconScrollView", "SBPagedScrollView",
                "UITableViewWrapperView",
            ].map { ShapeDump(root: $0, frame: nil, views: 1, scrollViews: [$0]) },
            scenes: 1, problems: [.loneViewsPlaced]),
        // WebKit's scroll view, known by its baseClass.
        "scrollview-04-wkwebview-comment-wkscrollview-375x667.txt": ShapeExpectation(
            given: size(375, 667), screen: size(375, 667),
            dumps: [ShapeDump(root: "UIView", frame: rect(0, 0, 375, 667), views: 7, scrollViews: ["WKScrollView"])], scenes: 1),
        // Two text fields known by baseClass; the edited one's field editor is a scroll view by its offset alone.
        "scrollview-06-neteasemusic-cycript-login-uifieldeditor-textfields.txt": ShapeExpectation(
            given: size(320, 568), screen: size(320, 568),
            dumps: [
                ShapeDump(
                    root: "NMPhoneLoginView", frame: rect(0, 0, 320, 568), views: 22,
                    inputs: [
                        ("FXIconTextField@0x11c8eef00", .textField, rect(0, 0, 288, 43), false),
                        ("FXIconTextField@0x103fb09e0", .textField, rect(0, 43, 288, 43), false),
                    ],
                    scrollViews: ["UIFieldEditor"])
            ],
            scenes: 1),
        // One collection view in an exception's reason, known by its baseClass.
        "scrollview-07-asdk-crash-readme-ascollectionview-baseclass-exception.txt": ShapeExpectation(
            given: size(414, 736), screen: size(414, 736),
            dumps: [ShapeDump(root: "ASCollectionView", frame: rect(0, 0, 414, 736), views: 1, scrollViews: ["ASCollectionView"])], scenes: 1),

        // MARK: Swift 2's userInfo, keys neither wrapped nor quoted
        "unwrapped-02-swift2-composevc-optional-unwrapped-414x736-271.txt": ShapeExpectation(
            screen: size(414, 736), keyboard: [("keyboardWillChangeFrame", rect(0, 465, 414, 271))]),
        "unwrapped-03-swift2-hmzcompose-comment-unwrapped-414x736-226.txt": ShapeExpectation(
            screen: size(414, 736), keyboard: [("keyboardWillChangeFrame", rect(0, 510, 414, 226))]),

        // MARK: Consoles: Xcode's, the unified log's, the device's syslog
        // Two NSConcreteNotification dumps with NSLog prefixes; the second is the keyboard growing its bar.
        "xcode-01-fsiosappdemo-nsconcretenotification-userinfo.txt": ShapeExpectation(
            screen: size(375, 667),
            keyboard: [("keyboardWillShow", rect(0, 451, 375, 216)), ("keyboardWillShow", rect(0, 377.5, 375, 289.5))]),
        // iSH's own NSLog of each frame change: a hardware keyboard's 55 pt bar in a window 1025 wide,
        // then (53 s later, the window resized) 1165 and 1167 wide at y 1125. The log keeps one
        // screen: the later frames are wider than it and below it, and said so. (The first frames
        // alone cannot tell whether the window is 678 or 733 high: the bar just below the screen,
        // or docked on it; the import takes the first reading.)
        "xcode-02-ish1684-keyboard-frame-nslog-ipad.txt": ShapeExpectation(
            screen: size(1025, 678),
            keyboard: [
                Array(repeating: ("keyboardDidChangeFrame", rect(0, 678, 1025, 55)), count: 3),
                Array(repeating: ("keyboardWillChangeFrame", rect(0, 678, 1025, 55)), count: 4),
                Array(repeating: ("keyboardDidChangeFrame", rect(0, 678, 1025, 55)), count: 4),
                Array(repeating: ("keyboardDidChangeFrame", rect(0, 1125, 1165, 55)), count: 3),
                Array(repeating: ("keyboardWillChangeFrame", rect(0, 1125, 1167, 55)), count: 4),
                Array(repeating: ("keyboardDidChangeFrame", rect(0, 1125, 1167, 55)), count: 4),
            ].flatMap { $0 },
            problems: [.implausibleKeyboardFrame]),
        // An iPad Pro's hardware-keyboard bar (55 pt) coming up and going, among UIKit's own warnings.
        "xcode-03-ish1046-keyboard-frame-ipadpro-and-uikit-warning.txt": ShapeExpectation(
            screen: size(1366, 1024),
            keyboard: [
                ("keyboardWillChangeFrame", rect(0, 1024, 1366, 55)), ("keyboardDidChangeFrame", rect(0, 1024, 1366, 55)),
                ("keyboardWillChangeFrame", rect(0, 969, 1366, 55)), ("keyboardDidChangeFrame", rect(0, 969, 1366, 55)),
                ("keyboardWillChangeFrame", rect(0, 1024, 1366, 55)),
            ]),
        // The unified log's and the syslog's real pastes print no keyboard notification, userInfo or
        // dump (SpringBoard's keyboard arbiter, an app's own lines, objects printed as values):
        // nothing to import, and no event made up from them.
        "unifiedlog-01-neondrift-compact-keyboardarbiter-multiline.txt": ShapeExpectation(screen: nil, problems: [.nothingImportable]),
        "unifiedlog-02-ur-ios-appname-log-stream-default.txt": ShapeExpectation(screen: nil, problems: [.nothingImportable]),
        "unifiedlog-03-native-logger-log-stream-multiline.txt": ShapeExpectation(screen: nil, problems: [.nothingImportable]),
        "unifiedlog-04-appium13503-simulator-syslog-compact-prefixed.txt": ShapeExpectation(screen: nil, problems: [.nothingImportable]),
        "syslog-01-reynard42-ios17-syslog.txt": ShapeExpectation(screen: nil, problems: [.nothingImportable]),
        // A keyboard arbiter handle's description broken across lines by grep: cut off, left out.
        "syslog-02-smserver141-oslog-keyboardarbiter-multiline.txt": ShapeExpectation(screen: nil, problems: [.truncated, .nothingImportable]),
        // A password field printed as a hooked method's `object:` and `target:` values, never as a dump.
        "syslog-04-knhook-wechat-syslog-multiline-textfield.txt": ShapeExpectation(screen: nil, problems: [.nothingImportable]),
        // MARK: Issue 49: failed UI tests' logs, windows and the keyboard area
        // Detox's "Multiple elements were matched": three lone views, two of them far below the screen; placed side by side.
        "earlgrey-12-detox-coopcycle-multiple-matched-offscreen-3001.txt": ShapeExpectation(
            given: size(375, 667), screen: size(375, 667),
            dumps: [
                ShapeDump(root: "RCTView", frame: rect(0, 3001.5, 61, 41), views: 1),
                ShapeDump(root: "RCTView", frame: rect(0, 21.5, 61, 41), views: 1),
                ShapeDump(root: "RCTView", frame: rect(0, 3001.5, 61, 41), views: 1),
            ],
            scenes: 1, problems: [.loneViewsPlaced, .renamedViews]),
        // EarlGrey 2's list of three matched cells, at their window places.
        "earlgrey-13-earlgrey1365-eg2-multiple-matched-tableviewcells-375.txt": ShapeExpectation(
            given: size(375, 812), screen: size(375, 812),
            dumps: [88.0, 132, 176].map { ShapeDump(root: "UITableViewCell", frame: rect(0, $0, 375, 44), views: 1) },
            scenes: 1, problems: [.loneViewsPlaced]),
        // The tail of the keyboard's window (its backdrop, at the docked keyboard's place), then "Window 2", the text effects':
        // no app view, the keyboard from the backdrop, the screen from it.
        "earlgrey-14-earlgrey665-keyboard-backdrop-then-window2-texteffects-375x667.txt": ShapeExpectation(
            screen: size(375, 667),
            dumps: ["UIView", "UIView", "UIView", "UIView", "_UIBackdropEffectView"].map {
                ShapeDump(root: $0, frame: rect(0, 451, 375, 216), views: 1)
            },
            scenes: 0, keyboard: [("keyboardWillShow", rect(0, 451, 375, 216)), ("keyboardDidShow", rect(0, 451, 375, 216))],
            problems: [.keyboardBackdrop, .keyboardFromDump]),
        // EarlGrey 1's entries without addresses: three views, named by their place.
        "earlgrey-15-earlgrey258-no-addresses-tableviewcell-375.txt": ShapeExpectation(
            given: size(375, 667), screen: size(375, 667),
            dumps: [ShapeDump(root: "UITableViewCell", frame: rect(0, 64, 375, 44), views: 3)], scenes: 1),
        // A view's subviews printed one by one, their children marked `-----`: one screen, nested as printed.
        "scrollview-08-plcamera-dash-prefixed-lone-views-320x480.txt": ShapeExpectation(
            screen: size(320, 480),
            dumps: [
                ShapeDump(root: "UIView", frame: rect(0, 0, 320, 480), views: 3),
                ShapeDump(root: "UIView", frame: rect(8, 60, 304, 304), views: 1),
                ShapeDump(root: "UIImageView", frame: rect(0, 422, 320, 5), views: 1),
                ShapeDump(root: "PLPreviewOverlayView", frame: rect(0, 0, 320, 427), views: 4),
                ShapeDump(root: "PLTileContainerView", frame: rect(0, 1, 320, 426), views: 2, scrollViews: ["PLImageScrollView"]),
                ShapeDump(root: "UIImageView", frame: rect(0, 0, 320, 480), views: 1),
                ShapeDump(root: "PLCropOverlay", frame: rect(0, 0, 320, 480), views: 3),
            ],
            scenes: 1, problems: [.loneViewsPlaced]),
        // lldb's find_label: a full-screen scroll view gives the screen.
        "scrollview-09-lldb-find-label-uiscrollview-root-428x926.txt": ShapeExpectation(
            screen: size(428, 926),
            dumps: [ShapeDump(root: "UIScrollView", frame: rect(0, 0, 428, 926), views: 2, scrollViews: ["UIScrollView"])], scenes: 1),
        "unwrapped-04-srcompose-comment-keys-trailing-notes-320x568.txt": ShapeExpectation(
            screen: size(320, 568), keyboard: [("keyboardWillChangeFrame", rect(0, 352, 320, 216))]),
        // The windows twice, class names in Markdown bold: the app's window, the keyboard's never the scene.
        "windows-01-markdown-bold-lldb-windows-414x736.txt": ShapeExpectation(
            screen: size(414, 736), dumps: Array(repeating: ShapeDump(root: "UIWindow", frame: rect(0, 0, 414, 736), views: 1), count: 2),
            scenes: 1),
        // The keyboard's windows and host view printed alone: the keyboard, no scene.
        "windows-02-ddlog-inputsethostview-keyboard-area-320x568.txt": ShapeExpectation(
            screen: size(320, 568), keyboard: [("keyboardWillShow", rect(0, 315, 320, 253)), ("keyboardDidShow", rect(0, 315, 320, 253))],
            problems: [.keyboardFromDump]),
        "windows-03-nslog-4g-window-list-375x667.txt": ShapeExpectation(
            screen: size(375, 667), dumps: Array(repeating: ShapeDump(root: "UIWindow", frame: rect(0, 0, 375, 667), views: 1), count: 2),
            scenes: 1),
        // `po notification`: its description, then Swift's dump of it: one notification.
        "xcode-04-po-notification-mirror-dump-375x812.txt": ShapeExpectation(
            screen: size(375, 812), keyboard: [("keyboardWillChangeFrame", rect(0, 445.33333333333326, 375, 366.66666666666674))]),
        // iOS 7: a portrait keyboard, then a landscape one in portrait coordinates (said).
        "xcode-05-ios7-landscape-keyboard-portrait-coords-320x480.txt": ShapeExpectation(
            screen: size(320, 480),
            keyboard: [("keyboardWillChangeFrame", rect(0, 264, 320, 216)), ("keyboardWillChangeFrame", rect(0, 0, 162, 480))],
            problems: [.sidewaysKeyboardFrames]),
        "xcode-06-czmessage-nsconcrete-inline-comments-375x667.txt": ShapeExpectation(
            screen: size(375, 667), keyboard: [("keyboardWillShow", rect(0, 409, 375, 258))]),
        // A tree from "Window (Main)": two text fields in cells, a button identifier printed twice.
        "xcuitest-08-babylon-playbook-tree-375x812-two-textfields-duplicate-button.txt": ShapeExpectation(
            screen: size(375, 812),
            dumps: [
                ShapeDump(
                    root: "Window", frame: rect(0, 0, 375, 812), views: 20,
                    inputs: [
                        ("email", .textField, rect(32, 224 - 187.7, 271, 21), false),
                        ("password", .textField, rect(32, 295 - 258.7, 271, 21), false),
                    ],
                    scrollViews: ["Table"])
            ],
            scenes: 1, problems: [.renamedViews]),
        // The keyboard's buttons alone, no frame of it and no app view: nothing to import.
        "xcuitest-09-jp-notes-output-list-keyboard-buttons-only-428.txt": ShapeExpectation(screen: nil, problems: [.nothingImportable]),
    ]
}
