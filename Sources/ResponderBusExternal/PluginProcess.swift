import CPluginPipes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What went wrong with a plugin's process, in words a diagnostic can carry.
struct ProcessFault: Error, Equatable {
    /// The kind, for the failure's code.
    enum Kind: Equatable {
        /// It could not be started.
        case spawn
        /// Its standard output closed, or its input could not be written: it exited or crashed.
        case exited
        /// No answer within the time limit.
        case timedOut
        /// It wrote something no answer can be (a line too long).
        case broken
    }
    var kind: Kind
    var message: String
}

/// A plugin's child process: its standard input and output carry the protocol, one line per
/// message; its standard error is read as lines of text.
///
/// Started with `posix_spawnp` (the command is looked up in `PATH`, never run through a shell).
/// Its standard streams are pipes; its input is written with `SIGPIPE` blocked on the writing
/// thread, so a plugin that died makes a write fail instead of ending the host. Every wait has a deadline
/// (`poll`). Loop-confined, like the plugin that owns it.
final class PluginProcess {
    /// The child's process id.
    let pid: pid_t
    private let input: Int32
    private let outputDescriptor: Int32
    private let errors: Int32
    /// Its standard output, a line at a time.
    private var output = LineBuffer()
    private var scratch = [UInt8](repeating: 0, count: 1 << 16)
    private var errorBuffer: [UInt8] = []
    private var errorsEnded = false
    private var reaped = false
    private var closed = false
    private var inputClosed = false
    private var exitStatus: Int32 = 0

    /// Starts `arguments[0]` (looked up in `PATH` when it has no slash) with the rest as its
    /// arguments and the host's environment.
    init(arguments: [String]) throws(ProcessFault) {
        guard let program = arguments.first, !program.isEmpty else {
            throw ProcessFault(kind: .spawn, message: "the command is empty")
        }
        var stdinPair: [Int32] = [-1, -1]
        var stdoutPipe: [Int32] = [-1, -1]
        var stderrPipe: [Int32] = [-1, -1]
        func closeAll() {
            for fd in stdinPair + stdoutPipe + stderrPipe where fd >= 0 { close(fd) }
        }
        // Pipes for all three, close-on-exec from the start (the child's ends are dup'ed onto 0–2):
        // a round trip over pipes measured 1.4–2.7 µs at p50 on this machine against 5–8 µs over
        // socket pairs.
        guard rb_pipe_cloexec(&stdinPair) == 0, rb_pipe_cloexec(&stdoutPipe) == 0, rb_pipe_cloexec(&stderrPipe) == 0 else {
            let reason = String(cString: strerror(errno))
            closeAll()
            throw ProcessFault(kind: .spawn, message: "cannot make its pipes: \(reason)")
        }
        // Swapped, so that [0] is the host's end (here the write end) and [1] the child's, as for the other two.
        stdinPair.swapAt(0, 1)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        // A process group of its own, so that a wrapper's children (a shell script without exec,
        // `uv run`) end with it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var child: pid_t = 0
        let status = posix_spawnp(&child, program, &actions, &attributes, argv, environ)
        close(stdinPair[1])
        close(stdoutPipe[1])
        close(stderrPipe[1])
        guard status == 0 else {
            close(stdinPair[0])
            close(stdoutPipe[0])
            close(stderrPipe[0])
            throw ProcessFault(kind: .spawn, message: "cannot run '\(program)': \(String(cString: strerror(status)))")
        }
        pid = child
        input = stdinPair[0]
        outputDescriptor = stdoutPipe[0]
        errors = stderrPipe[0]
        for fd in [input, outputDescriptor, errors] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        terminate(grace: .zero)
    }

    // MARK: Writing

    /// Writes `bytes` whole before `deadline`.
    func write(_ bytes: [UInt8], before deadline: ContinuousClock.Instant) throws(ProcessFault) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                rb_write_nosigpipe(input, raw.baseAddress! + offset, raw.count - offset)
            }
            if written > 0 {
                offset += written
                continue
            }
            if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                try wait(for: input, events: Int16(POLLOUT), before: deadline, doing: "reading its input")
                continue
            }
            throw ProcessFault(kind: .exited, message: exitDescription(or: "closed its input"))
        }
    }

    // MARK: Reading

    /// The next line of its standard output (without the line break), waiting until `deadline`.
    func readLine(before deadline: ContinuousClock.Instant) throws(ProcessFault) -> ArraySlice<UInt8> {
        // An answer usually comes within microseconds: ask again for a moment before sleeping in
        // poll, whose wake-up costs about 100 µs on a virtual machine (a round trip measured 100 µs
        // at p50 blocking, 6 µs with both sides asking again for up to 50 µs).
        let spinUntil = ContinuousClock.now + Self.spin
        while true {
            if let line = output.nextLine() { return line }
            guard !output.isOverlong else {
                throw ProcessFault(kind: .broken, message: "wrote a line longer than \(LineBuffer.maximumLength >> 20) MiB")
            }
            switch fill(&output, from: outputDescriptor) {
            case .data:
                // A plugin that keeps writing is held to the deadline too.
                if ContinuousClock.now >= deadline { throw ProcessFault(kind: .timedOut, message: "did not finish answering in time") }
            case .end: throw ProcessFault(kind: .exited, message: exitDescription(or: "closed its output"))
            case .wouldBlock:
                if ContinuousClock.now < spinUntil {
                    // Let the plugin have this core if it is waiting for one (two cores, a reader
                    // thread, a writer thread and the plugin: spinning alone would starve it).
                    sched_yield()
                    continue
                }
                try wait(for: outputDescriptor, events: Int16(POLLIN), before: deadline, doing: "answering")
            }
        }
    }

    /// The complete lines its standard error holds now, without waiting (and, once it has ended,
    /// the last unfinished one).
    func availableErrorLines() -> [String] {
        var ended = false
        while errorBuffer.count < LineBuffer.maximumLength {
            let result = fill(&errorBuffer, from: errors)
            if result == .data { continue }
            ended = result == .end
            break
        }
        return takeErrorLines(ended: ended)
    }

    /// Splits the complete lines off the standard error read so far; an unfinished line is kept
    /// unless the stream `ended` or it outgrew the longest line.
    private func takeErrorLines(ended: Bool) -> [String] {
        var lines: [String] = []
        var start = 0
        while let newline = errorBuffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: errorBuffer[start..<newline], as: UTF8.self))
            start = newline + 1
        }
        errorBuffer.removeFirst(start)
        if !errorBuffer.isEmpty && (ended || errorBuffer.count >= LineBuffer.maximumLength) {
            lines.append(String(decoding: errorBuffer, as: UTF8.self))
            errorBuffer.removeAll()
        }
        return lines
    }

    /// How long a read asks again before it sleeps in `poll`.
    static let spin = Duration.microseconds(50)

    private enum Fill { case data, end, wouldBlock }

    /// Reads what is there (up to 64 KiB, through a scratch buffer made once) onto the end of
    /// `buffer`.
    private func fill(_ buffer: inout [UInt8], from fd: Int32) -> Fill {
        let count = scratch.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer.append(contentsOf: scratch[..<count])
            return .data
        }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .wouldBlock }
        return .end
    }

    /// The same, onto the output's lines.
    private func fill(_ buffer: inout LineBuffer, from fd: Int32) -> Fill {
        let count = scratch.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer.append(scratch[..<count])
            return .data
        }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .wouldBlock }
        return .end
    }

    /// Sleeps until `fd` is ready for `events` or `deadline` passes; standard error is read
    /// meanwhile, so that a plugin writing much of it is never blocked on a full pipe while the host
    /// waits for its answer.
    private func wait(for fd: Int32, events: Int16, before deadline: ContinuousClock.Instant, doing: String) throws(ProcessFault) {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else {
            throw ProcessFault(kind: .timedOut, message: "did not finish \(doing) in time")
        }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        var descriptors = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: errors, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&descriptors, errorsEnded ? 1 : 2, max(milliseconds, 1))
        if ready > 0 && !errorsEnded && descriptors[1].revents != 0 {
            while errorBuffer.count < LineBuffer.maximumLength {
                let result = fill(&errorBuffer, from: errors)
                if result == .data { continue }
                if result == .end { errorsEnded = true }
                break
            }
        }
    }

    // MARK: Ending

    /// What became of the process, if it has ended: "exited with status 3", "was killed by signal
    /// 11 (SIGSEGV)"; `fallback` while it runs.
    func exitDescription(or fallback: String) -> String {
        if !reaped {
            var status: Int32 = 0
            // A process that closed its pipes is about to end: give it a moment to be reaped.
            for _ in 0..<50 {
                if waitpid(pid, &status, WNOHANG) == pid {
                    reaped = true
                    exitStatus = status
                    break
                }
                usleep(1000)
            }
        }
        guard reaped else { return fallback }
        return Self.describe(exitStatus)
    }

    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "exited with status \((status >> 8) & 0xff)" }
        let name = signalName(signal).map { " (\($0))" } ?? ""
        return "was killed by signal \(signal)\(name)"
    }

    private static func signalName(_ signal: Int32) -> String? {
        switch signal {
        case SIGSEGV: "SIGSEGV"
        case SIGABRT: "SIGABRT"
        case SIGKILL: "SIGKILL"
        case SIGTERM: "SIGTERM"
        case SIGBUS: "SIGBUS"
        case SIGILL: "SIGILL"
        case SIGFPE: "SIGFPE"
        case SIGTRAP: "SIGTRAP"
        default: nil
        }
    }

    /// Ends the process: closes its input (a plugin ends on end of input), waits up to `grace` for
    /// it to exit, then kills it; reaps it and closes the pipes. Idempotent.
    func terminate(grace: Duration) {
        guard !closed else { return }
        closed = true
        defer {
            if !inputClosed { close(input) }
            close(outputDescriptor)
            close(errors)
        }
        guard !reaped else { return }
        // End of input: the plugin's cue to exit.
        close(input)
        inputClosed = true
        let deadline = ContinuousClock.now + grace
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            if waitpid(pid, &status, WNOHANG) == pid {
                reaped = true
                exitStatus = status
                break
            }
            usleep(1000)
        }
        if !reaped {
            kill(-pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
            reaped = true
            exitStatus = status
        }
    }
}
