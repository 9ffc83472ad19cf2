import CLibUV
import CPluginPipes
import ResponderBus
import ResponderBusPlatform

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
        /// A signal the host watches (``WatchedSignals``) arrived while it waited: not the
        /// plugin's fault.
        case interrupted
    }
    var kind: Kind
    var message: String
}

/// A plugin's child process, run through libuv: its standard input and output carry the protocol,
/// one line per message; its standard error is read as lines of text.
///
/// Each process has a libuv loop of its own ("the plugin's loop"), which owns everything of it:
/// the `uv_process_t` started with `uv_spawn` (the command is looked up in `PATH`, never run
/// through a shell; its exit arrives in the exit callback, and libuv reaps it), and a `uv_pipe_t`
/// for each of its standard streams, made with `uv_pipe` (anonymous pipes, close-on-exec until
/// `uv_spawn` hands the child its ends). Reads are libuv read callbacks, writes `uv_try_write`
/// (`uv_write` for what does not fit into the pipe at once), and every wait is the plugin's loop
/// run with a timer at the deadline.
///
/// Why a loop of its own and not the bus's: a delivery is answered before the pipeline goes on
/// (that is what puts a plugin's derived events where an in-process plugin's go, and makes both of
/// the bus's loops give the same results), so the host waits for the answer inside the bus's
/// callback — and a libuv loop cannot be run from inside one of its own callbacks. The plugin's
/// loop is run from there instead, on the same thread; it is never run anywhere else.
///
/// Why `uv_pipe` and not `UV_CREATE_PIPE`: libuv makes the latter a socket pair, whose round trip
/// is several times slower than a pipe's (`Benchmarks/README.md` has the numbers).
///
/// A plugin that died makes a write to its input fail instead of ending the host: Linux raises a
/// pipe's `SIGPIPE` on the writing thread, which blocks it while it writes (`CPluginPipes`); Darwin
/// raises it on the whole process, so the input's write end is marked `F_SETNOSIGPIPE` when it is
/// made (``PluginProcessHandles``). Loop-confined, like the plugin that owns it.
final class PluginProcess {
    /// The child's process id (also its process group's: it leads a group of its own).
    let pid: pid_t
    private let handles: PluginProcessHandles
    /// Its standard output, a line at a time.
    private var output = LineBuffer()
    /// Its standard error, a line at a time, in bounded memory.
    private var errors = ErrorLines(lineBudget: PluginProcess.errorLineBudget)
    private var closed = false
    private var inputClosed = false

    /// Starts `arguments[0]` (looked up in `PATH` when it has no slash) with the rest as its
    /// arguments and the host's environment, in `workingDirectory` (the host's when `nil`).
    init(arguments: [String], workingDirectory: String? = nil) throws(ProcessFault) {
        guard let program = arguments.first, !program.isEmpty else {
            throw ProcessFault(kind: .spawn, message: "the command is empty")
        }
        let handles: PluginProcessHandles
        do {
            handles = try PluginProcessHandles(arguments: arguments, workingDirectory: workingDirectory)
        } catch {
            throw ProcessFault(kind: .spawn, message: "cannot run '\(program)': \(error.message)")
        }
        self.handles = handles
        pid = handles.pid
    }

    deinit {
        terminate(grace: .zero)
    }

    // MARK: Writing

    /// Writes `bytes` whole before `deadline`.
    func write(_ bytes: [UInt8], before deadline: ContinuousClock.Instant) throws(ProcessFault) {
        guard !inputClosed else { throw ProcessFault(kind: .exited, message: exitDescription(or: "closed its input")) }
        // A write libuv still holds (one that timed out) would be overtaken by this one.
        guard !handles.writePending else {
            throw ProcessFault(kind: .timedOut, message: "did not finish reading its input in time")
        }
        var guardState = rb_sigpipe_guard()
        // Failed until it has succeeded: a write libuv tried while the loop ran may have raised a
        // SIGPIPE whose callback has not run yet when the deadline ends the wait.
        var failed = true
        rb_sigpipe_block(&guardState)
        defer { rb_sigpipe_restore(&guardState, failed ? 1 : 0) }
        var offset = 0
        while offset < bytes.count {
            let written = handles.tryWrite(bytes, from: offset)
            if written > 0 {
                offset += written
                continue
            }
            guard written == Int(UV_EAGAIN.rawValue) else {
                throw ProcessFault(kind: .exited, message: exitDescription(or: "closed its input"))
            }
            // The pipe is full: libuv writes the rest as the plugin reads (its output and errors are
            // read meanwhile, so a plugin blocked on writing them is never the reason it does not read).
            handles.startWrite(bytes, from: offset)
            while handles.writePending {
                try runOnce(before: deadline, doing: "reading its input")
                // Exited, while a child it started holds its input open without reading. A plugin
                // that read it all may exit right after: the write is done then, not failed.
                if handles.writePending, handles.checkExit() {
                    throw ProcessFault(kind: .exited, message: Self.describe(handles.exit))
                }
            }
            guard handles.writeStatus == 0 else {
                throw ProcessFault(kind: .exited, message: exitDescription(or: "closed its input"))
            }
            offset = bytes.count
        }
        failed = false
    }

    // MARK: Reading

    /// The next line of its standard output (without the line break), waiting until `deadline`.
    func readLine(before deadline: ContinuousClock.Instant) throws(ProcessFault) -> ArraySlice<UInt8> {
        // An answer usually comes within microseconds: look again for a moment before the loop
        // sleeps, since waking a sleeping thread costs far more than the answer takes.
        var spinUntil = ContinuousClock.now + Self.spin
        while true {
            if let line = output.nextLine() { return line }
            guard !output.isOverlong else {
                throw ProcessFault(kind: .broken, message: "wrote a line longer than \(LineBuffer.maximumLength >> 20) MiB")
            }
            if handles.hasEnded(.output) {
                throw ProcessFault(kind: .exited, message: exitDescription(or: "closed its output"))
            }
            let now = ContinuousClock.now
            // A plugin that keeps writing is held to the deadline too.
            if now >= deadline { throw ProcessFault(kind: .timedOut, message: "did not finish answering in time") }
            if now < spinUntil {
                if handles.readNow(.output) {
                    handles.take(.output) { output.append($0) }
                } else {
                    // Let the plugin have this core if it is waiting for one (two cores, a reader
                    // thread, a writer thread and the plugin: spinning alone would starve it).
                    sched_yield()
                }
                continue
            }
            // Once the loop has woken for output, more is likely on its way (a long line comes 64 KiB
            // at a time): read it directly again rather than a turn of the loop per chunk.
            if try runOnce(before: deadline, doing: "answering") {
                spinUntil = ContinuousClock.now + Self.spin
            } else if handles.checkExit() {
                // It exited, but its output has not ended: a child it started holds the pipe (its
                // group is killed now, but say what happened to the plugin, not the time limit).
                while handles.readNow(.output) { takeOutput() }
                if let line = output.nextLine() { return line }
                throw ProcessFault(kind: .exited, message: Self.describe(handles.exit))
            }
        }
    }

    /// How many lines of standard error ``errorLines()`` hands out at most; the rest are counted.
    static let errorLineBudget = 100

    /// The complete lines its standard error holds now, without waiting (and, once it has ended,
    /// the last unfinished one): at most ``errorLineBudget``, with how many more were dropped and
    /// the last few lines (see ``ErrorLines``).
    func errorLines() -> ErrorLines.Taken {
        // What there is now, but not forever: a plugin may write as fast as this reads. Its last
        // words, maybe without a line break, come with the end of the stream.
        var budget = LineBuffer.maximumLength
        while budget > 0, handles.readNow(.errors) {
            budget -= handles.heldCount(.errors)
            takeOutput()
        }
        takeOutput()
        return errors.take(ended: handles.hasEnded(.errors))
    }

    /// How long a read looks again before the loop sleeps.
    static let spin = Duration.microseconds(50)

    /// Moves what the read callbacks left into the output's lines and the error buffer, and starts
    /// reading again where a full buffer stopped it. Whether any output came.
    @discardableResult
    private func takeOutput() -> Bool {
        let outputCount = handles.take(.output) { output.append($0) }
        // Standard error is always taken, in bounded memory: a plugin never waits to write it.
        handles.take(.errors) { errors.append($0) }
        handles.resumeReading()
        return outputCount > 0
    }

    /// Runs the plugin's loop once: until something happens on its pipes or to its process, a
    /// watched signal arrives (when it throws), a slice of ``slice`` has passed, or `deadline`
    /// (when it throws). Whether output came.
    @discardableResult
    private func runOnce(before deadline: ContinuousClock.Instant, doing: String) throws(ProcessFault) -> Bool {
        try checkInterruption()
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else {
            throw ProcessFault(kind: .timedOut, message: "did not finish \(doing) in time")
        }
        let (seconds, attoseconds) = min(remaining, Self.slice).components
        let milliseconds = UInt64(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        handles.runOnce(timeout: max(milliseconds, 1))
        try checkInterruption()
        return takeOutput()
    }

    /// The longest the loop sleeps at once while waiting: an exit libuv is not told of (no thread
    /// lets SIGCHLD in) is looked for at least this often.
    static let slice = Duration.milliseconds(50)

    /// Throws ``ProcessFault/Kind/interrupted`` when a signal the host watches arrived during a
    /// wait (this one's, or another plugin's not yet handled by the host's own watch), after
    /// following the set of watched signals (``WatchedSignals``) on the plugin's loop.
    private func checkInterruption() throws(ProcessFault) {
        handles.followWatchedSignals()
        if handles.interrupted || WatchedSignals.isPending {
            throw ProcessFault(kind: .interrupted, message: "was interrupted: a signal asked the host to stop")
        }
    }

    // MARK: Ending

    /// What became of the process, if it has ended: "exited with status 3", "was killed by signal
    /// 11 (SIGSEGV)"; `fallback` while it runs.
    func exitDescription(or fallback: String) -> String {
        // A process that closed its pipes is about to end: give it a moment.
        guard waitForExit(until: ContinuousClock.now + .milliseconds(100)) else { return fallback }
        return Self.describe(handles.exit)
    }

    /// Runs the plugin's loop until the process has ended or `deadline` has passed; whether it ended.
    private func waitForExit(until deadline: ContinuousClock.Instant) -> Bool {
        while !handles.checkExit() {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, !closed else { return false }
            // Short turns: `checkExit` also notices an exit libuv was not told of.
            handles.runOnce(timeout: remaining < .milliseconds(5) ? 1 : 5)
            takeOutput()
        }
        return true
    }

    static func describe(_ exit: ChildExit) -> String {
        guard exit.known else { return "exited" }
        guard exit.signal != 0 else { return "exited with status \(exit.status)" }
        let name = signalName(exit.signal).map { " (\($0))" } ?? ""
        return "was killed by signal \(exit.signal)\(name)"
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
    /// it to exit, then kills its process group; closes its handles and its loop. Idempotent.
    func terminate(grace: Duration) {
        guard !closed else { return }
        if !inputClosed {
            inputClosed = true
            handles.closeInput()
        }
        if !waitForExit(until: ContinuousClock.now + grace) {
            kill(-pid, SIGKILL)
            _ = waitForExit(until: ContinuousClock.now + .seconds(2))
        }
        closed = true
        takeOutput()
        handles.close()
    }
}
