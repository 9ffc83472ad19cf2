import ResponderBus
import ResponderBusUV

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

/// Lives on the bus's loop: touches the bus and its plugin directly, without locks.
actor Session {
    nonisolated let unownedExecutor: UnownedSerialExecutor
    let bus: Bus
    let counter = ShowCounter()

    init(bus: Bus, loop: UVEventLoop) {
        self.bus = bus
        unownedExecutor = loop.asUnownedSerialExecutor()
    }

    func start() throws -> AsyncStream<SendableEvent<KeyboardInfo>> {
        try bus.register(counter)  // routed by the protocols it conforms to
        let didShow = bus.events(.keyboardDidShow, buffering: .unbounded)
        let email = ViewSpec(id: "email", kind: .textField, frame: Rect(x: 20, y: 560, width: 335, height: 44), tag: 1)
        bus.post(.scene, SceneInfo(root: ViewSpec(id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812), children: [email])))
        bus.post(.didBeginEditing, EditingInfo(view: "email"))
        bus.post(.keyboardWillShow, KeyboardInfo(end: Rect(x: 0, y: 521, width: 375, height: 291), duration: 0.25, curve: 7))
        return didShow
    }

    var shows: [ViewID: Int] { counter.shows }
}

@main
struct Example {
    static func main() async throws {
        let loop = UVEventLoop()  // or VirtualTimeLoop() in tests, driven by loop.runAsync { … }
        let bus = Bus(loop: loop, screen: Screen(size: Size(width: 375, height: 812)))
        let session = Session(bus: bus, loop: loop)
        let didShow = try await session.start()

        bus.postFromAnyThread(.keyboardDidShow, KeyboardInfo(duration: 0.25))  // from any thread
        for await event in didShow {
            print("keyboardDidShow after \(event.payload.duration ?? 0) s")
            break
        }
        print("shows per field:", await session.shows)
        print("first responder:", try await loop.perform { bus.screen.firstResponder?.id.rawValue ?? "none" })

        await loop.shutdownGracefully()  // delivers what was posted, closes libuv cleanly
        print("loop closed cleanly:", loop.closeResult == 0)
    }
}
