import Dispatch
import ResponderBus
import ResponderBusPlatform
import Testing

@Suite("Bus delivery channels: DispatchQueue observers, async sequences, other threads")
struct BusDeliveryChannelTests {
    @Test("an observer can ask for delivery on a DispatchQueue; a serial queue keeps post order")
    func dispatchQueueDelivery() async {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        let queue = DispatchQueue(label: "observer")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let seen = Locked([(Int, Bool)]())
        let done = DispatchSemaphore(value: 0)
        let token = bus.observe(.keyboardWillChangeFrame, on: queue) { event in
            seen.withLock { $0.append((event.payload.curve ?? -1, DispatchQueue.getSpecific(key: key) == true)) }
            if event.payload.curve == 99 { done.signal() }
        }
        for curve in [1, 2, 3, 99] { bus.post(.keyboardWillChangeFrame, KeyboardInfo(curve: curve)) }
        #expect(done.wait(timeout: .now() + 10) == .success)
        let result = seen.withLock { $0 }
        #expect(result.map(\.0) == [1, 2, 3, 99])
        #expect(result.allSatisfy { $0.1 })
        _ = token
    }

    @Test("the async sequence delivers every event with an unbounded buffer")
    func asyncSequenceUnbounded() async {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        let stream = bus.events(.keyboardWillShow, buffering: .unbounded)
        for curve in 0..<100 { bus.post(.keyboardWillShow, KeyboardInfo(curve: curve)) }
        var received: [Int] = []
        for await event in stream {
            received.append(event.payload.curve ?? -1)
            if received.count == 100 { break }
        }
        #expect(received == Array(0..<100))
    }

    @Test("buffering policies: dropOldest keeps the newest, dropNewest keeps the oldest")
    func asyncSequencePolicies() async {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        let newest = bus.events(.keyboardDidShow, buffering: .dropOldest(keeping: 3))
        let oldest = bus.events(.keyboardDidShow, buffering: .dropNewest(keeping: 3))
        for curve in 0..<10 { bus.post(.keyboardDidShow, KeyboardInfo(curve: curve)) }
        var fromNewest: [Int] = []
        for await event in newest {
            fromNewest.append(event.payload.curve ?? -1)
            if fromNewest.count == 3 { break }
        }
        var fromOldest: [Int] = []
        for await event in oldest {
            fromOldest.append(event.payload.curve ?? -1)
            if fromOldest.count == 3 { break }
        }
        #expect(fromNewest == [7, 8, 9])
        #expect(fromOldest == [0, 1, 2])
    }

    @Test("ending the iteration ends the observation")
    func asyncSequenceTermination() async {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        do {
            let stream = bus.events(.keyboardDidHide, buffering: .unbounded)
            #expect(bus.observationCount == 1)
            bus.post(.keyboardDidHide, KeyboardInfo())
            for await _ in stream { break }
        }
        loop.run()
        #expect(bus.observationCount == 0)
    }

    @Test("posts from other threads are delivered on the loop, once each, in each producer's order")
    func postsFromOtherThreads() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        var received: [[Int]] = Array(repeating: [], count: 4)
        let token = bus.observe(.keyboardWillChangeFrame) { event in
            let value = event.payload.curve!
            received[value / 1_000_000].append(value % 1_000_000)
        }
        DispatchQueue.concurrentPerform(iterations: 4) { producer in
            for index in 0..<5_000 {
                bus.postFromAnyThread(.keyboardWillChangeFrame, KeyboardInfo(curve: producer * 1_000_000 + index))
            }
        }
        #expect(received.allSatisfy { $0.isEmpty }, "nothing is delivered before the loop runs")
        loop.run()
        for producer in 0..<4 {
            #expect(received[producer] == Array(0..<5_000))
        }
        _ = token
    }
}

/// A tiny thread-safe box for test bookkeeping.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLockLike()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// A pthread mutex, understood by ThreadSanitizer.
final class NSLockLike: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func lock() { pthread_mutex_lock(&mutex) }
    func unlock() { pthread_mutex_unlock(&mutex) }
}
