import CLibUV
import CSignalCleanup
import ResponderBusPlatform

/// `close(2)`, under a name the handles' own `close()` does not hide.
private func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}

/// The libuv side of a plugin's process: its loop, the process handle, the three pipes, a timer
/// for deadlines, and what their callbacks leave behind, each at a fixed address (libuv keeps
/// pointers to them). The callbacks reach that state through the handles' `data` pointers, which
/// point at plain values, never at an object.
///
/// Every handle is created and closed here, and the loop is run only by the methods here, on the
/// thread of the plugin that owns it. What is not memory (when the process has ended, its process
/// group, which signals to follow) is in `PluginProcessHandles+Exit.swift` and
/// `PluginProcessHandles+Signals.swift`, through the operations here alone.
///
/// Invariants (ResponderBusExternal's audited layer, with ``PipeInbox``, ``PipeBytes``,
/// ``PendingWrite``, ``SpawnArguments`` and ``PluginProcessCallbacks``):
/// - Owner: this object alone owns the loop, every handle (`uv_loop_t`, `uv_process_t`, three
///   `uv_pipe_t`, `uv_timer_t`, `uv_write_t`, a `uv_signal_t` per signal ever followed) and the
///   state their callbacks write (two ``PipeInbox``es, a ``ChildExit``, a ``PendingWrite``, the
///   signal flag). Every pointer is private: none leaves this file except as a handle's `data`,
///   which only ``PluginProcessCallbacks`` reads, typed as what this file stored there.
/// - Allocated: in `init` (a signal handle when its signal is first followed); libuv holds
///   pointers to them from then until ``close()``.
/// - Freed: the handles and the loop in ``close()``, after `uv_run` has run every close callback
///   and `uv_loop_close` succeeded (a loop libuv would not close keeps them, leaked rather than
///   freed under it); the callbacks' state and the inboxes' buffers in `deinit`, so what the
///   callbacks left stays readable after ``close()``.
/// - Thread: the thread of the plugin that owns it (loop-confined, like ``PluginProcess``). The
///   loop runs only inside ``runOnce(timeout:)`` and ``close()``, so every callback runs there, on
///   that thread, never while a caller holds lent bytes.
/// - Bytes: a reader gets what was read only as ``PipeBytes`` lent for a closure
///   (``take(_:_:)``); a write reads the caller's array during the call (``tryWrite(_:from:)``) or
///   copies it (``startWrite(_:from:)``).
final class PluginProcessHandles {
    /// Why the handles could not be made or the process could not be started.
    struct Failure: Error {
        var message: String
    }

    /// The two streams the host reads.
    enum Stream {
        case output, errors
    }

    private let loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
    private let process = UnsafeMutablePointer<uv_process_t>.allocate(capacity: 1)
    private let input = UnsafeMutablePointer<uv_pipe_t>.allocate(capacity: 1)
    private let outputPipe = UnsafeMutablePointer<uv_pipe_t>.allocate(capacity: 1)
    private let errorPipe = UnsafeMutablePointer<uv_pipe_t>.allocate(capacity: 1)
    private let timer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
    private let writeRequest = UnsafeMutablePointer<uv_write_t>.allocate(capacity: 1)
    /// What the process's standard output and error callbacks left.
    private let outputInbox: UnsafeMutablePointer<PipeInbox>
    private let errorInbox: UnsafeMutablePointer<PipeInbox>
    /// What the exit callback left.
    private let exitState = UnsafeMutablePointer<ChildExit>.allocate(capacity: 1)
    private let write = UnsafeMutablePointer<PendingWrite>.allocate(capacity: 1)
    /// Set by a signal handle's callback: a watched signal arrived (``followWatchedSignals()``).
    private let signalArrived = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
    /// A `uv_signal_t` for each signal ever followed, started while ``WatchedSignals`` lists it.
    private var signalHandles: [Int32: UnsafeMutablePointer<uv_signal_t>] = [:]
    /// The handles initialised so far, closed by ``close()``.
    private var open: [UnsafeMutablePointer<uv_handle_t>] = []
    /// The signals whose handles run now (``followWatchedSignals()``).
    var signalsStarted: Set<Int32> = []
    /// The ``WatchedSignals/generation`` last followed.
    var signalGeneration = -1
    /// The process id, once spawned.
    private(set) var pid: pid_t = 0
    private var loopStarted = false
    private(set) var closed = false

    /// Spawns `arguments[0]` with its standard streams on three new pipes.
    init(arguments: [String], workingDirectory: String? = nil) throws(Failure) {
        outputInbox = Self.makeInbox()
        errorInbox = Self.makeInbox()
        exitState.initialize(to: ChildExit())
        write.initialize(to: PendingWrite())
        signalArrived.initialize(to: false)
        guard uv_loop_init(loop) == 0 else {
            close()
            throw Failure(message: "cannot make its libuv loop")
        }
        loopStarted = true
        uv_timer_init(loop, timer)
        open.append(Self.base(timer))

        // Pipes, close-on-exec until uv_spawn gives the child its ends as 0, 1 and 2.
        var childEnds: [Int32] = []
        defer { for fd in childEnds { closeDescriptor(fd) } }
        try openPipes(childEnds: &childEnds)
        outputPipe.pointee.data = UnsafeMutableRawPointer(outputInbox)
        errorPipe.pointee.data = UnsafeMutableRawPointer(errorInbox)
        writeRequest.pointee.data = UnsafeMutableRawPointer(write)

        let spawned = spawn(SpawnArguments(arguments, workingDirectory: workingDirectory), childEnds: childEnds)
        // uv_spawn initialises the handle whether or not the process started.
        open.append(Self.base(process))
        process.pointee.data = UnsafeMutableRawPointer(exitState)
        guard spawned == 0 else {
            close()
            throw Failure(message: Self.describe(spawned))
        }
        pid = process.pointee.pid
        // A signal ending a command (`responder-bus test` on Ctrl-C) kills the group too: it is not
        // in the terminal's foreground group, so the terminal's signal does not reach it.
        rb_cleanup_remember_group(pid)
        startReading(outputPipe)
        startReading(errorPipe)
    }

    deinit {
        close()
        rb_cleanup_forget_group(pid)
        if let buffer = write.pointee.buffer { buffer.deallocate() }
        outputInbox.pointee.bytes.deallocate()
        errorInbox.pointee.bytes.deallocate()
        for pointer in [
            UnsafeMutableRawPointer(outputInbox), UnsafeMutableRawPointer(errorInbox), UnsafeMutableRawPointer(exitState),
            UnsafeMutableRawPointer(write), UnsafeMutableRawPointer(signalArrived),
        ] {
            pointer.deallocate()
        }
    }

    private static func makeInbox() -> UnsafeMutablePointer<PipeInbox> {
        let capacity = 1 << 16
        let inbox = UnsafeMutablePointer<PipeInbox>.allocate(capacity: 1)
        inbox.initialize(to: PipeInbox(bytes: .allocate(capacity: capacity), capacity: capacity))
        return inbox
    }

    /// Makes the three pipes with `uv_pipe`, keeps the host's ends in `input`, `outputPipe` and
    /// `errorPipe`, and appends the child's ends (its standard input, output and error) to
    /// `childEnds`, which the caller closes once the child has them.
    private func openPipes(childEnds: inout [Int32]) throws(Failure) {
        for (pipe, hostReads) in [(input, false), (outputPipe, true), (errorPipe, true)] {
            var fds: [uv_file] = [-1, -1]
            let made = uv_pipe(&fds, 0, 0)
            guard made == 0 else {
                close()
                throw Failure(message: "cannot make its pipes: \(Self.describe(made))")
            }
            uv_pipe_init(loop, pipe, 0)
            open.append(Self.base(pipe))
            childEnds.append(hostReads ? fds[1] : fds[0])
            // The plugin's input: a write after it exited fails with EPIPE instead of raising SIGPIPE
            // on the host's process (Darwin; on Linux the writing thread blocks it, see `write`).
            if !hostReads { SystemFiles.raiseNoSigPipe(onWritesTo: fds[1]) }
            let opened = uv_pipe_open(pipe, hostReads ? fds[0] : fds[1])
            guard opened == 0 else {
                closeDescriptor(hostReads ? fds[0] : fds[1])
                close()
                throw Failure(message: "cannot open its pipes: \(Self.describe(opened))")
            }
        }
    }

    /// `uv_spawn` of `arguments` with `childEnds` as its standard input, output and error: 0, or
    /// the libuv error.
    private func spawn(_ arguments: borrowing SpawnArguments, childEnds: [Int32]) -> Int32 {
        var stdio = childEnds.map { fd in
            var container = uv_stdio_container_t()
            container.flags = UV_INHERIT_FD
            container.data.fd = fd
            return container
        }
        return stdio.withUnsafeMutableBufferPointer { stdio in
            arguments.withOptions { options in
                options.exit_cb = PluginProcessCallbacks.exited
                // A session and process group of its own (setsid): a terminal's Ctrl-C is the
                // host's to handle, and the plugin is killed with every process it started (a
                // wrapper's children: a shell script without exec, `swift run`, `uv run`).
                options.flags = UV_PROCESS_DETACHED.rawValue
                options.stdio_count = Int32(stdio.count)
                options.stdio = stdio.baseAddress
                return uv_spawn(loop, process, &options)
            }
        }
    }

    private static func base<Handle>(_ handle: UnsafeMutablePointer<Handle>) -> UnsafeMutablePointer<uv_handle_t> {
        UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)
    }

    private static func stream(_ pipe: UnsafeMutablePointer<uv_pipe_t>) -> UnsafeMutablePointer<uv_stream_t> {
        UnsafeMutableRawPointer(pipe).assumingMemoryBound(to: uv_stream_t.self)
    }

    // MARK: Reading

    private func inbox(_ stream: Stream) -> UnsafeMutablePointer<PipeInbox> {
        stream == .output ? outputInbox : errorInbox
    }

    private func startReading(_ pipe: UnsafeMutablePointer<uv_pipe_t>) {
        if uv_read_start(Self.stream(pipe), PluginProcessCallbacks.allocate, PluginProcessCallbacks.received) != 0 {
            pipe.pointee.data.assumingMemoryBound(to: PipeInbox.self).pointee.ended = true
        }
    }

    /// Whether `stream` ended (end of file, or a read error: the plugin is gone either way).
    func hasEnded(_ stream: Stream) -> Bool {
        inbox(stream).pointee.ended
    }

    /// How many bytes of `stream` wait to be taken.
    func heldCount(_ stream: Stream) -> Int {
        inbox(stream).pointee.count
    }

    /// Lends what was read of `stream` to `body` and empties its buffer; how many bytes there were.
    @discardableResult
    func take(_ stream: Stream, _ body: (borrowing PipeBytes) -> Void) -> Int {
        inbox(stream).pointee.take(body)
    }

    /// Starts reading again where a full buffer stopped it and the bytes have been taken.
    func resumeReading() {
        for (pipe, inbox) in [(outputPipe, outputInbox), (errorPipe, errorInbox)]
        where inbox.pointee.stopped && inbox.pointee.count == 0 && !inbox.pointee.ended && !closed {
            inbox.pointee.stopped = false
            startReading(pipe)
        }
    }

    /// Reads what the plugin's standard output or error holds now into its inbox, without running
    /// the loop (`read` on the descriptor `uv_fileno` gives: libuv has no synchronous read, and a
    /// turn of the loop costs an `epoll_wait` more for every look); whether anything came. libuv's
    /// own reading goes on when the loop runs next: it polls level-triggered, so nothing is missed.
    func readNow(_ stream: Stream) -> Bool {
        let (inbox, pipe) = stream == .output ? (outputInbox, outputPipe) : (errorInbox, errorPipe)
        let free = inbox.pointee.capacity - inbox.pointee.count
        guard free > 0, !inbox.pointee.ended, !closed else { return false }
        var descriptor: uv_os_fd_t = -1
        guard uv_fileno(Self.base(pipe), &descriptor) == 0 else { return false }
        let count = read(descriptor, inbox.pointee.bytes + inbox.pointee.count, free)
        if count > 0 {
            inbox.pointee.count += count
            return true
        }
        if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            inbox.pointee.ended = true
        }
        return false
    }

    // MARK: The process

    /// How the child ended, as libuv's exit callback or ``checkExit()`` last told it.
    var exit: ChildExit {
        get { exitState.pointee }
        set { exitState.pointee = newValue }
    }

    // MARK: Running the loop

    /// Runs the loop once: until a callback has run, or `timeout` milliseconds have passed.
    func runOnce(timeout: UInt64) {
        guard !closed else { return }
        uv_update_time(loop)
        uv_timer_start(timer, PluginProcessCallbacks.deadline, timeout, 0)
        uv_run(loop, UV_RUN_ONCE)
        uv_timer_stop(timer)
    }

    // MARK: Writing

    /// `uv_try_write` of `bytes[offset...]`: what the pipe takes now without waiting; a byte count,
    /// or a libuv error (`UV_EAGAIN` when the pipe is full).
    func tryWrite(_ bytes: [UInt8], from offset: Int) -> Int {
        precondition(offset >= 0 && offset < bytes.count, "PluginProcessHandles.tryWrite: offset out of range")
        return bytes.withUnsafeBytes { raw in
            let start = UnsafeMutableRawPointer(mutating: raw.baseAddress! + offset)
            var buffer = uv_buf_init(start.assumingMemoryBound(to: CChar.self), UInt32(min(raw.count - offset, Int(Int32.max))))
            return Int(uv_try_write(Self.stream(input), &buffer, 1))
        }
    }

    /// `uv_write` of a copy of `bytes[offset...]`: libuv writes them as the plugin reads, while the
    /// loop runs. Only when no write is pending (``writePending``).
    func startWrite(_ bytes: [UInt8], from offset: Int) {
        precondition(offset >= 0 && offset < bytes.count, "PluginProcessHandles.startWrite: offset out of range")
        precondition(!write.pointee.pending, "PluginProcessHandles.startWrite: a write is pending")
        let count = bytes.count - offset
        let copy = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 1)
        bytes.withUnsafeBytes { raw in copy.copyMemory(from: raw.baseAddress! + offset, byteCount: count) }
        write.pointee = PendingWrite(pending: true, status: 0, buffer: copy)
        var buffer = uv_buf_init(copy.assumingMemoryBound(to: CChar.self), UInt32(count))
        let started = uv_write(writeRequest, Self.stream(input), &buffer, 1, PluginProcessCallbacks.written)
        if started != 0 {
            copy.deallocate()
            write.pointee = PendingWrite(pending: false, status: started, buffer: nil)
        }
    }

    /// Whether a write started with ``startWrite(_:from:)`` is still going on.
    var writePending: Bool { write.pointee.pending }

    /// How the last write started with ``startWrite(_:from:)`` ended: 0 or a libuv error.
    var writeStatus: Int32 { write.pointee.status }

    /// Closes the plugin's input: it reads end of file at once. A write still going on ends with
    /// `UV_ECANCELED`.
    func closeInput() {
        let handle = Self.base(input)
        guard let index = open.firstIndex(of: handle) else { return }
        open.remove(at: index)
        uv_close(handle, nil)
    }

    // MARK: Signals

    /// Whether a watched signal arrived while this plugin's loop watched it.
    var interrupted: Bool { signalArrived.pointee }

    /// Starts a `uv_signal_t` for `signal` on the plugin's loop (made the first time); whether it
    /// started.
    func startSignal(_ signal: Int32) -> Bool {
        let handle: UnsafeMutablePointer<uv_signal_t>
        if let existing = signalHandles[signal] {
            handle = existing
        } else {
            handle = .allocate(capacity: 1)
            handle.initialize(to: uv_signal_t())
            guard uv_signal_init(loop, handle) == 0 else {
                handle.deallocate()
                return false
            }
            handle.pointee.data = UnsafeMutableRawPointer(signalArrived)
            signalHandles[signal] = handle
            open.append(Self.base(handle))
        }
        return uv_signal_start(handle, PluginProcessCallbacks.signalled, signal) == 0
    }

    /// Stops the `uv_signal_t` of `signal`, if there is one (it stays, for a later start).
    func stopSignal(_ signal: Int32) {
        if let handle = signalHandles[signal] { uv_signal_stop(handle) }
    }

    // MARK: Closing

    /// Closes every handle and the loop, and frees them; what their callbacks left stays readable
    /// until the handles are gone. The process must have exited (a process handle closed before
    /// its exit would leave it unreaped). Idempotent.
    func close() {
        guard !closed else { return }
        closed = true
        for handle in open where uv_is_closing(handle) == 0 { uv_close(handle, nil) }
        open.removeAll()
        var loopClosed = !loopStarted
        if loopStarted {
            // Runs the close callbacks (and a cancelled write's), then lets the loop go.
            uv_run(loop, UV_RUN_DEFAULT)
            loopClosed = uv_loop_close(loop) == 0
        }
        // A loop libuv would not close still points at its handles: they are left allocated (never
        // expected; it would take a handle opened here and not listed in `open`).
        guard loopClosed else { return }
        for pointer in [
            UnsafeMutableRawPointer(process), UnsafeMutableRawPointer(input), UnsafeMutableRawPointer(outputPipe),
            UnsafeMutableRawPointer(errorPipe), UnsafeMutableRawPointer(timer), UnsafeMutableRawPointer(writeRequest),
            UnsafeMutableRawPointer(loop),
        ] + signalHandles.values.map(UnsafeMutableRawPointer.init) {
            pointer.deallocate()
        }
        signalHandles.removeAll()
    }
}
