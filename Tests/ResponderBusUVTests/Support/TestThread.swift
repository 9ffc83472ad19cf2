#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A plain pthread running a closure, for producers and other off-loop callers.
struct TestThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private static let entry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { argument in
        guard let argument else { return nil }
        Unmanaged<Body>.fromOpaque(argument).takeRetainedValue().run()
        return nil
    }

    private let id: pthread_t

    /// Starts a thread running `body`.
    init(_ body: @escaping @Sendable () -> Void) {
        var id = pthread_t()
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let rc = pthread_create(&id, nil, Self.entry, context)
        precondition(rc == 0, "pthread_create failed: \(rc)")
        self.id = id
    }

    /// Waits for the thread to end.
    func join() {
        pthread_join(id, nil)
    }
}

/// Mutable state shared with closures that run on the loop; only the loop touches it until the test
/// reads it after a latch, a join or a shutdown (each of which orders the accesses).
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// What the kernel knows about the calling thread.
enum CurrentThread {
    /// The kernel thread id, from `/proc/thread-self` (a link to `PID/task/TID`).
    static var kernelID: Int? {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.split(separator: "/").last.flatMap { Int($0) }
    }

    /// The thread's name, from `/proc/thread-self/comm`.
    static var name: String? {
        let fd = open("/proc/thread-self/comm", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self).trimmingSuffixNewline()
    }

    /// Whether a thread of this process with the kernel id `id` still exists.
    static func exists(kernelID id: Int) -> Bool {
        access("/proc/self/task/\(id)", F_OK) == 0
    }
}

extension String {
    fileprivate func trimmingSuffixNewline() -> String {
        hasSuffix("\n") ? String(dropLast()) : self
    }
}
