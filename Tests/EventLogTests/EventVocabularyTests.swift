import ResponderBus
import Testing

@testable import EventLog

/// One record of each event the log format knows, written by hand.
private let oneOfEach: [String] = [
    #"{"t":0,"event":"keyboardWillShow","end":[0,521,375,291]}"#,
    #"{"t":0,"event":"keyboardDidShow","end":[0,521,375,291]}"#,
    #"{"t":0,"event":"keyboardWillHide","end":[0,812,375,291]}"#,
    #"{"t":0,"event":"keyboardDidHide","end":[0,812,375,291]}"#,
    #"{"t":0,"event":"keyboardWillChangeFrame","end":[0,521,375,291]}"#,
    #"{"t":0,"event":"keyboardDidChangeFrame","end":[0,521,375,291]}"#,
    #"{"t":0,"event":"didBeginEditing","view":"a"}"#,
    #"{"t":0,"event":"didEndEditing","view":"a"}"#,
    #"{"t":0,"event":"returnKey","view":"a"}"#,
    #"{"t":0,"event":"scene","root":{"id":"root","kind":"view","frame":[0,0,375,812]}}"#,
    #"{"t":0,"event":"setFrame","view":"a","frame":[0,0,1,1]}"#,
    #"{"t":0,"event":"screen","width":812,"height":375}"#,
    #"{"t":0,"event":"viewShift","originY":-10,"origin":"derived","by":"P"}"#,
    #"{"t":0,"event":"scroll","view":"s","contentOffsetY":10,"bottomInset":291,"origin":"derived","by":"P"}"#,
    #"{"t":0,"event":"focusChange","from":"a","to":"b","origin":"derived","by":"P"}"#,
    #"{"t":0,"event":"action","name":"go","origin":"derived","by":"P"}"#,
    #"{"t":0,"event":"resign","view":"a","origin":"derived","by":"P"}"#,
    #"{"t":0,"event":"viewSettings","view":"a","keyboardDistance":40,"avoidsKeyboard":false,"followsKeyboard":true,"origin":"derived","by":"P"}"#,
    #"{"t":0,"event":"viewMove","view":"a","frame":[0,400,375,50],"duration":0.25,"curve":7,"origin":"derived","by":"P"}"#,
    #"{"t":0,"event":"diagnostic","level":"info","message":"m","origin":"derived","by":"P"}"#,
]

@Suite("One event vocabulary: every part that names the events agrees with BuiltinEvent")
struct EventVocabularyTests {
    @Test("the bus's names, the log's names, the parser's kinds and the table are the same events, in the same order")
    func namesAndIDs() {
        let logged = BuiltinEvent.allCases.filter(\.isInLog)
        #expect(LogEvent.knownNames == Set(logged.map(\.name)))
        #expect(EventName.allKeyboardEvents.map(\.rawValue) == BuiltinEvent.allCases.filter { $0.uikitNotificationName != nil }.map(\.name))
        #expect(EventName.allKeyboardEvents.map(\.id) == BuiltinEvent.keyboardEvents.map(\.rawValue))
        // The keyboard's events come first in the table: the bus's id range for them relies on it.
        #expect(BuiltinEvent.keyboardEvents.map(\.rawValue) == Array(0..<BuiltinEvent.keyboardEvents.count))
        #expect(EventName.allKeyboardEvents.filter(\.isHide) == [.keyboardWillHide, .keyboardDidHide])
        #expect(EventName.allKeyboardEvents.allSatisfy { $0.isBuiltinKeyboardEvent })
        #expect(!EventName<KeyboardInfo>("keyboardSomethingElse").isBuiltinKeyboardEvent)
        for name in EventName.allKeyboardEvents {
            #expect(EventName(keyboardEventNamed: name.rawValue) == name)
        }
        #expect(EventName(keyboardEventNamed: "didBeginEditing") == nil)
        #expect(EventName.turnSettled.id == BuiltinEvent.turnSettled.rawValue)
        #expect(EventName.diagnostic.id == BuiltinEvent.diagnostic.rawValue)
        #expect(EventName.keyboardWillShow.id == BuiltinEvent.keyboardWillShow.rawValue)
    }

    @Test("every logged event is read and written back as itself, derived exactly when the table says")
    func roundTrip() throws {
        #expect(oneOfEach.count == BuiltinEvent.allCases.filter(\.isInLog).count)
        let text =
            #"{"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812}}"# + "\n" + oneOfEach.joined(separator: "\n") + "\n"
        let reader = LogReader(bytes: Array(text.utf8))
        var names: [String] = []
        while let item = reader.next() {
            guard case .record(let record, _) = item else {
                Issue.record("rejected: \(item)")
                continue
            }
            names.append(record.event.name)
            let entry = try #require(BuiltinEvent.allCases.first { $0.name == record.event.name })
            #expect(record.event.isDerivedKind == (entry.source == .decision), "\(entry)")
            #expect((record.origin != .external) == (entry.source == .decision), "\(entry)")
            var bytes: [UInt8] = []
            LogWriter.append(record, to: &bytes)
            let written = String(decoding: bytes, as: UTF8.self)
            #expect(written.contains(#""event":"\#(entry.name)""#), "\(written)")
        }
        #expect(names == BuiltinEvent.allCases.filter(\.isInLog).map(\.name))
    }

    @Test("the screen model's id range holds every event that changes the model; the others pass it untouched")
    func modelRange() {
        for entry in BuiltinEvent.allCases where entry.changesModel {
            #expect(entry.rawValue >= Bus.firstModelEvent && entry.rawValue < Bus.modelEventLimit, "\(entry)")
        }
        for entry in BuiltinEvent.allCases where entry.rawValue < Bus.firstModelEvent || entry.rawValue >= Bus.modelEventLimit {
            #expect(!entry.changesModel, "\(entry)")
        }
    }
}
