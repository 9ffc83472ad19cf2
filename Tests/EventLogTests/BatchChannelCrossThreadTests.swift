import EventLog
import ResponderBusPlatform
import Testing

/// The hand-off between the replay and its reader and writer threads; a lost wake-up fails the time
/// limit instead of hanging the run. Named for the ThreadSanitizer run (CI's filter takes type
/// names with `CrossThread`).
@Suite("BatchChannel: batches in order, each waiting side woken, none lost (CrossThread)", .timeLimit(.minutes(1)))
struct BatchChannelCrossThreadTests {
    @Test("a consumer woken only every fourth batch still gets every batch, in order, then the end", arguments: [1, 4, 8])
    func everyBatchInOrder(wakesConsumerAt: Int) {
        let channel = BatchChannel<Int>(capacity: 8, wakesConsumerAt: wakesConsumerAt)
        #expect(
            channel.spawn {
                for batch in 0..<5_000 { channel.put(batch) }
                channel.close()
            })
        var taken: [Int] = []
        while let batch = channel.take() { taken.append(batch) }
        channel.join()
        #expect(taken == Array(0..<5_000))
    }

    @Test("fewer batches than the wake-up threshold reach a waiting consumer when the producer closes")
    func closeWakesBelowThreshold() {
        let channel = BatchChannel<Int>(capacity: 8, wakesConsumerAt: 4)
        #expect(
            channel.spawn {
                usleep(20_000)  // the consumer is waiting by now
                channel.put(1)
                channel.put(2)
                channel.close()
            })
        #expect(channel.take() == 1)
        #expect(channel.take() == 2)
        #expect(channel.take() == nil)
        channel.join()
    }

    @Test("a producer waiting for room resumes as the consumer takes, and is let go by a cancel")
    func fullProducerResumesAndCancels() {
        let channel = BatchChannel<Int>(capacity: 2)
        let refused = Flag()
        #expect(
            channel.spawn {
                for batch in 0..<100 where !channel.put(batch) {
                    refused.set()
                    return
                }
            })
        // Taking a few lets the producer run on; cancelling then frees it wherever it waits.
        #expect(channel.take() == 0)
        #expect(channel.take() == 1)
        #expect(channel.take() == 2)
        channel.cancel()
        channel.join()
        #expect(refused.isSet, "put refuses once the consumer has cancelled")
        #expect(channel.take() == nil)
    }
}

/// A flag set on one thread and read on another after `join()` (which orders the two).
private final class Flag: @unchecked Sendable {
    private(set) var isSet = false
    func set() { isSet = true }
}
