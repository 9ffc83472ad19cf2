import Dispatch
import ResponderBus
import Testing

/// In the ThreadSanitizer pass (its type name matches the README's `CrossThread` filter).
@Suite("Virtual-time loop: tokens cancelled from another thread while the driving thread posts")
struct VirtualLoopCrossThreadCancelTests {
    @Test("the loop knows its own thread: inLoop is false elsewhere, and becomes true on a thread that runs it")
    func ownThread() {
        let loop = VirtualTimeLoop()
        #expect(loop.inLoop)
        let seen = Locked<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let before = loop.inLoop
            loop.run()  // this thread drives the loop now
            seen.withLock { $0 = [before, loop.inLoop] }
            done.signal()
        }
        done.wait()
        #expect(seen.withLock { $0 } == [false, true])
        #expect(!loop.inLoop)
        loop.run()
        #expect(loop.inLoop)
    }

    @Test("64 tokens cancelled one by one from a global queue while 200,000 events are posted: no race, delivery stops, bookkeeping on the loop")
    func cancelWhilePosting() {
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop)
        var counts = [Int](repeating: 0, count: 64)
        let tokens = (0..<64).map { index in bus.observe(.keyboardWillShow) { _ in counts[index] += 1 } }
        let cancelled = DispatchSemaphore(value: 0)
        let sendable = SendableTokens(tokens)
        DispatchQueue.global().async {
            for token in sendable.tokens { token.cancel() }
            cancelled.signal()
        }
        for _ in 0..<200_000 { bus.post(.keyboardWillShow, KeyboardInfo()) }
        cancelled.wait()
        #expect(tokens.allSatisfy { !$0.isActive })
        // Delivery stopped at once: a post now reaches nobody, though the lists are cleaned later.
        let before = counts
        bus.post(.keyboardWillShow, KeyboardInfo())
        #expect(counts == before)
        loop.run()
        #expect(bus.observationCount == 0)
    }
}

/// Tokens are Sendable; an array of them is handed to another thread as is.
private struct SendableTokens: Sendable {
    let tokens: [ObservationToken]
    init(_ tokens: [ObservationToken]) { self.tokens = tokens }
}
