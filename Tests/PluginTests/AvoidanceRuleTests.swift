import KeyboardAvoidance
import ResponderBus
import Testing

@Suite("AvoidanceRule: the geometry, without a bus")
struct AvoidanceRuleTests {
    @Test("the field's bottom plus gap lands on the keyboard's top")
    func plainMove() {
        // iPhone X: field 560…604, keyboard top 521, gap 20 → 521 − 624 = −103; cap −291; safe 44 − 560 = −516.
        #expect(AvoidanceRule.rootTarget(fieldMinY: 560, fieldMaxY: 604, gap: 20, keyboardTop: 521, screenHeight: 812, safeTop: 44) == -103)
    }

    @Test("never moves up more than the keyboard's covered height")
    func cappedByKeyboardHeight() {
        // iPhone SE: field 530…560, keyboard top 352 → 352 − 580 = −228, cap −(568 − 352) = −216.
        #expect(AvoidanceRule.rootTarget(fieldMinY: 530, fieldMaxY: 560, gap: 20, keyboardTop: 352, screenHeight: 568, safeTop: 20) == -216)
    }

    @Test("a tall field keeps its top below the safe area")
    func tallFieldKeepsTop() {
        // Text view 200…700 on iPhone X: 521 − 720 = −199; safe 44 − 200 = −156 wins.
        #expect(AvoidanceRule.rootTarget(fieldMinY: 200, fieldMaxY: 700, gap: 20, keyboardTop: 521, screenHeight: 812, safeTop: 44) == -156)
    }

    @Test("a field already clear of the keyboard does not move (never moves down)")
    func clearFieldStays() {
        #expect(AvoidanceRule.rootTarget(fieldMinY: 100, fieldMaxY: 144, gap: 20, keyboardTop: 521, screenHeight: 812, safeTop: 44) == 0)
    }

    @Test("no field or no covering keyboard: target 0, and a touched scroll view goes back to rest")
    func nothingToAvoid() {
        let scroll = ScrollPlacement(
            id: "list", frame: Rect(x: 0, y: 0, width: 375, height: 812), restingOffsetY: 10, restingBottomInset: 34, contentHeight: 2000)
        let field = FieldPlacement(frame: Rect(x: 20, y: 700, width: 335, height: 44), gap: 20, scrollView: scroll)
        #expect(
            AvoidanceRule.decide(covering: nil, field: nil, screen: Size(width: 375, height: 812), safeTop: 44) == AvoidanceDecision(rootOffsetY: 0))
        let restored = AvoidanceRule.decide(covering: nil, field: field, screen: Size(width: 375, height: 812), safeTop: 44)
        #expect(restored == AvoidanceDecision(rootOffsetY: 0, scroll: ScrollChange(view: "list", contentOffsetY: 10, bottomInset: 34)))
    }

    @Test("scroll views first: inset by the overlap, scroll just enough, root moves by nothing more")
    func scrollAbsorbs() {
        // Scroll view covers the whole iPhone X screen; keyboard 521…812 overlaps it by 291.
        // Field 700…744 at rest: need 744 + 20 − 521 = 243; content allows 2000 + 291 − 812 = 1479.
        let scroll = ScrollPlacement(
            id: "list", frame: Rect(x: 0, y: 0, width: 375, height: 812), restingOffsetY: 0, restingBottomInset: 0, contentHeight: 2000)
        let field = FieldPlacement(frame: Rect(x: 20, y: 700, width: 335, height: 44), gap: 20, scrollView: scroll)
        let decision = AvoidanceRule.decide(
            covering: Rect(x: 0, y: 521, width: 375, height: 291), field: field, screen: Size(width: 375, height: 812), safeTop: 44)
        #expect(decision == AvoidanceDecision(rootOffsetY: 0, scroll: ScrollChange(view: "list", contentOffsetY: 243, bottomInset: 291)))
    }

    @Test("scrolling stops at the end of the content; the root moves by what scrolling could not absorb")
    func scrollThenRoot() {
        // Content 900 in an 812 frame, inset 291 → max offset 900 + 291 − 812 = 379, resting 300 → 79 available.
        // Need 744 + 20 − 521 = 243 → scroll 79, field now 621…665 → root 521 − 685 = −164.
        let scroll = ScrollPlacement(
            id: "list", frame: Rect(x: 0, y: 0, width: 375, height: 812), restingOffsetY: 300, restingBottomInset: 0, contentHeight: 900)
        let field = FieldPlacement(frame: Rect(x: 20, y: 700, width: 335, height: 44), gap: 20, scrollView: scroll)
        let decision = AvoidanceRule.decide(
            covering: Rect(x: 0, y: 521, width: 375, height: 291), field: field, screen: Size(width: 375, height: 812), safeTop: 44)
        #expect(decision == AvoidanceDecision(rootOffsetY: -164, scroll: ScrollChange(view: "list", contentOffsetY: 379, bottomInset: 291)))
    }

    @Test("a scroll view running below the screen is inset down to its bottom, not by its overlap alone (found by explore)")
    func scrollViewBelowTheScreen() {
        // iPhone SE landscape (568×320), a hardware keyboard's bar: covered 265…320. The scroll
        // view runs 200…400, 80 pt past the screen: inset 400 − 265 = 135, not the overlap's 55.
        // Content 240 → max offset 240 + 135 − 200 = 175; field 388…432 needs 432 + 20 − 265 = 187,
        // has 388 − 200 = 188 of room: scroll 175, field 213…257, root 265 − 277 = −12.
        let scroll = ScrollPlacement(
            id: "form", frame: Rect(x: 20, y: 200, width: 528, height: 200), restingOffsetY: 0, restingBottomInset: 0, contentHeight: 240)
        let field = FieldPlacement(frame: Rect(x: 20, y: 388, width: 528, height: 44), gap: 20, scrollView: scroll)
        let decision = AvoidanceRule.decide(
            covering: Rect(x: 0, y: 265, width: 568, height: 55), field: field, screen: Size(width: 568, height: 320), safeTop: 0)
        #expect(decision == AvoidanceDecision(rootOffsetY: -12, scroll: ScrollChange(view: "form", contentOffsetY: 175, bottomInset: 135)))
    }

    static let coveringCases: [(String, KeyboardInfo, Bool, Rect?)] = [
        ("docked", KeyboardInfo(end: Rect(x: 0, y: 521, width: 375, height: 291)), false, Rect(x: 0, y: 521, width: 375, height: 291)),
        ("hide with a frame", KeyboardInfo(end: Rect(x: 0, y: 521, width: 375, height: 291)), true, nil),
        ("Reduce Motion hide frame", KeyboardInfo(end: Rect(x: 0, y: 812, width: 375, height: 71)), false, nil),
        ("hardware strip", KeyboardInfo(end: Rect(x: 0, y: 768, width: 375, height: 291)), false, Rect(x: 0, y: 768, width: 375, height: 44)),
        ("floating iPad-style", KeyboardInfo(end: Rect(x: 30, y: 300, width: 320, height: 240)), false, nil),
        ("undocked, above the screen", KeyboardInfo(end: Rect(x: 0, y: -264, width: 375, height: 304)), false, nil),
        ("zero height", KeyboardInfo(end: Rect(x: 0, y: 812, width: 375, height: 0)), false, nil),
        ("null", KeyboardInfo(end: .null), false, nil),
        ("infinite", KeyboardInfo(end: .infinite), false, nil),
        ("NaN", KeyboardInfo(end: Rect(x: .nan, y: .nan, width: 375, height: 291)), false, nil),
        ("missing end frame", KeyboardInfo(begin: Rect(x: 0, y: 521, width: 375, height: 291)), false, nil),
    ]

    @Test("which keyboard covers", arguments: coveringCases)
    func covering(_ name: String, _ info: KeyboardInfo, _ isHide: Bool, _ expected: Rect?) {
        #expect(info.coveredPart(ofScreen: Size(width: 375, height: 812), isHide: isHide) == expected)
    }
}
