import Dispatch
import EventLog
import ResponderBusReplay
import ResponderBusUV

// live-ingest: a service receiving several devices' keyboard sessions at once. Each device's
// session runs on one libuv loop, its records pushed from a thread of its own in small batches as
// they arrive; its decisions come as an AsyncSequence, and a report is taken halfway through.
// Prints, for each log named on the command line, what was decided halfway and then in all.

/// The sessions, on the loop's thread: an actor whose executor is the loop.
actor Ingest {
    let loop: UVEventLoop
    let pipeline: ReplayPipeline
    private var sessions: [String: ReplaySession] = [:]
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    init(loop: UVEventLoop, pipeline: ReplayPipeline) {
        self.loop = loop
        self.pipeline = pipeline
    }

    /// Starts a device's live session: the feed its records go into, and its decisions.
    func start(_ device: String, header: LogHeader) throws -> (LiveFeed, AsyncStream<LogRecord>) {
        let session = try ReplaySession(pipeline: pipeline, header: header, loop: loop, options: .report)
        sessions[device] = session
        let decisions = session.decisions()  // asked before the replay starts
        let feed = session.replayLive { summary in _ = session.finish(summary) }  // once the feed is finished
        return (feed, decisions)
    }

    /// The decisions a report of the device's session shows now.
    func decisionsInReport(of device: String) -> Int {
        let report = sessions[device]?.reportSnapshot(logName: device)
        return report?.recorder.records.count { $0.origin != .external } ?? 0
    }
}

/// Pushes records from a thread of their own, a few at a time, and returns once they are pushed.
func push(_ records: ArraySlice<LogRecord>, into feed: LiveFeed, finishing: Bool) async {
    await withCheckedContinuation { (pushed: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            for start in stride(from: records.startIndex, to: records.endIndex, by: 3) {
                feed.append(contentsOf: records[start..<min(start + 3, records.endIndex)])
            }
            if finishing { feed.finish() }
            pushed.resume()
        }
    }
}

let loop = UVEventLoop()
let ingest = Ingest(loop: loop, pipeline: try ReplayPipeline(PipelineDescription()))
let reports = try await withThrowingTaskGroup(of: (Int, String).self) { group in
    for (index, log) in CommandLine.arguments.dropFirst().enumerated() {
        // What a device sends: the records of a recorded session.
        let reader = try LogReader(path: log)
        let header = try reader.readHeader()
        var read: [LogRecord] = []
        while let item = reader.next() {
            if case .record(let record, _) = item { read.append(record) }
        }
        let records = read
        group.addTask {
            let (feed, decisions) = try await ingest.start(log, header: header)
            let collected = Task { await decisions.reduce(into: [String]()) { $0.append(LogWriter.line(for: $1)) } }
            await push(records[..<(records.count / 2)], into: feed, finishing: false)
            let halfway = await ingest.decisionsInReport(of: log)
            await push(records[(records.count / 2)...], into: feed, finishing: true)
            let lines = await collected.value
            return (index, "\(log): \(halfway) decisions halfway, \(lines.count) in all\n" + lines.map { $0 + "\n" }.joined())
        }
    }
    var reports: [Int: String] = [:]
    for try await (index, report) in group { reports[index] = report }
    return reports
}
for index in reports.keys.sorted() { print(reports[index]!, terminator: "") }
await loop.shutdownGracefully()
