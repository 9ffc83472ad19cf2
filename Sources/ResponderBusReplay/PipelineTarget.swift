import EventLog
import ResponderBus
import ResponderBusExplore

/// Runs the explorer's sessions through a replay pipeline — the built-ins, libraries, commands,
/// WebAssembly modules, in-process plugins, a project file's settings — as `responder-bus replay`
/// runs a log: a fresh ``ReplaySession`` for every run. What `responder-bus explore` and
/// `check-plugin` explore.
///
/// ```swift
/// let pipeline = try ReplayPipeline(PipelineDescription())
/// let report = try Explorer(seed: 7).explore(count: 1_000) { PipelineTarget(pipeline) }
/// ```
public final class PipelineTarget: ExplorationTarget {
    /// The pipeline each run goes through.
    public let pipeline: ReplayPipeline

    /// A target running `pipeline`.
    public init(_ pipeline: ReplayPipeline) { self.pipeline = pipeline }

    /// Replays `records` through a fresh session of the pipeline on a virtual-time loop; a contained
    /// plugin's fault reaches the watch as the diagnostic the session derives for it.
    public func run(header: LogHeader, records: [LogRecord], attach: (Bus) -> Void) throws -> [String] {
        let problems = Problems()
        let session = try ReplaySession(pipeline: pipeline, header: header, sinks: [problems])
        attach(session.bus)
        // A plugin stopped under the stop policy has posted its fault's diagnostic already.
        _ = session.finish(session.replay(records: records))
        return problems.lines
    }

    private final class Problems: ReplaySink {
        var lines: [String] = []
        func problem(_ error: LogReadError) {
            if !error.isWarning { lines.append(error.description) }
        }
    }
}
