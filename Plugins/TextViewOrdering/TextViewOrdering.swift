import ResponderBus

/// Makes the pipeline independent of the order in which UIKit delivers a turn's events.
///
/// UIKit tells a text field's `didBeginEditing` *before* the keyboard event, and a text view's
/// *after* it, in the same run-loop turn (the same `t` in a log). Naive avoidance therefore has no
/// field when a text view's keyboard arrives, and moving from a text field to a text view moves for
/// the old field first. This plugin collects each turn's keyboard, editing, focus, frame and screen
/// events and posts one `EventName.turnSettled` at the end of the turn (the bus's
/// as-soon-as-possible posting style, coalesced), so that the plugins after it — avoidance above
/// all — decide once, on the turn's final state:
///
/// - a session gives the same `viewShift`s with a text field as with a text view;
/// - moving from a text field to a text view while the keyboard is up is one move, straight to the
///   text view's target;
/// - a keyboard frame held for a field that never comes moves nothing, and a warning diagnostic
///   says so (when the keyboard goes, or after ``heldFrameTimeout``).
///
/// With ``settleWindow`` set, keyboard frames that follow each other within the window (third-party
/// keyboards send 0 → 216 → 259 points within milliseconds) collapse into the last: `turnSettled`
/// comes when the window has passed without a new frame. Every other event joins a running window
/// or opens one, so a text field's `didBeginEditing` just before a burst does not settle early.
/// Off by default.
///
/// Another app's keyboard (`isLocal: false`) ends a turn like any other event but is never "held"
/// for a field.
///
/// Register it **before** the plugins that decide on `turnSettled`.
public final class TextViewOrdering: KeyboardObserving, EditingObserving, EventObserving, TurnSettling, TurnSettledObserving {
    /// The plugin's name: `"TextViewOrdering"`.
    public let name: String
    /// How long a held keyboard frame waits for its field before a diagnostic says so.
    public var heldFrameTimeout: Duration

    private var settler: TurnSettler
    private var window: ScheduledWork?
    private var heldTimeout: ScheduledWork?
    private var reportedHold: Duration?

    /// Creates the plugin.
    ///
    /// - Parameters:
    ///   - settleWindow: collapse keyboard frames arriving within this window; `nil` (the default)
    ///     settles at the end of every loop turn.
    ///   - heldFrameTimeout: how long a keyboard frame may wait for its field before a diagnostic.
    ///   - name: the plugin's name, `"TextViewOrdering"` unless you run two.
    public init(settleWindow: Duration? = nil, heldFrameTimeout: Duration = .seconds(1), name: String = "TextViewOrdering") {
        self.name = name
        self.heldFrameTimeout = heldFrameTimeout
        settler = TurnSettler(settleWindow: settleWindow)
    }

    /// The settle window for keyboard bursts, `nil` when off.
    public var settleWindow: Duration? {
        get { settler.settleWindow }
        set { settler.settleWindow = newValue }
    }

    /// The responder events that end up in a turn, but for editing (``didBeginEditing(_:context:)``,
    /// ``didEndEditing(_:context:)``) and `turnSettled` itself (``turnSettled(_:context:)``).
    public var observedEvents: Set<AnyEventName>? {
        [
            EventName.focusChange.erased, EventName.resign.erased, EventName.setFrame.erased, EventName.screen.erased,
            EventName.scene.erased, EventName.viewSettings.erased,
        ]
    }

    /// Notes the keyboard (any of the six events).
    public func keyboardEvent(_ event: Event<KeyboardInfo>, context: PluginContext) {
        // Another app's keyboard ends a turn like any event but is never "held" for a field of ours
        // (the model's `ownApp` reading, which the bus has already updated, ignores it).
        schedule(settler.note(isKeyboard: true), context)
    }

    /// Notes a field beginning to edit.
    public func didBeginEditing(_ event: Event<EditingInfo>, context: PluginContext) {
        schedule(settler.note(isKeyboard: false), context)
    }

    /// Notes a field ending editing.
    public func didEndEditing(_ event: Event<EditingInfo>, context: PluginContext) {
        schedule(settler.note(isKeyboard: false), context)
    }

    /// Notes a focus, frame or screen change.
    public func observe(_ event: AnyEvent, context: PluginContext) {
        schedule(settler.note(isKeyboard: false), context)
    }

    /// Checks a held frame when a turn settled.
    public func turnSettled(_ event: Event<TurnSettled>, context: PluginContext) {
        // Only our own settles; another settler's are its business.
        if event.origin.derivingPlugin == name { settled(context) }
    }

    private func schedule(_ action: TurnSettler.Action, _ context: PluginContext) {
        switch action {
        case .settleAtEndOfTurn:
            postSettled(context, style: .asap)
        case .restartWindow(let duration):
            window?.cancel()
            window = context.loop.schedule(after: duration) { [weak self] in
                guard let self else { return }
                self.window = nil
                self.settler.windowElapsed()
                self.postSettled(context, style: .now)
            }
        case .waitForWindow:
            break
        }
    }

    private func postSettled(_ context: PluginContext, style: PostingStyle) {
        let payload = TurnSettled(collapsedEvents: settler.pendingEvents, firstResponder: context.firstResponder?.id)
        context.post(.turnSettled, payload, style: style, coalescing: .onName)
    }

    private func settled(_ context: PluginContext) {
        _ = settler.settle()
        // With a field, whether the keyboard covers changes nothing (`TurnSettler.settled`): it is
        // measured only without one.
        let hasField = context.firstResponder != nil
        let covers = !hasField && context.keyboard.coveredPart != nil
        let hold = settler.settled(keyboardCovers: covers, hasField: hasField, now: context.now)
        switch hold {
        case .started:
            heldTimeout?.cancel()
            let since = context.now
            heldTimeout = context.loop.schedule(after: heldFrameTimeout) { [weak self] in
                guard let self, self.settler.heldSince == since else { return }
                self.reportedHold = since
                context.diagnose(
                    .warning,
                    "a keyboard frame \(context.keyboard.latest?.end?.description ?? "?") has been held since \(Self.seconds(since)) for a field that has not begun editing; nothing moved"
                )
            }
        case .used:
            heldTimeout?.cancel()
            heldTimeout = nil
        case .abandoned(let since):
            heldTimeout?.cancel()
            heldTimeout = nil
            // Said once: not again when the timeout already reported this hold.
            guard reportedHold != since else { return }
            context.diagnose(
                .warning,
                "the keyboard went away; its frame, held since \(Self.seconds(since)), never found a field that began editing, so nothing moved")
        case .none, .stillHeld:
            break
        }
    }

    /// `t=1.234 s`: the time rounded to the millisecond, written as `Double`'s description writes it.
    static func seconds(_ time: Duration) -> String {
        let (whole, attoseconds) = time.components
        let value = Double(whole) + Double(attoseconds) / 1e18
        let milliseconds = (value * 1000).rounded()
        // A whole number of milliseconds below 2^40 (about 35 years) is written exactly as its
        // decimal with the zeros after the point trimmed (one kept): a double that close to k/1000
        // has an ulp under 1/4096, so no shorter decimal rounds to it, and that is the description's
        // rule. Digits by hand, not the general float printer (a held frame is reported per turn).
        guard milliseconds >= 0, milliseconds < 0x1p40, milliseconds.sign == .plus else {
            return "t=\(milliseconds / 1000) s"
        }
        let k = Int(milliseconds)
        return String(unsafeUninitializedCapacity: 24) { bytes in
            var count = 0
            func put(_ byte: UInt8) {
                bytes[count] = byte
                count += 1
            }
            put(UInt8(ascii: "t"))
            put(UInt8(ascii: "="))
            let whole = k / 1000
            var divisor = 1
            while divisor <= whole / 10 { divisor *= 10 }
            while divisor > 0 {
                put(UInt8(ascii: "0") + UInt8(whole / divisor % 10))
                divisor /= 10
            }
            put(UInt8(ascii: "."))
            let fraction = k % 1000
            put(UInt8(ascii: "0") + UInt8(fraction / 100))
            if fraction % 100 != 0 { put(UInt8(ascii: "0") + UInt8(fraction / 10 % 10)) }
            if fraction % 10 != 0 { put(UInt8(ascii: "0") + UInt8(fraction % 10)) }
            put(UInt8(ascii: " "))
            put(UInt8(ascii: "s"))
            return count
        }
    }
}
