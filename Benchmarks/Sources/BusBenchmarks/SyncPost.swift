import CBenchSupport
import Foundation
import ResponderBus

final class Sink: @unchecked Sendable {
    var total = 0.0
}

let keyboardPayload = KeyboardInfo(
    begin: Rect(x: 0, y: 812, width: 375, height: 0), end: Rect(x: 0, y: 521, width: 375, height: 291),
    duration: 0.25, curve: 7, isLocal: true)

/// Observer closures built out of the optimizer's sight, as an app's would be.
@inline(never)
func makeDirectClosures(_ count: Int, _ sink: Sink) -> [(Event<KeyboardInfo>) -> Void] {
    (0..<count).map { _ in { event in sink.total += event.payload.end?.height ?? 0 } }
}

@inline(never)
func makeBus(observers: Int, otherObservers: Int = 0, otherNames: Int = 100, sink: Sink) -> (Bus, [ObservationToken]) {
    let bus = Bus(loop: VirtualTimeLoop())
    var tokens: [ObservationToken] = []
    // Observers on other events first, so that the matching one is registered last.
    if otherObservers > 0 {
        let names = (0..<otherNames).map { EventName<KeyboardInfo>("bench.other.\($0)") }
        for i in 0..<otherObservers {
            tokens.append(bus.observe(names[i % otherNames]) { event in sink.total += event.payload.duration ?? 0 })
        }
    }
    for _ in 0..<observers {
        tokens.append(bus.observe(.keyboardWillShow) { event in sink.total += event.payload.end?.height ?? 0 })
    }
    return (bus, tokens)
}

/// What iOS code does with NotificationCenter: a userInfo dictionary per post, read by each observer.
@inline(never)
func makeCenter(observers: Int, sink: Sink) -> (NotificationCenter, [NSObjectProtocol]) {
    let center = NotificationCenter()
    var tokens: [NSObjectProtocol] = []
    for _ in 0..<observers {
        tokens.append(
            center.addObserver(forName: .benchKeyboardWillShow, object: nil, queue: nil) { note in
                let end = note.userInfo?["UIKeyboardFrameEndUserInfoKey"] as? CGRect
                let duration = note.userInfo?["UIKeyboardAnimationDurationUserInfoKey"] as? Double
                sink.total += Double(end?.height ?? 0) + (duration ?? 0)
            })
    }
    return (center, tokens)
}

extension Notification.Name {
    static let benchKeyboardWillShow = Notification.Name("UIKeyboardWillShowNotification")
}

@inline(never)
func postToCenter(_ center: NotificationCenter, _ i: Int) {
    let userInfo: [AnyHashable: Any] = [
        "UIKeyboardFrameBeginUserInfoKey": CGRect(x: 0, y: 812, width: 375, height: 0),
        "UIKeyboardFrameEndUserInfoKey": CGRect(x: 0, y: 521, width: 375, height: Double(291 + (i & 1))),
        "UIKeyboardAnimationDurationUserInfoKey": 0.25,
        "UIKeyboardAnimationCurveUserInfoKey": 7,
        "UIKeyboardIsLocalUserInfoKey": true,
    ]
    center.post(name: .benchKeyboardWillShow, object: nil, userInfo: userInfo)
}

func runSyncPost(_ results: Results) {
    let sink = Sink()
    var perObserver: [Int: (bus: Double, direct: Double, center: Double)] = [:]
    for n in [1, 10, 100] {
        let (bus, tokens) = makeBus(observers: n, sink: sink)
        let iterations = n == 100 ? 200_000 : 2_000_000
        let closures = makeDirectClosures(n, sink)
        let (center, centerTokens) = makeCenter(observers: n, sink: sink)
        // The bus, direct calls and NotificationCenter in turns (see `interleavedNsPerOp`).
        let times = interleavedNsPerOp(
            rounds: 7,
            [
                (
                    iterations,
                    { count in
                        var payload = keyboardPayload
                        for i in 0..<count {
                            payload.curve = i & 7
                            bus.post(.keyboardWillShow, payload)
                        }
                    }
                ),
                (
                    iterations,
                    { count in
                        var payload = keyboardPayload
                        for i in 0..<count {
                            payload.curve = i & 7
                            let event = Event(.keyboardWillShow, payload)
                            for c in closures { c(event) }
                        }
                    }
                ),
                (
                    n == 100 ? 2_000 : 50_000,
                    { count in
                        for i in 0..<count { postToCenter(center, i) }
                    }
                ),
            ])
        let (busNs, directNs, centerNs) = (times[0], times[1], times[2])
        let allocs = mallocsPerOp(iterations: 100_000) { count in
            var payload = keyboardPayload
            for i in 0..<count {
                payload.curve = i & 7
                bus.post(.keyboardWillShow, payload)
            }
        }
        blackHole(tokens)
        blackHole(centerTokens)
        perObserver[n] = (busNs, directNs, centerNs)
        let g = "1 sync post"
        let directGoal = n == 1 ? 1.5 : 1.2
        results.add(
            Row(
                group: g, name: "bus.post, \(n) observer\(n == 1 ? "" : "s")", value: busNs, unit: "ns/post",
                baselineName: "direct closures", baselineValue: directNs, ratio: busNs / directNs,
                goal: "≤\(directGoal)× direct", met: busNs / directNs <= directGoal))
        let speedup = centerNs / busNs
        let centerGoal = n == 1 ? 50.0 : (n == 100 ? 40.0 : nil)
        results.add(
            Row(
                group: g, name: "bus.post, \(n) observer\(n == 1 ? "" : "s") vs NC", value: busNs, unit: "ns/post",
                baselineName: "NotificationCenter", baselineValue: centerNs, ratio: speedup,
                goal: centerGoal.map { "≥\(Int($0))× faster" }, met: centerGoal.map { speedup >= $0 }))
        results.add(
            Row(
                group: g, name: "heap allocations per post, \(n) observer\(n == 1 ? "" : "s")", value: allocs,
                unit: "mallocs/post", goal: "0", met: allocs == 0))
    }
    _ = perObserver

    // 1 matching observer among 100 registered for other events, against the bus with the 1 alone.
    do {
        let times = interleavedNsPerOp(iterations: 1_000_000, keyboardPosts(otherObservers: [0, 100], sink: sink))
        results.add(
            Row(
                group: "1 sync post", name: "1 matching among 100 others", value: times[1], unit: "ns/post",
                baselineName: "bus, 1 observer alone", baselineValue: times[0], ratio: times[1] / times[0],
                goal: "≤1.10×", met: times[1] / times[0] <= 1.10))
    }
    blackHole(sink.total)
}

/// For each count, a bus with 1 observer of `keyboardWillShow` and that many on other names, and a
/// body posting `count` keyboard events to it.
func keyboardPosts(otherObservers counts: [Int], sink: Sink) -> [(Int) -> Void] {
    counts.map { others in
        let (bus, tokens) = makeBus(observers: 1, otherObservers: others, sink: sink)
        return { count in
            var payload = keyboardPayload
            for i in 0..<count {
                payload.curve = i & 7
                bus.post(.keyboardWillShow, payload)
            }
            blackHole(tokens)
        }
    }
}

func runScalePosts(_ results: Results) {
    let sink = Sink()
    let counts = [0, 10, 10_000]
    // Measured in turns, so that the machine's slow spells do not fall on one case only.
    let bodies = keyboardPosts(otherObservers: counts, sink: sink)
    let times = interleavedNsPerOp(iterations: 1_000_000, bodies)
    var values: [Int: Double] = [:]
    for (index, others) in counts.enumerated() { values[others] = times[index] }
    for others in [10, 10_000] {
        let ratio = values[others]! / values[0]!
        results.add(
            Row(
                group: "4 scale", name: "post, 1 observer + \(others) on other events", value: values[others]!,
                unit: "ns/post", baselineName: "no other observers", baselineValue: values[0]!, ratio: ratio,
                goal: "≤1.10×", met: ratio <= 1.10))
    }
    blackHole(sink.total)
}

/// For profiling (`valgrind --tool=callgrind BusBenchmarks … profile-post`): 200,000 posts to 1 observer.
func runProfilePost() {
    let sink = Sink()
    let (bus, tokens) = makeBus(observers: 1, sink: sink)
    var payload = keyboardPayload
    for i in 0..<200_000 {
        payload.curve = i & 7
        bus.post(.keyboardWillShow, payload)
    }
    blackHole(tokens)
    blackHole(sink.total)
}
