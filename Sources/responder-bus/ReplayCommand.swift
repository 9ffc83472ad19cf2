import ArgumentParser
import Dispatch
import EventLog
import ResponderBus
import ResponderBusExternal
import ResponderBusPlatform
import ResponderBusReplay
import ResponderBusUV

/// `responder-bus replay`.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a log through the built-in plugins and show what each decided.",
        discussion: """
            Replays on a virtual-time loop as fast as possible (or, with --realtime, driven from the libuv \
            loop at the recorded pace). Every mode decides the same: plugins' timers run on the log's \
            clock, and a followed or piped log's last turn waits for a later record or the end, since it \
            may not be whole yet (--allowed-lateness trades that for latency). Prints a timeline: each \
            event at its time, and under it what each plugin derived. Lines that cannot be read are reported on standard error with their line and column, \
            skipped and counted (with --strict: the replay stops, exit 65). From a pipe (-), each \
            turn is decided as soon as a later record (or the end) arrives, and what it printed is \
            flushed then, so that a program still writing the log into the pipe is replayed live.

            Examples:
              responder-bus replay session.jsonl
              responder-bus replay session.jsonl --format jsonl > decisions.jsonl
              responder-bus replay session.jsonl --check --verify
              responder-bus replay session.jsonl --report session.html
              responder-bus replay live.jsonl --follow
              cat session.jsonl | responder-bus replay - --disable FieldAdvancing
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, jsonl
    }

    @Argument(help: "The log to replay (JSON Lines, format v1), or - for standard input.")
    var log: String

    @Option(help: "text: a readable timeline. jsonl: the derived events as log records, then one summary record.")
    var format: Format = .text

    @Flag(help: "Report every moment the focused field is left covered by the keyboard after it settles; exit 1 if any.")
    var check = false

    @Flag(
        help:
            "Compare the derived events with those recorded in the log; exit 1 at the first difference. Diagnostics are not compared (they are advice, and their wording may change) unless --verify-diagnostics."
    )
    var verify = false

    @Flag(help: "With --verify, compare the diagnostics the plugins derive too (level, message, the views they name).")
    var verifyDiagnostics = false

    @Flag(help: "Replay on the libuv loop at the recorded pace instead of as fast as possible.")
    var realtime = false

    @Option(help: "With --realtime: play this many times faster than recorded (0.001 to 1000000).")
    var speed: Double = 1

    @Flag(
        help:
            "Keep reading as the file grows, by name like tail -F (waits for the file and its header; a truncated or rotated log starts a new session; a named pipe is read as its writers write), until interrupted. Implies --realtime."
    )
    var follow = false

    @Option(
        help: ArgumentHelp(
            "With --follow: decide the turn read last (or a plugin's timer past it) at most this many milliseconds after its time, even if the log has shown nothing later yet. Lower latency; a record that then arrives late is reported and replayed after what was decided, not in its place. Without it, a turn waits for a later record or the end, and the decisions are exactly those of replaying the finished file.",
            valueName: "ms"))
    var allowedLateness: Double?

    @Flag(help: "Stop at the first line that cannot be replayed, with exit 65.")
    var strict = false

    @OptionGroup(title: "Pipeline") var pipeline: PipelineOptions

    @Option(help: ArgumentHelp("Also write the whole session, external and derived events, as a v1 log to this file.", valueName: "file"))
    var record: String?

    @Option(
        help: ArgumentHelp(
            "Also write a self-contained HTML report: a timeline, the screen before and after each decision, every record.", valueName: "file.html"))
    var report: String?

    func validate() throws {
        guard speed >= 0.001, speed <= 1_000_000 else {
            throw ValidationError("--speed must be between 0.001 and 1000000 (times faster than recorded), got \(speed)")
        }
        if follow && log == "-" { throw ValidationError("--follow needs a file to watch, not standard input") }
        if let allowedLateness {
            guard follow else { throw ValidationError("--allowed-lateness goes with --follow") }
            guard allowedLateness >= 0, allowedLateness <= 3_600_000 else {
                throw ValidationError("--allowed-lateness is milliseconds, 0 to 3600000, got \(allowedLateness)")
            }
        }
        if verifyDiagnostics && !verify { throw ValidationError("--verify-diagnostics goes with --verify") }
        if report == "-" { throw ValidationError("--report needs a file to write, such as --report session.html") }
    }

    func run() throws {
        // Before anything is opened: a closed standard output keeps its descriptor, and no output
        // may be an input or another output.
        _ = StandardOutput.wasClosed
        if let clash = OutputClash.check(inputs: [log], outputs: [record, report].compactMap { $0 } + ["-"]) {
            complain(clash)
            throw ExitCode.validationFailure
        }
        let pipeline = try pipeline.pipeline(forLog: log)
        let outcome: ReplayPrinter.Outcome
        if follow {
            // The log may not be there yet, or have no header yet: the follower waits for it.
            outcome = try ReplayPrinter.runFollowing(ReplayPrinter(command: self, pipeline: pipeline))
        } else {
            let (reader, header) = try openLog(log)
            let printer = ReplayPrinter(command: self, pipeline: pipeline)
            outcome = try realtime ? ReplayPrinter.runOnLibuv(printer, reader: reader, header: header) : printer.runVirtual(reader, header: header)
        }
        if let error = outcome.outputError { throw error.reported() }
        if outcome.pluginStopped { throw Exit.pluginStopped }
        if outcome.stopped { throw Exit.dataError }
        if outcome.failedCheck { throw Exit.checkFailed }
    }
}
