import Dispatch
import ResponderBus
import ResponderBusPlatform
import ResponderBusUV
import Testing

/// The bus on the real libuv loop, fed from several threads at once. CI runs this suite under
/// ThreadSanitizer as well (`--filter CrossThread`).
@Suite("Bus on the libuv loop: posts from other threads (CrossThread)")
struct BusOnUVLoopCrossThreadTests {
    /// Per-producer bookkeeping, touched only on the loop thread.
    final class Tally: @unchecked Sendable {
        var nextExpected: [Int]
        var outOfOrder = 0
        var duplicates = 0
        var delivered = 0
        var offLoop = 0
        var keep: ObservationToken?
        init(producers: Int) { nextExpected = Array(repeating: 0, count: producers) }
    }

    @Test("4 producer threads × 100,000 events: none lost, none duplicated, each producer's order kept")
    func fourProducersStress() throws {
        let producers = 4
        let perProducer = 100_000
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let bus = Bus(loop: loop)
        let tally = Tally(producers: producers)
        let allDelivered = DispatchSemaphore(value: 0)
        let registered = DispatchSemaphore(value: 0)

        loop.execute {
            let token = bus.observe(.keyboardWillChangeFrame) { event in
                if !loop.inLoop { tally.offLoop += 1 }
                let value = event.payload.curve!
                let producer = value / 10_000_000
                let index = value % 10_000_000
                if index < tally.nextExpected[producer] {
                    tally.duplicates += 1
                } else if index > tally.nextExpected[producer] {
                    tally.outOfOrder += 1
                    tally.nextExpected[producer] = index + 1
                } else {
                    tally.nextExpected[producer] = index + 1
                }
                tally.delivered += 1
                if tally.delivered == producers * perProducer { allDelivered.signal() }
            }
            // Keep the observation for the life of the bus.
            tally.keep = token
            registered.signal()
        }
        registered.wait()

        let start = DispatchTime.now()
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for index in 0..<perProducer {
                bus.postFromAnyThread(.keyboardWillChangeFrame, KeyboardInfo(curve: producer * 10_000_000 + index))
            }
        }
        let result = allDelivered.wait(timeout: .now() + 60)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        #expect(result == .success, "only \(tally.delivered) of \(producers * perProducer) events arrived within 60 s")

        let done = DispatchSemaphore(value: 0)
        let snapshot = Locked((0, 0, 0, [Int](), 0))
        loop.execute {
            snapshot.withLock { $0 = (tally.delivered, tally.duplicates, tally.outOfOrder, tally.nextExpected, tally.offLoop) }
            done.signal()
        }
        done.wait()
        let (delivered, duplicates, outOfOrder, nextExpected, offLoop) = snapshot.withLock { $0 }
        #expect(delivered == producers * perProducer)
        #expect(duplicates == 0)
        #expect(outOfOrder == 0)
        #expect(nextExpected == Array(repeating: perProducer, count: producers))
        #expect(offLoop == 0, "every event is delivered on the loop thread")
        print("bus cross-thread stress: \(delivered) events in \((seconds * 100).rounded() / 100) s")
    }

    @Test("an observer can remove itself from another thread: delivery stops at once")
    func cancelFromAnotherThread() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let bus = Bus(loop: loop)
        let counter = Locked(0)
        let ready = DispatchSemaphore(value: 0)
        let tokenBox = Locked<ObservationToken?>(nil)
        loop.execute {
            let token = bus.observe(.keyboardDidShow) { _ in counter.withLock { $0 += 1 } }
            tokenBox.withLock { $0 = token }
            ready.signal()
        }
        ready.wait()
        bus.postFromAnyThread(.keyboardDidShow, KeyboardInfo())
        let flushed = DispatchSemaphore(value: 0)
        loop.execute { flushed.signal() }
        flushed.wait()
        #expect(counter.withLock { $0 } == 1)
        tokenBox.withLock { $0?.cancel() }
        bus.postFromAnyThread(.keyboardDidShow, KeyboardInfo())
        loop.execute { flushed.signal() }
        flushed.wait()
        #expect(counter.withLock { $0 } == 1)
        tokenBox.withLock { $0 = nil }
    }
}

extension BusOnUVLoopCrossThreadTests {
    @Test("tokens cancelled on another thread leave the bus's lists on the loop; ones outliving their bus cancel harmlessly, even while it goes")
    func cancelWhileTheBusGoes() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let busBox = Locked<Bus?>(Bus(loop: loop))
        weak let weakBus = busBox.withLock { $0 }
        let tokens = Locked<[ObservationToken]>([])
        let ready = DispatchSemaphore(value: 0)
        loop.execute {
            let bus = busBox.withLock { $0! }
            let made = (0..<200).map { _ in bus.observe(.keyboardDidShow) { _ in } }
            tokens.withLock { $0 = made }
            ready.signal()
        }
        ready.wait()
        let all = tokens.withLock { $0 }
        for token in all[..<100] { token.cancel() }
        #expect(all[..<100].allSatisfy { !$0.isActive })
        let counted = Locked(-1)
        let flushed = DispatchSemaphore(value: 0)
        loop.execute {
            counted.withLock { $0 = busBox.withLock { $0!.observationCount } }
            flushed.signal()
        }
        flushed.wait()
        #expect(counted.withLock { $0 } == 100)
        // The bus goes on the loop while this thread cancels the rest.
        loop.execute { busBox.withLock { $0 = nil } }
        for token in all[100...] { token.cancel() }
        loop.execute { flushed.signal() }
        flushed.wait()
        #expect(weakBus == nil)
        #expect(all.allSatisfy { !$0.isActive })
        tokens.withLock { $0 = [] }
    }
}

/// A value behind a pthread mutex (TSan understands it; see TOOLCHAIN-NOTES on `Mutex`).
final class Locked<Value>: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var value: Value
    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(&mutex, nil)
    }
    deinit { pthread_mutex_destroy(&mutex) }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body(&value)
    }
}
