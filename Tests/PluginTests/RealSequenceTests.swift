import KeyboardAvoidance
import ResponderBus
import Testing
import TextViewOrdering

/// Real keyboard sequences (the fixture dumps and KEYBOARD-FACTS §4) replayed through the plugins,
/// checked against the rules of issue 3.
///
/// Every expected origin is worked out by hand from the rule text, never by calling
/// `AvoidanceRule`:
///
/// `target = min(max(keyboardTop − (fieldMaxY + gap), −(screenHeight − keyboardTop), safeTop − fieldMinY), 0)`
///
/// with the unmoved field frame, `gap` 20 unless the field sets `keyboardDistance`, and
/// `keyboardTop` the top of the end frame's part on screen. A keyboard covers nothing when its end
/// frame is null, infinite, zero-height, off the screen or not reaching the bottom edge, on a hide,
/// and when it is another app's. A `viewShift` carries the event's duration (0.25 s when missing or
/// 0) and raw curve (7 when missing).
///
/// Unless a test says otherwise the field is the `.form` layout of ``RealSequence/Layout``:
/// `(20, H − 150, W − 40, 44)`, so `fieldMinY = H − 150`, `fieldMaxY = H − 106`.
@Suite("Real keyboard sequences")
struct RealSequenceTests {
    /// A sequence and the `viewShift`s the rule gives for it with the `.form` layout.
    struct Expectation: Sendable, CustomTestStringConvertible {
        let sequence: RealSequence
        let shifts: [ViewShift]
        /// Whether avoidance alone (no text-view ordering) gives the same moves for a text field:
        /// `false` when the focus moves or the screen rotates with the keyboard up.
        var sameWithoutOrdering = true

        var testDescription: String { sequence.name }
    }

    static let kinds: [ViewKind] = [.textField, .textView]

    /// The sequences whose keyboard covers the field, with the moves the rule gives.
    static let replays: [Expectation] = [
        // 320×568, field 418…462, safe top 20. keyboardTop 352 → 352 − (462 + 20) = −130;
        // cap −(568 − 352) = −216; safe 20 − 418 = −398 → −130. DidChangeFrame/DidShow: no change.
        // WillHide → 0 (0.25 s, curve 7). DidHide: no change.
        Expectation(
            sequence: .iPhone5FullSixNotifications,
            shifts: [ViewShift(originY: -130, duration: 0.25, curve: 7), ViewShift(originY: 0, duration: 0.25, curve: 7)]),
        // 414×896, field 746…790, safe top 44. keyboardTop 595 → 595 − 810 = −215; cap −301;
        // safe 44 − 746 = −702 → −215. The 54-point begin frame plays no part.
        Expectation(sequence: .iPhoneXRBeginHeight54, shifts: [ViewShift(originY: -215, duration: 0.25, curve: 7)]),
        // 375×667, field 517…561, safe top 20. keyboardTop 409 → 409 − 581 = −172; cap −258;
        // safe 20 − 517 = −497 → −172 (the 216-point begin frame plays no part).
        Expectation(sequence: .iPhone6Begin216End258, shifts: [ViewShift(originY: -172, duration: 0.25, curve: 7)]),
        // Same keyboard top 409 on 375×667 → −172.
        Expectation(sequence: .iPhone6KeyboardChange258, shifts: [ViewShift(originY: -172, duration: 0.25, curve: 7)]),
        // 320×480, field 330…374. keyboardTop 264 → 264 − 394 = −130; cap −216; safe 20 − 330 = −310
        // → −130. No isLocal key: a local keyboard.
        Expectation(sequence: .iPhone4iOS7WillChangeFrame, shifts: [ViewShift(originY: -130, duration: 0.25, curve: 7)]),
        // 1024×768, field 618…662. keyboardTop 377 → 377 − 682 = −305; cap −391; safe 20 − 618 = −598
        // → −305.
        Expectation(sequence: .iPadLandscape391, shifts: [ViewShift(originY: -305, duration: 0.25, curve: 7)]),
        // 375×667, field 517…561. Keyboard up at 442: 442 − 581 = −139; cap −225; safe −497 → −139.
        // ON, top 409: −172 (no duration or curve in the dump → 0.25 s, curve 7). OFF, top 442: −139.
        // The Did events repeat their Will's frame: no move.
        Expectation(
            sequence: .iPhone6PredictiveToggle,
            shifts: [
                ViewShift(originY: -139, duration: 0.25, curve: 7), ViewShift(originY: -172, duration: 0.25, curve: 7),
                ViewShift(originY: -139, duration: 0.25, curve: 7),
            ]),
        // 375×667. field 517…561 with top 409 → −172. Then `next` 577…621: 409 − (621 + 20) = −232;
        // cap −258; safe 20 − 577 = −557 → −232: one move, no restore to 0 in between.
        Expectation(
            sequence: .refocusWithInputAccessoryView,
            shifts: [ViewShift(originY: -172, duration: 0.25, curve: 7), ViewShift(originY: -232, duration: 0.25, curve: 7)],
            sameWithoutOrdering: false),
        // 414×896, field 746…790, safe 44. keyboardTop 550 → 550 − 810 = −260; cap −346; safe −702 →
        // −260. The second willChangeFrame ends at {{0, 896}, {414, 346}}: no part on screen → 0.
        Expectation(
            sequence: .iPhoneXRShowThenHide,
            shifts: [ViewShift(originY: -260, duration: 0.25, curve: 7), ViewShift(originY: 0, duration: 0.25, curve: 7)]),
        // 428×926, field 776…820, safe 47. keyboardTop 580 → 580 − 840 = −260; cap −346;
        // safe 47 − 776 = −729 → −260.
        Expectation(sequence: .iPhone12ProMaxWillChangeFrame, shifts: [ViewShift(originY: -260, duration: 0.25, curve: 7)]),
        // 375×667, field 517…561. keyboardTop 451 → 451 − 581 = −130; cap −216; safe −497 → −130.
        Expectation(sequence: .iPhone7Default216, shifts: [ViewShift(originY: -130, duration: 0.25, curve: 7)]),
        // 1024×768 (frames converted to landscape), field 618…662. keyboardTop 416 → 416 − 682 = −266;
        // cap −352; safe 20 − 618 = −598 → −266, curve 0 as printed. The hide willChangeFrame ends at
        // {{0, 768}, {1024, 352}}, off screen → 0 (curve 0); WillHide, DidEndEditing, Did*: no change.
        Expectation(
            sequence: .iPadiOS5LandscapeEditSession,
            shifts: [ViewShift(originY: -266, duration: 0.25, curve: 0), ViewShift(originY: 0, duration: 0.25, curve: 0)]),
        // 320×480, field 330…374. Keyboard up at 264 (curve 0): −130. The hide ends at
        // {{0, 480}, {320, 216}}, touching the bottom edge only → 0, with the dump's curve 0.
        Expectation(
            sequence: .iPhone4iOS6HideCurve0,
            shifts: [ViewShift(originY: -130, duration: 0.25, curve: 0), ViewShift(originY: 0, duration: 0.25, curve: 0)]),
        // 375×667, keyboardTop 409 → −172; willHide → 0.
        Expectation(
            sequence: .iPhone6ShowHide258,
            shifts: [ViewShift(originY: -172, duration: 0.25, curve: 7), ViewShift(originY: 0, duration: 0.25, curve: 7)]),
        // 375×667, field 517…561. keyboardTop 407 → 407 − 581 = −174; cap −260; safe −497 → −174,
        // in the dump's 0.4 s. The hide's end frame has height 0 → 0, in 0.25 s.
        Expectation(
            sequence: .iPhone6HideEndHeight0,
            shifts: [ViewShift(originY: -174, duration: 0.4, curve: 7), ViewShift(originY: 0, duration: 0.25, curve: 7)]),
        // 320×568, keyboard up at 352 → −130. willHide with a null end frame and no duration or
        // curve → 0, in 0.25 s with curve 7.
        Expectation(
            sequence: .iOS7WillHideNullFrame,
            shifts: [ViewShift(originY: -130, duration: 0.25, curve: 7), ViewShift(originY: 0, duration: 0.25, curve: 7)]),
        // 375×812, field 662…706, safe 44. keyboardTop 455 → 455 − 726 = −271; cap −357;
        // safe 44 − 662 = −618 → −271.
        Expectation(sequence: .iPhoneXBegin282End357, shifts: [ViewShift(originY: -271, duration: 0.25, curve: 7)]),
        // 320×568, field 418…462. Keyboard up at 352 → −130. Grows to top 314: 314 − 482 = −168;
        // cap −254; safe −398 → −168; the dump's duration 0 becomes 0.25 s.
        Expectation(
            sequence: .iPhone5sInstantGrowth216To254,
            shifts: [ViewShift(originY: -130, duration: 0.25, curve: 7), ViewShift(originY: -168, duration: 0.25, curve: 7)]),
        // 320×568, field 418…462. The bar covers 524…568: 524 − 482 = +42 → min(42, 0) = 0: the field
        // is above the bar, nothing moves (no gap the size of a full keyboard).
        Expectation(sequence: .hardwareKeyboardStrip, shifts: []),
        // 375×667. keyboardTop 443 → 443 − 581 = −138; cap −224; safe −497 → −138.
        Expectation(sequence: .appleKeyboardiOS8, shifts: [ViewShift(originY: -138, duration: 0.25, curve: 7)]),
        // 375×667. Height 0 covers nothing; 216: 451 − 581 = −130; 256: 411 − 581 = −170 (caps −216,
        // −256 and safe −497 lower). Without a settle window each turn decides.
        Expectation(
            sequence: .swypeBurst,
            shifts: [ViewShift(originY: -130, duration: 0.25, curve: 7), ViewShift(originY: -170, duration: 0.25, curve: 7)]),
        // 375×667. 0 → nothing; 216 → −130; 259: 408 − 581 = −173 (cap −259).
        Expectation(
            sequence: .swiftKeyBurst,
            shifts: [ViewShift(originY: -130, duration: 0.25, curve: 7), ViewShift(originY: -173, duration: 0.25, curve: 7)]),
        // 375×667. 282: 385 − 581 = −196 (cap −282); 216: −130; 282: −196. Did events with no Will
        // before them are the only news, so each moves.
        Expectation(
            sequence: .sogouDidShowBurst,
            shifts: [
                ViewShift(originY: -196, duration: 0.25, curve: 7), ViewShift(originY: -130, duration: 0.25, curve: 7),
                ViewShift(originY: -196, duration: 0.25, curve: 7),
            ]),
        // 375×812, field 662…706, safe 44. 364: top 448 → 448 − 726 = −278 (cap −364, safe
        // 44 − 662 = −618); 347: top 465 → −261 (cap −347); 575: top 237 → 237 − 726 = −489
        // (cap −575, safe −618).
        Expectation(
            sequence: .keyboardKitBurst,
            shifts: [
                ViewShift(originY: -278, duration: 0.25, curve: 7), ViewShift(originY: -261, duration: 0.25, curve: 7),
                ViewShift(originY: -489, duration: 0.25, curve: 7),
            ]),
        // 768×1024, field 874…918. Docked at 760: 760 − 938 = −178; cap −264; safe 20 − 874 = −854 →
        // −178. Undock: end {{0, −264}, {768, 304}} ends at y 40, not the bottom edge → 0 (curve 0).
        // DidChangeFrame with a begin frame only: no change.
        Expectation(
            sequence: .iPadUndockViaMenu,
            shifts: [ViewShift(originY: -178, duration: 0.25, curve: 7), ViewShift(originY: 0, duration: 0.25, curve: 0)]),
        // 768×1024, field 874…918, docked at 760 → −178, once for nine notifications.
        Expectation(sequence: .iPadDockingNineNotifications, shifts: [ViewShift(originY: -178, duration: 0.25, curve: 7)]),
        // 1024×768, field 618…662. keyboardTop 370 → 370 − 682 = −312; cap −398; safe −598 → −312.
        // Rotated to 768×1024, field 874…918: keyboardTop 711 → 711 − 938 = −227; cap −313;
        // safe 20 − 874 = −854 → −227: one move.
        Expectation(
            sequence: .rotationWithKeyboardUp,
            shifts: [ViewShift(originY: -312, duration: 0.25, curve: 7), ViewShift(originY: -227, duration: 0.25, curve: 7)],
            sameWithoutOrdering: false),
        // 375×812, field 662…706. keyboardTop 521 → 521 − 726 = −205; cap −291; safe −618 → −205.
        // The hide with its 71-point frame → 0.
        Expectation(
            sequence: .reduceMotionCrossFade,
            shifts: [ViewShift(originY: -205, duration: 0.25, curve: 7), ViewShift(originY: 0, duration: 0.25, curve: 7)]),
        // 320×568, keyboardTop 352 → −130, in the reported 0.4 s (the begin frame at 920 plays no part).
        Expectation(sequence: .iOS7iPhone5SimulatorMove, shifts: [ViewShift(originY: -130, duration: 0.4, curve: 7)]),
        // 320×568, keyboardTop 352 → −130, with iOS 6's curve 0.
        Expectation(sequence: .iOS6FourInchWillShowCurve0, shifts: [ViewShift(originY: -130, duration: 0.25, curve: 0)]),
    ]

    // MARK: - The rule on real sequences

    @Test(
        "a recorded session moves the root to the rule's origins, text field and text view alike",
        arguments: replays, kinds)
    func replayMovesAsTheRuleSays(_ expected: Expectation, kind: ViewKind) {
        let harness = Harness(device: expected.sequence.device)
        expected.sequence.replay(on: harness, kind: kind)

        #expect(harness.viewShifts == expected.shifts)
        // The screen is left where the last move put it: back at 0 after a hide.
        #expect(harness.bus.screen.rootOriginY == (expected.shifts.last?.originY ?? 0))
        #expect(harness.diagnostics.filter { $0.level >= .warning } == [])
    }

    @Test(
        "avoidance alone, and avoidance after ordering, give a text field the same moves",
        arguments: replays.filter(\.sameWithoutOrdering), [Harness.Plugins.avoidance, [.ordering, .avoidance]])
    func replayWithFewerPlugins(_ expected: Expectation, plugins: Harness.Plugins) {
        let harness = Harness(device: expected.sequence.device, plugins: plugins)
        expected.sequence.replay(on: harness, kind: .textField)

        #expect(harness.shifts == expected.shifts.map(\.originY))
    }

    @Test("text field and text view give the same viewShifts with ordering on", arguments: replays)
    func textFieldAndTextViewAgree(_ expected: Expectation) {
        let asTextField = Harness(device: expected.sequence.device, plugins: [.ordering, .avoidance])
        expected.sequence.replay(on: asTextField, kind: .textField)
        let asTextView = Harness(device: expected.sequence.device, plugins: [.ordering, .avoidance])
        expected.sequence.replay(on: asTextView, kind: .textView)

        #expect(asTextView.viewShifts == asTextField.viewShifts)
        #expect(asTextView.viewShifts == expected.shifts)
    }

    // MARK: - Duplicates and Did events

    @Test("duplicate notifications add no viewShift", arguments: replays, kinds)
    func duplicatesAddNothing(_ expected: Expectation, kind: ViewKind) {
        let harness = Harness(device: expected.sequence.device)
        expected.sequence.withDuplicates.replay(on: harness, kind: kind)

        #expect(harness.viewShifts == expected.shifts)
    }

    @Test("a turn of Did events after their Will derives no viewShift", arguments: replays, kinds)
    func didEventsAfterWillAddNothing(_ expected: Expectation, kind: ViewKind) {
        let harness = Harness(device: expected.sequence.device)
        let perTurn = expected.sequence.replay(on: harness, kind: kind)

        // The turns made only of Did events whose end frame (when they have one) repeats the last
        // Will event's end frame.
        var lastWillEnd: Rect?
        var checked = 0
        for (turn, shifts) in zip(expected.sequence.turns, perTurn) {
            var onlyDidsAfterWill = lastWillEnd != nil
            for step in turn.steps {
                guard case .keyboard(let event, let info) = step else {
                    onlyDidsAfterWill = false
                    continue
                }
                if [.keyboardDidShow, .keyboardDidHide, .keyboardDidChangeFrame].contains(event) {
                    if let end = info.end, end != lastWillEnd { onlyDidsAfterWill = false }
                } else {
                    onlyDidsAfterWill = false
                    lastWillEnd = info.end
                }
            }
            if onlyDidsAfterWill {
                checked += 1
                #expect(shifts == [], "turn at \(turn.at) s")
            }
        }
        // Every sequence whose dump has Did events after a Will is checked somewhere.
        let hasDidTurns = expected.sequence.turns.contains { turn in
            turn.steps.allSatisfy {
                if case .keyboard(let event, _) = $0 { event.rawValue.hasPrefix("keyboardDid") } else { false }
            }
        }
        if hasDidTurns && expected.sequence.name != RealSequence.sogouDidShowBurst.name {
            #expect(checked > 0)
        }
    }

    // MARK: - Keyboards that cover nothing

    /// Sequences whose keyboard never covers the screen: nothing may move.
    static let nonCovering: [RealSequence] = [
        // Height 0 at the bottom edge.
        .iPhone6ZeroHeightFrame,
        // The undock frame {{0, −264}, {768, 304}} without the docked keyboard before it.
        RealSequence.iPadUndockViaMenu.dropping(turnsAt: [0], name: "iPad undock frame {{0,-264},{768,304}} on its own")
            .withFocusFirst,
        // A 0×0 frame at (9.86e-32, −64).
        .iPadUndockZeroSizeFrame,
        // Dump 33's null end frame {{inf, inf}, {0, 0}} on a willChangeFrame (not a hide).
        RealSequence.iOS7WillHideNullFrame.dropping(turnsAt: [0], name: "{{inf, inf}, {0, 0}} as a willChangeFrame")
            .renaming(.keyboardWillHide, to: .keyboardWillChangeFrame).withFocusFirst,
        // CGRectInfinite as an end frame.
        RealSequence.iPhone6ZeroHeightFrame.mappingFrames(name: "CGRectInfinite end frame") { _ in .infinite },
        // Reduce Motion's hide frame (0, 812, 375, 71) on a willChangeFrame: below the screen.
        RealSequence.reduceMotionCrossFade.dropping(turnsAt: [0], name: "(0,812,375,71) as a willChangeFrame")
            .renaming(.keyboardWillHide, to: .keyboardWillChangeFrame).withFocusFirst,
        // An iPad keyboard floating in the middle of the landscape screen (352…672 × 264…504).
        RealSequence.iPadLandscape391.mappingFrames(name: "iPad floating keyboard") { _ in Device.iPadLandscape.floatingKeyboard },
        // Another app's keyboards.
        RealSequence.iPhone6ShowHide258.fromAnotherApp,
        RealSequence.iPhone5FullSixNotifications.fromAnotherApp,
        RealSequence.iPhoneXBegin282End357.fromAnotherApp,
        // willShow events carrying only begin frames (dump 39), across a rotation.
        .iPadRotationBeginFramesOnly,
        // A hardware keyboard on an iPad: no keyboard notification at all (dump 25).
        .iPadHardwareKeyboardNoNotifications,
        // A simulator with a hardware keyboard: willHide on focus and on resign, never willShow.
        .simulatorHardwareKeyboardWillHideOnly,
    ]

    @Test("floating, undocked, zero-height, null, infinite and another app's keyboards move nothing", arguments: nonCovering, kinds)
    func nonCoveringKeyboardsMoveNothing(_ sequence: RealSequence, kind: ViewKind) {
        let harness = Harness(device: sequence.device)
        sequence.replay(on: harness, kind: kind)

        #expect(harness.shifts == [])
        #expect(harness.bus.screen.rootOriginY == 0)
        #expect(harness.diagnostics.filter { $0.level >= .warning } == [])
    }

    // MARK: - A held frame whose field never comes

    /// Sequences with a covering keyboard, replayed with no field beginning editing.
    static let heldFrames: [RealSequence] = [
        RealSequence.iPhone5FullSixNotifications, .iPhoneXRBeginHeight54, .iPhone6Begin216End258, .iPhone4iOS7WillChangeFrame,
        .iPadLandscape391, .iPhone6PredictiveToggle, .iPhoneXRShowThenHide, .iPhone12ProMaxWillChangeFrame,
        .iPhone7Default216, .iPadiOS5LandscapeEditSession, .iPhone6ShowHide258, .iPhone6HideEndHeight0,
        .iPhoneXBegin282End357, .iPhone5sInstantGrowth216To254, .hardwareKeyboardStrip, .swiftKeyBurst, .sogouDidShowBurst,
        .iPadDockingNineNotifications, .reduceMotionCrossFade,
    ].map(\.withoutEditing)

    @Test("a keyboard frame held for a field that never comes moves nothing and a warning says so", arguments: heldFrames)
    func heldFrameWithoutField(_ sequence: RealSequence) {
        let harness = Harness(device: sequence.device)
        sequence.replay(on: harness, kind: .textView)

        #expect(harness.shifts == [])
        let warnings = harness.diagnostics.filter { $0.level == .warning }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.allSatisfy { $0.message.contains("nothing moved") })
    }

    @Test("another app's keyboard is no frame held for a field of this app")
    func anotherAppsKeyboardIsNotHeld() {
        // Split View: another app's text field brings up its keyboard (isLocal false) while no field
        // of this app edits. Avoidance ignores it (issue 3: "Events with isLocal: false … are
        // ignored"), so it cannot be a frame waiting for one of our fields.
        let sequence = RealSequence.iPhone6ShowHide258.fromAnotherApp.withoutEditing
        let harness = Harness(device: sequence.device)
        sequence.replay(on: harness)

        #expect(harness.shifts == [])
        #expect(harness.diagnostics.filter { $0.level >= .warning } == [])
    }

    // MARK: - Third-party bursts

    /// Bursts within 50 ms of each other, and the one move a settle window leaves.
    static let bursts: [(RealSequence, ViewShift)] = [
        // Swype 0 → 216 → 256 within 10 ms: the last, 256 high: 411 − 581 = −170.
        (.swypeBurst, ViewShift(originY: -170, duration: 0.25, curve: 7)),
        // SwiftKey 0 → 216 → 259 within 10 ms: 408 − 581 = −173 (cap −259, safe −497).
        (.swiftKeyBurst, ViewShift(originY: -173, duration: 0.25, curve: 7)),
        // Sogou 282, 216, 282 within 40 ms: 385 − 581 = −196 (cap −282).
        (.sogouDidShowBurst, ViewShift(originY: -196, duration: 0.25, curve: 7)),
        // KeyboardKit 364 → 347 → 575 within 20 ms on 375×812: the last, 237 − 726 = −489.
        (.keyboardKitBurst, ViewShift(originY: -489, duration: 0.25, curve: 7)),
    ]

    @Test(
        "a third-party burst within the settle window collapses into one move to its last frame",
        arguments: bursts.map { $0.0.name }, kinds)
    func burstCollapses(_ name: String, kind: ViewKind) throws {
        let (sequence, last) = try #require(Self.bursts.first { $0.0.name == name })
        let harness = Harness(device: sequence.device, ordering: TextViewOrdering(settleWindow: .milliseconds(50)))
        sequence.replay(on: harness, kind: kind)

        // A text field's didBeginEditing comes just before the burst's first frame in the same turn;
        // it opens the window too, so KeyboardKit 364 → 347 → 575 moves once, like a text view.
        #expect(harness.viewShifts == [last])
        #expect(harness.bus.screen.rootOriginY == last.originY)
    }

    // MARK: - Focus moves and rotation

    @Test("moving from a text field to a text view with the keyboard up is one move, straight to the text view")
    func textFieldToTextView() {
        // Dump 15's refocus, from `field` (a text field) to `next` (a text view): end editing, the
        // keyboard events, then the text view's didBeginEditing, in one turn. 375×667: `field`
        // 517…561 with keyboardTop 409 → −172; `next` 577…621 → 409 − 641 = −232 (cap −258,
        // safe 20 − 577 = −557). Never back to 0 for the moment no field is focused.
        for plugins: Harness.Plugins in [.all, [.ordering, .avoidance]] {
            let harness = Harness(device: RealSequence.refocusWithInputAccessoryView.device, plugins: plugins)
            let perTurn = RealSequence.refocusWithInputAccessoryView.replay(on: harness, kind: .textField, nextKind: .textView)

            #expect(harness.shifts == [-172, -232])
            #expect(perTurn[2].map(\.originY) == [-232])
        }
    }

    @Test(
        "rotation with the keyboard up is one move to the new target, never a restore first",
        arguments: kinds, [Harness.Plugins.all, [.ordering, .avoidance], .avoidance])
    func rotationIsOneMove(kind: ViewKind, plugins: Harness.Plugins) {
        let harness = Harness(device: RealSequence.rotationWithKeyboardUp.device, plugins: plugins)
        let perTurn = RealSequence.rotationWithKeyboardUp.replay(on: harness, kind: kind)

        // Landscape −312, then portrait −227 (see `replays`); the rotation turn with its two
        // willHide/willShow pairs derives exactly one viewShift.
        #expect(perTurn[0].map(\.originY) == [-312])
        // Avoidance alone too: a turn with a screen change is decided once, at its end.
        #expect(perTurn[2].map(\.originY) == [-227])
        #expect(!harness.shifts.contains(0))
        #expect(harness.bus.screen.rootOriginY == -227)
    }

    // MARK: - Each term of the rule on real frames

    struct Placement: Sendable, CustomTestStringConvertible {
        let sequence: RealSequence
        let layout: RealSequence.Layout
        let shifts: [Double]

        var testDescription: String { "\(sequence.name), \(layout.testDescription)" }
    }

    static let placements: [Placement] = [
        // 320×480, bar 436…480. keyboardTop 264 → 264 − (480 + 20) = −236; cap −(480 − 264) = −216;
        // safe 20 − 436 = −416 → −216: never up by more than the covered height.
        Placement(sequence: .iPhone4iOS7WillChangeFrame, layout: .bottomBar, shifts: [-216]),
        // 320×480, text area 100…420. 264 − 440 = −176; cap −216; safe 20 − 100 = −80 → −80: its top
        // stays below the safe area.
        Placement(sequence: .iPhone4iOS7WillChangeFrame, layout: .tallTextView, shifts: [-80]),
        // 375×812, bar 768…812. 455 − 832 = −377; cap −357; safe 44 − 768 = −724 → −357.
        Placement(sequence: .iPhoneXBegin282End357, layout: .bottomBar, shifts: [-357]),
        // 375×812, text area 124…752. 455 − 772 = −317; cap −357; safe 44 − 124 = −80 → −80.
        Placement(sequence: .iPhoneXBegin282End357, layout: .tallTextView, shifts: [-80]),
        // 1024×768, bar 724…768. 377 − 788 = −411; cap −391; safe −704 → −391.
        Placement(sequence: .iPadLandscape391, layout: .bottomBar, shifts: [-391]),
        // 1024×768, text area 100…708. 377 − 728 = −351; cap −391; safe 20 − 100 = −80 → −80.
        Placement(sequence: .iPadLandscape391, layout: .tallTextView, shifts: [-80]),
        // 375×667, field 517…561 with keyboardDistance 10. 409 − 571 = −162; cap −258; safe −497
        // → −162.
        Placement(sequence: .iPhone6Begin216End258, layout: .formWithGap(10), shifts: [-162]),
        // 375×667, bar 623…667. 409 − 687 = −278; cap −258 → −258; the hide → 0.
        Placement(sequence: .iPhone6ShowHide258, layout: .bottomBar, shifts: [-258, 0]),
        // 320×568, bar 524…568 under the 44-point hardware bar 524…568. 524 − 588 = −64; cap −44;
        // safe 20 − 524 = −504 → −44: up by the visible strip only.
        Placement(sequence: .hardwareKeyboardStrip, layout: .bottomBar, shifts: [-44]),
        // 375×667, bar 623…667. 0 → nothing; 216: 451 − 687 = −236, cap −216 → −216; 259: 408 − 687
        // = −279, cap −259 → −259.
        Placement(sequence: .swiftKeyBurst, layout: .bottomBar, shifts: [-216, -259]),
        // 414×896, bar 852…896. 550 − 916 = −366; cap −346 → −346; the off-screen frame → 0.
        Placement(sequence: .iPhoneXRShowThenHide, layout: .bottomBar, shifts: [-346, 0]),
    ]

    @Test("the gap, the covered-height cap and the safe-area top on real frames", arguments: placements, kinds)
    func ruleTerms(_ placement: Placement, kind: ViewKind) {
        let harness = Harness(device: placement.sequence.device)
        placement.sequence.replay(on: harness, kind: kind, layout: placement.layout)

        #expect(harness.shifts == placement.shifts)
    }

    // MARK: - Recorded orders on each device

    /// Per device (`.form` layout, the device's docked keyboard of height h): `field` at H − 150…
    /// H − 106 and `next` at H − 90…H − 46.
    ///
    /// - iPhone SE 320×568, h 253, top 315: field 315 − 482 = −167 (cap −253, safe 20 − 418); next
    ///   315 − 542 = −227 (cap −253, safe 20 − 478 = −458).
    /// - iPhone X 375×812, h 291, top 521: field 521 − 726 = −205 (cap −291, safe 44 − 662); next
    ///   521 − 786 = −265 (cap −291, safe 44 − 722 = −678).
    /// - iPad 1024×768, h 398, top 370: field 370 − 682 = −312 (cap −398, safe 20 − 618); next
    ///   370 − 742 = −372 (cap −398, safe 20 − 678 = −658).
    static let onDevice: [String: (field: Double, next: Double)] = [
        Device.iPhoneSE.name: (-167, -227),
        Device.iPhoneX.name: (-205, -265),
        Device.iPadLandscape.name: (-312, -372),
    ]

    @Test("recorded event orders with each device's keyboard", arguments: Device.all, kinds)
    func ordersOnDevices(_ device: Device, kind: ViewKind) throws {
        let expected = try #require(Self.onDevice[device.name])
        let docked = device.dockedKeyboard
        let offScreen = device.offScreenKeyboard
        let focus = RealSequence.Step.beginEditing(RealSequence.field)
        func event(_ name: EventName<KeyboardInfo>, _ begin: Rect, _ end: Rect) -> RealSequence.Step {
            .keyboard(name, KeyboardInfo(begin: begin, end: end, duration: 0.25, curve: 7, isLocal: true))
        }

        // Dump 15's order: the show set, then again for another field with no hide; then
        // Reduce Motion's hide with a 71-point frame at the bottom edge.
        let sequence = RealSequence(
            name: "15 + Reduce Motion on \(device.name)", source: "15; KEYBOARD-FACTS §4", screen: device.screen,
            safeArea: device.safeArea,
            turns: [
                .init(at: 0, [focus, event(.keyboardWillChangeFrame, offScreen, docked), event(.keyboardWillShow, offScreen, docked)]),
                .init(at: 0.25, [event(.keyboardDidChangeFrame, offScreen, docked), event(.keyboardDidShow, offScreen, docked)]),
                .init(
                    at: 2,
                    [
                        .endEditing(RealSequence.field), .beginEditing(RealSequence.next),
                        event(.keyboardWillChangeFrame, docked, docked), event(.keyboardWillShow, docked, docked),
                    ]),
                .init(at: 2.25, [event(.keyboardDidChangeFrame, docked, docked), event(.keyboardDidShow, docked, docked)]),
                .init(
                    at: 4,
                    [
                        event(.keyboardWillHide, docked, Rect(x: 0, y: device.screen.height, width: device.screen.width, height: 71))
                    ]),
            ])
        let harness = Harness(device: device)
        sequence.replay(on: harness, kind: kind)

        #expect(harness.shifts == [expected.field, expected.next, 0])
    }

    // MARK: - Transcription checks

    @Test("dump 23's frames, converted to landscape, are the docked 352-point keyboard")
    func iOS5FramesConverted() throws {
        // The dump's CenterEnd {512, 592} and CenterBegin {512, 944} are in window (landscape)
        // coordinates; the converted frames must have those centres.
        let steps = RealSequence.iPadiOS5LandscapeEditSession.turns[0].steps
        guard case .keyboard(_, let info) = try #require(steps.last) else {
            Issue.record("no keyboard event")
            return
        }
        let end = try #require(info.end)
        let begin = try #require(info.begin)
        #expect((end.midX, end.midY) == (512, 592))
        #expect((begin.midX, begin.midY) == (512, 944))
    }
}

extension RealSequence {
    /// The same sequence with the first turn beginning with `field`'s didBeginEditing.
    fileprivate var withFocusFirst: RealSequence {
        guard let first = turns.first else { return self }
        let rest = Array(turns.dropFirst())
        return RealSequence(
            name: name, source: source, screen: screen, safeArea: safeArea,
            turns: [Turn(at: first.at, [.beginEditing(Self.field)] + first.steps, assumption: first.assumption)] + rest)
    }

    /// The same sequence with every `from` event posted as `to`.
    fileprivate func renaming(_ from: EventName<KeyboardInfo>, to: EventName<KeyboardInfo>) -> RealSequence {
        RealSequence(
            name: name, source: source, screen: screen, safeArea: safeArea,
            turns: turns.map { turn in
                Turn(
                    at: turn.at,
                    turn.steps.map { step in
                        if case .keyboard(let event, let info) = step, event == from { return .keyboard(to, info) }
                        return step
                    }, assumption: turn.assumption)
            })
    }
}
