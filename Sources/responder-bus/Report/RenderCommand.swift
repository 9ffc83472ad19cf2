import ArgumentParser
import EventLog
import ResponderBus
import ResponderBusPlatform
import ResponderBusReplay
import ResponderBusReport

/// `responder-bus render`: the screen as it was at one moment of a log, as an SVG file.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw the screen as it was at one moment of a log, as SVG, for bug reports.",
        discussion: """
            Replays the log through its pipeline (the built-in plugins, and any --plugin, --plugin-command or project file) on the virtual-time loop, up to the given time, and \
            draws the screen model after the last record at or before it: every view's outline with its id, \
            kind and tag, the first responder, the keyboard and the part of the screen it covers, the safe \
            area, the root's shift, and a covered field, cross-hatched and labelled. Lines that cannot be read \
            are reported on standard error and skipped, as replay does.

            Examples:
              responder-bus render session.jsonl --at 3.2 -o frame.svg
              responder-bus render session.jsonl --at 1.26 --disable KeyboardAvoidance > covered.svg
            """
    )

    @Argument(help: "The log (JSON Lines, format v1), or - for standard input.")
    var log: String

    @Option(help: ArgumentHelp("The moment to draw, in seconds from the start of the log.", valueName: "seconds"))
    var at: Double

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the SVG to this file instead of standard output.", valueName: "file.svg"))
    var output: String?

    @OptionGroup(title: "Pipeline") var pipeline: PipelineOptions

    func validate() throws {
        guard at.isFinite, at >= 0 else { throw ValidationError("--at must be a number of seconds, 0 or more, got \(at)") }
    }

    func run() throws {
        _ = StandardOutput.wasClosed
        if let clash = OutputClash.check(inputs: [log], outputs: [output ?? "-"]) {
            complain(clash)
            throw ExitCode.validationFailure
        }
        let pipeline = try pipeline.pipeline(forLog: log)
        let (reader, header) = try openLog(log)
        // Open the output first: a path that cannot be created fails before the replay.
        let outputFile: OutputFile?
        do {
            outputFile = try output.map { path throws(OutputError) in try OutputFile(path: path) }
        } catch {
            throw error.reported()
        }
        let file = outputFile.map(Output.init(file:)) ?? Output()

        let name = log == "-" ? "standard input" : String(log.split(separator: "/").last ?? Substring(log))
        let session: ReplaySession
        do throws(PipelineError) {
            session = try ReplaySession(pipeline: pipeline, header: header, options: .report, sinks: [ProblemsSaid(log: log)])
        } catch {
            complain(error.message)
            throw ExitCode(error.exitCode)
        }
        let result = session.finish(session.replay(reader))
        if let stop = result.stoppedByPlugin {
            complain("\(stop); stopping (--plugin-failure stop)")
            throw Exit.pluginStopped
        }
        let summary = result.summary
        if summary.rejectedLines > 0 {
            complain("\(log): \(summary.rejectedLines) line\(summary.rejectedLines == 1 ? "" : "s") skipped")
        }
        guard let recorder = session.report else { throw Exit.internalError }

        let frame = recorder.frame(at: at)
        file.line(String(frame.svg(logName: name).dropLast()))
        file.flush()
        do throws(OutputError) {
            if let error = file.error {
                outputFile?.abandon()
                throw error
            }
            try outputFile?.commit()
        } catch {
            throw error.reported()
        }
        if let output { complain("render: wrote \(output): the screen at \(frame.moment), \(frame.after)") }
    }
}

/// `render`'s sink: each line the replay could not read, said on standard error.
private final class ProblemsSaid: ReplaySink {
    let log: String

    init(log: String) {
        self.log = log
    }

    func problem(_ error: LogReadError) {
        complain("\(log): \(error)")
    }
}
