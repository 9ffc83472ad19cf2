import Dispatch
import ResponderBus
import ResponderBusUV
import Testing

/// The README's embedding example, kept compiling and working.
@Suite("README example")
struct ReadmeExampleTests {
    /// Counts how often the keyboard showed while a given field was focused.
    final class ShowCounter: KeyboardObserving {
        var shows: [ViewID: Int] = [:]

        func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
            guard let field = context.firstResponder else {
                context.diagnose(.info, "keyboard showed with no field focused yet (a text view?)")
                return
            }
            shows[field.id, default: 0] += 1
        }
    }

    @Test("the embedding example counts one show for the focused field")
    func embeddingExample() {
        let loop = UVEventLoop()
        let bus = Bus(loop: loop, screen: Screen(size: Size(width: 375, height: 812)))
        let counted = Locked([ViewID: Int]())
        let didShows = Locked(0)

        loop.execute {
            try? bus.register(ShowCounter())
            bus.post(
                .scene,
                SceneInfo(
                    root: ViewSpec(
                        id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812),
                        children: [ViewSpec(id: "email", kind: .textField, frame: Rect(x: 20, y: 560, width: 335, height: 44), tag: 1)])))
            bus.post(.didBeginEditing, EditingInfo(view: "email"))
            bus.post(.keyboardWillShow, KeyboardInfo(end: Rect(x: 0, y: 521, width: 375, height: 291), duration: 0.25, curve: 7))
            let counter = bus.plugin(named: "ShowCounter") as? ShowCounter
            counted.withLock { $0 = counter?.shows ?? [:] }
            let token = bus.observe(.keyboardDidShow) { _ in didShows.withLock { $0 += 1 } }
            bus.loop.schedule(after: .seconds(3600)) { token.cancel() }
        }
        bus.postFromAnyThread(.keyboardDidShow, KeyboardInfo())
        loop.shutdown()
        #expect(counted.withLock { $0 } == ["email": 1])
        #expect(didShows.withLock { $0 } == 1)
        #expect(loop.closeResult == 0)
    }
}
