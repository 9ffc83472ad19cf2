import ResponderBus

/// A moment when the focused field was left covered by the keyboard after the keyboard settled.
public struct CoverageViolation: Hashable, Sendable, CustomStringConvertible {
    /// When the check found it, in seconds.
    public var t: Double
    /// The covered field.
    public var field: ViewID
    /// How many points of the field's height are under the keyboard.
    public var coveredHeight: Double
    /// The field's frame on screen at that moment.
    public var fieldFrame: Rect
    /// The keyboard's top edge on screen.
    public var keyboardTop: Double
    /// Why the field stays covered, as a plugin explained it: the message of the last diagnostic
    /// that names the field in its `views` and says why in `metadata["why"]` (what
    /// `KeyboardAvoidance` posts when a limit of its rule, a setting or an undocked keyboard holds
    /// it), posted since the last move; `nil` when none did.
    public var reason: String?

    /// Creates a violation.
    public init(t: Double, field: ViewID, coveredHeight: Double, fieldFrame: Rect, keyboardTop: Double, reason: String? = nil) {
        self.t = t
        self.field = field
        self.coveredHeight = coveredHeight
        self.fieldFrame = fieldFrame
        self.keyboardTop = keyboardTop
        self.reason = reason
    }

    /// `t=0.76 s: ` and the ``summary``.
    public var description: String { "t=\(JSONText.number((t * 1000).rounded() / 1000)) s: " + summary }

    /// What was covered, without the time (for a line that shows the time already):
    /// `'email' is covered by 12 pt (field [20, 552, 335, 44], keyboard top 521)`, followed by
    /// `; why: ` and the ``reason`` when there is one.
    public var summary: String {
        let what =
            "'\(field)' is covered by \(JSONText.number((coveredHeight * 10).rounded() / 10)) pt (field \(fieldFrame), keyboard top \(JSONText.number(keyboardTop)))"
        return reason.map { what + "; why: " + $0 } ?? what
    }
}

/// Watches a bus and reports every moment the focused field is left covered by the keyboard once
/// the keyboard has settled: each time the events stop, it waits for the last keyboard animation
/// (its duration, 0.25 s when missing) and then looks at the field's frame on screen, with the root's
/// shift and scroll offsets applied.
///
/// A violation carries the reason a plugin gave for it (``CoverageViolation/reason``): the last
/// diagnostic naming the field with a `metadata["why"]`, kept until the root, a scroll view or a
/// view moves again (`viewShift`, `scroll`, `viewMove`) or the scene or screen changes.
///
/// The keyboard counts as covering by the same rule the avoidance plugin uses
/// (`KeyboardInfo.coveredPart(ofScreen:isHide:)`; another app's keyboard is ignored).
/// A field counts as covered when more than half a point of it is under the keyboard's top edge. The
/// same covered state is reported once, not at every later check.
public final class CoverageCheck {
    /// The violations found so far.
    public private(set) var violations: [CoverageViolation] = []
    /// Called with each violation as it is found.
    public var onViolation: ((CoverageViolation) -> Void)?

    private let bus: Bus
    private var token: ObservationToken?
    private var pending: ScheduledWork?
    private var lastReported: CoverageViolation?
    /// The reasons plugins gave for fields left under the keyboard, since the last move.
    private var reasons: [ViewID: String] = [:]

    /// Starts watching `bus`. Loop-confined.
    public init(bus: Bus) {
        self.bus = bus
        // The keyboard is the bus's model's (noted before anyone sees a keyboard event).
        token = bus.observeAll { [unowned self] event in
            noteReason(event)
            scheduleCheck()
        }
    }

    private func noteReason(_ event: AnyEvent) {
        if let diagnostic = event.as(.diagnostic)?.payload {
            guard diagnostic.metadata["why"] != nil else { return }
            for view in diagnostic.views { reasons[view] = diagnostic.message }
        } else if !reasons.isEmpty,
            event.name == EventName.viewShift || event.name == EventName.scroll || event.name == EventName.viewMove
                || event.name == EventName.scene || event.name == EventName.screen
        {
            reasons.removeAll()
        }
    }

    /// Stops watching; a pending check is dropped.
    public func stop() {
        token?.cancel()
        token = nil
        pending?.cancel()
    }

    private func scheduleCheck() {
        pending?.cancel()
        pending = bus.loop.schedule(after: Self.settleDelay(on: bus)) { [weak self] in self?.check() }
    }

    /// How long after the last event the keyboard has settled: the last keyboard animation's
    /// duration (0.25 s when missing). The explorer's property checks wait as long.
    package static func settleDelay(on bus: Bus) -> Duration {
        Duration.saturating(seconds: bus.screen.keyboard.latest?.effectiveDuration ?? 0.25)
    }

    /// The focused field when the keyboard covers more than half a point of it: the field, its
    /// frame on screen, the part the keyboard covers and how many points of the field's height.
    package static func coveredFocus(on screen: Screen) -> (field: ViewNode, frame: Rect, covering: Rect, height: Double)? {
        guard let field = screen.firstResponder, field.isVisible, let covering = screen.keyboard.coveredPart else { return nil }
        let frame = screen.frameInScreen(of: field)
        guard let covered = frame.coveredHeight(by: covering) else { return nil }
        return (field, frame, covering, covered)
    }

    /// Checks now.
    public func check() {
        guard let (field, frame, covering, covered) = Self.coveredFocus(on: bus.screen) else {
            lastReported = nil
            return
        }
        let violation = CoverageViolation(
            t: bus.loop.now.seconds, field: field.id, coveredHeight: covered, fieldFrame: frame, keyboardTop: covering.minY,
            reason: reasons[field.id])
        if let last = lastReported, last.field == violation.field, last.fieldFrame == violation.fieldFrame,
            last.keyboardTop == violation.keyboardTop, last.reason == violation.reason
        {
            return
        }
        lastReported = violation
        violations.append(violation)
        onViolation?(violation)
    }
}
