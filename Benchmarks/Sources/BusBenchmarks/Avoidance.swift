import Foundation
import KeyboardAvoidance
import ResponderBus

/// A screen with `views` views: rows of labels and text fields; the focused field is near the bottom.
func makeScene(views: Int) -> SceneInfo {
    var children: [ViewSpec] = []
    for i in 0..<(views - 2) {
        let y = Double(60 + (i % 12) * 60)
        children.append(
            ViewSpec(
                id: ViewID("v\(i)"), kind: i % 3 == 0 ? .textField : .view,
                frame: Rect(x: 20, y: y, width: 335, height: 44), tag: i % 3 == 0 ? i + 10 : nil))
    }
    children.append(ViewSpec(id: "field", kind: .textField, frame: Rect(x: 20, y: 700, width: 335, height: 44), tag: 1))
    return SceneInfo(root: ViewSpec(id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812), children: children))
}

/// A bus with avoidance deciding on every event, its screen showing `views` views with the
/// focused field at the bottom; the body posts `count` keyboard frame changes, each of which makes
/// the plugin decide (and move the root).
func avoidanceBench(views: Int) -> (Int) -> Void {
    let bus = Bus(loop: VirtualTimeLoop(), screen: Screen(size: Size(width: 375, height: 812)))
    try! bus.register(KeyboardAvoidance(timing: .everyEvent))
    bus.post(.scene, makeScene(views: views))
    bus.post(.didBeginEditing, EditingInfo(view: "field"))
    let frames = [Rect(x: 0, y: 596, width: 375, height: 216), Rect(x: 0, y: 521, width: 375, height: 291)]
    var shifts = 0
    let token = bus.observe(.viewShift) { _ in shifts += 1 }
    return { count in
        let before = shifts
        for i in 0..<count {
            bus.post(
                .keyboardWillChangeFrame,
                KeyboardInfo(begin: frames[(i + 1) & 1], end: frames[i & 1], duration: 0.25, curve: 7, isLocal: true))
        }
        precondition(shifts > before, "avoidance made no decision")
        blackHole(token)
    }
}

func runAvoidance(_ results: Results) {
    // Measured in turns, so that the machine's slow spells do not fall on one screen size only.
    let times = interleavedNsPerOp(iterations: 100_000, [avoidanceBench(views: 10), avoidanceBench(views: 10_000)])
    let (small, large) = (times[0], times[1])
    results.add(
        Row(
            group: "4 scale", name: "avoidance decision, 10,000-view screen", value: large, unit: "ns/decision",
            baselineName: "10-view screen", baselineValue: small, ratio: large / small,
            goal: "≤1.2×", met: large / small <= 1.2))
}
