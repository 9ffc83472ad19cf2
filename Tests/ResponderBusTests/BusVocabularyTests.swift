import Testing

@testable import ResponderBus

/// The literals the bus's dispatch compares event ids with, derived from the vocabulary and checked.
@Suite("the bus's id literals are the vocabulary's")
struct BusVocabularyTests {
    @Test("the screen-model range, the screen-changing ids, diagnostic and the keyboard's hides")
    func literals() {
        let all = BuiltinEvent.allCases
        #expect(Bus.firstModelEvent == BuiltinEvent.keyboardWillShow.rawValue)
        #expect(Bus.firstScreenEvent == BuiltinEvent.didBeginEditing.rawValue)
        #expect(all.filter { $0.rawValue < Bus.firstScreenEvent }.allSatisfy { $0.uikitNotificationName != nil })
        #expect(Bus.modelEventLimit == BuiltinEvent.modelEventLimit)
        #expect(all.filter(\.changesModel).allSatisfy { $0.rawValue < Bus.modelEventLimit })
        let screenChanging = all.filter { $0.changesModel && $0.rawValue >= Bus.firstScreenEvent }
        #expect(Bus.screenChangingEvents == screenChanging.reduce(0) { $0 | 1 << $1.rawValue })
        #expect(Bus.diagnosticEvent == BuiltinEvent.diagnostic.rawValue)
        for event in all {
            #expect(Bus.isKeyboardHide(event.rawValue) == (event == .keyboardWillHide || event == .keyboardDidHide), "\(event)")
        }
    }
}
