import ResponderBus

/// The decision logic of ``TextViewOrdering`` as a value-type state machine, testable without a bus.
///
/// It counts the events of a turn, knows whether a settle window is running, and tracks a keyboard
/// frame that is held for a field that has not come yet.
public struct TurnSettler: Hashable, Sendable {
    /// What to do after noting an event.
    public enum Action: Hashable, Sendable {
        /// Post `turnSettled` at the end of this loop turn (asap, coalesced).
        case settleAtEndOfTurn
        /// (Re)start the settle window; post `turnSettled` when it elapses.
        case restartWindow(Duration)
        /// Nothing: a running window will settle this event too.
        case waitForWindow
    }

    /// What the settled state means for a held keyboard frame.
    public enum Hold: Hashable, Sendable {
        /// Nothing held, nothing to say.
        case none
        /// A covering keyboard arrived with no field: the frame is held from now on.
        case started
        /// Still held.
        case stillHeld
        /// The field came: the held frame is used.
        case used
        /// The keyboard went away while its frame was held for a field that never came.
        case abandoned(since: Duration)
    }

    /// The settle window for bursts; `nil` settles at the end of every turn.
    public var settleWindow: Duration?
    /// Events noted since the last settle.
    public private(set) var pendingEvents = 0
    /// Whether a settle window is running.
    public private(set) var windowRunning = false
    /// Since when a keyboard frame has been held for a field that has not come, if one is.
    public private(set) var heldSince: Duration?
    /// Keyboard events noted since the last settle.
    public private(set) var pendingKeyboardEvents = 0
    /// Whether the turn settled last carried a keyboard event: only a keyboard frame that arrives
    /// with no field starts a hold, not a field that leaves while the keyboard is up.
    public private(set) var settledKeyboardEvents = false

    /// Creates a settler.
    public init(settleWindow: Duration? = nil) {
        self.settleWindow = settleWindow
    }

    /// Notes an event of interest; `isKeyboard` for keyboard events (the ones a window collapses).
    ///
    /// With a settle window, every event joins the window (a text field's `didBeginEditing` comes
    /// just before the burst's first frame, so it must not settle on its own), and each keyboard
    /// frame restarts it.
    public mutating func note(isKeyboard: Bool) -> Action {
        pendingEvents += 1
        if isKeyboard { pendingKeyboardEvents += 1 }
        guard let settleWindow else { return .settleAtEndOfTurn }
        if windowRunning {
            return isKeyboard ? .restartWindow(settleWindow) : .waitForWindow
        }
        windowRunning = true
        return .restartWindow(settleWindow)
    }

    /// The settle window elapsed.
    public mutating func windowElapsed() {
        windowRunning = false
    }

    /// The turn settled: returns how many events it collapsed and resets the count.
    public mutating func settle() -> Int {
        defer {
            pendingEvents = 0
            pendingKeyboardEvents = 0
        }
        settledKeyboardEvents = pendingKeyboardEvents > 0
        return pendingEvents
    }

    /// Updates the held-frame state once a turn settled.
    ///
    /// - Parameters:
    ///   - keyboardCovers: whether the keyboard covers part of the screen now.
    ///   - hasField: whether a field is first responder now.
    ///   - now: the loop's time.
    public mutating func settled(keyboardCovers: Bool, hasField: Bool, now: Duration) -> Hold {
        switch (keyboardCovers, hasField, heldSince) {
        case (true, false, nil):
            // A field that resigned with the keyboard up (Return on the last field) holds nothing:
            // no frame came for a field.
            guard settledKeyboardEvents else { return .none }
            heldSince = now
            return .started
        case (true, false, .some):
            return .stillHeld
        case (_, true, .some):
            heldSince = nil
            return .used
        case (false, false, .some(let since)):
            heldSince = nil
            return .abandoned(since: since)
        default:
            return .none
        }
    }
}
