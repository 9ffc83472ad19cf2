// KeyboardNoise.swift — the built-in KeyboardNoise plugin (Plugins/KeyboardNoise), as a WebAssembly
// plugin in Embedded Swift: for each keyboard session, how noisy the keyboard was — bursts of
// frames, duplicate shows, hides that still draw the keyboard on screen, events from another app's
// keyboard — as one info diagnostic when the session ends with a hide. A quiet session says
// nothing. Same logic, same words as the built-in; the name is KeyboardNoiseWasm.
//
//     PluginKits/swift-wasm/build.sh PluginKits/swift-wasm/examples/KeyboardNoise.swift KeyboardNoise.wasm
//     responder-bus replay session.jsonl --plugin KeyboardNoise.wasm

/// How noisy the keyboard was during one keyboard session, from its first show to the hide that
/// ends it.
struct NoiseReport: Equatable {
    /// When the session began, in seconds.
    var start: Double
    /// When the session ended, in seconds.
    var end: Double
    /// Keyboard events with an end frame during the session.
    var frames = 0
    /// Clusters of two or more different frames within the burst window.
    var bursts = 0
    /// `keyboardWillShow` events repeating the frame of the previous one, with no hide between.
    var duplicateShows = 0
    /// Hides whose end frame is still on screen.
    var hidesOnScreen = 0
    /// Events from another app's keyboard (`isLocal: false`).
    var otherAppEvents = 0

    /// Whether nothing noisy happened.
    var isQuiet: Bool { bursts == 0 && duplicateShows == 0 && hidesOnScreen == 0 && otherAppEvents == 0 }

    /// A sentence for a diagnostic, word for word the built-in's.
    var description: String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        return "keyboard session \(secondsText(start))–\(secondsText(end)) s: \(count(frames, "frame", "frames")), "
            + "\(count(bursts, "burst", "bursts")), \(count(duplicateShows, "duplicate show", "duplicate shows")), "
            + "\(count(hidesOnScreen, "hide with an on-screen frame", "hides with an on-screen frame")), "
            + "\(count(otherAppEvents, "event from another app's keyboard", "events from another app's keyboard"))"
    }
}

/// Seconds to the millisecond, without a trailing `.0`: what the built-in's
/// `String((t * 1000).rounded() / 1000)` prints, from whole milliseconds, with integer arithmetic
/// (no Double-to-text code in the module).
func secondsText(_ t: Double) -> String {
    let milliseconds = Int64((t * 1000).rounded())
    let whole = milliseconds / 1000
    var fraction = Int((milliseconds % 1000).magnitude)
    if fraction == 0 { return String(whole) }
    var digits = 3
    while fraction % 10 == 0 {
        fraction /= 10
        digits -= 1
    }
    var text = milliseconds < 0 ? "-" : ""
    text += String(whole.magnitude)
    text += "."
    let padded = String(fraction)
    for _ in padded.utf8.count..<digits { text += "0" }
    return text + padded
}

/// The decision logic: a state machine over keyboard events.
struct NoiseCounter {
    /// How close two frames must be to count as one burst, in seconds.
    var burstWindow: Double
    private var report: NoiseReport?
    private var lastFrameAt: Double?
    private var lastFrame: Rect?
    private var inBurst = false
    private var lastShowFrame: Rect?

    /// Creates a counter.
    init(burstWindow: Double = 0.05) {
        self.burstWindow = burstWindow
    }

    /// Notes a keyboard event at time `t` on a screen of `size`.
    ///
    /// - Returns: the session's report when this event ends a session (its first hide).
    mutating func note(_ kind: EventKind, _ info: KeyboardPayload, at t: Double, screen size: Size) -> NoiseReport? {
        if info.isLocal == false {
            ensureSession(at: t)
            report?.otherAppEvents += 1
            return nil
        }
        if kind.isHide {
            guard var finished = report else { return nil }
            if info.coveredPart(ofScreen: size, isHide: false) != nil { finished.hidesOnScreen += 1 }
            finished.end = t
            reset()
            return finished
        }
        guard let end = info.end else { return nil }
        ensureSession(at: t)
        report?.frames += 1
        if let previousAt = lastFrameAt, let previous = lastFrame, end != previous, t - previousAt <= burstWindow {
            if !inBurst { report?.bursts += 1 }
            inBurst = true
        } else if lastFrame != end {
            inBurst = false
        }
        if kind == .keyboardWillShow {
            if let lastShowFrame, lastShowFrame == end { report?.duplicateShows += 1 }
            lastShowFrame = end
        }
        lastFrameAt = t
        lastFrame = end
        return nil
    }

    private mutating func ensureSession(at t: Double) {
        if report == nil { report = NoiseReport(start: t, end: t) }
    }

    private mutating func reset() {
        report = nil
        lastFrameAt = nil
        lastFrame = nil
        inBurst = false
        lastShowFrame = nil
    }
}

/// The plugin's state: one counter for the session (each replay gets a fresh instance).
nonisolated(unsafe) var counter = NoiseCounter()

/// The handshake: the name, and the keyboard's six events.
func pluginInit() -> Int32 {
    setName("KeyboardNoiseWasm")
    observe(EventKind.keyboardEvents)
    return 0
}

/// Counts the event; at the end of a noisy session, reports it.
func pluginEvent(_ kind: EventKind, _ t: Double, _ payload: Payload) -> Int32 {
    guard let info = payload.keyboard, let report = counter.note(kind, info, at: t, screen: screen().size) else { return 0 }
    if !report.isQuiet { diagnose(.info, report.description) }
    return 0
}
