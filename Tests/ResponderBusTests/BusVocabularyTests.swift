import Testing

@testable import ResponderBus

/// What the bus's dispatch asks of an event id, against the vocabulary's table.
@Suite("the bus's id ranges agree with the vocabulary")
struct BusVocabularyTests {
    @Test("the keyboard's events come first and carry KeyboardInfo; the model events end before modelEventLimit")
    func ranges() {
        for event in BuiltinEvent.allCases {
            let isKeyboard = event.rawValue >= Bus.firstModelEvent && event.rawValue < Bus.firstScreenEvent
            #expect(isKeyboard == (event.payloadKind.payloadType == KeyboardInfo.self), "\(event)")
            #expect(isKeyboard == (event.uikitNotificationName != nil), "\(event)")
            if event.changesModel { #expect(event.rawValue < Bus.modelEventLimit, "\(event)") }
            #expect(Bus.isKeyboardHide(event.rawValue) == (event == .keyboardWillHide || event == .keyboardDidHide), "\(event)")
        }
        #expect(Bus.modelEventLimit == BuiltinEvent.modelEventLimit)
    }

    @Test("the screen-changing mask names only model events after the keyboard's, and diagnostic is none of them")
    func screenChanging() {
        for bit in 0..<Int.bitWidth where Bus.screenChangingEvents & (1 << bit) != 0 {
            let event = BuiltinEvent(rawValue: bit)
            #expect(event != nil, "bit \(bit)")
            #expect(bit >= Bus.firstScreenEvent && bit < Bus.modelEventLimit, "bit \(bit)")
        }
        #expect(Bus.screenChangingEvents & (1 << Bus.diagnosticEvent) == 0)
        #expect(!BuiltinEvent.diagnostic.changesModel && !BuiltinEvent.turnSettled.changesModel && !BuiltinEvent.returnKey.changesModel)
    }
}
