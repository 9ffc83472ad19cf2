import Testing

@testable import ResponderBusUV

@Suite("The libuv loop's way out, as one state machine")
struct UVLoopLifecycleTests {
    @Test("running → stopping → inbox closed → handles closed, each step once; what each stage accepts")
    func stages() {
        var lifecycle = UVLoopLifecycle()
        #expect(lifecycle.stage == .running)
        #expect(lifecycle.acceptsTimersAndWatchers && lifecycle.acceptsWakeUps)
        // The handles cannot close before the inbox did.
        let step1 = lifecycle.closeHandles()
        #expect(!step1)

        let step2 = lifecycle.beginStop()
        #expect(step2)
        let step3 = lifecycle.beginStop()  // a timer, a watcher and the drain may all see the stop
        #expect(!step3)
        #expect(lifecycle.stage == .stopping)
        #expect(!lifecycle.acceptsTimersAndWatchers)
        #expect(lifecycle.acceptsWakeUps)  // until the drain takes the stop request
        let step4 = lifecycle.closeHandles()
        #expect(!step4)

        let step5 = lifecycle.closeInbox()
        #expect(step5)
        let step6 = lifecycle.closeInbox()  // a later drain, woken by an earlier signal
        #expect(!step6)
        #expect(lifecycle.stage == .inboxClosed)
        #expect(!lifecycle.acceptsWakeUps)

        let step7 = lifecycle.closeHandles()
        #expect(step7)
        let step8 = lifecycle.closeHandles()
        #expect(!step8)
        #expect(lifecycle.stage == .handlesClosed)
        #expect(!lifecycle.acceptsTimersAndWatchers && !lifecycle.acceptsWakeUps)
        let step9 = lifecycle.beginStop()
        #expect(!step9)
    }
}
