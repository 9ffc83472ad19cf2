/// A thread of the system (a pthread) running a Swift closure: the one place the package starts,
/// joins, detaches and names threads.
///
/// Why a layer: `pthread_t` is an integer on Linux and a non-optional pointer on Darwin, where
/// `pthread_create` takes a `pthread_t?` to fill and hands its start routine a non-optional
/// argument (Linux: an optional one); `pthread_setname_np` names any thread on Linux (and Glibc's
/// module does not export it), only the calling one on Darwin.
///
/// Invariants (the platform layer's audited part): the context `start(_:)` hands `pthread_create`
/// is one retained reference to the closure's box, which the new thread takes over (or which is
/// released here when no thread starts). A thread is joined or detached once, by its owner.
package struct SystemThread: @unchecked Sendable {
    /// The thread: an integer on Linux, a pointer on Darwin (hence `@unchecked Sendable`: it is only
    /// ever passed to `pthread_join` or `pthread_detach`, once).
    private let thread: pthread_t

    /// Starts a thread that runs `body`; `nil` (and `body` never runs) when no thread can be had.
    package static func start(_ body: @escaping @Sendable () -> Void) -> SystemThread? {
        let context = Unmanaged.passRetained(Start(body)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let rc = pthread_create(
            &thread, nil,
            { argument in
                // An optional pointer on Linux, a non-optional one on Darwin: one spelling for both.
                let context: UnsafeMutableRawPointer? = argument
                Unmanaged<Start>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, context)
        guard rc == 0 else {
            Unmanaged<Start>.fromOpaque(context).release()
            return nil
        }
        #if canImport(Darwin)
            guard let thread else { return nil }
        #endif
        return SystemThread(thread: thread)
    }

    /// Waits for the thread to end; 0, or `pthread_join`'s error.
    @discardableResult
    package func join() -> Int32 {
        pthread_join(thread, nil)
    }

    /// Lets the thread end on its own, never joined; 0, or `pthread_detach`'s error.
    @discardableResult
    package func detach() -> Int32 {
        pthread_detach(thread)
    }

    /// The calling thread's identity (`pthread_self()` as a number), for comparing threads.
    package static var currentID: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// Names the calling thread, best effort (shown by debuggers, `ps -L` and crash reports). Linux
    /// keeps 15 bytes of it, Darwin 63.
    package static func nameCurrent(_ name: String) {
        #if canImport(Darwin)
            _ = name.withCString { pthread_setname_np($0) }
        #else
            // A GNU extension the Glibc module does not export: looked up at run time (`dlsym` with
            // a null handle is glibc's RTLD_DEFAULT).
            typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
            guard let symbol = dlsym(nil, "pthread_setname_np") else { return }
            let setName = unsafeBitCast(symbol, to: SetName.self)
            _ = name.withCString { setName(pthread_self(), $0) }
        #endif
    }

    /// What a new thread runs, passed through `pthread_create`'s context pointer.
    private final class Start {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}

extension SystemThread {
    /// The calling thread's name as the system keeps it (what ``nameCurrent(_:)`` set, cut to the
    /// system's length); `nil` when it cannot be read. Linux: `/proc/thread-self/comm`. Darwin:
    /// `pthread_getname_np`.
    package static var currentName: String? {
        #if canImport(Darwin)
            var buffer = [CChar](repeating: 0, count: 64)
            guard pthread_getname_np(pthread_self(), &buffer, buffer.count) == 0 else { return nil }
            return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        #else
            SystemFiles.firstLine(ofFile: "/proc/thread-self/comm")
        #endif
    }

    /// The calling thread's id in the kernel (Linux: its task id, from `/proc/thread-self`; Darwin:
    /// `pthread_threadid_np`), unique among the system's live threads; `nil` when not known.
    package static var currentKernelID: UInt64? {
        #if canImport(Darwin)
            var id: UInt64 = 0
            return pthread_threadid_np(nil, &id) == 0 ? id : nil
        #else
            var buffer = [CChar](repeating: 0, count: 256)
            let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return target.split(separator: "/").last.flatMap { UInt64($0) }
        #endif
    }

    /// Whether a thread of this process with the kernel id `id` (``currentKernelID``) still
    /// exists; `nil` where the system does not say (Darwin keeps no per-thread entry to look up).
    package static func exists(kernelID id: UInt64) -> Bool? {
        #if canImport(Darwin)
            nil
        #else
            access("/proc/self/task/\(id)", F_OK) == 0
        #endif
    }
}
