import EventLog
import Foundation
import ResponderBus
import ResponderBusReplay
import ResponderBusUV
import Synchronization
import Testing

/// Holds every event up for two milliseconds, so that a real-time replay falls behind the log by
/// whole milliseconds of libuv's clock while it posts a turn: the next turn is already due when it
/// is scheduled (and libuv 1.44 runs such a timer in the timer pass that is running).
private final class SlowEvents: EventObserving {
    let name = "SlowEvents"

    func observe(_ event: AnyEvent, context: PluginContext) {
        usleep(2_000)
    }
}

/// Says at the end of every turn which view is focused: a decision made in the turn's last
/// end-of-turn work, after the built-ins', which must be timed at the turn's `t` too.
private final class FocusNotes: TurnObserving {
    let name = "FocusNotes"
    var preferredPosition: PluginPosition? { .last }

    func turnDidSettle(context: PluginContext) {
        context.diagnose(.info, "focused: \(context.screen.firstResponder?.id.rawValue ?? "none")")
    }
}

/// A replay of the bundled example through the built-ins and the plugins above: its derived
/// records, diagnostics included.
private func derived(realTimeOnLibuv: Bool) throws -> [LogRecord] {
    let pipeline = try ReplayPipeline(
        PipelineDescription(plugins: [PluginMaker(at: .first) { SlowEvents() }, PluginMaker { FocusNotes() }]))
    guard realTimeOnLibuv else {
        let reader = try LogReader(path: exampleLog)
        let collector = Collector()
        let session = try ReplaySession(pipeline: pipeline, header: try reader.readHeader(), sinks: [collector])
        _ = session.finish(session.replay(reader))
        return collector.derived
    }
    let loop = UVEventLoop()
    defer { loop.shutdown() }
    let outcome = Mutex<Result<[LogRecord], any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    loop.execute {
        do {
            let reader = try LogReader(path: exampleLog)
            let collector = Collector()
            let session = try ReplaySession(pipeline: pipeline, header: try reader.readHeader(), loop: loop, sinks: [collector])
            session.replayInRealTime(reader, speed: 1_000_000) { summary in
                _ = session.finish(summary)
                outcome.withLock { $0 = .success(collector.derived) }
                done.signal()
            }
        } catch {
            outcome.withLock { $0 = .failure(error) }
            done.signal()
        }
    }
    #expect(done.wait(timeout: .now() + 60) == .success, "the real-time replay ended")
    return try #require(outcome.withLock { $0 }).get()
}

@Suite("A real-time replay on libuv: each recorded turn is a turn of its own, timed at its t")
struct RealTimeTurnTests {
    @Test(
        "behind the log by whole milliseconds, a real-time replay on libuv still posts each recorded t in a turn of its own, and times every decision of the turn, its last end-of-turn work's too, at that t"
    )
    func turnsStayApartWhenLate() throws {
        let fast = try derived(realTimeOnLibuv: false)
        #expect(fast.count > 20, "the built-ins' decisions and a note per turn")
        let paced = try derived(realTimeOnLibuv: true)
        let lines = { (records: [LogRecord]) in records.map(LogWriter.line(for:)) }
        #expect(lines(paced) == lines(fast))
    }
}
