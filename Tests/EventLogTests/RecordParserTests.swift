import ResponderBus
import Testing

@testable import EventLog

/// Reads a log and returns its items with their locations.
private func items(_ text: String) -> [(record: LogRecord?, location: RecordLocation?, problem: LogReadError?)] {
    let reader = LogReader(bytes: Array(text.utf8))
    var out: [(LogRecord?, RecordLocation?, LogReadError?)] = []
    while let item = reader.next() {
        switch item {
        case .record(let record, let location): out.append((record, location, nil))
        case .problem(let error): out.append((nil, nil, error))
        }
    }
    return out
}

/// The one record (or problem) of a log made of the test header and `line`.
private func only(_ line: String) -> (record: LogRecord?, location: RecordLocation?, problem: LogReadError?) {
    let all = items(header + "\n" + line + "\n")
    #expect(all.count == 1, "\(line)")
    return all.first ?? (nil, nil, nil)
}

private func recognisedKey(_ text: String) -> FieldKey? {
    let bytes = Array(text.utf8)
    return LineBytes.with(bytes[...]) { FieldKey.known(in: $0, at: 0)?.key }
}

private func recognisedEvent(_ text: String) -> BuiltinEvent? {
    let bytes = Array(text.utf8)
    return LineBytes.with(bytes[...]) { EventSpellings.table.known(in: $0, at: 0)?.event }
}

@Suite("RecordParser: keys and names recognised from their bytes")
struct RecordParserKeyTests {
    @Test("every key is recognised where it stands, with the offset of its closing quote")
    func everyKey() {
        for key in FieldKey.allCases where key != .unknown {
            let bytes = Array((key.text + "\"").utf8)
            let found = LineBytes.with(bytes[...]) { FieldKey.known(in: $0, at: 0) }
            #expect(found?.key == key, "\(key.text)")
            #expect(found?.end == key.text.utf8.count, "\(key.text)")
            // Also in the middle of a line.
            let inLine = Array(("{\"" + key.text + "\":1}").utf8)
            #expect(LineBytes.with(inLine[...]) { FieldKey.known(in: $0, at: 2)?.key } == key)
        }
    }

    @Test("a key that is a prefix or an extension of another is that other key, or none")
    func prefixesAndExtensions() {
        for key in FieldKey.allCases where key != .unknown {
            let text = key.text
            #expect(recognisedKey(String(text.dropLast()) + "\"") != key, "\(text) without its last letter")
            #expect(recognisedKey(text + "s\"") != key, "\(text)s")
            #expect(recognisedKey(text + "\\u0041\"") == nil, "\(text) and an escape")
            #expect(recognisedKey(text) == nil, "\(text) without a closing quote")
        }
        #expect(recognisedKey("origin\"") == .origin)
        #expect(recognisedKey("originY\"") == .originY)
        #expect(recognisedKey("contentOffset\"") == .contentOffset)
        #expect(recognisedKey("contentOffsetY\"") == .contentOffsetY)
        #expect(recognisedKey("screen\"") == .screen)
        #expect(recognisedKey("screenSource\"") == .screenSource)
        #expect(recognisedKey("bottom\"") == .bottom)
        #expect(recognisedKey("bottomInset\"") == .bottomInset)
        #expect(recognisedKey("t\"") == .t)
        #expect(recognisedKey("to\"") == .to)
        #expect(recognisedKey("top\"") == .top)
        #expect(recognisedKey("tag\"") == .tag)
        #expect(recognisedKey("\"") == nil)
        #expect(recognisedKey("Event\"") == nil)
    }

    @Test("keys with escapes or bytes beyond ASCII are decoded and compared as Strings")
    func decodedKeys() {
        #expect(FieldKey(decoded: "event") == .event)
        #expect(FieldKey(decoded: "évent") == .unknown)
        #expect(FieldKey(decoded: "") == .unknown)
        for key in FieldKey.allCases where key != .unknown {
            #expect(FieldKey(decoded: key.text) == key)
        }
    }

    @Test("every event name is recognised, and the names are the format's")
    func everyEvent() {
        let logged = BuiltinEvent.allCases.filter(\.isInLog)
        #expect(Set(logged.map(\.name)) == LogEvent.knownNames)
        for kind in logged {
            #expect(recognisedEvent(kind.name + "\"") == kind, "\(kind.name)")
            #expect(recognisedEvent(kind.name + "\",\"t\":1}") == kind, "\(kind.name) with more after it")
            #expect(recognisedEvent(kind.name + "X\"") == nil, "\(kind.name)X")
            #expect(recognisedEvent(String(kind.name.dropLast()) + "\"") == nil, "\(kind.name) without its last letter")
            #expect(recognisedEvent(kind.name) == nil, "\(kind.name) without a closing quote")
            #expect(BuiltinEvent(decoded: kind.name) == kind)
            #expect(JSONText.text { EventSpellings.table.write(kind, to: &$0) } == kind.name)
        }
        #expect(recognisedEvent("turnSettled\"") == nil)
        #expect(BuiltinEvent(decoded: "turnSettled") == nil)
        for miss in [
            "keyboardWillShoW\"", "keyboard\"", "keyboardWill\"", "scenes\"", "scree\"", "sc\"", "\"", "didBeginEditin\"",
            "keyboardWillChangeFrameX\"", String(repeating: "k", count: 200) + "\"", "keyboardWill\\\"Show\"",
        ] {
            #expect(recognisedEvent(miss) == nil, "\(miss)")
        }
    }

    @Test("a table of other names finds each of them: a seventh keyboard event, names that start others, more names than slots")
    func otherVocabularies() {
        let events = BuiltinEvent.allCases.filter(\.isInLog)
        func check(_ names: [String]) {
            let table = EventSpellings(names: zip(events, names).map { ($0, Array($1.utf8)) })
            for (event, name) in zip(events, names) {
                let bytes = Array((name + "\",\"t\":1}").utf8)
                let found = LineBytes.with(bytes[...]) { table.known(in: $0, at: 0) }
                #expect(found?.event == event && found?.end == name.utf8.count, "\(name)")
                let longer = Array((name + "s\"").utf8)
                #expect(LineBytes.with(longer[...]) { table.known(in: $0, at: 0) } == nil, "\(name)s")
            }
        }
        // The six keyboard events and a seventh, whose two telling bytes share their low bits with
        // another's (a multiplier on the low bits alone cannot tell them apart).
        let keyboard = [
            "keyboardWillShow", "keyboardDidShow", "keyboardWillHide", "keyboardDidHide", "keyboardWillChangeFrame",
            "keyboardDidChangeFrame", "keyboardWillUndock",
        ]
        check(keyboard)
        let table = EventSpellings(names: zip(events, keyboard).map { ($0, Array($1.utf8)) })
        #expect(table.slotSharing.map(\.sharing) == [0])
        // Names that start others, so that no two positions within the shortest tell them apart.
        check(["scroll", "scrollEnd", "scrollEndDeceleration", "sc", "s"])
        // Twenty names on one first byte: more than a group's slots, chained.
        check((0..<20).map { "name\($0)x" })
        // Today's vocabulary: no name shares a slot.
        #expect(EventSpellings(names: events.map { ($0, Array($0.name.utf8)) }).slotSharing.allSatisfy { $0.sharing == 0 })
    }

    @Test("short byte comparisons at every length, and a line's bytes read within it only")
    func bytesEqualLengths() {
        for count in 0...40 {
            let a = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
            LineBytes.with(a[...]) { line in
                #expect(line.has(a, from: 0, length: count, at: 0))
                for index in 0..<count {
                    var b = a
                    b[index] ^= 0x20
                    #expect(!line.has(b, from: 0, length: count, at: 0), "length \(count), byte \(index)")
                }
                // A run that would go past the line's end is not there.
                #expect(!line.has(a + [0], from: 0, length: count + 1, at: 0))
                #expect(line.end(of: "x", at: count) == nil)
            }
        }
        LineBytes.with(Array("null\"".utf8)[...]) { line in
            #expect(line.has("null", at: 0))
            #expect(!line.has("null\"x", at: 0))
            #expect(line.end(of: "null", at: 0) == 4)
            #expect(line.dropFirst(1).has("ull", at: 0))
            #expect(line.string(1..<3) == "ul")
        }
    }
}

@Suite("RecordParser: lines read as before, faster")
struct RecordParserLineTests {
    @Test("each event name is read into its event")
    func eachEvent() throws {
        let lines = [
            #"{"t":1,"event":"keyboardWillShow"}"#, #"{"t":1,"event":"keyboardDidShow"}"#, #"{"t":1,"event":"keyboardWillHide"}"#,
            #"{"t":1,"event":"keyboardDidHide"}"#, #"{"t":1,"event":"keyboardWillChangeFrame"}"#, #"{"t":1,"event":"keyboardDidChangeFrame"}"#,
            #"{"t":1,"event":"didBeginEditing","view":"a"}"#, #"{"t":1,"event":"didEndEditing","view":"a"}"#,
            #"{"t":1,"event":"returnKey","view":"a"}"#, #"{"t":1,"event":"scene","root":{"id":"r","frame":[0,0,1,1]}}"#,
            #"{"t":1,"event":"setFrame","view":"a","frame":[0,0,1,1]}"#, #"{"t":1,"event":"screen","width":1,"height":2}"#,
            #"{"t":1,"event":"viewShift","originY":0}"#, #"{"t":1,"event":"scroll","view":"a","contentOffsetY":1,"bottomInset":2}"#,
            #"{"t":1,"event":"focusChange","from":"a","to":null}"#, #"{"t":1,"event":"action","name":"go"}"#,
            #"{"t":1,"event":"resign","view":"a"}"#, #"{"t":1,"event":"diagnostic","level":"info","message":"m"}"#,
        ]
        let (_, records, problems) = readAll(header + "\n" + lines.joined(separator: "\n"))
        #expect(problems.isEmpty, "\(problems)")
        #expect(records.map(\.event.name) == lines.map { String($0.split(separator: "\"")[5]) })
    }

    @Test("keys and names with escapes are recognised; so are the ones Strings find equal")
    func escapes() throws {
        let record = try #require(only(#"{"ev\u0065nt":"return\u004Bey","\u0074":1,"vi\u0065w":"n\u0061me"}"#).record)
        #expect(record.event == .returnKey(ReturnKeyInfo(view: "name")))
        #expect(record.t == 1)
        // U+212A KELVIN SIGN is canonically equivalent to "K": the name was (and is) compared as a String.
        let kelvin = try #require(only(#"{"event":"return\u212Aey","t":1,"view":"a"}"#).record)
        #expect(kelvin.event.name == "returnKey")
        let origin = try #require(only(#"{"event":"resign","t":1,"view":"a","origin":"d\u0065rived","by":"P\u00e9"}"#).record)
        #expect(origin.origin == .derived(by: "Pé"))
    }

    @Test("unknown keys are skipped, whatever they hold, even when they start or extend known keys")
    func unknownKeys() throws {
        let line =
            #"{"even":"returnKey","events":[1,{"a":"\u00e9"}],"tt":null,"viewX":"b","":{},"vïew":"c","vi\u0065wX":true,"t":2,"event":"returnKey","view":"a"}"#
        let record = try #require(only(line).record)
        #expect(record.event == .returnKey(ReturnKeyInfo(view: "a")))
        #expect(record.t == 2)
    }

    @Test("a key given twice: the last value wins, as it always has")
    func duplicateKeys() throws {
        let first = only(#"{"t":1,"t":2,"event":"returnKey","view":"a","view":"bb"}"#)
        #expect(first.record?.t == 2)
        #expect(first.record?.event == .returnKey(ReturnKeyInfo(view: "bb")))
        #expect(first.location?.viewColumn == 52)
        #expect(only(#"{"t":1,"event":"returnKey","event":"didEndEditing","view":"a"}"#).record?.event.name == "didEndEditing")
        #expect(only(#"{"t":1,"event":"bogus","event":"returnKey","view":"a"}"#).record?.event.name == "returnKey")
        let unknown = try #require(only(#"{"t":1,"event":"returnKey","event":"bogus","view":"a"}"#).problem)
        #expect(unknown.code == .unknownEvent)
        #expect(unknown.column == 36)
        #expect(only(#"{"t":1,"event":"resign","view":"a","origin":"derived","origin":null}"#).record?.origin == .external)
        #expect(only(#"{"t":1,"event":"keyboardDidShow","curve":7,"curve":null}"#).record?.event == .keyboard(.keyboardDidShow, KeyboardInfo()))
    }

    @Test("columns of values count from the line's first byte, leading whitespace included")
    func columns() throws {
        let location = try #require(only("  \t" + #"{"t":0,"event":"returnKey","view":"zz"}"#).location)
        #expect(location.viewColumn == 38)
        let origin = try #require(only(#" {"t":0,"event":"resign","view":"a","origin":"alien"}"#).problem)
        #expect(origin.column == 46)
        let level = try #require(only(#"{"t":0,"event":"diagnostic","level":"loud"}"#).problem)
        #expect(level.column == 37)
        #expect(level.message.contains("'loud'"))
    }

    @Test("a string's problem is found wherever it sits, around the eight-byte steps of the scan", arguments: 0..<20)
    func stringScan(_ offset: Int) throws {
        let before = String(repeating: "a", count: offset)
        let prefix = #"{"t":0,"event":"action","origin":"derived","by":"X","name":""#
        // A control character.
        let control = try #require(only(prefix + before + "\u{01}bc\"}").problem)
        #expect(control.code == .malformedJSON)
        #expect(control.column == prefix.utf8.count + offset + 1)
        // An escape.
        #expect(only(prefix + before + #"\tb"}"#).record?.event == .action(ActionInfo(name: before + "\tb")))
        // UTF-8 beyond ASCII.
        #expect(only(prefix + before + "é✓\"}").record?.event == .action(ActionInfo(name: before + "é✓")))
        // Plain ASCII of every length, and a quote right at the end of the line.
        #expect(only(prefix + before + "\"}").record?.event == .action(ActionInfo(name: before)))
        // Invalid UTF-8: named at the string's opening quote.
        var bytes = Array((header + "\n" + prefix + before).utf8) + [0xC3, 0x28] + Array("\"}\n".utf8)
        let reader = LogReader(bytes: bytes)
        guard case .problem(let error)? = reader.next() else {
            Issue.record("accepted invalid UTF-8")
            return
        }
        #expect(error.code == .invalidUTF8)
        #expect(error.column == prefix.utf8.count)
        // A line cut off in the middle of the string.
        bytes = Array((header + "\n" + prefix + before).utf8)
        guard case .problem(let cut)? = LogReader(bytes: bytes).next() else {
            Issue.record("accepted a line cut off in a string")
            return
        }
        #expect(cut.code == .truncatedLine)
    }

    @Test(
        "numbers read in one pass equal the standard library's reading",
        arguments: [
            "0", "-0", "7", "812", "-103.5", "0.25", "1.005", "3.01", "123456789012345", "1234567890.12345", "0.000000000000001",
            "9007199254740993", "123456789012345678", "0.30000000000000004", "1e3", "1E-7", "2.5e+2", "-0.0", "99999999999999.9",
        ])
    func numbers(_ text: String) throws {
        let record = try #require(only(#"{"t":0,"event":"viewShift","originY":"# + text + #","origin":"derived","by":"X"}"#).record)
        guard case .viewShift(let shift) = record.event else {
            Issue.record("\(record)")
            return
        }
        #expect(shift.originY == Double(text))
        #expect(shift.originY.sign == Double(text)!.sign)
    }

    @Test("rectangles: four numbers with any spacing; anything else rejected as before")
    func rectangles() throws {
        let spaced = try #require(only(#"{"t":0,"event":"setFrame","view":"a","frame":[ 1 , -2.5,3 ,1e1 ] }"#).record)
        #expect(spaced.event == .setFrame(FrameChange(view: "a", frame: Rect(x: 1, y: -2.5, width: 3, height: 10))))
        for (numbers, count) in [("[]", 0), ("[1]", 1), ("[1,2,3]", 3), ("[1,2,3,4,5]", 5)] {
            let problem = try #require(only(#"{"t":0,"event":"setFrame","view":"a","frame":"# + numbers + "}").problem)
            #expect(problem.code == .wrongType)
            #expect(problem.column == 46)
            #expect(problem.message.hasSuffix("found \(count) numbers"))
        }
        let leadingZero = try #require(only(#"{"t":0,"event":"setFrame","view":"a","frame":[0,01,2,3]}"#).problem)
        #expect(leadingZero.code == .malformedJSON)
        #expect(leadingZero.column == 49)
        let notNumber = try #require(only(#"{"t":0,"event":"setFrame","view":"a","frame":[0,1,"2",3]}"#).problem)
        #expect(notNumber.message == "expected a number, found '\"'")
        let cut = items(header + "\n" + #"{"t":0,"event":"keyboardWillShow","end":[0,521,375,29"#)
        #expect(cut.first?.problem?.code == .truncatedLine)
    }

    @Test("rectangles of whole numbers read the same whichever way they are spelled")
    func wholeRectangles() throws {
        // The compact whole-number form, and spellings it hands on: decimals, signs, spaces, the
        // largest whole numbers it takes and the first it does not, exponents.
        let spellings: [(String, Rect)] = [
            ("[0,812,375,0]", Rect(x: 0, y: 812, width: 375, height: 0)),
            ("[999999999,1,22,333]", Rect(x: 999_999_999, y: 1, width: 22, height: 333)),
            ("[1000000000,0,0,0]", Rect(x: 1_000_000_000, y: 0, width: 0, height: 0)),
            ("[0,812.5,375,0]", Rect(x: 0, y: 812.5, width: 375, height: 0)),
            ("[-20,0,375,44]", Rect(x: -20, y: 0, width: 375, height: 44)),
            ("[ 20,0,375,44]", Rect(x: 20, y: 0, width: 375, height: 44)),
            ("[20,0,375,4e1]", Rect(x: 20, y: 0, width: 375, height: 40)),
        ]
        for (text, rect) in spellings {
            let record = try #require(only(#"{"t":0,"event":"setFrame","view":"a","frame":"# + text + "}").record, "\(text)")
            #expect(record.event == .setFrame(FrameChange(view: "a", frame: rect)), "\(text)")
        }
        for text in ["[0,812,375]", "[0,812,375,0,1]", "[0,812,375,0", "[00,812,375,0]", "[0,812,,0]"] {
            #expect(only(#"{"t":0,"event":"setFrame","view":"a","frame":"# + text + "}").problem != nil, "\(text)")
        }
    }

    @Test("whole numbers: 7 and 7.0 are 7; 7.5 is not whole")
    func wholeNumbers() throws {
        #expect(only(#"{"t":0,"event":"keyboardDidShow","curve":7}"#).record?.event == .keyboard(.keyboardDidShow, KeyboardInfo(curve: 7)))
        #expect(only(#"{"t":0,"event":"keyboardDidShow","curve":7.0}"#).record?.event == .keyboard(.keyboardDidShow, KeyboardInfo(curve: 7)))
        let half = try #require(only(#"{"t":0,"event":"keyboardDidShow","curve":7.5}"#).problem)
        #expect(half.code == .wrongType)
        #expect(half.column == 42)
        #expect(half.message == "expected a whole number, found 7.5")
    }
}
