#if DEBUG
    import Synchronization

    import ResponderBusPlatform
#endif

/// A box for state used by one thread at a time (the bus's loop, or a reader's thread): read and
/// changed in place without the run-time exclusivity checks Swift makes on a class's stored
/// properties.
///
/// `package`: the screen model, the log reader and the replay's output keep state read on every
/// event in one (`private let state = UncheckedExclusivity(State())`, then `state.value.keyboard`): the
/// box is a `let`, so reaching it is not checked, and the value inside is not checked either. It
/// is one of the audited escape hatches (see `.ci/unsafe-allowlist`; `Benchmarks/README.md` says
/// what each use saves). Plugins keep their state in ordinary private properties.
///
/// ## Invariant
///
/// Use it from one thread at a time (the screen model's on the bus's loop; the replay's output on
/// the thread that replays; a log reader's on the thread reading it, handed over only while
/// nothing reads), and never pass ``value`` (or a part of it) `inout` to code that reaches the
/// same box. It is not `Sendable`.
///
/// ## Checked in debug builds
///
/// With assertions on (`DEBUG`), the box knows which thread is changing its value: from the start
/// of a change in place (``value``'s `_modify`) to its end, another thread that reads or changes it
/// stops the process, naming the box's type — the two threads the invariant forbids, caught where
/// they meet rather than as a torn value later. Release builds check nothing: the box is then a
/// stored property and nothing more.
@usableFromInline
package final class UncheckedExclusivity<Value> {
    @usableFromInline @exclusivity(unchecked) var _value: Value

    #if DEBUG
        /// The thread changing the value in place, as `pthread_self()`; 0 when none is.
        @usableFromInline let writer = Atomic<UInt>(0)
    #endif

    /// A box holding `value`.
    @usableFromInline
    package init(_ value: Value) {
        _value = value
    }

    /// The value, read and changed in place.
    @inlinable package var value: Value {
        get {
            #if DEBUG
                checkNoOtherWriter()
            #endif
            return _value
        }
        _modify {
            #if DEBUG
                let began = beginChange()
                defer { if began { writer.store(0, ordering: .releasing) } }
            #endif
            yield &_value
        }
    }

    #if DEBUG
        /// The calling thread's identity.
        @usableFromInline static var currentThread: UInt {
            #if canImport(Darwin)
                UInt(bitPattern: pthread_self())
            #else
                UInt(pthread_self())
            #endif
        }

        /// Stops the process when another thread is changing the value.
        @usableFromInline func checkNoOtherWriter() {
            let current = writer.load(ordering: .acquiring)
            if current != 0 && current != Self.currentThread { reachedFromSecondThread() }
        }

        /// Marks the calling thread as the one changing the value; `false` when it already was (a
        /// change within its own change). Stops the process when another thread is changing it.
        @usableFromInline func beginChange() -> Bool {
            let me = Self.currentThread
            let (exchanged, original) = writer.compareExchange(expected: 0, desired: me, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            if original != me { reachedFromSecondThread() }
            return false
        }

        @usableFromInline func reachedFromSecondThread() -> Never {
            preconditionFailure(
                "UncheckedExclusivity<\(Value.self)>: reached from a second thread while another changes it; it is used from one thread at a time (the bus's loop, the replaying thread)"
            )
        }
    #endif
}
