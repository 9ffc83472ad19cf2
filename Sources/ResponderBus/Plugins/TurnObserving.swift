/// A plugin told when a loop turn is over and every decision of it has been applied to the model:
/// the place to check another plugin's result.
///
/// A plugin sees each event in pipeline order, and what a plugin ahead of it derives for that event
/// (a `viewShift`, a `scroll`, a `focusChange`) is delivered — and applied to the screen — after
/// the event has reached every plugin. So on the event, and on ``EventName/turnSettled`` too, a
/// plugin placed `.after("KeyboardAvoidance")` still sees the root where it was. By the time
/// ``turnDidSettle(context:)`` is called, it has moved:
///
/// ```swift
/// final class CoveredControlWarner: TurnObserving {
///     func turnDidSettle(context: PluginContext) {
///         guard let covered = context.keyboard.coveredPart else { return }
///         // context.screen is the screen after avoidance moved it.
///     }
/// }
/// ```
///
/// ## When it is called
///
/// Once per loop turn in which a built-in event other than a ``EventName/diagnostic`` was posted (a
/// keyboard, editing, Return or screen event, a built-in decision such as `viewShift`, or
/// `turnSettled`; events a plugin defines for itself do not count), at the end of that turn,
/// after the end-of-turn work of the turn (``PostingStyle/asap`` posts, `turnSettled`,
/// ``BusLoop/runAtEndOfTurn(_:)`` work) has run and what it derived has been applied. With a
/// settle window (a `TextViewOrdering` setting), the turn whose timer posts `turnSettled` is such a
/// turn too, and is the one where avoidance decides. What you post from here is delivered and
/// applied at once, but does not call this again in the same turn.
///
/// Conforming to `TurnObserving` alone is enough for a plugin to be registered.
public protocol TurnObserving: ResponderPlugin {
    /// The turn is over and its decisions are in the model. May throw, as every callback may.
    func turnDidSettle(context: PluginContext) throws
}

/// The bus's bookkeeping for ``TurnObserving``: whether a turn had activity, and whether the call
/// at its end is scheduled. One value, reached once per event when turn observers are registered.
@usableFromInline
struct TurnWatch {
    /// Whether any registered plugin is a ``TurnObserving`` one (nothing is counted otherwise).
    @usableFromInline var hasObservers = false
    /// Events of interest seen; compared between passes of the end-of-turn check.
    var activity: UInt64 = 0
    /// Whether the end-of-turn check is scheduled.
    var scheduled = false
    /// Set while the observers are being called: what they post does not schedule another call.
    var delivering = false

    /// Notes an event of interest; returns whether the end-of-turn check must be scheduled.
    @usableFromInline
    mutating func noteActivity() -> Bool {
        activity &+= 1
        guard !scheduled, !delivering else { return false }
        scheduled = true
        return true
    }
}

extension Bus {
    /// Notes activity for the ``TurnObserving`` plugins and schedules their call at the turn's end.
    @usableFromInline
    func noteTurnActivity() {
        if state.turnWatch.noteActivity() { scheduleTurnCheck(pass: 0, seen: state.turnWatch.activity) }
    }

    /// The end-of-turn check: runs again at the end of the turn's work as long as something was
    /// posted since the last pass (end-of-turn work runs in order, so a pass queued now runs after
    /// everything queued before it), then calls the observers. The first pass always goes round
    /// once more, for `asap` posts queued during the same callback. On a loop that does not count
    /// its turns, it ends the turn of the plugins' decisions after the observers' call (see
    /// `noteDecision`).
    func scheduleTurnCheck(pass: Int, seen: UInt64) {
        loop.runAtEndOfTurn { [weak self] in
            guard let self else { return }
            if pass == 0 || state.turnWatch.activity != seen || !state.asapQueue.isEmpty {
                scheduleTurnCheck(pass: pass + 1, seen: state.turnWatch.activity)
                return
            }
            state.turnWatch.scheduled = false
            state.turnWatch.delivering = true
            defer {
                state.turnWatch.delivering = false
                state.decisionLedger.endedTurns &+= 1
            }
            for entry in plugins {
                guard let observer = entry.plugin as? any TurnObserving, entry.registration.isActive else { continue }
                do {
                    try observer.turnDidSettle(context: entry.context)
                } catch {
                    entry.context.reportFailure(error, handling: "turnDidSettle")
                }
            }
        }
    }

    /// Keeps ``TurnWatch/hasObservers`` up to date when the pipeline changes.
    func updateTurnObservers() {
        state.turnWatch.hasObservers = plugins.contains { $0.plugin is any TurnObserving }
    }
}
