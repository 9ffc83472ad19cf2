/// A handle on work scheduled with ``BusLoop/schedule(after:_:)``.
///
/// Loop-confined: cancel it on the loop that scheduled it.
public final class ScheduledWork {
    /// Whether ``cancel()`` was called before the work ran.
    public private(set) var isCancelled = false
    /// Whether the work has run.
    public internal(set) var hasRun = false
    private var onCancel: (() -> Void)?

    /// Creates a handle; `onCancel` is called once, by the first ``cancel()`` before the work ran.
    ///
    /// Loop implementations use this to release their timer.
    public init(onCancel: (() -> Void)? = nil) {
        self.onCancel = onCancel
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
