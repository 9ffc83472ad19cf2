import ResponderBusPlatform

/// A plain pthread running a closure, for producers and other off-loop callers.
struct TestThread {
    private let thread: SystemThread

    /// Starts a thread running `body`.
    init(_ body: @escaping @Sendable () -> Void) {
        guard let thread = SystemThread.start(body) else { preconditionFailure("pthread_create failed") }
        self.thread = thread
    }

    /// Waits for the thread to end.
    func join() {
        thread.join()
    }
}

/// Mutable state shared with closures that run on the loop; only the loop touches it until the test
/// reads it after a latch, a join or a shutdown (each of which orders the accesses).
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// What the kernel knows about the calling thread (the platform layer asks it).
enum CurrentThread {
    /// The kernel's id of the calling thread.
    static var kernelID: UInt64? { SystemThread.currentKernelID }

    /// The calling thread's name.
    static var name: String? { SystemThread.currentName }

    /// Whether a thread of this process with the kernel id `id` still exists; `nil` where the
    /// system does not say (Darwin).
    static func exists(kernelID id: UInt64) -> Bool? {
        SystemThread.exists(kernelID: id)
    }
}
