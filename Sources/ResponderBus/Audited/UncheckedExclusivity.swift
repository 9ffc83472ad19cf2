/// A box for state used by one thread at a time (the bus's loop, or a reader's thread): read and
/// changed in place without the run-time exclusivity checks Swift makes on a class's stored
/// properties.
///
/// `package`: the screen model, the log reader and the replay's output keep state read on every
/// event in one (`private let state = UncheckedExclusivity(State())`, then `state.value.keyboard`): the
/// box is a `let`, so reaching it is not checked, and the value inside is not checked either. It
/// is one of the audited escape hatches (see `.ci/unsafe-allowlist`; the benchmark documentation
/// says what each use saves). Plugins keep their state in ordinary private properties.
///
/// ## Invariant
///
/// Use it from one thread at a time (the screen model's on the bus's loop; the replay's output on
/// the thread that replays; a log reader's on the thread reading it, handed over only while
/// nothing reads), and never pass ``value`` (or a part of it) `inout` to code that reaches the
/// same box: nothing checks either. It is not `Sendable`.
@usableFromInline
package final class UncheckedExclusivity<Value> {
    @usableFromInline @exclusivity(unchecked) var _value: Value

    /// A box holding `value`.
    @usableFromInline
    package init(_ value: Value) {
        _value = value
    }

    /// The value, read and changed in place.
    @inlinable package var value: Value {
        get { _value }
        _modify { yield &_value }
    }
}
