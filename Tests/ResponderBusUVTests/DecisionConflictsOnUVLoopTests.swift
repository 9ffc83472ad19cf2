import ResponderBus
import ResponderBusUV
import Testing

/// Posts a `viewShift` to its own origin on every Return.
private final class Mover: EventObserving {
    let name: String
    let originY: Double
    init(_ name: String, originY: Double) {
        self.name = name
        self.originY = originY
    }
    var observedEvents: Set<AnyEventName>? { [EventName.returnKey.erased] }
    func observe(_ event: AnyEvent, context: PluginContext) {
        context.post(.viewShift, ViewShift(originY: originY))
    }
}

@Suite("Two plugins setting the root against each other on the libuv loop: named once per turn")
struct DecisionConflictsOnUVLoopTests {
    @Test("the loop counts no turns for the bus; its end-of-turn check ends each turn of decisions")
    func oncePerTurn() throws {
        let loop = UVEventLoop()
        defer { loop.shutdown() }
        let bus = Bus(loop: loop)
        let messages = EventLog()
        let box = Box<ObservationToken?>(nil)
        _ = try loop.runAndWait {
            do {
                try bus.register(Mover("A", originY: -10))
                try bus.register(Mover("B", originY: -20))
            } catch {
                messages.append("registration failed: \(error)")
            }
            box.value = bus.observe(.diagnostic) { event in
                if event.payload.failure == .conflictingDecisions { messages.append(event.payload.message) }
            }
            bus.post(
                .scene,
                SceneInfo(
                    root: ViewSpec(
                        id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812),
                        children: [
                            ViewSpec(id: "field", kind: .textField, frame: Rect(x: 0, y: 700, width: 375, height: 44))
                        ])))
            return true
        }
        // Two Returns in one turn: one conflict; a Return in each of two later turns: one each.
        _ = try loop.runAndWait {
            bus.post(.returnKey, ReturnKeyInfo(view: "field"))
            bus.post(.returnKey, ReturnKeyInfo(view: "field"))
            return true
        }
        for _ in 0..<2 {
            _ = try loop.runAndWait {
                bus.post(.returnKey, ReturnKeyInfo(view: "field"))
                return true
            }
        }
        // A turn that has run to its end, so that everything of the last one was delivered.
        let entries = try loop.runAndWait { messages.entries }
        #expect(entries.count == 3, "\(entries)")
        #expect(entries.allSatisfy { $0.hasPrefix("'A' and 'B' fight over the root in one turn") }, "\(entries)")
        _ = try loop.runAndWait {
            box.value = nil
            return true
        }
    }
}
