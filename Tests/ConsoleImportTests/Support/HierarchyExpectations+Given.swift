import ResponderBus

extension HierarchyExpectations {
    /// The expectations for the fixtures copied from the material the issue gave (files 01–35, odd
    /// numbers), written by hand from reading each dump (see ``HierarchyFixtureExpectation`` for the
    /// counting rules).
    static let given: [String: HierarchyFixtureExpectation] = [
        // UIView, UILabel, UITextField, UITextFieldLabel, _UITextLayoutCanvasView, _UITextLayoutFragmentView.
        "01-sentry-tests-lldb-label-and-uitextfield-placeholder.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 6,
                    inputs: [ExpectedInput(className: "UITextField", kind: .textField, frame: Rect(x: 50, y: 10, width: 30, height: 30))])
            ]),
        // The window (12 views); then Cycript's rp() prints the button, the view and the window alone
        // (one view each); the view controller, UIApplication and AppDelegate print no frame.
        "03-monkeydev-cycript-pviews-375x667-textview-multiline-text-value.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 12,
                    inputs: [ExpectedInput(className: "UITextView", kind: .textView, frame: Rect(x: 26, y: 230, width: 343, height: 427))]),
                ExpectedDump(views: 1),
                ExpectedDump(views: 1),
                ExpectedDump(views: 1),
            ]),
        "05-fridadev-ui-dump-320x480-two-custom-textfields-plus-printHierarchy.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 19,
                    inputs: [
                        ExpectedInput(className: "FireflyUserNameTextFieldView", kind: .textField, frame: Rect(x: 19, y: 26, width: 221, height: 32)),
                        ExpectedInput(className: "CSJCMBCCDSIPInputField", kind: .textField, frame: Rect(x: 19, y: 77, width: 221, height: 32.5)),
                    ])
            ]),
        // The `(id) $2 = … 1 child[…]` prefix leads the root; MFComposeTextContentView and
        // MFComposeBodyField print other base classes; the text fields under the XX (alpha = 0)
        // recipient views have no alpha of their own.
        "07-oleb-2012-lldb-ios5-mail-compose-XX-invisible-views-textfields.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 44,
                    inputs: [
                        ExpectedInput(className: "_MFMailRecipientTextField", kind: .textField, frame: Rect(x: 45, y: 12, width: 275, height: 25)),
                        ExpectedInput(className: "_MFMailRecipientTextField", kind: .textField, frame: Rect(x: 46, y: 12, width: 274, height: 25)),
                        ExpectedInput(className: "_MFMailRecipientTextField", kind: .textField, frame: Rect(x: 54, y: 12, width: 266, height: 25)),
                        ExpectedInput(className: "UITextField", kind: .textField, frame: Rect(x: 76, y: 12, width: 236, height: 25)),
                    ],
                    scrollViews: [ExpectedScroll(className: "MFComposeScrollView")])
            ]),
        "09-lyroger-2015-lldb-searchbar-alone-320x40.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 5,
                    inputs: [ExpectedInput(className: "UISearchBarTextField", kind: .textField, frame: Rect(x: 0, y: 0, width: 0, height: 0))])
            ]),
        "11-nslog-timestamp-searchbar-cancel-button-trailing-spaces.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 6,
                    inputs: [ExpectedInput(className: "UISearchBarTextField", kind: .textField, frame: Rect(x: 0, y: 0, width: 0, height: 0))])
            ]),
        "13-hjsearchdemo-readme-searchbar-simulator.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 5,
                    inputs: [ExpectedInput(className: "UISearchBarTextField", kind: .textField, frame: Rect(x: 0, y: 0, width: 0, height: 0))])
            ]),
        // iOS 5.0, 5.1 and 6.0: the third dump stops at "   | <UISearchBarTextFi" (no address: not an entry).
        "15-csdn-2015-searchbar-ios5.0-5.1-6.0-simulators-truncated.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 6,
                    inputs: [ExpectedInput(className: "UISearchBarTextField", kind: .textField, frame: Rect(x: 5, y: 6, width: 280, height: 31))]),
                ExpectedDump(
                    views: 3,
                    inputs: [ExpectedInput(className: "UISearchBarTextField", kind: .textField, frame: Rect(x: 0, y: 0, width: 0, height: 0))]),
                ExpectedDump(views: 2),
            ],
            cutOff: true),
        // The mirror's third dump ends inside "| <UISearchBarTextField: 0xa140": an entry cut off.
        "17-mamicode-mirror-of-csdn-searchbar-curly-quotes-collapsed-pipes.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 6,
                    inputs: [ExpectedInput(className: "UISearchBarTextField", kind: .textField, frame: Rect(x: 5, y: 6, width: 280, height: 31))]),
                ExpectedDump(
                    views: 3,
                    inputs: [ExpectedInput(className: "UISearchBarTextField", kind: .textField, frame: Rect(x: 0, y: 0, width: 0, height: 0))]),
                ExpectedDump(views: 2),
            ],
            cutOff: true),
        "19-dopsearchbar-ios10.2-simulator-zero-frames.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 5,
                    inputs: [ExpectedInput(className: "UISearchBarTextField", kind: .textField, frame: Rect(x: 0, y: 0, width: 0, height: 0))])
            ]),
        // RichTextView prints baseClass = UILabel: not a text input.
        "21-wechat-2016-cycript-chat-tableview-scrolled-178-tags-cut.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 47,
                    scrollViews: [
                        ExpectedScroll(className: "MMTableView", contentOffset: Point(x: 0, y: 178), contentSize: Size(width: 320, height: 696)),
                        ExpectedScroll(className: "UITableViewWrapperView", contentSize: Size(width: 320, height: 568)),
                    ])
            ],
            cutOff: true),
        "23-cycript-wechat-320x480-elided-middle-tags-hidden.txt": HierarchyFixtureExpectation(
            dumps: [ExpectedDump(views: 11)],
            cutOff: true),
        "25-chaoticmarch-cycript-nsstring-literal-tableview-cut.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 9,
                    scrollViews: [
                        ExpectedScroll(className: "UITableView", contentSize: Size(width: 320, height: 867.5)),
                        ExpectedScroll(className: "UITableViewWrapperView", contentSize: Size(width: 320, height: 568)),
                    ])
            ],
            cutOff: true),
        // UIView, UIButton, UIButtonLabel, two _UILayoutGuide; the "(layer)" line is not a view.
        "27-biaoge-lldb-simulator-320x568-alpha-0.2-layer-entry.txt": HierarchyFixtureExpectation(
            dumps: [ExpectedDump(views: 5)]),
        "29-objc-comment-simulator-414x736-layout-guides-unlaid.txt": HierarchyFixtureExpectation(
            dumps: [ExpectedDump(views: 5)]),
        // The dump starts below its root, at the collection view (depth 1).
        "31-componentkit-docs-chisel-pviews-collectionview-offset-315.txt": HierarchyFixtureExpectation(
            dumps: [
                ExpectedDump(
                    views: 24,
                    scrollViews: [
                        ExpectedScroll(className: "UICollectionView", contentOffset: Point(x: 0, y: 315), contentSize: Size(width: 320, height: 5951))
                    ])
            ],
            cutOff: true),
        // Seven entries by indentation; the seventh stops at "...; 30 1); tra" and is not counted.
        "33-kishikawakatsumi-2010-iphoneos3-uiwebview-indent-without-pipes.txt": HierarchyFixtureExpectation(
            // iPhone OS 3's private scroller, known by its name (it prints no offset).
            dumps: [ExpectedDump(views: 6, scrollViews: [ExpectedScroll(className: "UIScroller")])],
            cutOff: true),
        "35-cycript-swizzled-description-frame-format-tab-escape.txt": HierarchyFixtureExpectation(
            dumps: [ExpectedDump(views: 8)],
            cutOff: true),
    ]
}
