import EventLog
import ResponderBus
import ResponderBusPlatform
import ResponderBusUV

/// Follows a log by name, as `tail -F` does, on the libuv loop, replaying it through a pipeline as
/// it grows (`responder-bus replay --follow`).
///
/// - A log that is not there yet, or has no complete header line yet, is waited for (said once,
///   through ``onNotice``).
/// - Appended records are replayed as they arrive, on the loop's thread, by the live engine: the
///   same turns, timers and decisions as a fast replay of the same records. The last turn read is
///   held until a later `t` is appended (it may not be whole yet), unless ``allowedLateness`` says
///   how long it may wait.
/// - When the file is truncated, or its name points at a new file (rotation), the follower says so
///   and reads the file from its start as a new session: a new ``ReplaySession`` (a new bus, a new
///   screen model, the new header's screen); no later line is replayed against the old screen.
/// - When the file is deleted, it waits for it to come back (said once).
/// - ``stop()`` (an interrupt, say) ends it: what was read of the current session is replayed to
///   its end (the held turn, the plugins' timers), the session is finished and ``onFinish`` is
///   called with what every session counted. A follow of a finished file, stopped, decides exactly
///   what `replay` of it does.
///
/// Loop-confined: make it, start it and stop it on the loop's thread.
///
/// ```swift
/// final class Printer: ReplaySink {
///     func timeline(_ line: String) { print(line) }
/// }
/// let printer = Printer()
/// let follower = LogFollower(path: "live.jsonl", loop: loop) { header in
///     try ReplaySession(pipeline: pipeline, header: header, loop: loop, options: .timeline, sinks: [printer])
/// }
/// follower.onFinish = { summary, _ in print(summary.externalEvents, "events") }
/// follower.start()
/// ```
public final class LogFollower {
    /// Makes the session for a log whose header is `header` (called for each new session).
    public typealias SessionMaker = (_ header: LogHeader) throws -> ReplaySession

    /// The path followed.
    public let path: String
    private let loop: UVEventLoop
    private let makeSession: SessionMaker
    /// Stop at the first rejected line (then the follower finishes, stopped).
    public var strict = false
    /// How long (on the loop's clock) the turn read last, or a plugin's timer past what was read,
    /// waits for the file at most before it is decided; `nil` (the default) waits for a later
    /// record or the end, so the decisions are a fast replay's exactly. A record that arrives after
    /// the replay moved past its time is reported as a problem (`lateRecord`) and posted then.
    public var allowedLateness: Duration?
    /// Called with what the follower is doing or waiting for, once while it stays so: a log not
    /// there yet, a truncation, a rotation, a deletion.
    public var onNotice: ((String) -> Void)?
    /// Called when a session ends, with its result and whether the log starts anew (it was
    /// truncated or replaced: the next session follows) or the follower is finishing.
    public var onSessionEnd: ((_ session: ReplaySession, _ result: ReplayResult, _ startsAnew: Bool) -> Void)?
    /// Called once, when the follower finishes: with what every session counted, and whether it
    /// stopped on a problem (a bad header, a strict stop) rather than being stopped.
    public var onFinish: ((_ summary: Replayer.Summary, _ stoppedOnProblem: Bool) -> Void)?
    /// The error that ended the follow (a session that could not be made: a plugin that cannot be
    /// used), if any; ``onFinish`` is called after it is set.
    public private(set) var error: (any Error)?
    /// The session under way, if any.
    public private(set) var session: ReplaySession?

    private var file: FollowedFile?
    private var reader: LogReader?
    private var resume: (() -> Void)?
    /// What the sessions that ended replayed.
    private var ended = Replayer.Summary?.none
    private var watch: UVWatch?
    private var timer: ScheduledWork?
    private var lastSaid: String?
    private var done = false
    /// Set while a session's input is ended by the follower itself (a stop, a truncation).
    private var endingSession = false

    /// A follower of `path` on `loop`, making each session with `makeSession`.
    ///
    /// - Parameters:
    ///   - path: the log's path, followed by name.
    ///   - loop: the libuv loop it runs on.
    ///   - makeSession: makes the session for a header (its sinks given).
    public init(path: String, loop: UVEventLoop, makeSession: @escaping SessionMaker) {
        self.path = path
        self.loop = loop
        self.makeSession = makeSession
    }

    /// Starts following. Loop-confined.
    public func start() {
        look()
        poll()
    }

    /// Stops following: finishes the session under way and calls ``onFinish``. Loop-confined.
    public func stop() {
        guard !done else { return }
        // What the file holds now is all there is: a session it has not started yet starts.
        look()
        endingSession = true
        session?.endInput()
        endingSession = false
        finish(stopped: false)
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
        onNotice?(message)
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
            onNotice?("\(path): \(error)")
            return finish(stopped: true)
        }
        do {
            session = try makeSession(header)
        } catch {
            self.error = error
            return finish(stopped: true)
        }
        self.reader = reader
        watch = try? loop.watchFile(atPath: path) { [self] in look() }
        // Completes by itself only at a strict stop or a read that ended; otherwise when the
        // follower ends its input.
        session?.replayInRealTime(
            reader, strict: strict, allowedLateness: allowedLateness, waitForMore: { [self] next in resume = next },
            completion: { [self] summary in
                guard !endingSession else { return }
                finish(stopped: summary.stoppedAt != nil)
            })
    }

    /// Ends the current session (its summary kept) and looks for the next.
    private func endSession(saying message: String) {
        watch?.stop()
        watch = nil
        if let session {
            // What was read of it is replayed to its end: its held turn, its timers.
            endingSession = true
            session.endInput()
            endingSession = false
            let summary = session.replayer.currentSummary
            ended = Self.adding(summary, to: ended)
            onSessionEnd?(session, session.finish(summary), true)
        }
        (session, reader, file, resume) = (nil, nil, nil, nil)
        onNotice?(message)
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

    /// Ends following: the current session finished, ``onFinish`` called.
    private func finish(stopped: Bool) {
        guard !done else { return }
        done = true
        timer?.cancel()
        watch?.stop()
        let current = session?.replayer.currentSummary
        let summary = current.map { Self.adding($0, to: ended) } ?? ended ?? Replayer.Summary()
        if let session, let current {
            onSessionEnd?(session, session.finish(current), false)
        }
        session = nil
        onFinish?(summary, stopped)
    }
}
