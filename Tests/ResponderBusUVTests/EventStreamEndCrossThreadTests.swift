import ResponderBus
import ResponderBusUV
import Testing

/// Who posts, for the streams filtered on a sender.
private final class Poster: Sendable {}

/// What a consumer that is never cancelled took from a stream before its `for await` ended.
private typealias Consumer = Task<[Int], Never>

/// Iterates `stream` to its end, on the global executor (not the loop), collecting the curves.
private func consume(_ stream: AsyncStream<SendableEvent<KeyboardInfo>>, progress: AsyncStream<Int>.Continuation? = nil) -> Consumer {
    Task {
        var curves: [Int] = []
        for await event in stream {
            curves.append(event.payload.curve ?? -1)
            progress?.yield(curves.count)
        }
        return curves
    }
}

/// What `operation` returned, or `nil` when it had not returned after `timeout`: it is then
/// cancelled, so that a stream that never finishes fails the test instead of hanging it.
private func within<Value: Sendable>(
    _ timeout: Duration = .seconds(10), _ operation: @escaping @Sendable () async -> Value
) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// What `task` returned, or `nil` when it had not finished within 10 s (it is then cancelled,
/// which ends its `for await`).
private func value(of task: Consumer) async -> [Int]? {
    await within {
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }
}

/// Whether `progress` reached `count` within 10 s.
private func reached(_ count: Int, _ progress: AsyncStream<Int>) async -> Bool {
    await within {
        for await seen in progress where seen >= count { return true }
        return false
    } ?? false
}

/// The suite's name has "CrossThread" in it: the README's ThreadSanitizer pass runs it.
@Suite("Bus event streams finish when the loop shuts down or the bus goes away (EventStreamEnd, CrossThread)")
struct EventStreamEndCrossThreadTests {
    @Test("a for await over bus.events ends when the UVEventLoop shuts down, having received every event posted before")
    func loopShutdownEndsTheStream() async throws {
        let loop = UVEventLoop()
        let bus = Bus(loop: loop)
        let shows = try await loop.perform { bus.events(.keyboardWillShow, buffering: .unbounded) }
        let consumer = consume(shows)
        loop.execute {
            bus.post(.keyboardWillShow, KeyboardInfo(curve: 0))
            bus.post(.keyboardWillShow, KeyboardInfo(curve: 1), style: .whenIdle)
            bus.post(.keyboardWillShow, KeyboardInfo(curve: 2), style: .asap)
            bus.post(.keyboardWillShow, KeyboardInfo(curve: 3))
        }
        let producers = (0..<2).map { producer in
            TestThread {
                for index in 0..<500 { bus.postFromAnyThread(.keyboardWillShow, KeyboardInfo(curve: 4 + producer * 500 + index)) }
            }
        }
        for producer in producers { producer.join() }
        await loop.shutdownGracefully()

        let received = try #require(await value(of: consumer), "the for await did not end after the loop shut down")
        #expect(received.count == 1_004, "each event once")
        #expect(received.sorted() == Array(0..<1_004))
        #expect(received.filter { $0 < 4 } == [0, 3, 2, 1], "now, now, at the end of the turn, when idle")
        for producer in 0..<2 {
            let range = (4 + producer * 500)..<(4 + (producer + 1) * 500)
            #expect(received.filter { range.contains($0) } == Array(range), "each producer's posts in its order")
        }
        #expect(loop.closeResult == 0)
    }

    @Test("filtered on a sender, bounded, or made by the last work before shutdown(): each stream ends with its events")
    func filteredAndLateStreamsEnd() async throws {
        let loop = UVEventLoop()
        let bus = Bus(loop: loop)
        let keyboard = Poster()
        let other = Poster()
        let fromKeyboard = try await loop.perform {
            bus.events(.keyboardDidShow, sender: keyboard, buffering: .dropNewest(keeping: 100))
        }
        let newest = try await loop.perform { bus.events(.keyboardDidShow, buffering: .dropOldest(keeping: 3)) }
        let keyboardConsumer = consume(fromKeyboard)
        for curve in 0..<50 {
            bus.postFromAnyThread(.keyboardDidShow, KeyboardInfo(curve: curve), sender: curve.isMultiple(of: 2) ? keyboard : other)
        }
        let late = Box<AsyncStream<SendableEvent<KeyboardInfo>>?>(nil)
        loop.execute {
            late.value = bus.events(.keyboardDidHide, buffering: .unbounded)
            bus.post(.keyboardDidHide, KeyboardInfo(curve: 7))
            bus.post(.keyboardDidHide, KeyboardInfo(curve: 8), style: .asap)
        }
        // The synchronous shutdown an embedder calls from its own thread.
        loop.shutdown()

        let fromKeyboardReceived = try #require(await value(of: keyboardConsumer), "the filtered stream did not end")
        #expect(fromKeyboardReceived == Array(stride(from: 0, to: 50, by: 2)))
        // Consumed only now: the stream finished meanwhile, and still hands out what it kept.
        let newestReceived = try #require(await value(of: consume(newest)), "the bounded stream did not end")
        #expect(newestReceived == [47, 48, 49])
        let lateStream = try #require(late.value)
        let lateReceived = try #require(await value(of: consume(lateStream)), "the stream made during the shutdown did not end")
        #expect(lateReceived == [7, 8])
        #expect(loop.closeResult == 0)
    }

    @Test("a for await over bus.events ends when the bus is released, while the UVEventLoop runs on")
    func releasingTheBusOnTheLoopEndsTheStream() async throws {
        let loop = UVEventLoop()
        weak var released: Bus?
        let consumer: Consumer
        do {
            let bus = Bus(loop: loop)
            released = bus
            let hides = try await loop.perform { bus.events(.keyboardWillHide, buffering: .unbounded) }
            consumer = consume(hides)
            try await loop.perform {
                for curve in 0..<10 { bus.post(.keyboardWillHide, KeyboardInfo(curve: curve)) }
                bus.post(.keyboardWillHide, KeyboardInfo(curve: 10), style: .asap)
            }
            try await loop.perform {}  // after the asap post's turn
        }

        let received = try #require(await value(of: consumer), "the for await did not end after the bus went away")
        #expect(received == Array(0...10))
        #expect(released == nil)
        #expect(try await loop.perform { true }, "the loop still runs")
        await loop.shutdownGracefully()
    }

    @Test("on a VirtualTimeLoop, releasing the bus ends a for await waiting on bus.events, filtered or not")
    func releasingTheBusOnAVirtualLoopEndsTheStreams() async throws {
        let loop = VirtualTimeLoop()
        var bus: Bus? = Bus(loop: loop)
        let keyboard = Poster()
        let (progress, reporter) = AsyncStream.makeStream(of: Int.self)
        // Everything on the loop happens before the first suspension, on the thread that made it.
        let all = consume(bus!.events(.keyboardWillShow, buffering: .unbounded), progress: reporter)
        let fromKeyboard = consume(bus!.events(.keyboardWillShow, sender: keyboard, buffering: .dropOldest(keeping: 8)))
        for curve in 0..<10 { bus!.post(.keyboardWillShow, KeyboardInfo(curve: curve), sender: curve < 5 ? nil : keyboard) }
        bus!.post(.keyboardWillShow, KeyboardInfo(curve: 10), sender: keyboard, style: .whenIdle)
        loop.run()
        // The consumer took everything and waits for more when the bus goes.
        #expect(await reached(11, progress), "the consumer did not receive the events")
        weak let released = bus
        bus = nil
        #expect(released == nil)

        let allReceived = try #require(await value(of: all), "the for await did not end after the bus went away")
        #expect(allReceived == Array(0...10))
        let fromKeyboardReceived = try #require(await value(of: fromKeyboard), "the filtered for await did not end")
        #expect(fromKeyboardReceived == Array(5...10))
    }
}
