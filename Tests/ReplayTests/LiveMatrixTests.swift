import EventLog
import Foundation
import ResponderBus
import ResponderBusReplay
import ResponderBusTesting
import ResponderBusUV
import Synchronization
import Testing

/// A session of the matrix: a log's name and text.
struct MatrixSession: Sendable {
    let name: String
    let text: String

    var bytes: [UInt8] { Array(text.utf8) }

    /// Its records, as a program would push them (the lines that are not records left out).
    var records: [LogRecord] {
        let reader = LogReader(bytes: bytes)
        _ = try? reader.readHeader()
        var records: [LogRecord] = []
        while let item = reader.next() {
            if case .record(let record, _) = item { records.append(record) }
        }
        return records
    }

    /// Its last `t`, in seconds.
    var duration: Double { records.last?.t ?? 0 }

    /// Every log the repository holds: the corpus, the bundled examples, the fixture logs.
    static let all: [MatrixSession] = {
        var sessions = LogCorpus.all.map { MatrixSession(name: "corpus/\($0.name)", text: $0.text) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for folder in ["Sources/responder-bus/Examples", "Tests/Fixtures/logs"] {
            let url = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".jsonl") {
                if let text = try? String(contentsOf: url.appendingPathComponent(name), encoding: .utf8) {
                    sessions.append(MatrixSession(name: "\(folder)/\(name)", text: text))
                }
            }
        }
        return sessions
    }()

    static let example = all.first { $0.name.hasSuffix("sign-up-session.jsonl") }!
}

/// The built-in settings a project file can set, one column of the matrix each.
enum MatrixSettings {
    static let all: [(name: String, settings: BuiltinSettings)] = {
        var settleWindow = BuiltinSettings()
        settleWindow.settleWindow = .milliseconds(50)
        var heldFrame = BuiltinSettings()
        heldFrame.settleWindow = .milliseconds(20)
        heldFrame.heldFrameTimeout = .milliseconds(200)
        var everyEvent = BuiltinSettings()
        everyEvent.avoidanceTiming = .everyEvent
        var settledTurns = BuiltinSettings()
        settledTurns.avoidanceTiming = .settledTurns
        settledTurns.settleWindow = .milliseconds(30)
        var position = BuiltinSettings()
        position.fieldOrder = .position
        position.textViewReturnAdvances = true
        return [
            ("defaults", BuiltinSettings()), ("settle window 50 ms", settleWindow), ("held-frame timeout 200 ms", heldFrame),
            ("avoidance on every event", everyEvent), ("avoidance on settled turns", settledTurns), ("fields by position", position),
        ]
    }()
}

/// What a replay decided: its `--format jsonl` lines less the summary (every derived record and
/// diagnostic, in order).
typealias Decisions = [String]

/// The ways one log is replayed, each against the fast replay.
enum LiveModes {
    /// As fast as possible, on a virtual-time loop: the reference.
    static func fast(_ session: MatrixSession, _ settings: BuiltinSettings) throws -> Decisions {
        try fast(LogReader(bytes: session.bytes), settings)
    }

    /// What `reader`'s log decides, replayed as fast as possible on a virtual-time loop.
    static func fast(_ reader: LogReader, _ settings: BuiltinSettings) throws -> Decisions {
        let collector = Collector()
        let replay = try ReplaySession(
            pipeline: ReplayPipeline(PipelineDescription(settings: settings)), header: try reader.readHeader(), sinks: [collector])
        _ = replay.finish(replay.replay(reader))
        return collector.lines
    }

    /// `replay -`: read from a pipe that a thread writes in random chunks, with pauses between.
    static func slowPipe(_ session: MatrixSession, _ settings: BuiltinSettings, seed: UInt64) throws -> Decisions {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        let bytes = session.bytes
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let writer = Thread {
            var random = SeededRandom(seed)
            var offset = 0
            while offset < bytes.count {
                let count = min(bytes.count - offset, Int.random(in: 1...400, using: &random))
                let written = bytes[offset..<offset + count].withUnsafeBytes { write(writeEnd, $0.baseAddress, count) }
                if written <= 0 { break }
                offset += written
                usleep(UInt32.random(in: 0...1_500, using: &random))
            }
            close(writeEnd)
        }
        writer.start()
        defer { close(readEnd) }
        return try fast(LogReader(fileDescriptor: readEnd), settings)
    }

    /// How the live sessions of one run are fed.
    enum Feed: Sendable, CustomStringConvertible {
        /// `--realtime --speed X`.
        case realTime(speed: Double)
        /// `--follow` of a finished file, stopped once it was read.
        case followFinished
        /// `--follow` of a file a thread writes in random chunks, stopped once it was written.
        case followGrowing
        /// A program pushing the records from a thread of the session's own, in random batches.
        case pushed

        var description: String {
            switch self {
            case .realTime(let speed): "--realtime --speed \(Int(speed))"
            case .followFinished: "--follow of a finished file"
            case .followGrowing: "--follow of a growing file"
            case .pushed: "records pushed from threads"
            }
        }
    }

    /// Replays every session at once on one libuv loop, fed as `feed` says; the decisions of each.
    static func live(_ sessions: [MatrixSession], _ settings: BuiltinSettings, _ feed: Feed, seed: UInt64) throws -> [Decisions] {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-matrix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let results = Mutex<[Int: Result<Decisions, any Error>]>([:])
        let finished = DispatchSemaphore(value: 0)
        let report: @Sendable (Int, Result<Decisions, any Error>) -> Void = { index, result in
            results.withLock { $0[index] = result }
            finished.signal()
        }
        let description = PipelineDescription(settings: settings)
        for (index, session) in sessions.enumerated() {
            let path = folder.appendingPathComponent("\(index).jsonl").path
            let seed = seed &+ UInt64(index)
            loop.execute {
                do {
                    try start(session, index: index, path: path, on: loop, description: description, feed: feed, seed: seed, report: report)
                } catch {
                    report(index, .failure(error))
                }
            }
        }
        for _ in sessions {
            guard finished.wait(timeout: .now() + 120) == .success else { throw LiveMatrixError.timedOut("\(feed)") }
        }
        return try results.withLock { results in try sessions.indices.map { try results[$0]!.get() } }
    }

    /// Starts one live session on the loop's thread.
    private static func start(
        _ session: MatrixSession, index: Int, path: String, on loop: UVEventLoop, description: PipelineDescription, feed: Feed, seed: UInt64,
        report: @escaping @Sendable (Int, Result<Decisions, any Error>) -> Void
    ) throws {
        let pipeline = try ReplayPipeline(description)
        let lines = LoopBox<Decisions>([])
        switch feed {
        case .realTime(let speed):
            let reader = LogReader(bytes: session.bytes)
            let replay = try ReplaySession(pipeline: pipeline, header: try reader.readHeader(), loop: loop, sinks: [LinesSink(lines)])
            replay.replayInRealTime(reader, speed: speed) { summary in
                _ = replay.finish(summary)
                report(index, .success(lines.value))
            }
        case .pushed:
            let reader = LogReader(bytes: session.bytes)
            let replay = try ReplaySession(pipeline: pipeline, header: try reader.readHeader(), loop: loop, sinks: [LinesSink(lines)])
            let live = replay.replayLive { summary in
                _ = replay.finish(summary)
                report(index, .success(lines.value))
            }
            let records = session.records
            Thread {
                var random = SeededRandom(seed)
                var offset = 0
                while offset < records.count {
                    let count = min(records.count - offset, Int.random(in: 1...7, using: &random))
                    if count == 1 { live.append(records[offset]) } else { live.append(contentsOf: records[offset..<offset + count]) }
                    offset += count
                    if Bool.random(using: &random) { usleep(UInt32.random(in: 0...300, using: &random)) }
                }
                live.finish()
            }.start()
        case .followFinished, .followGrowing:
            let growing = if case .followGrowing = feed { true } else { false }
            if !growing { try session.text.write(toFile: path, atomically: false, encoding: .utf8) }
            let follower = LogFollower(path: path, loop: loop) { header in
                try ReplaySession(pipeline: pipeline, header: header, loop: loop, sinks: [LinesSink(lines)])
            }
            let held = LoopBox<LogFollower?>(follower)
            follower.onFinish = { _, _ in
                report(index, .success(lines.value))
                held.value = nil
            }
            follower.start()
            guard growing else {
                follower.stop()
                return
            }
            let bytes = session.bytes
            let stop = LoopBox<() -> Void>({ held.value?.stop() })
            Thread {
                _ = FileManager.default.createFile(atPath: path, contents: nil)
                guard let handle = FileHandle(forWritingAtPath: path) else { return }
                var random = SeededRandom(seed)
                var offset = 0
                while offset < bytes.count {
                    let count = min(bytes.count - offset, Int.random(in: 1...600, using: &random))
                    handle.write(Data(bytes[offset..<offset + count]))
                    offset += count
                    usleep(UInt32.random(in: 0...2_000, using: &random))
                }
                try? handle.close()
                // Written whole: the follower is stopped, as an interrupt would.
                loop.execute { stop.value() }
            }.start()
        }
    }
}

enum LiveMatrixError: Error {
    case timedOut(String)
}

/// A value handed between the test's closures, used on the loop's thread only.
final class LoopBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// SplitMix64: random numbers that are the same on every run for a seed, so a failing mix repeats
/// (this target's tests share it).
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Two threads that keep both cores busy while the live cases run, as CI's machine is.
final class BusyLoops: Sendable {
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)

    init(count: Int = 2) {
        for _ in 0..<count {
            Thread { [self] in
                var x: UInt64 = 1
                while running.load(ordering: .relaxed) {
                    for _ in 0..<10_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 }
                }
                if x == 0 { print(x) }
                done.signal()
            }.start()
        }
    }

    func stop(count: Int = 2) {
        running.store(false, ordering: .relaxed)
        for _ in 0..<count { done.wait() }
    }
}

@Suite("Live is the replay: every session, setting and mode decides as the fast replay does", .serialized)
struct LiveMatrixTests {
    @Test(
        "fast, --realtime at 1,000 and 10⁶ times, --follow of a finished and a growing file, replay - from a slow pipe, and records pushed from threads give the same decisions, beside two busy loops",
        arguments: MatrixSettings.all.indices
    )
    func matrix(setting: Int) throws {
        let (settingName, settings) = MatrixSettings.all[setting]
        let sessions = MatrixSession.all
        #expect(sessions.count >= 25, "the corpus, the examples and the fixture logs")
        let fast = try sessions.map { try LiveModes.fast($0, settings) }
        #expect(fast.joined().count > 40, "the sessions decide something")
        let busy = BusyLoops()
        defer { busy.stop() }
        let seed = UInt64(setting) &* 1_000_003 &+ 17
        // At 1,000 times, only the sessions under a minute of log time: a second of the test each.
        let short = sessions.indices.filter { sessions[$0].duration <= 60 }
        #expect(short.count >= sessions.count / 2)
        var feeds: [(LiveModes.Feed, [Int])] = [
            (.realTime(speed: 1_000_000), Array(sessions.indices)), (.realTime(speed: 1_000), short),
            (.followFinished, Array(sessions.indices)), (.followGrowing, Array(sessions.indices)), (.pushed, Array(sessions.indices)),
        ]
        if setting == 0 {
            // The bundled example at its recorded pace, once: twelve seconds.
            feeds.append((.realTime(speed: 1), [sessions.firstIndex { $0.name == MatrixSession.example.name }!]))
        }
        for (feed, indices) in feeds {
            let live = try LiveModes.live(indices.map { sessions[$0] }, settings, feed, seed: seed)
            for (position, index) in indices.enumerated() where live[position] != fast[index] {
                Issue.record(
                    "\(sessions[index].name), \(settingName), \(feed): \(difference(live[position], fast[index]))")
            }
        }
        for (index, session) in sessions.enumerated() {
            let piped = try LiveModes.slowPipe(session, settings, seed: seed &+ UInt64(index))
            #expect(piped == fast[index], "\(session.name), \(settingName), replay - from a slow pipe: \(difference(piped, fast[index]))")
        }
    }
}

/// The first line at which two runs' decisions differ, for a failure's message.
func difference(_ got: Decisions, _ expected: Decisions) -> String {
    guard let first = zip(got, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else {
        return "\(got.count) decisions where the fast replay has \(expected.count)"
            + (got.count > expected.count ? "; the first extra: \(got[expected.count])" : "")
            + (expected.count > got.count ? "; the first missing: \(expected[got.count])" : "")
    }
    return "decision #\(first + 1) is \(got[first]) where the fast replay has \(expected[first])"
}

/// A sink that adds each decision's line to a loop-bound list.
private final class LinesSink: ReplaySink {
    let lines: LoopBox<Decisions>

    init(_ lines: LoopBox<Decisions>) {
        self.lines = lines
    }

    func decided(_ record: consuming LogRecord) {
        lines.value.append(LogWriter.line(for: record))
    }
}
