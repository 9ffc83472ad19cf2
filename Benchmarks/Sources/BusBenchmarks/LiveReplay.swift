import EventLog
import FieldAdvancing
import KeyboardAvoidance
import ResponderBus
import TextViewOrdering

// Profiles for Benchmarks/callgrind.sh: one log's records replayed from memory through the three
// built-ins, as fast as possible (profile-records) and pushed into a live replay (profile-push).
// The issue-45 goal: pushing costs at most 1.2× the fast replay's instructions per event.

/// The records of the log at `path` (header, records), read before anything is measured.
func loadRecords(_ path: String) -> (LogHeader, [LogRecord]) {
    let reader = try! LogReader(path: path)
    let header = try! reader.readHeader()
    var records: [LogRecord] = []
    while let item = reader.next() {
        if case .record(let record, _) = item { records.append(record) }
    }
    return (header, records)
}

/// A bus with the built-ins on a virtual-time loop, counting the derived records.
private func builtInBus(_ header: LogHeader) -> (Bus, Replayer, LogRecorder, RecordCounter) {
    let bus = Bus(loop: VirtualTimeLoop(), screen: Screen(size: header.screen))
    for plugin: any ResponderPlugin in [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance()] { try! bus.register(plugin) }
    let replayer = Replayer(bus: bus)
    let counter = RecordCounter()
    let recorder = LogRecorder(bus: bus, selection: .derived, clock: replayer.logClock) { _ in counter.value += 1 }
    return (bus, replayer, recorder, counter)
}

final class RecordCounter {
    var value = 0
}

/// The records replayed as fast as possible: a reader of records in memory, no reading ahead.
@inline(never)
func replayRecordsFast(_ header: LogHeader, _ records: [LogRecord]) -> Int {
    let (bus, replayer, recorder, counter) = builtInBus(header)
    let reader = LogReader(header: header, records: records)
    _ = try! reader.readHeader()
    let summary = replayer.replay(reader, on: bus.loop as! VirtualTimeLoop, readAhead: false)
    recorder.stop()
    return summary.externalEvents + counter.value
}

/// The same records pushed into a live replay driven by a second virtual-time loop, 256 at a time.
@inline(never)
func replayRecordsPushed(_ header: LogHeader, _ records: [LogRecord]) -> Int {
    let (_, replayer, recorder, counter) = builtInBus(header)
    let driver = VirtualTimeLoop()
    var summary = Replayer.Summary()
    let feed = replayer.replayLive(on: driver) { summary = $0 }
    var start = 0
    while start < records.count {
        let end = min(start + 256, records.count)
        feed.append(contentsOf: records[start..<end])
        driver.run()
        start = end
    }
    feed.finish()
    driver.runUntilQuiet()
    recorder.stop()
    return summary.externalEvents + counter.value
}

/// `profile-records` or `profile-push` on the log at `path`.
func runProfileRecords(_ path: String, pushed: Bool) {
    let (header, records) = loadRecords(path)
    let count = pushed ? replayRecordsPushed(header, records) : replayRecordsFast(header, records)
    print("\(pushed ? "pushed" : "fast"): \(records.count) records, \(count) events and decisions")
}
