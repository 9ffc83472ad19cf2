import Foundation

/// `responder-bus test` on a corpus of 1,000 recorded sessions of 1,000 events each: throughput
/// with two jobs against one (goal ≥1.8× on a 2-core machine), and peak memory with two jobs
/// against two single-session runs plus 20 MB.
func runCorpus(_ results: Results, cli: String) {
    let g = "5 corpus"
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rb-corpus-bench-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    try! FileManager.default.createDirectory(at: folder.appendingPathComponent("sessions"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // One session of 1,000 events with its decisions recorded, linked under 1,000 names.
    let raw = folder.appendingPathComponent("raw.jsonl").path
    let recorded = folder.appendingPathComponent("recorded.jsonl").path
    let generator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("gen_log.py").path
    let gen = Process()
    gen.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    gen.arguments = ["python3", generator, "1000", raw, "distinct"]
    try! gen.run()
    gen.waitUntilExit()
    let record = spawnTimed([cli, "replay", raw, "--format", "jsonl", "--record", recorded])
    precondition(record.status == 0, "recording the session failed")
    let sessions = 1000
    for index in 0..<sessions {
        let name = folder.appendingPathComponent(String(format: "sessions/s%04d.jsonl", index)).path
        precondition(link(recorded, name) == 0, "cannot link \(name)")
    }
    let corpus = folder.appendingPathComponent("sessions").path
    let single = spawnTimed([cli, "test", corpus + "/s0000.jsonl", "--jobs", "1", "-q"])
    precondition(single.status == 0, "a single session failed: \(single.status)")
    // Best of three each, in turns (see `runReplay`).
    var one = (seconds: Double.infinity, maxRSSKB: 0, status: Int32(0))
    var two = one
    for _ in 0..<3 {
        let a = spawnTimed([cli, "test", corpus, "--jobs", "1", "-q"])
        let b = spawnTimed([cli, "test", corpus, "--jobs", "2", "-q"])
        precondition(a.status == 0 && b.status == 0, "the corpus failed: \(a.status), \(b.status)")
        if a.seconds < one.seconds { one.seconds = a.seconds }
        if b.seconds < two.seconds { two.seconds = b.seconds }
        one.maxRSSKB = max(one.maxRSSKB, a.maxRSSKB)
        two.maxRSSKB = max(two.maxRSSKB, b.maxRSSKB)
    }
    let events = Double(sessions * 1000)
    let speedup = one.seconds / two.seconds
    results.add(
        Row(
            group: g, name: "test 1,000 sessions × 1,000 events, --jobs 2", value: events / two.seconds, unit: "events/s",
            baselineName: "--jobs 1", baselineValue: events / one.seconds, ratio: speedup, goal: "≥1.8×", met: speedup >= 1.8))
    let allowed = 2 * Double(single.maxRSSKB) / 1024 + 20
    let peak = Double(two.maxRSSKB) / 1024
    results.add(
        Row(
            group: g, name: "test peak RSS, --jobs 2", value: peak, unit: "MB", baselineName: "2 × one session's peak + 20 MB",
            baselineValue: allowed, ratio: peak / allowed, goal: "≤1×", met: peak <= allowed))
    results.add(
        Row(
            group: g, name: "test peak RSS, --jobs 1", value: Double(one.maxRSSKB) / 1024, unit: "MB",
            baselineName: "one session", baselineValue: Double(single.maxRSSKB) / 1024,
            ratio: Double(one.maxRSSKB) / Double(single.maxRSSKB)))
}
