/// The payload of ``EventName/turnSettled``: the end of a loop turn in which the keyboard or the
/// responders changed.
public struct TurnSettled: Hashable, Sendable {
    /// How many events of interest the turn (or settle window) collapsed.
    public var collapsedEvents: Int
    /// The first responder once the turn settled.
    public var firstResponder: ViewID?

    /// Creates the payload.
    public init(collapsedEvents: Int, firstResponder: ViewID?) {
        self.collapsedEvents = collapsedEvents
        self.firstResponder = firstResponder
    }
}

extension EventName where Payload == TurnSettled {
    /// Derived by a ``TurnSettling`` plugin at the end of every loop turn in which keyboard,
    /// editing, focus, frame or screen events arrived: decide on this, and you decide once, on the
    /// turn's final state, whatever order UIKit delivered the turn's events in.
    public static var turnSettled: Self { Self(builtin: .turnSettled) }
}

/// A plugin that posts ``EventName/turnSettled`` at the end of every loop turn with responder
/// activity (the text-view ordering plugin does).
///
/// A plugin placed after one in the pipeline can see that through
/// ``PluginContext/turnsAreSettled`` and decide on `turnSettled` instead of on each event.
///
/// ## Implementation requirements
///
/// Post ``EventName/turnSettled`` (``PostingStyle/asap``, coalesced on name) after every turn that
/// delivered a keyboard event, `didBeginEditing`/`didEndEditing`, `focusChange`, `resign`,
/// `setFrame`, `screen` or `scene`; never skip one.
public protocol TurnSettling: ResponderPlugin {}
