import ResponderBus

/// Small, hand-laid-out scenes for tests: the screens the keyboard plugins were written for.
///
/// Every scene is for a 375×812 portrait phone (``screenSize``, safe area ``safeArea``), with a
/// root view called `root` filling the screen at the origin. Frames are in the parent's
/// coordinates, as in a log; each scene's documentation lists where its fields land on the screen,
/// so a test can assert positions without redoing the arithmetic. Identifiers are unique across
/// all scenes except `root`, so a failure message names the scene by the field.
///
/// Add a scene by declaring it and listing it in ``all``: every test that iterates ``all`` then
/// covers it. Keep the documented screen positions true.
enum CannedScenes {
    /// The screen size all scenes are laid out for: an iPhone X-class phone in portrait.
    static let screenSize = Size(width: 375, height: 812)

    /// That phone's safe area: the notch and the home indicator.
    static let safeArea = EdgeInsets(top: 44, left: 0, bottom: 34, right: 0)

    /// A sign-up form with its fields low on the screen, where a 291-point keyboard covers them.
    ///
    /// Children of the root, back to front (screen frames, as the root is at the origin):
    /// - `title`: a plain view, `[20, 100, 335, 60]`.
    /// - `email`: text field, tag 1, `[20, 480, 335, 44]`.
    /// - `password`: text field, tag 2, `[20, 540, 335, 44]`.
    /// - `confirm`: text field, tag 3, `[20, 600, 335, 44]`.
    /// - `notes`: text view, tag 4, `[20, 660, 335, 120]`.
    ///
    /// Return on the last field performs `signUp`.
    static let signUp = SceneInfo(
        root: ViewSpec(
            id: "root",
            frame: Rect(x: 0, y: 0, width: 375, height: 812),
            children: [
                ViewSpec(id: "title", frame: Rect(x: 20, y: 100, width: 335, height: 60)),
                ViewSpec(id: "email", kind: .textField, frame: Rect(x: 20, y: 480, width: 335, height: 44), tag: 1),
                ViewSpec(
                    id: "password",
                    kind: .textField,
                    frame: Rect(x: 20, y: 540, width: 335, height: 44),
                    tag: 2
                ),
                ViewSpec(id: "confirm", kind: .textField, frame: Rect(x: 20, y: 600, width: 335, height: 44), tag: 3),
                ViewSpec(id: "notes", kind: .textView, frame: Rect(x: 20, y: 660, width: 335, height: 120), tag: 4),
            ]
        ),
        lastFieldAction: "signUp"
    )

    /// A form whose fields sit inside a scroll view taller than the screen, not yet scrolled.
    ///
    /// - `header`: a plain view, `[0, 0, 375, 88]`.
    /// - `scroll`: scroll view, `[0, 88, 375, 724]`, content size 375×1500, offset zero. Its
    ///   children, in its content coordinates, and on the screen while unscrolled:
    ///   - `name`: text field, tag 1, `[20, 40, 335, 44]`, on screen `[20, 128, 335, 44]`.
    ///   - `street`: text field, tag 2, `[20, 600, 335, 44]`, on screen `[20, 688, 335, 44]`.
    ///   - `city`: text field, tag 3, `[20, 1100, 335, 44]`, below the screen at y 1188.
    ///   - `comments`: text view, tag 4, `[20, 1300, 335, 150]`, below the screen at y 1388.
    ///
    /// Return on the last field performs `save`.
    static let scrollingForm = SceneInfo(
        root: ViewSpec(
            id: "root",
            frame: Rect(x: 0, y: 0, width: 375, height: 812),
            children: [
                ViewSpec(id: "header", frame: Rect(x: 0, y: 0, width: 375, height: 88)),
                ViewSpec(
                    id: "scroll",
                    kind: .scrollView,
                    frame: Rect(x: 0, y: 88, width: 375, height: 724),
                    contentSize: Size(width: 375, height: 1500),
                    children: [
                        ViewSpec(
                            id: "name",
                            kind: .textField,
                            frame: Rect(x: 20, y: 40, width: 335, height: 44),
                            tag: 1
                        ),
                        ViewSpec(
                            id: "street",
                            kind: .textField,
                            frame: Rect(x: 20, y: 600, width: 335, height: 44),
                            tag: 2
                        ),
                        ViewSpec(
                            id: "city",
                            kind: .textField,
                            frame: Rect(x: 20, y: 1100, width: 335, height: 44),
                            tag: 3
                        ),
                        ViewSpec(
                            id: "comments",
                            kind: .textView,
                            frame: Rect(x: 20, y: 1300, width: 335, height: 150),
                            tag: 4
                        ),
                    ]
                ),
            ]
        ),
        lastFieldAction: "save"
    )

    /// Fields five levels below the root, each level offset from its parent.
    ///
    /// `root` › `container` `[0, 100, 375, 600]` › `card` `[16, 50, 343, 500]` › `stack`
    /// `[0, 20, 343, 400]` › two rows:
    /// - `row1` `[0, 0, 343, 60]` › `firstName`: text field, tag 1, `[10, 8, 323, 44]`, on screen
    ///   `[26, 178, 323, 44]`.
    /// - `row2` `[0, 300, 343, 80]` › `bio`: text view, tag 2, `[10, 8, 323, 64]`, on screen
    ///   `[26, 478, 323, 64]`.
    ///
    /// There is no last-field action: Return on the last field dismisses the keyboard.
    static let deepNesting = SceneInfo(
        root: ViewSpec(
            id: "root",
            frame: Rect(x: 0, y: 0, width: 375, height: 812),
            children: [
                ViewSpec(
                    id: "container",
                    frame: Rect(x: 0, y: 100, width: 375, height: 600),
                    children: [
                        ViewSpec(
                            id: "card",
                            frame: Rect(x: 16, y: 50, width: 343, height: 500),
                            children: [
                                ViewSpec(
                                    id: "stack",
                                    frame: Rect(x: 0, y: 20, width: 343, height: 400),
                                    children: [
                                        ViewSpec(
                                            id: "row1",
                                            frame: Rect(x: 0, y: 0, width: 343, height: 60),
                                            children: [
                                                ViewSpec(
                                                    id: "firstName",
                                                    kind: .textField,
                                                    frame: Rect(x: 10, y: 8, width: 323, height: 44),
                                                    tag: 1
                                                )
                                            ]
                                        ),
                                        ViewSpec(
                                            id: "row2",
                                            frame: Rect(x: 0, y: 300, width: 343, height: 80),
                                            children: [
                                                ViewSpec(
                                                    id: "bio",
                                                    kind: .textView,
                                                    frame: Rect(x: 10, y: 8, width: 323, height: 64),
                                                    tag: 2
                                                )
                                            ]
                                        ),
                                    ]
                                )
                            ]
                        )
                    ]
                )
            ]
        )
    )

    /// Fields a field-advancing plugin must skip: hidden, disabled, and inside a hidden group.
    ///
    /// Children of the root (screen frames):
    /// - `visible`: text field, tag 1, `[20, 200, 335, 44]`.
    /// - `hiddenField`: text field, tag 2, hidden, `[20, 260, 335, 44]`.
    /// - `disabledField`: text field, tag 3, disabled (but visible), `[20, 320, 335, 44]`.
    /// - `hiddenGroup`: a hidden plain view, `[0, 400, 375, 200]`, holding
    ///   `inHiddenGroup`: text field, tag 4, not hidden itself, `[20, 20, 335, 44]`, on screen
    ///   `[20, 420, 335, 44]`.
    /// - `message`: text view, tag 5, `[20, 640, 335, 100]`, with a keyboard distance of 20.
    ///
    /// Return on the last field performs `send`.
    static let hiddenAndDisabled = SceneInfo(
        root: ViewSpec(
            id: "root",
            frame: Rect(x: 0, y: 0, width: 375, height: 812),
            children: [
                ViewSpec(id: "visible", kind: .textField, frame: Rect(x: 20, y: 200, width: 335, height: 44), tag: 1),
                ViewSpec(
                    id: "hiddenField",
                    kind: .textField,
                    frame: Rect(x: 20, y: 260, width: 335, height: 44),
                    tag: 2,
                    isHidden: true
                ),
                ViewSpec(
                    id: "disabledField",
                    kind: .textField,
                    frame: Rect(x: 20, y: 320, width: 335, height: 44),
                    tag: 3,
                    isEnabled: false
                ),
                ViewSpec(
                    id: "hiddenGroup",
                    frame: Rect(x: 0, y: 400, width: 375, height: 200),
                    isHidden: true,
                    children: [
                        ViewSpec(
                            id: "inHiddenGroup",
                            kind: .textField,
                            frame: Rect(x: 20, y: 20, width: 335, height: 44),
                            tag: 4
                        )
                    ]
                ),
                ViewSpec(
                    id: "message",
                    kind: .textView,
                    frame: Rect(x: 20, y: 640, width: 335, height: 100),
                    tag: 5,
                    keyboardDistance: 20
                ),
            ]
        ),
        lastFieldAction: "send"
    )

    /// Every canned scene with its name, for parameterised tests.
    static let all: [(String, SceneInfo)] = [
        ("signUp", signUp),
        ("scrollingForm", scrollingForm),
        ("deepNesting", deepNesting),
        ("hiddenAndDisabled", hiddenAndDisabled),
    ]

    /// The names in ``all``, in order: pass these to `@Test(arguments:)` and look a scene up with
    /// ``named(_:)``, so test reports show a name rather than a whole scene.
    static var names: [String] { all.map(\.0) }

    /// The scene called `name` in ``all``; traps on a name that is not there.
    static func named(_ name: String) -> SceneInfo {
        guard let scene = all.first(where: { $0.0 == name })?.1 else {
            preconditionFailure("no canned scene named \(name); the names are \(names)")
        }
        return scene
    }

    /// A screen of ``screenSize`` and ``safeArea`` with `scene` loaded.
    static func screen(with scene: SceneInfo) throws -> Screen {
        let screen = Screen(size: screenSize, safeArea: safeArea)
        try screen.load(scene)
        return screen
    }
}
