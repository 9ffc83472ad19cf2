import ResponderBus

extension HierarchyExpectations {
    /// The expectations for the fixtures collected for issue 16 from public sources (files 37–67, odd numbers),
    /// written by hand from reading each dump (see ``HierarchyFixtureExpectation`` for the counting rules).
    static let collected: [String: HierarchyFixtureExpectation] = [
        // Window, view, two labels, the text field and its background, the button and its label, two layout guides.
        "37-owasp-mastg-cycript-320x568-textfield-hidden-label.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 10,
                    inputs: [ExpectedInput(className: "UITextField", kind: .textField, frame: Rect(x: 8, y: 141, width: 304, height: 30))])
            ]),
        // The text view prints a contentOffset but is a text view, not a scroll view of the form.
        "39-ccfc-objc-header-comment-2011-textfield-textview-contentoffset.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 13,
                    inputs: [
                        ExpectedInput(className: "UITextField", kind: .textField, frame: Rect(x: 10, y: 40, width: 100, height: 30)),
                        ExpectedInput(className: "UITextView", kind: .textView, frame: Rect(x: 10, y: 80, width: 100, height: 60)),
                    ])
            ]),
        // 22 entries (the three "(layer)" lines are not views); the field editor inside the first field prints a
        // contentOffset and contentSize, so it is a scroll view.
        "41-jianshu-cycript-netease-music-login-two-icon-textfields-fieldeditor.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 22,
                    inputs: [
                        ExpectedInput(className: "FXIconTextField", kind: .textField, frame: Rect(x: 0, y: 0, width: 288, height: 43)),
                        ExpectedInput(className: "FXIconTextField", kind: .textField, frame: Rect(x: 0, y: 43, width: 288, height: 43)),
                    ],
                    scrollViews: [ExpectedScroll(className: "UIFieldEditor", contentSize: Size(width: 257, height: 43))])
            ]),
        // 36 entries: the "<<_UITextContainerView …>> minSize = …" entry is one, the "(layer)" line is not.
        "43-frida-introlevels-ctf-iphone4s-320x480-textfield-textview-offscreen.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 36,
                    inputs: [
                        ExpectedInput(className: "UITextField", kind: .textField, frame: Rect(x: 82, y: 337, width: 162, height: 30)),
                        ExpectedInput(className: "UITextView", kind: .textView, frame: Rect(x: 67, y: 424, width: 240, height: 128)),
                    ])
            ]),
        // One entry; the textfield=<…> inside its background value is not a second view.
        "45-reminders-emoji-picker-lldb-alpha-0-swift-mangled-textfield.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 1,
                    inputs: [
                        ExpectedInput(
                            className: "_TtC9RemindersP33_4FE8BD245B420E02FDB196B5E5563CD014EmojiTextField", kind: .textField,
                            frame: Rect(x: 29.5, y: 450.5, width: 53, height: 53), hidden: true)
                    ])
            ]),
        "47-fymall-objc-comment-notification-object-textfield-tag-1.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 1,
                    inputs: [ExpectedInput(className: "FYLineTextField", kind: .textField, frame: Rect(x: 35, y: 30, width: 305, height: 21), tag: 1)]
                )
            ]),
        // Ten entries, several wrapped onto a second line (even between "frame" and "= (…)"); "……" elides a part.
        "49-ios-app-reverse-engineering-mail-cycript-wrapped-lines-collapsed-pipes.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 10,
                    scrollViews: [ExpectedScroll(className: "UIScrollView", contentSize: Size(width: 320, height: 77.5))])
            ],
            cutOff: true),
        // 82 entries; the scroll indicators print no contentOffset; the second text view is not user-interactive.
        "51-cycript-cn-apple-id-sign-in-375x667-tableview-offset-disabled-textview-deep.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 82,
                    inputs: [
                        ExpectedInput(className: "UITextField", kind: .textField, frame: Rect(x: 114, y: 19, width: 245, height: 22)),
                        ExpectedInput(className: "AAUITextView", kind: .textView, frame: Rect(x: 14, y: 122.5, width: 315.5, height: 54.5)),
                        ExpectedInput(
                            className: "UITextView", kind: .textView, frame: Rect(x: 1, y: 29.5, width: 341.5, height: 63.5), enabled: false),
                    ],
                    scrollViews: [
                        ExpectedScroll(className: "UITableView", contentOffset: Point(x: 0, y: -56), contentSize: Size(width: 375, height: 524.5))
                    ])
            ]),
        // 32 entries (two "(layer)" lines); five entries print a contentOffset, the hidden results table among them.
        "53-lyroger-2015-lldb-search-display-controller-320x568-tableview-offset-animations.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 32,
                    inputs: [ExpectedInput(className: "UISearchBarTextField", kind: .textField, frame: Rect(x: 8, y: 8, width: 239, height: 28))],
                    scrollViews: [
                        ExpectedScroll(className: "UITableView", contentOffset: Point(x: 0, y: -20), contentSize: Size(width: 320, height: 478)),
                        ExpectedScroll(className: "UITableViewWrapperView", contentSize: Size(width: 320, height: 454)),
                        ExpectedScroll(className: "UIFieldEditor", contentSize: Size(width: 204, height: 24)),
                        ExpectedScroll(className: "UISearchResultsTableView", contentSize: Size(width: 320, height: 44)),
                        ExpectedScroll(className: "UITableViewWrapperView", contentSize: Size(width: 320, height: 568)),
                    ])
            ]),
        // Seven entries before the author's "......"; the KEPLoginTextField quoted in a sentence is not whole; the
        // lone KEPActionButton twice (in backticks, then as choose()'s [#"…"]).
        "55-cycript-cn-notes-keep-414x736-cut-dump-lone-button-entries.txt": HierarchyFixtureExpectation(
            dumps: [ExpectedDump(views: 7), ExpectedDump(views: 1), ExpectedDump(views: 1)],
            cutOff: true),
        // Ten quoted lines are entries; ")" and the lldb command are not.
        "57-js-test-iphone13-ios26-quoted-lines-array-textfield-hidden-child.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 10,
                    inputs: [ExpectedInput(className: "UITextField", kind: .textField, frame: Rect(x: 0, y: 54, width: 366, height: 34))])
            ]),
        // RCTTextView is a plain view in React Native, but nothing in the dump says so: its name ends in "TextView",
        // so it reads as a text view (and the importer says it guessed).
        "59-sentry-react-native-redact-tests-three-100x100-dumps-rct-text-view.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 2,
                    inputs: [ExpectedInput(className: "RCTTextView", kind: .textView, frame: Rect(x: 20, y: 20, width: 40, height: 40))]),
                ExpectedDump(views: 2),
                ExpectedDump(views: 2),
            ]),
        // The web view, its scroll view (which prints no contentOffset), ten image views and the browser view.
        "61-idevrecipes-2010-gdb-uiwebview-ios4-320x460-empty-descriptions.txt": HierarchyFixtureExpectation(
            dumps: [ExpectedDump(views: 13, scrollViews: [ExpectedScroll(className: "UIScrollView")])]),
        // 17 whole entries; the last UIImageView is cut mid-entry by the author; _printHierarchy's lines are view
        // controllers with "<UIView 0x…>" values, not entries.
        "63-cn-lldb-notes-414x896-simulator-tableview-inset-cut-mid-entry-printhierarchy.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 17,
                    scrollViews: [
                        ExpectedScroll(
                            className: "UITableView", contentOffset: Point(x: 0, y: -88),
                            contentSize: Size(width: 414, height: 70.000100000000003))
                    ])
            ],
            cutOff: true),
        // Six dumps: on iOS 26 the hosting view's children are layers only.
        "65-sentry-swiftui-redact-tests-ios26-18-17-windows-mangled-hosting-views.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(views: 4), ExpectedDump(views: 6), ExpectedDump(views: 6),
                ExpectedDump(views: 4), ExpectedDump(views: 6), ExpectedDump(views: 6),
            ]),
        // Three lone entries: the text view (a UITextView subclass, scrolled by a point), its text container view,
        // and the MMGrowTextView container, a text view by its name.
        "67-wechat-2017-lldb-printing-description-growing-textview-offset-1.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 1,
                    inputs: [ExpectedInput(className: "MMTextView", kind: .textView, frame: Rect(x: 6, y: 5, width: 200, height: 34))]),
                ExpectedDump(views: 1),
                ExpectedDump(
                    views: 1,
                    inputs: [ExpectedInput(className: "MMGrowTextView", kind: .textView, frame: Rect(x: 37, y: 3, width: 209, height: 44))]),
            ]),
    ]
}
