import Dispatch
import ResponderBusPlatform
import Testing

@testable import EventLog

/// The one background thread a replay reads ahead and writes behind on: every batch read in order,
/// every write run in order, each waiting side woken, and the reader handed back when reading
/// ahead stops. A lost wake-up fails the time limit instead of hanging the run. Named for the
/// ThreadSanitizer run (CI's filter takes type names with `CrossThread`).
@Suite("HelperThread: reading ahead and writing behind on one thread (CrossThread)", .timeLimit(.minutes(1)))
struct HelperThreadCrossThreadTests {
    @Test("a log read ahead on the helper arrives whole and in order, while writes run in order beside it")
    func readsAndWritesInterleaved() throws {
        let helper = try #require(HelperThread(writeCapacity: 4, writeWakeUp: 2))
        let reader = LogReader(bytes: Self.log(records: 3_000))
        _ = try reader.readHeader()
        let ahead = ReadAhead(reader, batchSize: 16, capacity: 4, helper: helper)
        let written = Written()
        var times: [Double] = []
        var batches = 0
        while let batch = ahead.next() {
            batches += 1
            while batch.hasItem {
                _ = batch.takeView()
                times.append(batch.takeRecord().record.t)
            }
            // A write per batch read: the helper runs them between its reads.
            helper.writeBehind { [batches] in written.append(batches) }
        }
        ahead.finish()
        helper.waitForWritesBehind()
        #expect(times == (0..<3_000).map { Double($0) })
        #expect(written.values == Array(1...batches))
        helper.shutDown()
    }

    @Test("stopping a replay that reads ahead drops what was read, and the reader is the caller's again")
    func stopHandsTheReaderBack() throws {
        let helper = try #require(HelperThread())
        let reader = LogReader(bytes: Self.log(records: 50_000))
        _ = try reader.readHeader()
        let ahead = ReadAhead(reader, batchSize: 64, capacity: 2, helper: helper)
        let first = try #require(ahead.next())
        #expect(first.hasItem)
        ahead.finish()
        // Nothing reads it now: what comes next is the line after the last batch the helper read.
        let line = reader.lineNumber
        guard case .record(let record, _)? = reader.next() else {
            Issue.record("the reader should go on after the batches read ahead")
            return
        }
        #expect(reader.lineNumber == line + 1)
        #expect(record.t == Double(line - 1), "the record of the next line, read by the caller")
        helper.shutDown()
    }

    @Test("a writer waiting for room resumes as the helper runs the work, and shutting down runs the rest")
    func fullWriterResumesAndShutDownDrains() throws {
        let helper = try #require(HelperThread(writeCapacity: 2, writeWakeUp: 1))
        let written = Written()
        for value in 0..<500 {
            helper.writeBehind {
                if value % 50 == 0 { usleep(1_000) }
                written.append(value)
            }
        }
        helper.shutDown()
        #expect(written.values == Array(0..<500))
    }

    @Test("fewer writes than the wake-up threshold run when the replay waits for them")
    func waitRunsWritesBelowThreshold() throws {
        let helper = try #require(HelperThread(writeCapacity: 8, writeWakeUp: 8))
        usleep(20_000)  // the helper is waiting by now
        let written = Written()
        helper.writeBehind { written.append(1) }
        helper.writeBehind { written.append(2) }
        helper.waitForWritesBehind()
        #expect(written.values == [1, 2])
        helper.shutDown()
    }

    @Test("the end of the input reaches a replay waiting for it, and a second replay can read ahead after the first")
    func endOfInputThenAnotherReplay() throws {
        let helper = try #require(HelperThread())
        for records in [0, 1, 700] {
            let reader = LogReader(bytes: Self.log(records: records))
            _ = try reader.readHeader()
            let ahead = ReadAhead(reader, batchSize: 32, capacity: 3, helper: helper)
            var count = 0
            while let batch = ahead.next() {
                while batch.hasItem {
                    _ = batch.takeView()
                    _ = batch.takeRecord()
                    count += 1
                }
            }
            #expect(ahead.next() == nil)
            ahead.finish()
            #expect(count == records)
        }
        helper.shutDown()
    }

    @Test("a replay that finds nothing read ahead while the helper is busy writing reads the next batch itself")
    func replayReadsWhileTheHelperWrites() throws {
        let helper = try #require(HelperThread(writeCapacity: 4, writeWakeUp: 1))
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        helper.writeBehind {
            started.signal()
            gate.wait()
        }
        started.wait()
        // The helper is stuck in that write: every batch below is read on this thread, or none is.
        let reader = LogReader(bytes: Self.log(records: 2_000))
        _ = try reader.readHeader()
        let ahead = ReadAhead(reader, batchSize: 64, capacity: 4, helper: helper)
        var times: [Double] = []
        while let batch = ahead.next() {
            while batch.hasItem {
                _ = batch.takeView()
                times.append(batch.takeRecord().record.t)
            }
        }
        ahead.finish()
        gate.signal()
        helper.shutDown()
        #expect(times == (0..<2_000).map { Double($0) })
    }

    @Test("writes handed over while the helper is busy reading run on the replay's thread, in order, once they are full")
    func replayWritesWhileTheHelperReads() throws {
        let helper = try #require(HelperThread(writeCapacity: 4, writeWakeUp: 4))
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        helper.startReadingAhead(capacity: 2) {
            started.signal()
            gate.wait()
            return nil
        }
        started.wait()
        // The helper is stuck in that read: past the first four, each write waits for none.
        let written = Written()
        for value in 0..<40 { helper.writeBehind { written.append(value) } }
        #expect(written.values == Array(0..<36), "all but the last four ran here, in order")
        gate.signal()
        helper.waitForWritesBehind()
        #expect(written.values == Array(0..<40))
        helper.stopReadingAhead()
        helper.shutDown()
    }

    @Test("shutting the helper down under a replay that reads ahead stops the program, rather than ending its input early")
    func shutDownUnderAReplayStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            guard let helper = HelperThread() else { return }
            let reader = LogReader(bytes: HelperThreadCrossThreadTests.log(records: 10_000))
            _ = try reader.readHeader()
            let ahead = ReadAhead(reader, batchSize: 64, capacity: 2, helper: helper)
            _ = ahead.next()
            helper.shutDown()
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("shut down while a replay reads ahead"))
    }

    /// A log of `records` keyboard events, one a second.
    static func log(records: Int) -> [UInt8] {
        var text = #"{"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812}}"# + "\n"
        for t in 0..<records {
            text += #"{"event":"keyboardWillShow","t":\#(t),"begin":[0,812,375,0],"end":[0,521,375,291],"duration":0.25,"curve":7}"# + "\n"
        }
        return Array(text.utf8)
    }
}

/// Values appended on the helper thread and read on the test's after a wait on the helper (which
/// orders the two through its lock).
private final class Written: @unchecked Sendable {
    private(set) var values: [Int] = []
    func append(_ value: Int) { values.append(value) }
}
