import ResponderBus
import Testing

@Suite("VirtualTimeLoop's end-of-turn work: first in, first out, whatever is queued while it drains")
struct VirtualTimeLoopEndOfTurnTests {
    @Test("one piece, several pieces, and pieces queued by pieces run in the order they were queued")
    func order() {
        let loop = VirtualTimeLoop()
        var log: [String] = []
        loop.runAtEndOfTurn { log.append("alone") }
        loop.run()
        #expect(log == ["alone"])

        log = []
        loop.runAsTurn {
            loop.runAtEndOfTurn {
                log.append("a")
                // Queued while the oldest runs, with nothing else waiting, and with something waiting.
                loop.runAtEndOfTurn {
                    log.append("d")
                    loop.runAtEndOfTurn { log.append("f") }
                }
            }
            loop.runAtEndOfTurn {
                log.append("b")
                loop.runAtEndOfTurn { log.append("e") }
            }
            loop.runAtEndOfTurn { log.append("c") }
        }
        #expect(log == ["a", "b", "c", "d", "e", "f"])
        #expect(!loop.hasPendingWork)
    }

    @Test("end-of-turn work follows each timer's callback, before the next timer due at the same time")
    func afterEachCallback() {
        let loop = VirtualTimeLoop()
        var log: [String] = []
        loop.schedule(after: .seconds(1)) {
            log.append("timer 1")
            loop.runAtEndOfTurn { log.append("end of turn 1") }
        }
        loop.schedule(after: .seconds(1)) {
            log.append("timer 2")
            loop.runAtEndOfTurn { log.append("end of turn 2a") }
            loop.runAtEndOfTurn { log.append("end of turn 2b") }
        }
        #expect(loop.hasPendingWork)
        loop.advance(by: .seconds(1))
        #expect(log == ["timer 1", "end of turn 1", "timer 2", "end of turn 2a", "end of turn 2b"])
        #expect(!loop.hasPendingWork)
    }
}
