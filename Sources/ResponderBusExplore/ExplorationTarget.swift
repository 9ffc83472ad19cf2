import EventLog
import ResponderBus

/// What the explorer runs sessions on: a pipeline made fresh for every run, so that no run sees
/// another's state. ``PluginTarget`` runs plugins made in this process; `ResponderBusReplay`'s
/// `PipelineTarget` a whole replay pipeline (libraries, commands, WebAssembly modules). Used on one
/// thread: a parallel exploration makes one per worker.
public protocol ExplorationTarget: AnyObject {
    /// Replays `records` on a fresh pipeline, calling `attach` with its bus before the first
    /// record (where the explorer's ``PropertyWatch`` starts); the loop runs until nothing is
    /// scheduled.
    ///
    /// - Returns: the lines the replay rejected (none, for a generated session).
    /// - Throws: when the pipeline cannot be made (a plugin that cannot be placed or started).
    func run(header: LogHeader, records: [LogRecord], attach: (Bus) -> Void) throws -> [String]
}

/// Runs sessions on plugins made in this process: the built-ins, a plugin under test, its
/// companions.
///
/// ```swift
/// let target = PluginTarget { [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance(), MyPlugin()] }
/// ```
public final class PluginTarget: ExplorationTarget {
    private let make: () throws -> [any ResponderPlugin]

    /// A target whose every run registers `plugins()`'s plugins, in order, each where its
    /// `preferredPosition` says (else last).
    public init(_ plugins: @escaping () throws -> [any ResponderPlugin]) {
        make = plugins
    }

    /// Replays `records` through a fresh set of the plugins on a virtual-time loop.
    public func run(header: LogHeader, records: [LogRecord], attach: (Bus) -> Void) throws -> [String] {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop, screen: Screen(size: header.screen, safeArea: header.safeArea ?? .zero))
        for plugin in try make() { try bus.register(plugin) }
        let replayer = Replayer(bus: bus)
        replayer.apply(header)
        var rejected: [String] = []
        replayer.onProblem = { problem in if !problem.isWarning { rejected.append(problem.description) } }
        attach(bus)
        let reader = LogReader(header: header, records: records)
        _ = try reader.readHeader()
        _ = replayer.replay(reader, on: loop, readAhead: false)
        return rejected
    }
}
