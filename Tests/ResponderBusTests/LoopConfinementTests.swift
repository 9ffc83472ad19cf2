import ResponderBus
import ResponderBusPlatform
import Testing

/// Runs `body` on a new thread and waits for it.
private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    SystemThread.start(body)?.join()
}

@Suite("Loop confinement is checked where the bus is set up, in every build")
struct LoopConfinementTests {
    @Test("observing from another thread than the loop's stops the process with a message")
    func observeOffTheLoop() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let loop = VirtualTimeLoop()
            let bus = UncheckedBus(Bus(loop: loop))
            onAnotherThread {
                _ = bus.bus.observe(.keyboardWillShow) { _ in }
            }
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("called off its event loop"))
    }

    @Test("registering a plugin from another thread than the loop's stops the process")
    func registerOffTheLoop() async {
        await #expect(processExitsWith: .failure) {
            final class Quiet: KeyboardObserving {}
            let loop = VirtualTimeLoop()
            let bus = UncheckedBus(Bus(loop: loop))
            onAnotherThread {
                try? bus.bus.register(Quiet())
            }
        }
    }

    @Test("on the loop's own thread the same calls work")
    func onTheLoop() throws {
        final class Quiet: KeyboardObserving {}
        let bus = Bus(loop: VirtualTimeLoop())
        let token = bus.observe(.keyboardWillShow) { _ in }
        try bus.register(Quiet())
        #expect(bus.unregister(named: "Quiet"))
        token.cancel()
    }
}

/// Hands a bus to another thread on purpose (the tests check that using it there is refused).
private struct UncheckedBus: @unchecked Sendable {
    let bus: Bus
    init(_ bus: Bus) { self.bus = bus }
}

/// Hands a box to another thread on purpose (the tests check that reaching it there is refused).
private struct UncheckedBox: @unchecked Sendable {
    let box: UncheckedExclusivity<Changing>
}

/// A value whose change in place runs code: the window in which another thread must not reach it.
private struct Changing {
    var count = 0

    mutating func change(during body: () -> Void) {
        count += 1
        body()
    }
}

@Suite("Loop confinement is checked on every post, and in the unchecked box, in debug builds")
struct DebugConfinementTests {
    #if DEBUG
        @Test("posting from another thread than the loop's stops a debug build with a message")
        func postOffTheLoop() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let bus = UncheckedBus(Bus(loop: VirtualTimeLoop()))
                onAnotherThread {
                    bus.bus.post(.keyboardWillShow, KeyboardInfo(end: Rect(x: 0, y: 521, width: 375, height: 291)))
                }
            }
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("called off its event loop"))
        }

        @Test("reading the box from a second thread while the first changes it stops a debug build, naming the box")
        func boxReadDuringAnotherThreadsChange() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let shared = UncheckedBox(box: UncheckedExclusivity(Changing()))
                shared.box.value.change {
                    onAnotherThread { _ = shared.box.value.count }
                }
            }
            let said = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(said.contains("UncheckedExclusivity<Changing>: reached from a second thread"))
        }

        @Test("changing the box from a second thread while the first changes it stops a debug build")
        func boxChangeDuringAnotherThreadsChange() async {
            await #expect(processExitsWith: .failure) {
                let shared = UncheckedBox(box: UncheckedExclusivity(Changing()))
                shared.box.value.change {
                    onAnotherThread { shared.box.value.count += 1 }
                }
            }
        }
    #endif

    @Test("one thread at a time is fine: the box handed over between changes")
    func oneThreadAtATime() {
        let shared = UncheckedBox(box: UncheckedExclusivity(Changing()))
        shared.box.value.change {}
        onAnotherThread { shared.box.value.change {} }  // after the first thread's change ended
        shared.box.value.count += 10
        #expect(shared.box.value.count == 12)
    }
}
