import EventLog
import ResponderBus
import Testing

@Suite("LogRecorder's selection")
struct LogRecorderSelectionTests {
    /// Records the bundled session of `ReplayerTests` with `selection`.
    private func record(_ selection: LogRecorder.Selection) throws -> [LogRecord] {
        let run = TurnCursor()
        var records: [LogRecord] = []
        let recorder = LogRecorder(bus: run.bus, selection: selection) { records.append($0) }
        try run.run(ReplayerTests.session)
        recorder.stop()
        return records
    }

    @Test("external, derived, all and nothing: each takes its origins, and all is both in order")
    func selections() throws {
        let external = try record(.external)
        let derived = try record(.derived)
        let all = try record(.all)
        #expect(external.count == 7)
        #expect(external.allSatisfy { $0.origin == .external })
        #expect(derived.count == 4)
        #expect(derived.allSatisfy { $0.origin != .external })
        #expect(all.count == external.count + derived.count)
        #expect(all.filter { $0.origin == .external } == external)
        #expect(all.filter { $0.origin != .external } == derived)
        #expect(try record([]).isEmpty)
    }
}
