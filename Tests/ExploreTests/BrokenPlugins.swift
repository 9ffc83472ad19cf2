import ResponderBusTesting

// Plugins broken on purpose, one for each property: each test shows the explorer catching it
// with a shrunk session of at most 12 events.

/// Moves nothing: whatever the keyboard covers stays covered.
final class MovesNothing: KeyboardObserving {
    let name = "MovesNothing"
}

/// Moves the root up by the keyboard's height when it shows, and never back.
final class NeverRestores: KeyboardObserving {
    let name = "NeverRestores"
    func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
        guard let covering = context.keyboard.coveredPart else { return }
        context.post(.viewShift, ViewShift(originY: -covering.height))
    }
}

/// Moves the root twice for each keyboard frame: half way, then the rest.
final class MovesTwice: KeyboardObserving {
    let name = "MovesTwice"
    func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
        guard let covering = context.keyboard.coveredPart else { return }
        context.post(.viewShift, ViewShift(originY: -covering.height / 2))
        context.post(.viewShift, ViewShift(originY: -covering.height))
    }
    func keyboardWillHide(_ event: Event<KeyboardInfo>, context: PluginContext) {
        context.post(.viewShift, ViewShift(originY: 0))
    }
}

/// Sets the root to `originY` on every keyboard frame, as another plugin sets it elsewhere: two of
/// them conflict.
final class SetsRoot: KeyboardObserving {
    let name: String
    let originY: Double
    init(_ name: String, originY: Double) {
        self.name = name
        self.originY = originY
    }
    func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
        context.post(.viewShift, ViewShift(originY: originY))
    }
}

/// Fails on Return: posts an error diagnostic.
final class FailsOnReturn: ReturnKeyObserving {
    let name = "FailsOnReturn"
    func returnKey(_ event: Event<ReturnKeyInfo>, context: PluginContext) {
        context.diagnose(.error, "cannot handle Return in '\(event.payload.view)'")
    }
}

/// Throws when the keyboard hides.
final class ThrowsOnHide: KeyboardObserving {
    struct Failure: Error {}
    let name = "ThrowsOnHide"
    func keyboardWillHide(_ event: Event<KeyboardInfo>, context: PluginContext) throws {
        throw Failure()
    }
}

/// Decides from a counter shared by every instance: a second run on fresh plugins moves the root
/// elsewhere.
final class RemembersRuns: KeyboardObserving {
    nonisolated(unsafe) static var runs = 0
    let name = "RemembersRuns"
    let run: Int
    init() {
        Self.runs += 1
        run = Self.runs
    }
    func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
        context.post(.viewShift, ViewShift(originY: Double(-(run % 7))))
    }
}
