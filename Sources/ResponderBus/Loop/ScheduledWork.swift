/// A handle on work scheduled with ``BusLoop/schedule(after:_:)``.
///
/// Loop-confined: cancel it on the loop that scheduled it.
public final class ScheduledWork {
    /// Whether ``cancel()`` was called before the work ran.
    public private(set) var isCancelled: Bool {
        get { state.value.isCancelled }
        set { state.value.isCancelled = newValue }
    }
    /// Whether the work has run.
    public internal(set) var hasRun: Bool {
        get { state.value.hasRun }
        set { state.value.hasRun = newValue }
    }
    private var onCancel: (() -> Void)? {
        get { state.value.onCancel }
        set { state.value.onCancel = newValue }
    }

    /// The handle's state, in the core's loop-confined box (a class's stored properties are checked
    /// for exclusivity at run time on every access; a replay cancels and fires a timer per held
    /// keyboard frame).
    private struct State {
        var isCancelled = false
        var hasRun = false
        var onCancel: (() -> Void)?
    }
    private let state: UncheckedExclusivity<State>

    /// Creates a handle; `onCancel` is called once, by the first ``cancel()`` before the work ran.
    ///
    /// Loop implementations use this to release their timer.
    public init(onCancel: (() -> Void)? = nil) {
        state = UncheckedExclusivity(State(onCancel: onCancel))
    }

    /// Stops the work from running. Idempotent; does nothing once the work has run.
    public func cancel() {
        guard !isCancelled, !hasRun else { return }
        isCancelled = true
        let callback = onCancel
        onCancel = nil
        callback?()
    }

    /// Runs `work` unless cancelled, and records that it ran. For loop implementations.
    public func fire(_ work: () -> Void) {
        guard !isCancelled, !hasRun else { return }
        hasRun = true
        onCancel = nil
        work()
    }
}
