import Dispatch
import EventLog
import ResponderBusPlatform
import ResponderBusReplay
import ResponderBusUV

extension ReplayPrinter {
    /// `--follow`: the library's `LogFollower` on the libuv loop, each of its sessions printed
    /// here. Standard output and the recording are flushed at the end of every loop turn; the
    /// summary counts every session; `--record` and `--report` hold the first (the recording is
    /// completed when the second starts). Ctrl-C or SIGTERM ends it: the summary, the checks, the
    /// recording complete.
    ///
    /// The printer is handed to the loop's thread (`sending`), which alone uses it; the outcome
    /// comes back through a `Mutex`.
    static func runFollowing(_ printer: sending ReplayPrinter) throws -> Outcome {
        let loop = UVEventLoop()
        let done = DispatchSemaphore(value: 0)
        let result = LoopResult()
        let handoff = Handoff(printer)
        loop.execute {
            guard let printer = handoff.take() else { return }
            printer.flushEveryTurn(on: loop)
            let progress = Progress(totalBytes: nil)
            var outputError: OutputError?
            // Kept alive until it finishes (its own callbacks hold it through this variable).
            var follower: LogFollower?
            var signals: UVWatch?
            follower = LogFollower(path: printer.command.log, loop: loop) { header in
                try printer.startSession(header: header, on: loop, progress: progress)
            }
            follower?.strict = printer.command.strict
            follower?.allowedLateness = printer.command.allowedLateness.map { .saturating(seconds: $0 / 1000) }
            follower?.onNotice = { complain($0) }
            follower?.onSessionEnd = { _, sessionResult, startsAnew in
                printer.absorb(sessionResult)
                if startsAnew, let error = printer.endRecording(because: "the log was truncated or replaced"), outputError == nil {
                    outputError = error
                }
            }
            follower?.onFinish = { summary, stopped in
                signals?.stop()
                progress.finish()
                if let error = follower?.error {
                    result.fail(with: error)
                } else {
                    var outcome = printer.finish(summary)
                    if stopped { outcome.stopped = true }
                    if outcome.outputError == nil { outcome.outputError = outputError }
                    result.finish(with: outcome)
                }
                follower = nil
                done.signal()
            }
            signals = loop.watchSignals([SIGINT, SIGTERM]) { _ in follower?.stop() }
            follower?.start()
        }
        done.wait()
        loop.shutdown()
        return try result.outcome()
    }
}
