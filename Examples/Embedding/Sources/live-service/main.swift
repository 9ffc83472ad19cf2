import Dispatch
import ResponderBus
import ResponderBusReplay
import ResponderBusUV

// live-service: the built-in plugins on the libuv loop; producer threads post keyboard and Return
// events with the bus's thread-safe API; consumers count what the bus delivers with `for await`.
let (producers, rounds) = (4, 250)
let loop = UVEventLoop()
let bus = Bus(loop: loop, screen: Screen(size: Size(width: 375, height: 812)))
let fields = (1...5).map { ViewSpec(id: ViewID("f\($0)"), kind: .textField, frame: Rect(x: 20, y: 60 * Double($0), width: 335, height: 44), tag: $0) }
let (keyboard, decisions) = try await loop.perform {  // the bus is set up on the loop's thread
    for plugin in BuiltinPlugins.make() { try bus.register(plugin) }
    bus.post(.scene, SceneInfo(root: ViewSpec(id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812), children: fields)))
    return (bus.events(.keyboardWillChangeFrame, buffering: .unbounded), bus.events(.focusChange, buffering: .unbounded))
}
func count<P>(_ events: AsyncStream<SendableEvent<P>>) -> Task<Int, Never> { Task { await events.reduce(0) { n, _ in n + 1 } } }
let (received, decided) = (count(keyboard), count(decisions))
let posting = DispatchGroup()
for producer in 0..<producers {
    DispatchQueue(label: "producer \(producer)").async(group: posting) {
        for _ in 0..<rounds {
            bus.postFromAnyThread(.keyboardWillChangeFrame, KeyboardInfo(end: Rect(x: 0, y: 521, width: 375, height: 291)))
            bus.postFromAnyThread(.returnKey, ReturnKeyInfo(view: fields[producer].id))  // FieldAdvancing derives a focusChange
        }
    }
}
await withCheckedContinuation { done in posting.notify(queue: .global()) { @Sendable in done.resume() } }
await loop.shutdownGracefully()  // delivers everything posted before it, finishes the streams, closes libuv
print("received \(await received.value) keyboard events and \(await decided.value) decisions from \(producers) threads")
print("loop closed cleanly: \(loop.closeResult == 0)")
