import CBenchSupport
import Foundation

/// Runs `argv` with stdout to /dev/null through a small Python launcher, timed in the launcher;
/// returns wall seconds and the child's peak RSS in kB.
///
/// Not spawned from here directly: Linux carries the spawning process's RSS high-water mark into a
/// child's `ru_maxrss` across exec, and this process has read the 90 MB log. The launcher is small
/// (≈10 MB), so the child's own peak shows.
func spawnTimed(_ argv: [String]) -> (seconds: Double, maxRSSKB: Int, status: Int32) {
    let script = """
        import resource, subprocess, sys, time
        t0 = time.perf_counter()
        rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
        dt = time.perf_counter() - t0
        print(dt, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)
        """
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = ["python3", "-c", script] + argv
    let pipe = Pipe()
    python.standardOutput = pipe
    try! python.run()
    let out = pipe.fileHandleForReading.readDataToEndOfFile()
    python.waitUntilExit()
    let fields = String(decoding: out, as: UTF8.self).split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    guard fields.count == 3 else { return (.nan, 0, -1) }
    return (Double(fields[0]) ?? .nan, Int(fields[1]) ?? 0, Int32(fields[2]) ?? -1)
}

/// The log record, as a Codable user would write it: every field of every event, optional.
struct CodableRecord: Decodable {
    struct View: Decodable {
        var id: String
        var kind: String?
        var frame: [Double]
        var tag: Int?
        var children: [View]?
    }
    var event: String
    var t: Double
    var view: String?
    var begin: [Double]?
    var end: [Double]?
    var duration: Double?
    var curve: Int?
    var isLocal: Bool?
    var frame: [Double]?
    var from: String?
    var to: String?
    var by: String?
    var origin: String?
    var originY: Double?
    var root: View?
    var lastFieldAction: String?
}

func runReplay(_ results: Results, cli: String, log: String, smallLog: String, events: Int, smallEvents: Int) {
    let g = "3 replay"
    // ResponderBus: the CLI, all three built-in plugins, the derived events as JSONL to /dev/null.
    let small = spawnTimed([cli, "replay", smallLog, "--format", "jsonl"])
    precondition(small.status == 0, "replay failed: \(small.status)")

    // orjson: Python reads the file and parses every line; timed inside Python.
    let script = """
        import orjson, sys, time
        data = open(sys.argv[1], 'rb').read()
        t0 = time.perf_counter()
        n = 0
        for line in data.splitlines():
            if line:
                orjson.loads(line); n += 1
        dt = time.perf_counter() - t0
        print(n / dt)
        """
    func measureOrjson(_ path: String = log) -> Double {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script, path]
        let pipe = Pipe()
        python.standardOutput = pipe
        try! python.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        return Double(String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
    }

    // JSONDecoder on the first 100,000 lines (rate extrapolates; decoding is per line).
    let data = try! Data(contentsOf: URL(fileURLWithPath: smallLog))
    let lines = data.split(separator: UInt8(ascii: "\n")).dropFirst()  // the header is not an event
    func decoderRate() -> Double {
        let decoder = JSONDecoder()
        let t0 = bench_now_ns()
        var decoded = 0
        for line in lines {
            if let record = try? decoder.decode(CodableRecord.self, from: line) {
                decoded += 1
                blackHole(record.t)
            }
        }
        return Double(decoded) / (Double(bench_now_ns() - t0) / 1e9)
    }

    // Each contender runs three times, in turns, and keeps its best rate: a slow spell of the
    // machine (it moves whole runs by up to 2× here) then cannot fall on one side only.
    var big = (seconds: Double.infinity, maxRSSKB: 0, status: Int32(0))
    var orjsonBest = 0.0
    var decoderBest = 0.0
    for _ in 0..<3 {
        let run = spawnTimed([cli, "replay", log, "--format", "jsonl"])
        precondition(run.status == 0, "replay failed: \(run.status)")
        if run.seconds < big.seconds { big.seconds = run.seconds }
        big.maxRSSKB = max(big.maxRSSKB, run.maxRSSKB)
        orjsonBest = max(orjsonBest, measureOrjson())
        decoderBest = max(decoderBest, decoderRate())
    }
    let ours = Double(events) / big.seconds
    let orjsonRate = orjsonBest
    let decoderRate = decoderBest

    // Reading and splitting lines, no parsing.
    let t1 = bench_now_ns()
    let whole = try! Data(contentsOf: URL(fileURLWithPath: log))
    var count = 0
    whole.withUnsafeBytes { raw in
        var start = 0
        let bytes = raw.bindMemory(to: UInt8.self)
        while let nl = bytes[start...].firstIndex(of: 10) {
            count += 1
            start = nl + 1
        }
    }
    let splitRate = Double(count) / (Double(bench_now_ns() - t1) / 1e9)

    results.add(
        Row(
            group: g, name: "replay \(events) events, 3 plugins → /dev/null", value: ours, unit: "events/s",
            baselineName: "orjson parse only", baselineValue: orjsonRate, ratio: ours / orjsonRate,
            goal: "≥1×", met: ours >= orjsonRate))
    results.add(
        Row(
            group: g, name: "replay vs JSONDecoder", value: ours, unit: "events/s",
            baselineName: "JSONDecoder (Codable)", baselineValue: decoderRate, ratio: ours / decoderRate,
            goal: "≥10×", met: ours / decoderRate >= 10))
    results.add(
        Row(
            group: g, name: "replay vs reading+splitting lines", value: ours, unit: "events/s",
            baselineName: "split lines only", baselineValue: splitRate, ratio: ours / splitRate))
    results.add(Row(group: g, name: "replay wall time, \(events) events", value: big.seconds, unit: "s"))

    // The same events, each at a time of its own: every event is its own loop turn, as in most real
    // recordings (run.sh writes the log beside the other, `-distinct` before `.jsonl`).
    let distinctLog = String(log.dropLast(".jsonl".count)) + "-distinct.jsonl"
    if FileManager.default.fileExists(atPath: distinctLog) {
        var best = Double.infinity
        var orjsonDistinct = 0.0
        for _ in 0..<3 {
            let run = spawnTimed([cli, "replay", distinctLog, "--format", "jsonl"])
            precondition(run.status == 0, "replay failed: \(run.status)")
            best = min(best, run.seconds)
            orjsonDistinct = max(orjsonDistinct, measureOrjson(distinctLog))
        }
        let rate = Double(events) / best
        results.add(
            Row(
                group: g, name: "replay \(events) events, each its own turn, 3 plugins → /dev/null", value: rate, unit: "events/s",
                baselineName: "orjson parse only", baselineValue: orjsonDistinct, ratio: rate / orjsonDistinct, goal: "≥1×",
                met: rate >= orjsonDistinct))
    }
    let rssRatio = Double(big.maxRSSKB) / Double(small.maxRSSKB)
    results.add(
        Row(
            group: g, name: "peak RSS, \(events) events", value: Double(big.maxRSSKB) / 1024, unit: "MB",
            baselineName: "\(smallEvents) events", baselineValue: Double(small.maxRSSKB) / 1024, ratio: rssRatio,
            goal: "flat (≤1.10×)", met: rssRatio <= 1.10))
}
