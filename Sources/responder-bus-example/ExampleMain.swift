import Dispatch
import ResponderBus
import ResponderBusUV

/// A sign-in form on an iPhone X, driven on the libuv loop: the keyboard shows for a text field,
/// Return walks through the fields to a text view, and the keyboard goes away. Two plugins written
/// here (through the public protocols only) and one listener print what they saw.
@main
enum ExampleMain {
    static func main() {
        let loop = UVEventLoop()
        let bus = Bus(loop: loop, screen: Screen(size: Size(width: 375, height: 812), safeArea: EdgeInsets(top: 44, bottom: 34)))
        let finished = DispatchSemaphore(value: 0)

        loop.execute {
            Session.start(on: bus) { finished.signal() }
        }
        finished.wait()
        loop.shutdown()
        print(
            "loop closed cleanly: \(loop.closeResult == 0 ? "yes" : "no (uv_loop_close returned \(loop.closeResult.map(String.init) ?? "nothing"))")")
    }
}

/// What happens on the loop.
enum Session {
    static let form = SceneInfo(
        root: ViewSpec(
            id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812),
            children: [
                ViewSpec(id: "notes", kind: .textView, frame: Rect(x: 20, y: 300, width: 335, height: 120), tag: 1),
                ViewSpec(id: "email", kind: .textField, frame: Rect(x: 20, y: 480, width: 335, height: 44), tag: 2),
                ViewSpec(id: "password", kind: .textField, frame: Rect(x: 20, y: 540, width: 335, height: 44), tag: 3),
            ]), lastFieldAction: "signIn")

    static let shown = KeyboardInfo(
        begin: Rect(x: 0, y: 812, width: 375, height: 291), end: Rect(x: 0, y: 521, width: 375, height: 291),
        duration: 0.25, curve: 7, isLocal: true)
    static let hidden = KeyboardInfo(
        begin: Rect(x: 0, y: 521, width: 375, height: 291), end: Rect(x: 0, y: 812, width: 375, height: 291),
        duration: 0.25, curve: 7, isLocal: true)

    /// Registers the plugins and the listener, then plays the session on libuv timers.
    static func start(on bus: Bus, done: @escaping @Sendable () -> Void) {
        do {
            try bus.register(CoverageReporter())
            try bus.register(ReturnAdvancer())
        } catch {
            print("could not register a plugin: \(error)")
            done()
            return
        }
        let listener = bus.observeAll { event in
            let who = event.origin.derivingPlugin.map { "  ← derived by \($0)" } ?? ""
            print("[\(timestamp(bus.loop.now))] listener saw \(event.name)\(who)")
        }

        // (time in ms, what the world does)
        let script: [(Int, () -> Void)] = [
            (0, { bus.post(.scene, form) }),
            // A text view reports didBeginEditing after the keyboard event.
            (10, { bus.post(.keyboardWillChangeFrame, shown) }),
            (10, { bus.post(.keyboardWillShow, shown) }),
            (10, { bus.post(.didBeginEditing, EditingInfo(view: "notes")) }),
            (20, { bus.post(.returnKey, ReturnKeyInfo(view: "notes")) }),
            // The user taps the email field; a text field reports didBeginEditing first.
            (30, { bus.post(.didEndEditing, EditingInfo(view: "notes")) }),
            (30, { bus.post(.didBeginEditing, EditingInfo(view: "email")) }),
            (30, { bus.post(.keyboardWillChangeFrame, shown) }),
            (40, { bus.post(.returnKey, ReturnKeyInfo(view: "email")) }),
            (60, { bus.post(.returnKey, ReturnKeyInfo(view: "password")) }),
            (80, { bus.post(.keyboardWillChangeFrame, hidden) }),
            (80, { bus.post(.keyboardWillHide, hidden) }),
        ]
        for (milliseconds, step) in script {
            bus.loop.schedule(after: .milliseconds(milliseconds), step)
        }
        bus.loop.schedule(after: .milliseconds(100)) {
            listener.cancel()
            print("first responder at the end: \(bus.screen.firstResponder?.id.rawValue ?? "none")")
            done()
        }
    }

    static func timestamp(_ time: Duration) -> String {
        let milliseconds = time.components.seconds * 1000 + time.components.attoseconds / 1_000_000_000_000_000
        return "\(milliseconds) ms"
    }
}

/// Says, for every keyboard change, whether the focused field ends up under the keyboard.
final class CoverageReporter: KeyboardObserving {
    func keyboardWillChangeFrame(_ event: Event<KeyboardInfo>, context: PluginContext) {
        guard let end = event.payload.end else { return }
        let covering = end.intersection(context.screen.bounds)
        guard let field = context.firstResponder else {
            print("CoverageReporter: keyboard to \(end), no field focused")
            return
        }
        let frame = context.screen.frameInScreen(of: field)
        let covered = !covering.isNull && frame.maxY > covering.minY
        print(
            "CoverageReporter: keyboard to \(end); '\(field.id)' spans \(frame) and is \(covered ? "COVERED by \(Int((frame.maxY - covering.minY).rounded(.up))) pt" : "clear of it")"
        )
    }
}

/// Return moves to the next field by tag; on the last field it performs the form's action.
final class ReturnAdvancer: ReturnKeyObserving {
    func returnKey(_ event: Event<ReturnKeyInfo>, context: PluginContext) {
        let current = context.screen.view(event.payload.view)
        if current?.kind == .textView {
            print("ReturnAdvancer: Return in the text view '\(event.payload.view)' inserts a newline")
            return
        }
        let fields = context.screen.textInputs.filter { $0.isVisible && $0.isEnabled && $0.tag != nil }
        let next = fields.filter { ($0.tag ?? .min) > (current?.tag ?? .max) }.min { ($0.tag ?? 0) < ($1.tag ?? 0) }
        if let next {
            print("ReturnAdvancer: Return in '\(event.payload.view)' moves to '\(next.id)'")
            context.post(.focusChange, FocusChange(from: event.payload.view, to: next.id))
        } else if let action = context.screen.lastFieldAction {
            print("ReturnAdvancer: Return in the last field performs '\(action)' and dismisses the keyboard")
            context.post(.action, ActionInfo(name: action))
            context.post(.resign, ResignInfo(view: event.payload.view))
        }
    }
}
