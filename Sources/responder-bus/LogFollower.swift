import Dispatch
import EventLog
import ResponderBus
import ResponderBusUV

#if canImport(Glibc)
    import Glibc
#endif

/// The file `replay --follow` reads, opened once and compared with what its name now points at.
final class FollowedFile {
    let path: String
    let descriptor: Int32
    private let device: UInt64
    private let inode: UInt64

    /// Opens `path`; `nil` when there is nothing there (yet).
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else {
            close(descriptor)
            return nil
        }
        self.path = path
        self.descriptor = descriptor
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    deinit {
        close(descriptor)
    }

    /// What happened to the file since it was opened, given how much of it was read.
    enum Change {
        /// Nothing but appends (or nothing at all).
        case none
        /// It is shorter than what was read: emptied, or rewritten from the start.
        case truncated
        /// The name now points at another file (log rotation: `mv` and a new file).
        case replaced
        /// Nothing is at the name.
        case deleted
    }

    func change(consumed: Int) -> Change {
        var named = stat()
        guard stat(path, &named) == 0 else { return .deleted }
        if UInt64(named.st_dev) != device || UInt64(named.st_ino) != inode { return .replaced }
        var opened = stat()
        if fstat(descriptor, &opened) == 0, Int(opened.st_size) < consumed { return .truncated }
        return .none
    }

    /// Whether the file's first line is complete (a header can be read), or too long to wait for.
    func hasFirstLine() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        while offset < 1 << 20 {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            if count <= 0 { return false }
            if buffer[0..<count].contains(0x0A) { return true }
            offset += count
        }
        return true
    }
}

/// `replay --follow`: follows the log by name, as `tail -F` does, on the libuv loop.
///
/// - A log that is not there yet, or has no complete header line yet, is waited for (said once).
/// - Appended records are replayed as they arrive; standard output and the recording are flushed
///   at the end of every loop turn.
/// - When the file is truncated, or its name points at a new file (rotation), the follower says so
///   on standard error and reads the file from its start as a new session: a new bus, a new screen
///   model, the new header's screen; no later line is replayed against the old screen. The summary
///   counts every session; `--record` and `--report` hold the first (the recording is completed
///   when the second starts).
/// - When the file is deleted, it waits for it to come back (said once).
/// - Ctrl-C or SIGTERM ends it: the summary, the checks, the recording complete.
final class LogFollower {
    private let session: ReplaySession
    private let loop: UVEventLoop
    private let path: String
    private let finished: (ReplaySession.Outcome) -> Void

    private var file: FollowedFile?
    private var reader: LogReader?
    private var replayer: Replayer?
    private var recorder: LogRecorder?
    private var check: CoverageCheck?
    private var resume: (() -> Void)?
    /// What the sessions that ended replayed.
    private var ended = Replayer.Summary?.none
    private var watch: UVWatch?
    private var signals: UVWatch?
    private var timer: ScheduledWork?
    private var outputError: OutputError?
    private var lastSaid: String?
    private var done = false
    private let progress = Progress(totalBytes: nil)

    init(session: ReplaySession, loop: UVEventLoop, path: String, finished: @escaping (ReplaySession.Outcome) -> Void) {
        self.session = session
        self.loop = loop
        self.path = path
        self.finished = finished
    }

    /// Starts following. Loop-confined.
    func start() {
        session.flushEveryTurn(on: loop)
        signals = loop.watchSignals([SIGINT, SIGTERM]) { [self] _ in finish(stopped: false) }
        look()
        poll()
    }

    /// Looks again every 200 ms, besides the file watch's notices: a deleted or not yet created
    /// file has no watch.
    private func poll() {
        timer = loop.schedule(after: .milliseconds(200)) { [self] in
            look()
            if !done { poll() }
        }
    }

    /// Says something once while it stays true.
    private func say(_ message: String) {
        guard message != lastSaid else { return }
        lastSaid = message
        complain(message)
    }

    /// Checks the file and acts on what changed.
    private func look() {
        guard !done else { return }
        if let file, let reader {
            switch file.change(consumed: reader.bytesConsumed) {
            case .none:
                lastSaid = nil
                if let next = resume {
                    resume = nil
                    next()
                }
            case .truncated:
                endSession(saying: "\(path) was truncated: replaying it from its start, as a new session")
            case .replaced:
                endSession(saying: "\(path) was replaced by a new file (rotated?): following the new one from its start, as a new session")
            case .deleted:
                say("\(path) was deleted: waiting for it to come back")
            }
            return
        }
        guard let opened = file ?? FollowedFile(path: path) else {
            say("waiting for \(path) to be created")
            return
        }
        file = opened
        guard opened.hasFirstLine() else {
            say("waiting for \(path) to have its header line")
            return
        }
        startSession(on: opened)
    }

    private func startSession(on file: FollowedFile) {
        lastSaid = nil
        let reader = LogReader(fileDescriptor: file.descriptor)
        reader.follows = true
        let header: LogHeader
        do {
            header = try reader.readHeader()
        } catch {
            complain("\(path): \(error)")
            return finish(stopped: true)
        }
        session.header = header
        do {
            let (replayer, recorder, check) = try session.makeReplayer(on: loop, progress: progress)
            (self.replayer, self.recorder, self.check, self.reader) = (replayer, recorder, check, reader)
        } catch {
            return finish(error: error)
        }
        watch = try? loop.watchFile(atPath: path) { [self] in look() }
        replayer?.replayInRealTime(
            reader, on: loop, strict: session.command.strict, waitForMore: { [self] next in resume = next },
            completion: { [self] _ in finish(stopped: false) })
    }

    /// Ends the current session (its summary kept) and looks for the next.
    private func endSession(saying message: String) {
        watch?.stop()
        watch = nil
        recorder?.stop()
        check?.stop()
        if let replayer { ended = Self.adding(replayer.currentSummary, to: ended) }
        if let error = session.endRecording(because: "the log was truncated or replaced"), outputError == nil {
            outputError = error
        }
        (replayer, recorder, check, reader, file, resume) = (nil, nil, nil, nil, nil, nil)
        complain(message)
        look()
    }

    private static func adding(_ summary: Replayer.Summary, to total: Replayer.Summary?) -> Replayer.Summary {
        guard var total else { return summary }
        total.externalEvents += summary.externalEvents
        total.recordedDerived += summary.recordedDerived
        total.rejectedLines += summary.rejectedLines
        total.warnings += summary.warnings
        total.stoppedAt = total.stoppedAt ?? summary.stoppedAt
        return total
    }

    private func finish(error: any Error) {
        stopWatching()
        finishedWithError = error
        finished(ReplaySession.Outcome())
    }

    /// The error that ended the follow before it could replay (a plugin that cannot be used).
    private(set) var finishedWithError: (any Error)?

    private func stopWatching() {
        done = true
        timer?.cancel()
        watch?.stop()
        signals?.stop()
        progress.finish()
    }

    /// Ends following: prints the summary of every session, completes the outputs.
    private func finish(stopped: Bool) {
        guard !done else { return }
        stopWatching()
        recorder?.stop()
        check?.stop()
        let bus = replayer?.bus ?? Bus(loop: loop)
        let current = replayer?.currentSummary ?? Replayer(bus: bus).currentSummary
        let summary = replayer.map { Self.adding($0.currentSummary, to: ended) } ?? ended ?? current
        if session.header == nil { session.header = LogHeader(screen: bus.screen.size) }
        var outcome = session.finish(summary, bus: bus)
        if stopped { outcome.stopped = true }
        if outcome.outputError == nil { outcome.outputError = outputError }
        finished(outcome)
    }
}

extension ReplaySession {
    /// `--follow`: see ``LogFollower``. The session is handed to the loop's thread (`sending`),
    /// which alone uses it; the outcome comes back through a `Mutex`.
    static func runFollowing(_ session: sending ReplaySession) throws -> Outcome {
        let loop = UVEventLoop()
        let done = DispatchSemaphore(value: 0)
        let result = LoopResult()
        let handoff = Handoff(session)
        loop.execute {
            guard let session = handoff.take() else { return }
            // Kept alive until it finishes (the follower holds this closure, which holds it).
            var follower: LogFollower?
            follower = LogFollower(session: session, loop: loop, path: session.command.log) { outcome in
                if let error = follower?.finishedWithError { result.fail(with: error) } else { result.finish(with: outcome) }
                follower = nil
                done.signal()
            }
            follower?.start()
        }
        done.wait()
        loop.shutdown()
        return try result.outcome()
    }
}
