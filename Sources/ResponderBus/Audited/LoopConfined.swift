/// A plugin's state that lives on the bus's loop: read and changed in callbacks, one at a time,
/// without the run-time exclusivity checks Swift makes on a class's stored properties.
///
/// A plugin keeps what it remembers in ordinary properties, and that is right for most. A plugin
/// that reads its state on every event of a long replay can keep it in one of these instead
/// (`private let state = LoopConfined(State())`, then `state.value.keyboard`): the box is a `let`,
/// so reaching it is not checked, and the value inside is not checked either. This is one of the
/// core's audited escape hatches (see `.ci/unsafe-allowlist`), so that plugins need none of
/// their own; the benchmark case "replay 1000000 events, 3 plugins → /dev/null" says what it saves.
///
/// ## Invariant
///
/// Use it only on the bus's loop (from callbacks, hooks and the loop's timers), and never pass
/// ``value`` (or a part of it) `inout` to code that reaches the same box: nothing checks either.
/// It is not `Sendable`. (State that is not a plugin's but is just as confined to one thread, such
/// as the command-line tool's buffered output, written only by the thread that replays, or a log
/// reader, which one thread at a time reads, may live in one on the same terms.)
public final class LoopConfined<Value> {
    @usableFromInline @exclusivity(unchecked) var _value: Value

    /// A box holding `value`.
    public init(_ value: Value) {
        _value = value
    }

    /// The value, read and changed in place.
    @inlinable public var value: Value {
        get { _value }
        _modify { yield &_value }
    }
}
