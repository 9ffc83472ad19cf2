import ResponderBus

/// How noisy the keyboard was during one keyboard session, from its first show to the hide that
/// ends it.
public struct NoiseReport: Hashable, Sendable, CustomStringConvertible {
    /// When the session began and ended, in seconds.
    public var start: Double
    /// When the session ended, in seconds.
    public var end: Double
    /// Keyboard events with an end frame during the session.
    public var frames: Int
    /// Clusters of two or more different frames within the burst window (third-party keyboards
    /// announce 0, 216 and 259 points within milliseconds).
    public var bursts: Int
    /// `keyboardWillShow` events repeating the frame of the previous one, with no hide between.
    public var duplicateShows: Int
    /// Hides whose end frame is still on screen (iOS with Reduce Motion sends such frames).
    public var hidesOnScreen: Int
    /// Events from another app's keyboard (`isLocal: false`).
    public var otherAppEvents: Int

    /// Whether nothing noisy happened.
    public var isQuiet: Bool { bursts == 0 && duplicateShows == 0 && hidesOnScreen == 0 && otherAppEvents == 0 }

    /// A sentence for a diagnostic.
    public var description: String {
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
        return "keyboard session \(secondsText(start))–\(secondsText(end)) s: \(count(frames, "frame", "frames")), "
            + "\(count(bursts, "burst", "bursts")), \(count(duplicateShows, "duplicate show", "duplicate shows")), "
            + "\(count(hidesOnScreen, "hide with an on-screen frame", "hides with an on-screen frame")), "
            + "\(count(otherAppEvents, "event from another app's keyboard", "events from another app's keyboard"))"
    }
}

/// Seconds to the millisecond, without a trailing `.0`.
private func secondsText(_ t: Double) -> String {
    let rounded = (t * 1000).rounded() / 1000
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}

/// The decision logic of ``KeyboardNoise``: a state machine over keyboard events, testable without
/// a bus.
public struct NoiseCounter: Hashable, Sendable {
    /// How close two frames must be to count as one burst.
    public var burstWindow: Double
    private var report: NoiseReport?
    private var lastFrameAt: Double?
    private var lastFrame: Rect?
    private var inBurst = false
    private var lastShowFrame: Rect?

    /// Creates a counter.
    public init(burstWindow: Double = 0.05) {
        self.burstWindow = burstWindow
    }

    /// Notes a keyboard event at time `t` on a screen of `size`.
    ///
    /// - Returns: the session's report when this event ends a session (its first hide).
    public mutating func note(_ name: EventName<KeyboardInfo>, _ info: KeyboardInfo, at t: Double, screen size: Size) -> NoiseReport? {
        if info.isLocal == false {
            ensureSession(at: t)
            report?.otherAppEvents += 1
            return nil
        }
        if name.isHide {
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
        if name == .keyboardWillShow {
            if let lastShowFrame, lastShowFrame == end { report?.duplicateShows += 1 }
            lastShowFrame = end
        }
        lastFrameAt = t
        lastFrame = end
        return nil
    }

    private mutating func ensureSession(at t: Double) {
        if report == nil {
            report = NoiseReport(start: t, end: t, frames: 0, bursts: 0, duplicateShows: 0, hidesOnScreen: 0, otherAppEvents: 0)
        }
    }

    private mutating func reset() {
        report = nil
        lastFrameAt = nil
        lastFrame = nil
        inBurst = false
        lastShowFrame = nil
    }
}
