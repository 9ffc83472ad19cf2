/// Work waiting in a loop's queue (end-of-turn and idle work): a closure, or an object the loop
/// holds until then (``LoopWork``).
///
/// Wrapped in a struct, and not a generic one, so that a generic container (a `Deque`) stores the
/// closure as it is. A function type that is a generic parameter's value is stored reabstracted,
/// and every append then allocates a thunk closure around it: one heap allocation per hook.
package struct QueuedWork {
    private enum Body {
        case closure(() -> Void)
        case object(any LoopWork)
    }
    private let body: Body

    /// Work that is a closure.
    package init(_ run: @escaping () -> Void) {
        body = .closure(run)
    }

    /// Work that is an object's ``LoopWork/runLoopWork()``: queueing it retains the object, and
    /// allocates nothing.
    package init(_ object: any LoopWork) {
        body = .object(object)
    }

    /// Runs the work. Consuming: the work is taken, not copied (a copy retains the closure's
    /// context or the object).
    @inline(__always)
    package consuming func run() {
        switch body {
        case .closure(let run): run()
        case .object(let object): object.runLoopWork()
        }
    }
}

/// An object that is its own loop work: queued as it is, where a closure would capture it (a
/// retain more, and one more in passing it on). The bus's end-of-turn drain on the virtual-time
/// loop, queued in most turns of a replay.
package protocol LoopWork: AnyObject {
    /// Does the work; called on the loop, once per time the object was queued.
    func runLoopWork()
}
