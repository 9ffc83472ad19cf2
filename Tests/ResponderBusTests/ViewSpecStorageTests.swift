import ResponderBus
import Testing

@Suite("ViewSpec: the settings few views have, kept out of line")
struct ViewSpecStorageTests {
    @Test("a plain view takes 88 bytes (a million-view scene is mostly plain views)")
    func plainViewSize() {
        #expect(MemoryLayout<ViewSpec>.stride <= 88)
    }

    @Test("the out-of-line settings read back, compare and hash by value")
    func rareSettingsAreValues() {
        let plain = ViewSpec(id: "a", frame: Rect(x: 0, y: 0, width: 10, height: 10))
        var scroll = plain
        scroll.kind = .scrollView
        scroll.tag = 3
        scroll.keyboardDistance = 12
        scroll.contentOffset = Point(x: 0, y: 40)
        scroll.contentSize = Size(width: 10, height: 400)
        scroll.unrecognizedKind = "stack"
        #expect(scroll.tag == 3)
        #expect(scroll.keyboardDistance == 12)
        #expect(scroll.contentOffset == Point(x: 0, y: 40))
        #expect(scroll.contentSize == Size(width: 10, height: 400))
        #expect(scroll.unrecognizedKind == "stack")
        // The same values made by the initializer: equal, with equal hashes.
        let made = ViewSpec(
            id: "a", kind: .scrollView, frame: Rect(x: 0, y: 0, width: 10, height: 10), tag: 3, keyboardDistance: 12,
            contentOffset: Point(x: 0, y: 40), contentSize: Size(width: 10, height: 400), unrecognizedKind: "stack")
        #expect(made == scroll)
        #expect(made.hashValue == scroll.hashValue)
        // Unset again, it is the plain view.
        var cleared = scroll
        cleared.kind = .view
        (cleared.tag, cleared.keyboardDistance, cleared.contentOffset, cleared.contentSize, cleared.unrecognizedKind) = (nil, nil, nil, nil, nil)
        #expect(cleared == plain)
        #expect(cleared.hashValue == plain.hashValue)
        // A copy changed leaves the original as it was.
        var copy = scroll
        copy.tag = 4
        #expect(scroll.tag == 3)
        #expect(copy != scroll)
        #expect(Set([plain, scroll, made, cleared]).count == 2)
    }
}
