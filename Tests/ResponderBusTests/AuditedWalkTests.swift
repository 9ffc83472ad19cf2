import ResponderBus
import Testing

@Suite("The core's audited helpers: the view tree's walks and UncheckedExclusivity")
struct AuditedWalkTests {
    @Test("visitSubtree visits in tree order and leaves out what a visit skips")
    func treeOrder() {
        let root = ViewNode(
            spec: ViewSpec(
                id: "root", frame: Rect(x: 0, y: 0, width: 10, height: 10),
                children: [
                    ViewSpec(id: "a", frame: .zero, children: [ViewSpec(id: "a1", frame: .zero), ViewSpec(id: "a2", frame: .zero)]),
                    ViewSpec(id: "hidden", frame: .zero, isHidden: true, children: [ViewSpec(id: "h1", frame: .zero)]),
                    ViewSpec(id: "b", frame: .zero),
                ]))
        var all: [String] = []
        root.visitSubtree {
            all.append($0.id.rawValue)
            return .descend
        }
        #expect(all == ["root", "a", "a1", "a2", "hidden", "h1", "b"])
        var shown: [String] = []
        root.visitSubtree { view in
            guard !view.isHidden else { return .skipChildren }
            shown.append(view.id.rawValue)
            return .descend
        }
        #expect(shown == ["root", "a", "a1", "a2", "b"])
    }

    @Test("UncheckedExclusivity reads and changes its value in place")
    func loopConfined() {
        struct State {
            var count = 0
            var names: [String] = []
        }
        let state = UncheckedExclusivity(State())
        state.value.count += 2
        state.value.names.append("x")
        #expect(state.value.count == 2)
        #expect(state.value.names == ["x"])
    }
}
