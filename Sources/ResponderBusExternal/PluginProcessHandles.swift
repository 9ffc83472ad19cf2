import CLibUV
import CSignalCleanup

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `close(2)`, under a name the handles' own `close()` does not hide.
private func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}

/// What a pipe's read callback leaves for ``PluginProcess`` to take: the bytes read since it last
/// took them (into a buffer of 64 KiB made once), and whether the stream ended.
struct PipeInbox {
    let bytes: UnsafeMutablePointer<UInt8>
    let capacity: Int
    /// How much of `bytes` holds what was read.
    var count = 0
    /// The stream ended (end of file, or a read error: the plugin is gone either way).
    var ended = false
    /// Reading stopped because `bytes` was full; it starts again once they are taken.
    var stopped = false

    /// Hands what was read to `body` and empties the buffer; how many bytes there were.
    @discardableResult
    mutating func take(_ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Int {
        let taken = count
        if taken > 0 {
            body(UnsafeBufferPointer(start: bytes, count: taken))
            count = 0
        }
        return taken
    }
}

/// How the child ended, as libuv's exit callback told it.
struct ChildExit {
    var exited = false
    /// Whether the status is known (not when another part of the host reaped the process).
    var known = true
    /// Its exit status, when it exited.
    var status: Int64 = 0
    /// The signal that ended it, or 0.
    var signal: Int32 = 0
}

/// A write libuv finishes as the plugin reads (``PluginProcessHandles/startWrite(_:count:)``).
struct PendingWrite {
    var pending = false
    /// 0, or the libuv error the write ended with.
    var status: Int32 = 0
    /// The copy of the bytes being written; freed when the write ends.
    var buffer: UnsafeMutableRawPointer?
}

/// The libuv side of a plugin's process: its loop, the process handle, the three pipes, a timer
/// for deadlines, and what their callbacks leave behind, each at a fixed address (libuv keeps
/// pointers to them). The callbacks reach that state through the handles' `data` pointers, which
/// point at plain values, never at an object.
///
/// Every handle is created and closed here, and the loop is run only by the methods here, on the
/// thread of the plugin that owns it.
final class PluginProcessHandles {
    struct Failure: Error {
        var message: String
    }

    let loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
    private let process = UnsafeMutablePointer<uv_process_t>.allocate(capacity: 1)
    private let input = UnsafeMutablePointer<uv_pipe_t>.allocate(capacity: 1)
    private let outputPipe = UnsafeMutablePointer<uv_pipe_t>.allocate(capacity: 1)
    private let errorPipe = UnsafeMutablePointer<uv_pipe_t>.allocate(capacity: 1)
    private let timer = UnsafeMutablePointer<uv_timer_t>.allocate(capacity: 1)
    private let writeRequest = UnsafeMutablePointer<uv_write_t>.allocate(capacity: 1)
    /// What the process's standard output and error callbacks left.
    let output: UnsafeMutablePointer<PipeInbox>
    let errors: UnsafeMutablePointer<PipeInbox>
    /// What the exit callback left.
    let exit = UnsafeMutablePointer<ChildExit>.allocate(capacity: 1)
    private let write = UnsafeMutablePointer<PendingWrite>.allocate(capacity: 1)
    /// Set by a signal handle's callback: a watched signal arrived (``followWatchedSignals()``).
    let signalArrived = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
    /// A `uv_signal_t` for each signal ever followed, started while ``WatchedSignals`` lists it.
    var signalHandles: [Int32: UnsafeMutablePointer<uv_signal_t>] = [:]
    /// The signals whose handles run now.
    var signalsStarted: Set<Int32> = []
    /// The ``WatchedSignals/generation`` last followed.
    var signalGeneration = -1
    /// The process id, once spawned.
    private(set) var pid: pid_t = 0
    /// The handles initialised so far, closed by ``close()``.
    var open: [UnsafeMutablePointer<uv_handle_t>] = []
    private var loopStarted = false
    private(set) var closed = false

    /// Spawns `arguments[0]` with its standard streams on three new pipes.
    init(arguments: [String], workingDirectory: String? = nil) throws(Failure) {
        output = Self.makeInbox()
        errors = Self.makeInbox()
        exit.initialize(to: ChildExit())
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
            let opened = uv_pipe_open(pipe, hostReads ? fds[0] : fds[1])
            guard opened == 0 else {
                closeDescriptor(hostReads ? fds[0] : fds[1])
                close()
                throw Failure(message: "cannot open its pipes: \(Self.describe(opened))")
            }
        }
        outputPipe.pointee.data = UnsafeMutableRawPointer(output)
        errorPipe.pointee.data = UnsafeMutableRawPointer(errors)
        writeRequest.pointee.data = UnsafeMutableRawPointer(write)

        var stdio = childEnds.map { fd in
            var container = uv_stdio_container_t()
            container.flags = UV_INHERIT_FD
            container.data.fd = fd
            return container
        }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let cwd = workingDirectory.flatMap { strdup($0) }
        defer {
            for arg in argv { free(arg) }
            if let cwd { free(cwd) }
        }
        let spawned = stdio.withUnsafeMutableBufferPointer { stdio in
            argv.withUnsafeBufferPointer { argv in
                var options = uv_process_options_t()
                options.exit_cb = PluginProcessCallbacks.exited
                options.file = UnsafePointer(argv[0])
                options.args = UnsafeMutablePointer(mutating: argv.baseAddress)
                if let cwd { options.cwd = UnsafePointer(cwd) }
                // A session and process group of its own (setsid): a terminal's Ctrl-C is the
                // host's to handle, and the plugin is killed with every process it started (a
                // wrapper's children: a shell script without exec, `swift run`, `uv run`).
                options.flags = UV_PROCESS_DETACHED.rawValue
                options.stdio_count = Int32(stdio.count)
                options.stdio = stdio.baseAddress
                return uv_spawn(loop, process, &options)
            }
        }
        // uv_spawn initialises the handle whether or not the process started.
        open.append(Self.base(process))
        process.pointee.data = UnsafeMutableRawPointer(exit)
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
        output.pointee.bytes.deallocate()
        errors.pointee.bytes.deallocate()
        for pointer in [
            UnsafeMutableRawPointer(output), UnsafeMutableRawPointer(errors), UnsafeMutableRawPointer(exit), UnsafeMutableRawPointer(write),
            UnsafeMutableRawPointer(signalArrived),
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

    /// libuv's words for an error code ("no such file or directory").
    static func describe(_ code: Int32) -> String {
        // libuv's codes are negated errno values on Unix; strerror's words are the system's own.
        code < 0 && code > -4000 ? String(cString: strerror(-code)) : String(cString: uv_strerror(code))
    }

    static func base<Handle>(_ handle: UnsafeMutablePointer<Handle>) -> UnsafeMutablePointer<uv_handle_t> {
        UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)
    }

    private static func stream(_ pipe: UnsafeMutablePointer<uv_pipe_t>) -> UnsafeMutablePointer<uv_stream_t> {
        UnsafeMutableRawPointer(pipe).assumingMemoryBound(to: uv_stream_t.self)
    }

    private func startReading(_ pipe: UnsafeMutablePointer<uv_pipe_t>) {
        if uv_read_start(Self.stream(pipe), PluginProcessCallbacks.allocate, PluginProcessCallbacks.received) != 0 {
            pipe.pointee.data.assumingMemoryBound(to: PipeInbox.self).pointee.ended = true
        }
    }

    /// Starts reading again where a full buffer stopped it and the bytes have been taken.
    func resumeReading() {
        for (pipe, inbox) in [(outputPipe, output), (errorPipe, errors)]
        where inbox.pointee.stopped && inbox.pointee.count == 0 && !inbox.pointee.ended && !closed {
            inbox.pointee.stopped = false
            startReading(pipe)
        }
    }

    /// The two streams the host reads.
    enum Stream {
        case output, errors
    }

    /// Reads what the plugin's standard output or error holds now into its inbox, without running
    /// the loop (`read` on the descriptor `uv_fileno` gives: libuv has no synchronous read, and a
    /// turn of the loop costs an `epoll_wait` more for every look); whether anything came. libuv's
    /// own reading goes on when the loop runs next: it polls level-triggered, so nothing is missed.
    func readNow(_ stream: Stream) -> Bool {
        let (inbox, pipe) = stream == .output ? (output, outputPipe) : (errors, errorPipe)
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

    // MARK: Running the loop

    /// Runs the loop once: until a callback has run, or `timeout` milliseconds have passed.
    func runOnce(timeout: UInt64) {
        guard !closed else { return }
        uv_update_time(loop)
        uv_timer_start(timer, PluginProcessCallbacks.deadline, timeout, 0)
        uv_run(loop, UV_RUN_ONCE)
        uv_timer_stop(timer)
    }

    /// Whether the process has ended. libuv learns of it through SIGCHLD; where no thread of the
    /// host lets that signal in (a process started from a Dispatch worker thread inherits a mask
    /// that blocks it), it is reaped here instead, and libuv's own `waitpid` later finds nothing.
    /// A process another part of the host reaped counts as ended, with its status unknown.
    ///
    /// Its process group is killed before it is reaped here (see ``endGroup(of:)``).
    func checkExit() -> Bool {
        guard !exit.pointee.exited, pid > 0 else { return exit.pointee.exited }
        // Look without reaping first: while the leader is a zombie its id cannot be reused, so
        // the group it names is certainly still the plugin's.
        var info = siginfo_t()
        if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid {
            Self.endGroup(of: pid)
        }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid {
            let signal = status & 0x7f
            exit.pointee = ChildExit(exited: true, status: Int64((status >> 8) & 0xff), signal: signal)
        } else if reaped < 0 && errno == ECHILD {
            exit.pointee = ChildExit(exited: true, known: false)
            // libuv's exit callback ends the group when libuv reaped it; another part of the host
            // did here, and the group may still hold the plugin's children.
            Self.endGroup(of: pid)
        }
        return exit.pointee.exited
    }

    /// Kills what is left of the process group `leader` led, once the leader has exited: the
    /// plugin's children, a wrapper script's background jobs. The group ends with the plugin,
    /// always — a plugin that exits or crashes leaves nothing running, and `test`, which starts a
    /// plugin per session, leaks nothing in proportion to a corpus.
    ///
    /// Why killing `-leader` after the leader has exited is safe (it cannot hit an unrelated
    /// group): Linux does not hand out a process id while any process still uses it as its
    /// process group id (or session id), and the leader's zombie holds its id until it is reaped.
    /// So as long as one member of the group lives, `-leader` names that group and no other;
    /// when none lives, the kill finds nothing (`ESRCH`) — unless the id has since been reused
    /// by a new process that made itself a group leader, which takes the kernel's allocator
    /// going all the way round the id space. That is why the group is killed at the moment the
    /// exit is noticed and never later: before reaping (``checkExit()``, with `WNOWAIT`), or in
    /// libuv's exit callback right after its `waitpid` returned, microseconds later.
    static func endGroup(of leader: pid_t) {
        guard leader > 0 else { return }
        kill(-leader, SIGKILL)
        rb_cleanup_forget_group(leader)
    }

    // MARK: Writing

    /// `uv_try_write`: what the pipe takes now without waiting; a byte count, or a libuv error
    /// (`UV_EAGAIN` when the pipe is full).
    func tryWrite(_ bytes: UnsafeRawPointer, count: Int) -> Int {
        var buffer = uv_buf_init(UnsafeMutablePointer(mutating: bytes.assumingMemoryBound(to: CChar.self)), UInt32(min(count, Int(Int32.max))))
        return Int(uv_try_write(Self.stream(input), &buffer, 1))
    }

    /// `uv_write` of a copy of the bytes: libuv writes them as the plugin reads, while the loop runs.
    func startWrite(_ bytes: UnsafeRawPointer, count: Int) {
        let copy = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 1)
        copy.copyMemory(from: bytes, byteCount: count)
        write.pointee = PendingWrite(pending: true, status: 0, buffer: copy)
        var buffer = uv_buf_init(copy.assumingMemoryBound(to: CChar.self), UInt32(count))
        let started = uv_write(writeRequest, Self.stream(input), &buffer, 1, PluginProcessCallbacks.written)
        if started != 0 {
            copy.deallocate()
            write.pointee = PendingWrite(pending: false, status: started, buffer: nil)
        }
    }

    /// Whether a write started with ``startWrite(_:count:)`` is still going on.
    var writePending: Bool { write.pointee.pending }

    /// How the last write started with ``startWrite(_:count:)`` ended: 0 or a libuv error.
    var writeStatus: Int32 { write.pointee.status }

    /// Closes the plugin's input: it reads end of file at once. A write still going on ends with
    /// `UV_ECANCELED`.
    func closeInput() {
        let handle = Self.base(input)
        guard let index = open.firstIndex(of: handle) else { return }
        open.remove(at: index)
        uv_close(handle, nil)
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
            UnsafeMutableRawPointer(process), UnsafeMutableRawPointer(input), UnsafeMutableRawPointer(outputPipe), UnsafeMutableRawPointer(errorPipe),
            UnsafeMutableRawPointer(timer), UnsafeMutableRawPointer(writeRequest), UnsafeMutableRawPointer(loop),
        ] + signalHandles.values.map(UnsafeMutableRawPointer.init) {
            pointer.deallocate()
        }
        signalHandles.removeAll()
    }
}

/// The C callbacks of a plugin's handles: closures that capture nothing, reaching their state
/// through the handle's `data` (a ``PipeInbox``, ``ChildExit`` or ``PendingWrite``).
enum PluginProcessCallbacks {
    /// Lends the rest of the inbox's buffer to a read (none when it is full: libuv then reports
    /// `UV_ENOBUFS`).
    static let allocate: uv_alloc_cb = { handle, _, buffer in
        guard let handle, let buffer, let data = handle.pointee.data else { return }
        let inbox = data.assumingMemoryBound(to: PipeInbox.self)
        let free = inbox.pointee.capacity - inbox.pointee.count
        let base = UnsafeMutableRawPointer(inbox.pointee.bytes + inbox.pointee.count).assumingMemoryBound(to: CChar.self)
        buffer.pointee = uv_buf_init(base, UInt32(free))
    }

    /// Keeps what was read; stops reading at the end of the stream or when the buffer is full.
    static let received: uv_read_cb = { stream, count, _ in
        guard let stream, let data = stream.pointee.data else { return }
        let inbox = data.assumingMemoryBound(to: PipeInbox.self)
        if count > 0 {
            inbox.pointee.count += count
        } else if count == Int(UV_ENOBUFS.rawValue) {
            uv_read_stop(stream)
            inbox.pointee.stopped = true
        } else if count < 0 {
            uv_read_stop(stream)
            inbox.pointee.ended = true
        }
    }

    /// The process ended; libuv has just reaped it. What is left of its process group is killed
    /// at once (``PluginProcessHandles/endGroup(of:)`` says why now and not later).
    static let exited: uv_exit_cb = { process, status, signal in
        guard let process, let data = process.pointee.data else { return }
        PluginProcessHandles.endGroup(of: process.pointee.pid)
        data.assumingMemoryBound(to: ChildExit.self).pointee = ChildExit(exited: true, status: status, signal: signal)
    }

    /// A started write ended (written, failed, or cancelled by closing the input).
    static let written: uv_write_cb = { request, status in
        guard let data = request?.pointee.data else { return }
        let write = data.assumingMemoryBound(to: PendingWrite.self)
        write.pointee.buffer?.deallocate()
        write.pointee = PendingWrite(pending: false, status: status, buffer: nil)
    }

    /// A deadline passed: nothing to do but return from `uv_run`.
    static let deadline: uv_timer_cb = { _ in }
}
