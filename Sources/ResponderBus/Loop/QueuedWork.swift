/// A closure waiting in a loop's queue (end-of-turn and idle work).
///
/// Wrapped in a struct, and not a generic one, so that a generic container (a `Deque`) stores the
/// closure as it is. A function type that is a generic parameter's value is stored reabstracted,
/// and every append then allocates a thunk closure around it: one heap allocation per hook.
package struct QueuedWork {
    package let run: () -> Void

    package init(_ run: @escaping () -> Void) {
        self.run = run
    }
}
