import ResponderBus
import Testing

/// A keyboard session transcribed by hand from a real iOS console dump in
/// `Tests/Fixtures/ios-logs/`, or from a sequence KEYBOARD-FACTS.md §4 reports, replayed through
/// the plugins on the virtual-time loop.
///
/// The numbers are copied exactly from the dump: event names in the order printed, begin and end
/// frames, duration, raw curve and `isLocal` where the dump has them (`nil` where it does not). What
/// a dump does not show is marked: a turn with an ``Turn/assumption`` (the keyboard already on screen
/// when the dump starts, a screen size nobody stated, frames a sequence reports only as heights).
///
/// Each sequence is written in a **text field's** order: the field's `didBeginEditing` comes before
/// the keyboard events of its turn. ``replay(on:kind:nextKind:layout:)`` moves a text view's
/// `didBeginEditing` after them, as UIKit does.
struct RealSequence: Sendable, CustomTestStringConvertible {
    /// One thing that happened.
    enum Step: Sendable {
        /// A keyboard notification with the userInfo the dump printed.
        case keyboard(EventName<KeyboardInfo>, KeyboardInfo)
        /// A field began editing: ``RealSequence/field`` or ``RealSequence/next``.
        case beginEditing(ViewID)
        /// A field ended editing.
        case endEditing(ViewID)
        /// The device rotated: the screen takes this size and the fields are laid out again.
        case rotate(to: Size)
    }

    /// The steps of one UIKit run-loop turn: one `t` in a log.
    struct Turn: Sendable {
        /// Seconds from the start of the dump: the dump's own timestamps where it has them,
        /// otherwise assumed (a show's `Did` events 0.25 s after its `Will` events).
        let at: Double
        /// What happened, in order.
        let steps: [Step]
        /// Why this turn is not (exactly) in the dump, when it is not.
        let assumption: String?

        init(at: Double, _ steps: [Step], assumption: String? = nil) {
            self.at = at
            self.steps = steps
            self.assumption = assumption
        }
    }

    /// Where the focused field sits. Every layout is computed from the screen size and safe area, so
    /// the expected origins can be worked out by hand from the rule text.
    enum Layout: Sendable, CustomTestStringConvertible {
        /// A form field in the lower part of the screen: `field` at `(20, H − 150, W − 40, 44)`,
        /// `next` at `(20, H − 90, W − 40, 44)`; the default gap.
        case form
        /// The same form, with `keyboardDistance` set on both fields.
        case formWithGap(Double)
        /// A chat input bar flush with the bottom edge: `field` at `(0, H − 44, W, 44)`.
        case bottomBar
        /// A tall text area from 80 points below the safe-area top to 60 points above the bottom:
        /// `field` at `(20, safeTop + 80, W − 40, H − safeTop − 140)`.
        case tallTextView

        var testDescription: String {
            switch self {
            case .form: "form field at H − 150"
            case .formWithGap(let gap): "form field at H − 150, keyboardDistance \(gap)"
            case .bottomBar: "input bar flush with the bottom"
            case .tallTextView: "tall text area from safeTop + 80 to H − 60"
            }
        }

        func fieldFrame(screen: Size, safeArea: EdgeInsets) -> Rect {
            switch self {
            case .form, .formWithGap:
                Rect(x: 20, y: screen.height - 150, width: screen.width - 40, height: 44)
            case .bottomBar:
                Rect(x: 0, y: screen.height - 44, width: screen.width, height: 44)
            case .tallTextView:
                Rect(
                    x: 20, y: safeArea.top + 80, width: screen.width - 40,
                    height: screen.height - safeArea.top - 140)
            }
        }

        func nextFrame(screen: Size) -> Rect {
            Rect(x: 20, y: screen.height - 90, width: screen.width - 40, height: 44)
        }

        var keyboardDistance: Double? {
            if case .formWithGap(let gap) = self { return gap }
            return nil
        }
    }

    /// The focused field of every sequence.
    static let field: ViewID = "field"
    /// A second field, for sequences that move the focus.
    static let next: ViewID = "next"

    /// A short name for test output.
    let name: String
    /// The fixture file or KEYBOARD-FACTS.md row it comes from.
    let source: String
    /// The screen size in points, from the fixture's annotation or name.
    let screen: Size
    /// The safe area: a 20-point status bar before the iPhone X, the notch devices' insets after.
    let safeArea: EdgeInsets
    /// The turns, in order.
    let turns: [Turn]

    var testDescription: String { name }
}

// MARK: - Transcription helpers

/// `{{x, y}, {w, h}}` as printed.
private func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect {
    Rect(x: x, y: y, width: width, height: height)
}

/// A keyboard notification with the userInfo values a dump printed.
private func note(
    _ name: EventName<KeyboardInfo>, begin: Rect? = nil, end: Rect? = nil, duration: Double? = nil, curve: Int? = nil,
    isLocal: Bool? = nil
) -> RealSequence.Step {
    .keyboard(name, KeyboardInfo(begin: begin, end: end, duration: duration, curve: curve, isLocal: isLocal))
}

private let focus = RealSequence.Step.beginEditing(RealSequence.field)
private let statusBar = EdgeInsets(top: 20)
private let notch = EdgeInsets(top: 44, bottom: 34)

// MARK: - Fixture dumps

extension RealSequence {
    /// `01-swift-iphone5-320x568-full-six-notification-set.txt`: iPhone 5 320×568, one dump per
    /// notification type, 216-point keyboard `{{0, 352}, {320, 216}}`, curve 7, 0.25 s, isLocal 1.
    ///
    /// The file prints one block per handler (file order willShow, didShow, willHide, didHide,
    /// willChangeFrame, didChangeFrame); they are replayed in the order iOS posts them
    /// (KEYBOARD-FACTS §4): WillChangeFrame, WillShow, then DidChangeFrame, DidShow; WillHide, DidHide.
    /// The dump has no hide-direction WillChangeFrame, so none is replayed.
    static let iPhone5FullSixNotifications = RealSequence(
        name: "01 iPhone 5 320×568, all six notifications, 216",
        source: "01-swift-iphone5-320x568-full-six-notification-set.txt",
        screen: Size(width: 320, height: 568), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(
                        .keyboardWillChangeFrame, begin: rect(0, 568, 320, 216), end: rect(0, 352, 320, 216), duration: 0.25, curve: 7, isLocal: true),
                    note(.keyboardWillShow, begin: rect(0, 568, 320, 216), end: rect(0, 352, 320, 216), duration: 0.25, curve: 7, isLocal: true),
                ]),
            Turn(
                at: 0.25,
                [
                    note(
                        .keyboardDidChangeFrame, begin: rect(0, 568, 320, 216), end: rect(0, 352, 320, 216), duration: 0.25, curve: 7, isLocal: true),
                    note(.keyboardDidShow, begin: rect(0, 568, 320, 216), end: rect(0, 352, 320, 216), duration: 0.25, curve: 7, isLocal: true),
                ], assumption: "Did events 0.25 s after the Will events; the dump has no times"),
            Turn(
                at: 2,
                [
                    note(.keyboardWillHide, begin: rect(0, 352, 320, 216), end: rect(0, 568, 320, 216), duration: 0.25, curve: 7, isLocal: true)
                ], assumption: "the hide 2 s after the show; the dump has no times"),
            Turn(
                at: 2.25,
                [
                    note(.keyboardDidHide, begin: rect(0, 352, 320, 216), end: rect(0, 568, 320, 216), duration: 0.25, curve: 7, isLocal: true)
                ]),
        ])

    /// `03-swift-iphoneXR-414x896-willshow-begin-height-54.txt`: iPhone XR 414×896, one
    /// keyboardWillShow whose begin frame is a 54-point strip `{{0, 896}, {414, 54}}` and whose end
    /// frame is the full 301-point keyboard `{{0, 595}, {414, 301}}`.
    static let iPhoneXRBeginHeight54 = RealSequence(
        name: "03 iPhone XR 414×896, willShow begin 54 → end 301",
        source: "03-swift-iphoneXR-414x896-willshow-begin-height-54.txt",
        screen: Size(width: 414, height: 896), safeArea: notch,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillShow, begin: rect(0, 896, 414, 54), end: rect(0, 595, 414, 301), duration: 0.25, curve: 7, isLocal: true),
                ])
        ])

    /// `05-swift-iphone6-375x667-begin216-end258.txt`: iPhone 6 375×667, keyboardWillShow whose begin
    /// frame is 216 high `{{0, 667}, {375, 216}}` and end frame 258 high `{{0, 409}, {375, 258}}`.
    static let iPhone6Begin216End258 = RealSequence(
        name: "05 iPhone 6 375×667, willShow begin 216 → end 258",
        source: "05-swift-iphone6-375x667-begin216-end258.txt",
        screen: Size(width: 375, height: 667), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillShow, begin: rect(0, 667, 375, 216), end: rect(0, 409, 375, 258), duration: 0.25, curve: 7, isLocal: true),
                ])
        ])

    /// `07-swift-iphone6-375x667-print-userinfo-258-split-entry.txt`: iPhone 6 375×667, 258-point
    /// keyboard `{{0, 667}, {375, 258}}` → `{{0, 409}, {375, 258}}`.
    ///
    /// The dump prints only the userInfo, from an observer named `keyboardChange(n:)`; the name is
    /// taken as keyboardWillChangeFrame.
    static let iPhone6KeyboardChange258 = RealSequence(
        name: "07 iPhone 6 375×667, keyboardChange 258",
        source: "07-swift-iphone6-375x667-print-userinfo-258-split-entry.txt",
        screen: Size(width: 375, height: 667), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(
                        .keyboardWillChangeFrame, begin: rect(0, 667, 375, 258), end: rect(0, 409, 375, 258), duration: 0.25, curve: 7, isLocal: true),
                ], assumption: "notification name not printed; taken as keyboardWillChangeFrame")
        ])

    /// `09-objc-iphone4-320x480-ios7-nsconcretenotification-willchangeframe.txt`: iPhone 4 320×480,
    /// iOS 7, keyboardWillChangeFrame on show, curve 7, duration "0.25", `{{0, 480}, {320, 216}}` →
    /// `{{0, 264}, {320, 216}}`; no isLocal key (pre-iOS 9). The same numbers as the iOS 7 3.5" row of
    /// KEYBOARD-FACTS §4 (same Stack Overflow question).
    static let iPhone4iOS7WillChangeFrame = RealSequence(
        name: "09 iPhone 4 320×480 iOS 7, willChangeFrame 216, no isLocal",
        source: "09-objc-iphone4-320x480-ios7-nsconcretenotification-willchangeframe.txt",
        screen: Size(width: 320, height: 480), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillChangeFrame, begin: rect(0, 480, 320, 216), end: rect(0, 264, 320, 216), duration: 0.25, curve: 7),
                ])
        ])

    /// `11-objc-ipad-landscape-1024x768-ios8-userinfo-391.txt`: iPad landscape 1024×768, 391-point
    /// keyboard (352 + QuickType bar) `{{0, 768}, {1024, 391}}` → `{{0, 377}, {1024, 391}}`, curve 7,
    /// duration "0.25", no isLocal.
    ///
    /// Only the userInfo is printed; it is show-direction, so it is replayed as keyboardWillShow.
    static let iPadLandscape391 = RealSequence(
        name: "11 iPad 1024×768 landscape, 391",
        source: "11-objc-ipad-landscape-1024x768-ios8-userinfo-391.txt",
        screen: Size(width: 1024, height: 768), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillShow, begin: rect(0, 768, 1024, 391), end: rect(0, 377, 1024, 391), duration: 0.25, curve: 7),
                ], assumption: "notification name not printed; show-direction, taken as keyboardWillShow")
        ])

    /// `13-swift3-iphone6-predictive-toggle-sequence-nsdictionary.txt`: iPhone 6 375×667, the
    /// QuickType bar toggled while the keyboard is up: WillChangeFrame, WillShow, DidChangeFrame,
    /// DidShow, 225 ↔ 258 (`{{0, 442}, {375, 225}}` ↔ `{{0, 409}, {375, 258}}`). Also the predictive
    /// toggle row of KEYBOARD-FACTS §4.
    ///
    /// The dump prints one userInfo after the four names (given to all four), without duration,
    /// curve or isLocal (trimmed by the author). It is cut off inside the "OFF" userInfo after
    /// FrameBegin; its end frame `{{0, 442}, {375, 225}}` is read from the printed Bounds
    /// `{375, 225}` and CenterEnd `{187.5, 554.5}` (554.5 − 225/2 = 442).
    static let iPhone6PredictiveToggle = RealSequence(
        name: "13 iPhone 6 375×667, predictive toggle 225 ↔ 258",
        source: "13-swift3-iphone6-predictive-toggle-sequence-nsdictionary.txt",
        screen: Size(width: 375, height: 667), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillShow, begin: rect(0, 667, 375, 225), end: rect(0, 442, 375, 225), duration: 0.25, curve: 7, isLocal: true),
                ], assumption: "the keyboard was up at the first begin frame {{0, 442}, {375, 225}} before the dump starts"),
            Turn(
                at: 1,
                [
                    note(.keyboardWillChangeFrame, begin: rect(0, 442, 375, 225), end: rect(0, 409, 375, 258)),
                    note(.keyboardWillShow, begin: rect(0, 442, 375, 225), end: rect(0, 409, 375, 258)),
                ]),
            Turn(
                at: 1.25,
                [
                    note(.keyboardDidChangeFrame, begin: rect(0, 442, 375, 225), end: rect(0, 409, 375, 258)),
                    note(.keyboardDidShow, begin: rect(0, 442, 375, 225), end: rect(0, 409, 375, 258)),
                ], assumption: "Did events 0.25 s after the Will events; the dump has no times"),
            Turn(
                at: 3,
                [
                    note(.keyboardWillChangeFrame, begin: rect(0, 409, 375, 258), end: rect(0, 442, 375, 225)),
                    note(.keyboardWillShow, begin: rect(0, 409, 375, 258), end: rect(0, 442, 375, 225)),
                ], assumption: "end frame read from Bounds and CenterEnd (the dump is cut off before FrameEnd)"),
            Turn(
                at: 3.25,
                [
                    note(.keyboardDidChangeFrame, begin: rect(0, 409, 375, 258), end: rect(0, 442, 375, 225)),
                    note(.keyboardDidShow, begin: rect(0, 409, 375, 258), end: rect(0, 442, 375, 225)),
                ]),
        ])

    /// `15-sequence-refocus-other-textfield-with-inputaccessoryview.txt` and the KEYBOARD-FACTS §4 row
    /// "New field selected while the keyboard is up (field has an inputAccessoryView)": moving the
    /// focus to another field re-posts WillChangeFrame, WillShow, DidChangeFrame, DidShow, with no
    /// hide in between.
    ///
    /// The dump has names only. The frames are assumed: the iPhone 6 258-point keyboard of dumps 07
    /// and 29 (375×667), with begin == end on the repeated show (the row's "ignore when begin == end").
    static let refocusWithInputAccessoryView = RealSequence(
        name: "15 refocus with inputAccessoryView: repeated show, no hide",
        source: "15-sequence-refocus-other-textfield-with-inputaccessoryview.txt; KEYBOARD-FACTS §4",
        screen: Size(width: 375, height: 667), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(
                        .keyboardWillChangeFrame, begin: rect(0, 667, 375, 258), end: rect(0, 409, 375, 258), duration: 0.25, curve: 7, isLocal: true),
                    note(.keyboardWillShow, begin: rect(0, 667, 375, 258), end: rect(0, 409, 375, 258), duration: 0.25, curve: 7, isLocal: true),
                ], assumption: "frames of the iPhone 6 258-point keyboard"),
            Turn(
                at: 0.25,
                [
                    note(
                        .keyboardDidChangeFrame, begin: rect(0, 667, 375, 258), end: rect(0, 409, 375, 258), duration: 0.25, curve: 7, isLocal: true),
                    note(.keyboardDidShow, begin: rect(0, 667, 375, 258), end: rect(0, 409, 375, 258), duration: 0.25, curve: 7, isLocal: true),
                ]),
            Turn(
                at: 2,
                [
                    .endEditing(field),
                    .beginEditing(next),
                    note(
                        .keyboardWillChangeFrame, begin: rect(0, 409, 375, 258), end: rect(0, 409, 375, 258), duration: 0.25, curve: 7, isLocal: true),
                    note(.keyboardWillShow, begin: rect(0, 409, 375, 258), end: rect(0, 409, 375, 258), duration: 0.25, curve: 7, isLocal: true),
                ], assumption: "the names as the dump lists them; frames begin == end"),
            Turn(
                at: 2.25,
                [
                    note(
                        .keyboardDidChangeFrame, begin: rect(0, 409, 375, 258), end: rect(0, 409, 375, 258), duration: 0.25, curve: 7, isLocal: true),
                    note(.keyboardDidShow, begin: rect(0, 409, 375, 258), end: rect(0, 409, 375, 258), duration: 0.25, curve: 7, isLocal: true),
                ]),
        ])

    /// `17-objc-iphoneXR-414x896-nslog-timestamped-show-then-hide.txt`: iPhone XR 414×896, two
    /// keyboardWillChangeFrame 1.67 s apart (21:44:27.627646 and 21:44:29.297408): show
    /// `{{0, 896}, {414, 288}}` → `{{0, 550}, {414, 346}}`, then hide `{{0, 550}, {414, 346}}` →
    /// `{{0, 896}, {414, 346}}` (off screen; there is no willHide in the dump).
    static let iPhoneXRShowThenHide = RealSequence(
        name: "17 iPhone XR 414×896, willChangeFrame show 346 then hide off screen",
        source: "17-objc-iphoneXR-414x896-nslog-timestamped-show-then-hide.txt",
        screen: Size(width: 414, height: 896), safeArea: notch,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(
                        .keyboardWillChangeFrame, begin: rect(0, 896, 414, 288), end: rect(0, 550, 414, 346), duration: 0.25, curve: 7, isLocal: true),
                ]),
            Turn(
                at: 1.669762,
                [
                    note(
                        .keyboardWillChangeFrame, begin: rect(0, 550, 414, 346), end: rect(0, 896, 414, 346), duration: 0.25, curve: 7, isLocal: true)
                ]),
        ])

    /// `19-objc-iphone12promax-428x926-willchangeframe.txt`: iPhone 12 Pro Max 428×926,
    /// keyboardWillChangeFrame on show, 346-point keyboard `{{0, 926}, {428, 346}}` →
    /// `{{0, 580}, {428, 346}}`.
    static let iPhone12ProMaxWillChangeFrame = RealSequence(
        name: "19 iPhone 12 Pro Max 428×926, willChangeFrame 346",
        source: "19-objc-iphone12promax-428x926-willchangeframe.txt",
        screen: Size(width: 428, height: 926), safeArea: EdgeInsets(top: 47, bottom: 34),
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(
                        .keyboardWillChangeFrame, begin: rect(0, 926, 428, 346), end: rect(0, 580, 428, 346), duration: 0.25, curve: 7, isLocal: true),
                ])
        ])

    /// `21-objc-iphone7-375x667-default-vs-accessory-only-14pt-github-issue.txt`: iPhone 7 375×667,
    /// keyboardWillShow with the default 216-point keyboard `{{0, 667}, {375, 216}}` →
    /// `{{0, 451}, {375, 216}}`.
    ///
    /// The second dump (a 14-point accessory only) is cut off before its frames: not transcribed.
    static let iPhone7Default216 = RealSequence(
        name: "21 iPhone 7 375×667, willShow 216",
        source: "21-objc-iphone7-375x667-default-vs-accessory-only-14pt-github-issue.txt",
        screen: Size(width: 375, height: 667), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillShow, begin: rect(0, 667, 375, 216), end: rect(0, 451, 375, 216), duration: 0.25, curve: 7, isLocal: true),
                ])
        ])

    /// `23-objc-ipad-ios5-landscape-nsconcretenotification-full-edit-session.txt`: iPad 1024×768 in
    /// landscape, iOS 5, a whole text-field session with NSLog times: DidBeginEditing (13:05:48.782),
    /// WillChangeFrame (.791), WillShow (.793), DidChangeFrame (49.073), DidShow (49.076); "-done:";
    /// WillChangeFrame (54.063), WillHide (54.066), DidEndEditing (54.070), DidChangeFrame (54.327),
    /// DidHide (54.329). Curve 0, duration "0.25", 352-point keyboard.
    ///
    /// **As printed**: the frames are in iOS 5's un-rotated portrait screen coordinates
    /// (`{{-352, 0}, {352, 1024}}` off screen → `{{0, 0}, {352, 1024}}`), which the landscape screen
    /// model cannot use as they are; see ``iPadiOS5LandscapeEditSession``. Notifications a few
    /// milliseconds apart are one run-loop turn, replayed at the first one's time.
    static let iPadiOS5LandscapeEditSessionAsPrinted = RealSequence(
        name: "23 iPad iOS 5 landscape edit session, portrait screen coordinates as printed",
        source: "23-objc-ipad-ios5-landscape-nsconcretenotification-full-edit-session.txt",
        screen: Size(width: 1024, height: 768), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillChangeFrame, begin: rect(-352, 0, 352, 1024), end: rect(0, 0, 352, 1024), duration: 0.25, curve: 0),
                    note(.keyboardWillShow, begin: rect(-352, 0, 352, 1024), end: rect(0, 0, 352, 1024), duration: 0.25, curve: 0),
                ]),
            Turn(
                at: 0.291,
                [
                    note(.keyboardDidChangeFrame, begin: rect(-352, 0, 352, 1024), end: rect(0, 0, 352, 1024), duration: 0.25, curve: 0),
                    note(.keyboardDidShow, begin: rect(-352, 0, 352, 1024), end: rect(0, 0, 352, 1024), duration: 0.25, curve: 0),
                ]),
            Turn(
                at: 5.281,
                [
                    note(.keyboardWillChangeFrame, begin: rect(0, 0, 352, 1024), end: rect(-352, 0, 352, 1024), duration: 0.25, curve: 0),
                    note(.keyboardWillHide, begin: rect(0, 0, 352, 1024), end: rect(-352, 0, 352, 1024), duration: 0.25, curve: 0),
                    .endEditing(field),
                ]),
            Turn(
                at: 5.545,
                [
                    note(.keyboardDidChangeFrame, begin: rect(0, 0, 352, 1024), end: rect(-352, 0, 352, 1024), duration: 0.25, curve: 0),
                    note(.keyboardDidHide, begin: rect(0, 0, 352, 1024), end: rect(-352, 0, 352, 1024), duration: 0.25, curve: 0),
                ]),
        ])

    /// Dump 23 with its frames converted from iOS 5's portrait screen coordinates to the landscape
    /// screen: a portrait rectangle `(x, y, w, h)` is `(y, 768 − x − w, h, w)` in landscape, so the
    /// keyboard `{{0, 0}, {352, 1024}}` is `{{0, 416}, {1024, 352}}` and off screen
    /// `{{-352, 0}, {352, 1024}}` is `{{0, 768}, {1024, 352}}`. The dump's own window-coordinate
    /// centres confirm it: CenterEnd `{512, 592}` = (512, 416 + 176), CenterBegin `{512, 944}` =
    /// (512, 768 + 176); Bounds `{1024, 352}`.
    static let iPadiOS5LandscapeEditSession = iPadiOS5LandscapeEditSessionAsPrinted.mappingFrames(
        name: "23 iPad iOS 5 1024×768 landscape edit session, 352, curve 0",
        { portrait in rect(portrait.minY, 768 - portrait.minX - portrait.width, portrait.height, portrait.width) })

    /// `25-objc-ipad-ios5-hardware-keyboard-no-keyboard-notifications.txt` and the KEYBOARD-FACTS §4
    /// row "iPad + external keyboard": with a hardware keyboard, no keyboard notification at all, only
    /// DidBeginEditing (13:02:58.411) and DidEndEditing 7.046 s later (13:03:05.457). The same iPad
    /// app as dump 23, 1024×768 landscape.
    static let iPadHardwareKeyboardNoNotifications = RealSequence(
        name: "25 iPad iOS 5 hardware keyboard: no keyboard notifications",
        source: "25-objc-ipad-ios5-hardware-keyboard-no-keyboard-notifications.txt",
        screen: Size(width: 1024, height: 768), safeArea: statusBar,
        turns: [
            Turn(at: 0, [focus]),
            Turn(at: 7.046, [.endEditing(field)]),
        ])

    /// `27-objc-iphone4-320x480-ios6-hide-curve0-keyboardChange-prefix.txt`: iPhone 4 320×480, iOS 6,
    /// hide direction `{{0, 264}, {320, 216}}` → `{{0, 480}, {320, 216}}`, curve 0, duration "0.25".
    ///
    /// Printed with a `keyboardChange:` prefix and no name; taken as keyboardWillChangeFrame. The
    /// keyboard is up at the begin frame when the dump starts.
    static let iPhone4iOS6HideCurve0 = RealSequence(
        name: "27 iPhone 4 320×480 iOS 6, hide, curve 0",
        source: "27-objc-iphone4-320x480-ios6-hide-curve0-keyboardChange-prefix.txt",
        screen: Size(width: 320, height: 480), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillShow, begin: rect(0, 480, 320, 216), end: rect(0, 264, 320, 216), duration: 0.25, curve: 0),
                ], assumption: "the keyboard was up at the begin frame {{0, 264}, {320, 216}} before the dump starts"),
            Turn(
                at: 2,
                [
                    note(.keyboardWillChangeFrame, begin: rect(0, 264, 320, 216), end: rect(0, 480, 320, 216), duration: 0.25, curve: 0)
                ], assumption: "notification name not printed; taken as keyboardWillChangeFrame"),
        ])

    /// `29-objc-iphone6-375x667-unquoted-values-unordered-keys-show-hide.txt`: iPhone 6 375×667,
    /// keyboardWillShow `{{0, 667}, {375, 258}}` → `{{0, 409}, {375, 258}}` then keyboardWillHide
    /// back, curve 7, 0.25, isLocal 1.
    static let iPhone6ShowHide258 = RealSequence(
        name: "29 iPhone 6 375×667, willShow/willHide 258",
        source: "29-objc-iphone6-375x667-unquoted-values-unordered-keys-show-hide.txt",
        screen: Size(width: 375, height: 667), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillShow, begin: rect(0, 667, 375, 258), end: rect(0, 409, 375, 258), duration: 0.25, curve: 7, isLocal: true),
                ]),
            Turn(
                at: 2,
                [
                    note(.keyboardWillHide, begin: rect(0, 409, 375, 258), end: rect(0, 667, 375, 258), duration: 0.25, curve: 7, isLocal: true)
                ], assumption: "the hide 2 s after the show; the dump has no times"),
        ])

    /// `31-swift4-iphone6-375x667-string-keys-garbled-show-and-hide-end-height-0.txt`: iPhone 6
    /// 375×667, keyboardWillChangeFrame show `{{0, 667}, {375, 260}}` → `{{0, 407}, {375, 260}}`
    /// (0.4 s, curve 7), then hide `{{0, 407}, {375, 260}}` → `{{0, 667}, {375, 0}}` (0.25 s, curve 7):
    /// the hide's end frame has height 0. No isLocal in either.
    static let iPhone6HideEndHeight0 = RealSequence(
        name: "31 iPhone 6 375×667, show 260 in 0.4 s, hide to height 0",
        source: "31-swift4-iphone6-375x667-string-keys-garbled-show-and-hide-end-height-0.txt",
        screen: Size(width: 375, height: 667), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillChangeFrame, begin: rect(0, 667, 375, 260), end: rect(0, 407, 375, 260), duration: 0.4, curve: 7),
                ]),
            Turn(
                at: 2,
                [
                    note(.keyboardWillChangeFrame, begin: rect(0, 407, 375, 260), end: rect(0, 667, 375, 0), duration: 0.25, curve: 7)
                ], assumption: "the hide 2 s after the show; the dump has no times"),
        ])

    /// `33-fragment-ios7-willhide-frameend-cgrect-inf.txt`: iOS 7, keyboardWillHide whose end frame is
    /// `CGRect: {{inf, inf}, {0, 0}}` (CGRectNull). Nothing else is printed.
    ///
    /// The device is not stated: an iPhone 5 320×568 on iOS 7 is assumed, with the 216-point
    /// keyboard up when the fragment starts.
    static let iOS7WillHideNullFrame = RealSequence(
        name: "33 iOS 7 willHide with end {{inf, inf}, {0, 0}}",
        source: "33-fragment-ios7-willhide-frameend-cgrect-inf.txt",
        screen: Size(width: 320, height: 568), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillShow, begin: rect(0, 568, 320, 216), end: rect(0, 352, 320, 216), duration: 0.25, curve: 7),
                ], assumption: "device not stated: iPhone 5 320×568 with the 216-point keyboard up"),
            Turn(
                at: 2,
                [
                    note(.keyboardWillHide, end: rect(.infinity, .infinity, 0, 0))
                ]),
        ])

    /// `35-objc-iphone6-375x667-willchangeframe-zero-height.txt`: iPhone 6 375×667 (likely a simulator
    /// with a hardware keyboard), keyboardWillChangeFrame with a zero-height keyboard at the bottom
    /// edge: begin == end == `{{0, 667}, {375, 0}}`, curve 7, duration "0.25", isLocal 1.
    static let iPhone6ZeroHeightFrame = RealSequence(
        name: "35 iPhone 6 375×667, willChangeFrame zero height",
        source: "35-objc-iphone6-375x667-willchangeframe-zero-height.txt",
        screen: Size(width: 375, height: 667), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillChangeFrame, begin: rect(0, 667, 375, 0), end: rect(0, 667, 375, 0), duration: 0.25, curve: 7, isLocal: true),
                ])
        ])

    /// `37-swift-iphoneX-375x812-escaped-quotes-begin282-end357.txt`: iPhone X 375×812,
    /// keyboardWillShow whose begin frame is 282 high `{{0, 812}, {375, 282}}` and end frame 357 high
    /// `{{0, 455}, {375, 357}}`, 0.25 s, curve 7, isLocal 1.
    static let iPhoneXBegin282End357 = RealSequence(
        name: "37 iPhone X 375×812, willShow begin 282 → end 357",
        source: "37-swift-iphoneX-375x812-escaped-quotes-begin282-end357.txt",
        screen: Size(width: 375, height: 812), safeArea: notch,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillShow, begin: rect(0, 812, 375, 282), end: rect(0, 455, 375, 357), duration: 0.25, curve: 7, isLocal: true),
                ])
        ])

    /// `39-swift-cgrect-tuple-ipad-rotation-numeric-keypad-truncated.txt`: iPad, numeric keypad, the
    /// begin frames read in keyboardWillShow while the keyboard stays up across rotations: landscape
    /// `(0.0, 768.0, 1024.0, 398.0)`, portrait `(0.0, 1024.0, 768.0, 313.0)`; the third line is cut
    /// off. Only begin frames are printed, so the events carry no end frame.
    static let iPadRotationBeginFramesOnly = RealSequence(
        name: "39 iPad rotation, willShow begin frames only (398, 313)",
        source: "39-swift-cgrect-tuple-ipad-rotation-numeric-keypad-truncated.txt",
        screen: Size(width: 1024, height: 768), safeArea: statusBar,
        turns: [
            Turn(at: 0, [focus, note(.keyboardWillShow, begin: rect(0.0, 768.0, 1024.0, 398.0))]),
            Turn(
                at: 2,
                [
                    .rotate(to: Size(width: 768, height: 1024)),
                    note(.keyboardWillShow, begin: rect(0.0, 1024.0, 768.0, 313.0)),
                ], assumption: "the rotation between the two lines"),
        ])

    /// `41-objc-device-iphone5s-320x568-willchangeframe-duration-0-onscreen-216-to-254.txt`: iPhone 5s
    /// 320×568, keyboardWillChangeFrame with the keyboard already on screen growing 216 → 254
    /// (`{{0, 352}, {320, 216}}` → `{{0, 314}, {320, 254}}`) with duration 0, curve 7, isLocal 1.
    static let iPhone5sInstantGrowth216To254 = RealSequence(
        name: "41 iPhone 5s 320×568, on-screen 216 → 254, duration 0",
        source: "41-objc-device-iphone5s-320x568-willchangeframe-duration-0-onscreen-216-to-254.txt",
        screen: Size(width: 320, height: 568), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillShow, begin: rect(0, 568, 320, 216), end: rect(0, 352, 320, 216), duration: 0.25, curve: 7, isLocal: true),
                ], assumption: "the keyboard was up at the begin frame {{0, 352}, {320, 216}} before the dump starts"),
            Turn(
                at: 2,
                [
                    note(.keyboardWillChangeFrame, begin: rect(0, 352, 320, 216), end: rect(0, 314, 320, 254), duration: 0, curve: 7, isLocal: true)
                ]),
        ])
}

// MARK: - KEYBOARD-FACTS §4 sequences

extension RealSequence {
    /// KEYBOARD-FACTS §4, IQ#924: text field, hardware keyboard, iOS 11 simulator 320×568:
    /// `textFieldViewDidBeginEditing` … `UIKeyboard Size : (320.0, 44.0)` … `keyboardWillShow`. Only
    /// the 44-point bar is on screen; its origin, not printed, is taken at the bottom edge:
    /// `{{0, 524}, {320, 44}}`.
    static let hardwareKeyboardStrip = RealSequence(
        name: "IQ#924 hardware keyboard 320×568, 44-point bar",
        source: "KEYBOARD-FACTS §4, IQ debug log, hardware keyboard (IQ#924)",
        screen: Size(width: 320, height: 568), safeArea: statusBar,
        turns: [
            Turn(at: 0, [focus, note(.keyboardWillShow, end: rect(0, 524, 320, 44))], assumption: "bar at the bottom edge")
        ])

    /// KEYBOARD-FACTS §4, third-party keyboards on iOS 8 portrait: the Apple keyboard sends one
    /// willShow of height 224. Screen not stated: iPhone 6 375×667 assumed.
    static let appleKeyboardiOS8 = RealSequence(
        name: "iOS 8 Apple keyboard, one willShow 224",
        source: "KEYBOARD-FACTS §4, third-party keyboards, iOS 8, portrait",
        screen: Size(width: 375, height: 667), safeArea: statusBar,
        turns: [
            Turn(at: 0, [focus, note(.keyboardWillShow, end: rect(0, 443, 375, 224))], assumption: "375×667; height only")
        ])

    /// KEYBOARD-FACTS §4, Swype on iOS 8 portrait: willShow heights 0, 216, 256, "within
    /// milliseconds" (§5.2). Screen not stated: iPhone 6 375×667 assumed; 5 ms apart assumed.
    static let swypeBurst = burst(
        name: "Swype burst 0 → 216 → 256", source: "KEYBOARD-FACTS §4, Swype, iOS 8", heights: [0, 216, 256],
        spacing: 0.005, event: .keyboardWillShow)

    /// KEYBOARD-FACTS §4, SwiftKey on iOS 8 portrait: willShow heights 0, 216, 259 (the issue's
    /// "0 → 216 → 259 points within milliseconds"). iPhone 6 375×667 and 5 ms spacing assumed.
    static let swiftKeyBurst = burst(
        name: "SwiftKey burst 0 → 216 → 259", source: "KEYBOARD-FACTS §4, SwiftKey, iOS 8", heights: [0, 216, 259],
        spacing: 0.005, event: .keyboardWillShow)

    /// KEYBOARD-FACTS §4, Sogou keyboard: keyboardDidShow ×3 with heights 282, 216, 282. iPhone 6
    /// 375×667 and 20 ms spacing assumed.
    static let sogouDidShowBurst = burst(
        name: "Sogou didShow ×3: 282, 216, 282", source: "KEYBOARD-FACTS §4, Sogou (cordova-plugin-ionic-keyboard#13)",
        heights: [282, 216, 282], spacing: 0.020, event: .keyboardDidShow)

    /// KEYBOARD-FACTS §4, iOS 26 + KeyboardKit keyboard (KeyboardKit#971): willShow heights 364, 347,
    /// 575. Device not stated: iPhone X-class 375×812 assumed; 10 ms spacing assumed.
    static let keyboardKitBurst = burst(
        name: "KeyboardKit burst 364 → 347 → 575", source: "KEYBOARD-FACTS §4, iOS 26 + KeyboardKit (KeyboardKit#971)",
        heights: [364, 347, 575], spacing: 0.010, event: .keyboardWillShow, screen: Size(width: 375, height: 812),
        safeArea: notch)

    /// Keyboard events of the given heights, docked at the bottom of `screen` (375×667 unless
    /// given), `spacing` seconds apart, the field beginning editing with the first.
    private static func burst(
        name: String, source: String, heights: [Double], spacing: Double, event: EventName<KeyboardInfo>,
        screen: Size = Size(width: 375, height: 667), safeArea: EdgeInsets = statusBar
    ) -> RealSequence {
        let turns = heights.enumerated().map { index, height in
            let show = note(event, end: rect(0, screen.height - height, screen.width, height))
            return Turn(
                at: Double(index) * spacing, index == 0 ? [focus, show] : [show],
                assumption: "\(screen) assumed; heights only; \(Int(spacing * 1000)) ms apart")
        }
        return RealSequence(name: name, source: source, screen: screen, safeArea: safeArea, turns: turns)
    }

    /// KEYBOARD-FACTS §4, iPad undock or split via the menu (iOS 5/6, 768 wide, portrait 768×1024):
    /// keyboardWillChangeFrame, curve 0, 0.25 s, begin `{{0,0},{768,304}}`, end `{{0,-264},{768,304}}`;
    /// the DidChangeFrame has only the begin frame.
    ///
    /// The keyboard is docked before: the classic 264-point iPad portrait keyboard
    /// `{{0, 760}, {768, 264}}` (§4 "Classic heights").
    static let iPadUndockViaMenu = RealSequence(
        name: "iPad 768×1024 undock via menu: end {{0,-264},{768,304}}",
        source: "KEYBOARD-FACTS §4, iPad undock or split via menu (stackoverflow q/10749311)",
        screen: Size(width: 768, height: 1024), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillShow, begin: rect(0, 1024, 768, 264), end: rect(0, 760, 768, 264), duration: 0.25, curve: 7),
                ], assumption: "docked 264-point keyboard before the undock"),
            Turn(
                at: 2,
                [
                    note(.keyboardWillChangeFrame, begin: rect(0, 0, 768, 304), end: rect(0, -264, 768, 304), duration: 0.25, curve: 0)
                ]),
            Turn(at: 2.25, [note(.keyboardDidChangeFrame, begin: rect(0, 0, 768, 304))]),
        ])

    /// KEYBOARD-FACTS §4, iPad undock or split (DAKeyboardControl#48): a frame such as
    /// `{{9.86e-32,-64},{0,0}}` when first undocked. iPad portrait 768×1024 assumed; the name is
    /// taken as keyboardWillChangeFrame.
    static let iPadUndockZeroSizeFrame = RealSequence(
        name: "iPad undock frame {{9.86e-32,-64},{0,0}}",
        source: "KEYBOARD-FACTS §4, iPad undock/split (DAKeyboardControl#48)",
        screen: Size(width: 768, height: 1024), safeArea: statusBar,
        turns: [
            Turn(at: 0, [focus, note(.keyboardWillChangeFrame, end: rect(9.86e-32, -64, 0, 0))], assumption: "768×1024")
        ])

    /// KEYBOARD-FACTS §4, iPad docking (openradar 25032907): `willChangeFrame, didChangeFrame,
    /// willShow, willChangeFrame, willShow, didChangeFrame, didShow, didChangeFrame, didShow`.
    ///
    /// Names only. iPad portrait 768×1024 assumed, every event carrying the docked 264-point frame
    /// `{{0, 1024}, {768, 264}}` → `{{0, 760}, {768, 264}}`; the Will events in one turn, the Did
    /// events 0.25 s later.
    static let iPadDockingNineNotifications: RealSequence = {
        let begin = rect(0, 1024, 768, 264)
        let end = rect(0, 760, 768, 264)
        func docked(_ name: EventName<KeyboardInfo>) -> Step { note(name, begin: begin, end: end, duration: 0.25, curve: 7) }
        return RealSequence(
            name: "iPad docking: nine notifications",
            source: "KEYBOARD-FACTS §4, iPad docking (openradar 25032907)",
            screen: Size(width: 768, height: 1024), safeArea: statusBar,
            turns: [
                Turn(
                    at: 0,
                    [
                        focus, docked(.keyboardWillChangeFrame), docked(.keyboardDidChangeFrame), docked(.keyboardWillShow),
                        docked(.keyboardWillChangeFrame), docked(.keyboardWillShow),
                    ], assumption: "768×1024; every frame the docked 264-point keyboard"),
                Turn(
                    at: 0.25,
                    [
                        docked(.keyboardDidChangeFrame), docked(.keyboardDidShow), docked(.keyboardDidChangeFrame),
                        docked(.keyboardDidShow),
                    ]),
            ])
    }()

    /// KEYBOARD-FACTS §4, rotation with the keyboard up: iOS 8.3 posts willHide/willShow **twice**.
    /// The frames are dump 39's iPad numeric keypad (landscape 1024×768, 398 high; portrait 768×1024,
    /// 313 high). Dump 39 prints only begin frames; the end frames here are those keyboards docked:
    /// `{{0, 370}, {1024, 398}}` and `{{0, 711}, {768, 313}}`.
    static let rotationWithKeyboardUp = RealSequence(
        name: "iPad rotation with the keyboard up: willHide/willShow twice (398 → 313)",
        source:
            "KEYBOARD-FACTS §4, rotation (forums.developer.apple.com thread 5706); frames from 39-swift-cgrect-tuple-ipad-rotation-numeric-keypad-truncated.txt",
        screen: Size(width: 1024, height: 768), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillChangeFrame, begin: rect(0, 768, 1024, 398), end: rect(0, 370, 1024, 398), duration: 0.25, curve: 7),
                    note(.keyboardWillShow, begin: rect(0, 768, 1024, 398), end: rect(0, 370, 1024, 398), duration: 0.25, curve: 7),
                ], assumption: "end frame docked at the bottom (dump 39 prints begin frames only)"),
            Turn(
                at: 0.25,
                [
                    note(.keyboardDidChangeFrame, begin: rect(0, 768, 1024, 398), end: rect(0, 370, 1024, 398), duration: 0.25, curve: 7),
                    note(.keyboardDidShow, begin: rect(0, 768, 1024, 398), end: rect(0, 370, 1024, 398), duration: 0.25, curve: 7),
                ]),
            Turn(
                at: 2,
                [
                    .rotate(to: Size(width: 768, height: 1024)),
                    note(.keyboardWillHide, begin: rect(0, 370, 1024, 398), end: rect(0, 768, 1024, 398), duration: 0.25, curve: 7),
                    note(.keyboardWillShow, begin: rect(0, 1024, 768, 313), end: rect(0, 711, 768, 313), duration: 0.25, curve: 7),
                    note(.keyboardWillHide, begin: rect(0, 711, 768, 313), end: rect(0, 1024, 768, 313), duration: 0.25, curve: 7),
                    note(.keyboardWillShow, begin: rect(0, 1024, 768, 313), end: rect(0, 711, 768, 313), duration: 0.25, curve: 7),
                ], assumption: "all in the rotation's turn; portrait end frame docked"),
            Turn(
                at: 2.25,
                [
                    note(.keyboardDidShow, begin: rect(0, 1024, 768, 313), end: rect(0, 711, 768, 313), duration: 0.25, curve: 7)
                ]),
        ])

    /// KEYBOARD-FACTS §4, Reduce Motion + cross-fade (RxKeyboard#107), iPhone X 375×812: show frame
    /// `(0,521,375,291)`, hide frame `(0,812,375,71)`, a non-zero height on hide.
    static let reduceMotionCrossFade = RealSequence(
        name: "Reduce Motion iPhone X 375×812: show 291, hide frame (0,812,375,71)",
        source: "KEYBOARD-FACTS §4, Reduce Motion + cross-fade (RxKeyboard#107)",
        screen: Size(width: 375, height: 812), safeArea: notch,
        turns: [
            Turn(at: 0, [focus, note(.keyboardWillShow, end: rect(0, 521, 375, 291))]),
            Turn(at: 2, [note(.keyboardWillHide, end: rect(0, 812, 375, 71))], assumption: "the hide 2 s after the show"),
        ])

    /// KEYBOARD-FACTS §4, simulator with a hardware keyboard (iOS 12, iPhone X 375×812): willShow never
    /// fires; willHide fires both when the field becomes and when it resigns first responder. No
    /// userInfo is reported.
    static let simulatorHardwareKeyboardWillHideOnly = RealSequence(
        name: "iOS 12 simulator hardware keyboard: willHide on focus and on resign",
        source: "KEYBOARD-FACTS §4, simulator with hardware keyboard (pullrequest.ru/9019912)",
        screen: Size(width: 375, height: 812), safeArea: notch,
        turns: [
            Turn(at: 0, [focus, note(.keyboardWillHide)]),
            Turn(at: 3, [note(.keyboardWillHide), .endEditing(field)], assumption: "resign 3 s later"),
        ])

    /// KEYBOARD-FACTS §4, iOS 7 iPhone 5 simulator (reported): "Move keyboard from
    /// {{0, 920}, {320, 216}} to {{0, 352}, {320, 216}} with duration: 0.400000 and animation curve: 7".
    /// 320×568; the name is taken as keyboardWillChangeFrame.
    static let iOS7iPhone5SimulatorMove = RealSequence(
        name: "iOS 7 iPhone 5 sim: from {{0,920}} to {{0,352}}, 0.4 s",
        source: "KEYBOARD-FACTS §4, iOS 7 iPhone 5 sim (techfeed.net/de/246623)",
        screen: Size(width: 320, height: 568), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillChangeFrame, begin: rect(0, 920, 320, 216), end: rect(0, 352, 320, 216), duration: 0.4, curve: 7),
                ], assumption: "notification name not reported")
        ])

    /// KEYBOARD-FACTS §4, iOS 6 4" iPhone WillShow (mixi-inc/iOSTraining): curve 0, 0.25 s, begin
    /// `{{0,568},{320,216}}`, end `{{0,352},{320,216}}`. 320×568.
    static let iOS6FourInchWillShowCurve0 = RealSequence(
        name: "iOS 6 4-inch willShow 216, curve 0",
        source: "KEYBOARD-FACTS §4, iOS 6, 4\" iPhone, WillShow",
        screen: Size(width: 320, height: 568), safeArea: statusBar,
        turns: [
            Turn(
                at: 0,
                [
                    focus,
                    note(.keyboardWillShow, begin: rect(0, 568, 320, 216), end: rect(0, 352, 320, 216), duration: 0.25, curve: 0),
                ])
        ])
}

// MARK: - Variants

extension RealSequence {
    /// The same sequence with every frame mapped, under a new name.
    func mappingFrames(name: String, _ transform: (Rect) -> Rect) -> RealSequence {
        mappingSteps(name: name) { step in
            guard case .keyboard(let event, var info) = step else { return [step] }
            info.begin = info.begin.map(transform)
            info.end = info.end.map(transform)
            return [.keyboard(event, info)]
        }
    }

    /// The same keyboard events with no field ever beginning or ending editing.
    var withoutEditing: RealSequence {
        mappingSteps(name: name + ", no field") { step in
            switch step {
            case .beginEditing, .endEditing: []
            default: [step]
            }
        }
    }

    /// The same sequence from another app's keyboard: every keyboard event has `isLocal: false`.
    var fromAnotherApp: RealSequence {
        mappingSteps(name: name + ", another app's keyboard") { step in
            guard case .keyboard(let event, var info) = step else { return [step] }
            info.isLocal = false
            return [.keyboard(event, info)]
        }
    }

    /// The same sequence with every keyboard notification posted twice in a row (a duplicate).
    var withDuplicates: RealSequence {
        mappingSteps(name: name + ", duplicated") { step in
            if case .keyboard = step { return [step, step] }
            return [step]
        }
    }

    /// The sequence without the turns at `times`, such as a lead-in with the keyboard already up
    /// that the dump itself does not show.
    func dropping(turnsAt times: Set<Double>, name: String) -> RealSequence {
        RealSequence(
            name: name, source: source, screen: screen, safeArea: safeArea,
            turns: turns.filter { !times.contains($0.at) })
    }

    private func mappingSteps(name: String, _ transform: (Step) -> [Step]) -> RealSequence {
        RealSequence(
            name: name, source: source, screen: screen, safeArea: safeArea,
            turns: turns.map { Turn(at: $0.at, $0.steps.flatMap(transform), assumption: $0.assumption) })
    }
}

// MARK: - Replay

extension RealSequence {
    /// The scene: a root filling the screen with `field` (tag 1) and `next` (tag 2) where `layout`
    /// puts them.
    func scene(kind: ViewKind, nextKind: ViewKind = .textField, layout: Layout = .form) -> SceneInfo {
        SceneInfo(
            root: ViewSpec(
                id: "root", frame: Rect(origin: .zero, size: screen),
                children: [
                    ViewSpec(
                        id: Self.field, kind: kind, frame: layout.fieldFrame(screen: screen, safeArea: safeArea), tag: 1,
                        keyboardDistance: layout.keyboardDistance),
                    ViewSpec(
                        id: Self.next, kind: nextKind, frame: layout.nextFrame(screen: screen), tag: 2,
                        keyboardDistance: layout.keyboardDistance),
                ]))
    }

    /// A device with this sequence's screen, for ``Harness``.
    var device: Device {
        Device(name: name, screen: screen, safeArea: safeArea, keyboardHeight: 0)
    }

    /// Loads the scene at t = 0, then replays each turn at 1 s + its time, with `field` of `kind`
    /// and `next` of `nextKind`, and lets 2 s pass at the end (settle windows, held-frame timeouts).
    ///
    /// A text view's `didBeginEditing` is moved after the keyboard events of its turn (UIKit's
    /// order for text views); a text field's stays before them, as transcribed.
    ///
    /// - Returns: the `viewShift`s derived during each turn (a settle window's may come later).
    @discardableResult
    func replay(
        on harness: Harness, kind: ViewKind = .textField, nextKind: ViewKind = .textField, layout: Layout = .form
    ) -> [[ViewShift]] {
        let scene = scene(kind: kind, nextKind: nextKind, layout: layout)
        harness.turn(at: 0) { bus in bus.post(.scene, scene) }
        let kinds = [Self.field: kind, Self.next: nextKind]
        var perTurn: [[ViewShift]] = []
        for turn in turns {
            let before = harness.viewShifts.count
            let steps = Self.inUIKitOrder(turn.steps, kinds: kinds)
            harness.turn(at: 1 + turn.at) { bus in
                for step in steps {
                    switch step {
                    case .keyboard(let event, let info):
                        bus.post(event, info)
                    case .beginEditing(let view):
                        bus.post(.didBeginEditing, EditingInfo(view: view))
                    case .endEditing(let view):
                        bus.post(.didEndEditing, EditingInfo(view: view))
                    case .rotate(let size):
                        bus.post(.screen, ScreenChange(size: size))
                        bus.post(.setFrame, FrameChange(view: Self.field, frame: layout.fieldFrame(screen: size, safeArea: safeArea)))
                        bus.post(.setFrame, FrameChange(view: Self.next, frame: layout.nextFrame(screen: size)))
                    }
                }
            }
            perTurn.append(Array(harness.viewShifts[before...]))
        }
        harness.wait(2)
        return perTurn
    }

    /// Moves a text view's `didBeginEditing` after the last keyboard event of the turn.
    static func inUIKitOrder(_ steps: [Step], kinds: [ViewID: ViewKind]) -> [Step] {
        func isTextViewBegin(_ step: Step) -> Bool {
            if case .beginEditing(let view) = step { return kinds[view] == .textView }
            return false
        }
        let moved = steps.filter(isTextViewBegin)
        guard !moved.isEmpty else { return steps }
        var result = steps.filter { !isTextViewBegin($0) }
        let lastKeyboard = result.lastIndex { if case .keyboard = $0 { true } else { false } }
        result.insert(contentsOf: moved, at: lastKeyboard.map { $0 + 1 } ?? result.endIndex)
        return result
    }
}
