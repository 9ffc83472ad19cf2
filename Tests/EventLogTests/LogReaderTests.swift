import EventLog
import ResponderBus
import ResponderBusPlatform
import Testing

let header = #"{"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812},"safeArea":{"top":44,"left":0,"bottom":34,"right":0}}"#

/// Reads a whole log held in a string.
func readAll(_ text: String, maxLineLength: Int = 1 << 20) -> (
    header: Result<LogHeader, LogReadError>, records: [LogRecord], problems: [LogReadError]
) {
    readAll(Array(text.utf8), maxLineLength: maxLineLength)
}

func readAll(_ bytes: [UInt8], maxLineLength: Int = 1 << 20) -> (
    header: Result<LogHeader, LogReadError>, records: [LogRecord], problems: [LogReadError]
) {
    let reader = LogReader(bytes: bytes, maxLineLength: maxLineLength)
    let header: Result<LogHeader, LogReadError>
    do {
        header = .success(try reader.readHeader())
    } catch {
        return (.failure(error), [], [])
    }
    var records: [LogRecord] = []
    var problems: [LogReadError] = []
    while let item = reader.next() {
        switch item {
        case .record(let record, _): records.append(record)
        case .problem(let error): problems.append(error)
        }
    }
    return (header, records, problems)
}

@Suite("LogReader: the format, read exactly")
struct LogReaderTests {
    @Test("the design brief's example log reads record by record")
    func designExample() throws {
        let log =
            header + "\n" + """
                {"t":0,"event":"scene","lastFieldAction":"signIn","root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[{"id":"email","kind":"textField","tag":1,"frame":[20,560,335,44]},{"id":"notes","kind":"textView","tag":2,"frame":[20,620,335,120]}]}}
                {"t":0.50,"event":"didBeginEditing","view":"email"}
                {"t":0.51,"event":"keyboardWillChangeFrame","begin":[0,812,375,291],"end":[0,521,375,291],"duration":0.25,"curve":7,"isLocal":true}
                {"t":0.51,"event":"keyboardWillShow","begin":[0,812,375,291],"end":[0,521,375,291],"duration":0.25,"curve":7,"isLocal":true}
                {"t":2.00,"event":"returnKey","view":"email"}
                {"t":2.00,"event":"focusChange","from":"email","to":null,"origin":"derived","by":"FieldAdvancing"}
                """
        let (headerResult, records, problems) = readAll(log)
        let parsedHeader = try headerResult.get()
        #expect(parsedHeader.screen == Size(width: 375, height: 812))
        #expect(parsedHeader.safeArea == EdgeInsets(top: 44, bottom: 34))
        #expect(problems.isEmpty)
        #expect(records.map(\.event.name) == ["scene", "didBeginEditing", "keyboardWillChangeFrame", "keyboardWillShow", "returnKey", "focusChange"])
        guard case .scene(let scene) = records[0].event else {
            Issue.record("not a scene")
            return
        }
        #expect(scene.lastFieldAction == "signIn")
        #expect(scene.root.children.map(\.id) == ["email", "notes"])
        #expect(scene.root.children[1].kind == .textView)
        #expect(scene.root.children[0].tag == 1)
        #expect(
            records[2].event
                == .keyboard(
                    .keyboardWillChangeFrame,
                    KeyboardInfo(
                        begin: Rect(x: 0, y: 812, width: 375, height: 291), end: Rect(x: 0, y: 521, width: 375, height: 291),
                        duration: 0.25, curve: 7, isLocal: true)))
        #expect(records[2].t == 0.51)
        #expect(records[5].origin == .derived(by: "FieldAdvancing"))
        #expect(records[5].event == .focusChange(FocusChange(from: "email", to: nil)))
    }

    @Test("keys in any order, unknown fields ignored, every keyboard field optional")
    func lenientWhereTheFormatIs() {
        let log =
            header + "\n" + """
                {"isLocal":false,"event":"keyboardDidChangeFrame","futureField":{"a":[1,{"b":null}],"c":"\\u00e9"},"t":1}
                {"event":"keyboardDidHide","t":2}
                """
        let (_, records, problems) = readAll(log)
        #expect(problems.isEmpty)
        #expect(
            records.map(\.event) == [
                .keyboard(.keyboardDidChangeFrame, KeyboardInfo(isLocal: false)), .keyboard(.keyboardDidHide, KeyboardInfo()),
            ])
    }

    @Test(
        "numbers: integers, fractions, exponents, negative zero; shortest forms survive a round trip",
        arguments: ["0", "-0", "1", "0.1", "0.25", "521", "-103.5", "1e3", "1E-7", "2.5e+2", "123456789012345678", "0.30000000000000004"])
    func numbers(_ text: String) throws {
        let (_, records, problems) = readAll(header + "\n" + #"{"t":0,"event":"viewShift","originY":"# + text + #","origin":"derived","by":"X"}"#)
        #expect(problems.isEmpty)
        guard case .viewShift(let shift) = try #require(records.first).event else {
            Issue.record()
            return
        }
        #expect(shift.originY == Double(text))
    }

    @Test("strings: escapes, unicode, surrogate pairs")
    func strings() throws {
        let (_, records, problems) = readAll(
            header + "\n" + #"{"t":0,"event":"action","name":"a\"b\\c\/d\n\u00e9\ud83d\ude00✓","origin":"derived","by":"X"}"#)
        #expect(problems.isEmpty)
        #expect(try #require(records.first).event == .action(ActionInfo(name: "a\"b\\c/d\né😀✓")))
    }

    @Test("CRLF line ends and blank lines are accepted")
    func lineEnds() {
        let (_, records, problems) = readAll(header + "\r\n\r\n" + #"{"t":0,"event":"returnKey","view":"a"}"# + "\r\n  \n")
        #expect(problems.isEmpty)
        #expect(records.count == 1)
    }

    @Test("a last line without a newline is read when complete")
    func lastLineWithoutNewline() {
        let (_, records, problems) = readAll(header + "\n" + #"{"t":0,"event":"returnKey","view":"a"}"#)
        #expect(problems.isEmpty)
        #expect(records.count == 1)
    }

    @Test("reading a file through the descriptor path gives the same records in constant-size chunks")
    func fileReading() throws {
        var lines = [header]
        for index in 0..<20_000 {
            lines.append(#"{"t":\#(Double(index) / 100),"event":"keyboardWillChangeFrame","end":[0,521,375,\#(index % 300)],"curve":7}"#)
        }
        let path = "/tmp/responderbus-reader-\(getpid()).jsonl"
        let text = lines.joined(separator: "\n") + "\n"
        let file = fopen(path, "w")
        fputs(text, file)
        fclose(file)
        defer { unlink(path) }
        let reader = try LogReader(path: path)
        _ = try reader.readHeader()
        var count = 0
        var last: LogRecord?
        while let item = reader.next() {
            guard case .record(let record, let location) = item else {
                Issue.record("\(item)")
                return
            }
            count += 1
            #expect(location.line == count + 1)
            last = record
        }
        #expect(count == 20_000)
        #expect(last?.t == 199.99)
        #expect(reader.bytesConsumed == text.utf8.count)
    }
}

@Suite("LogReader: bad input gets a line, a column and a reason, never a crash")
struct LogReaderBadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let line: String
        let code: LogReadError.Code
        let column: Int?
        let mentions: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "malformed JSON", line: #"{"t":0,"event":"returnKey","view":"a""#, code: .malformedJSON, column: nil, mentions: "expected"),
        Case(name: "not an object", line: #"[1,2,3]"#, code: .malformedJSON, column: 1, mentions: "'{'"),
        Case(
            name: "trailing garbage", line: #"{"t":0,"event":"returnKey","view":"a"} x"#, code: .malformedJSON, column: 40,
            mentions: "end of the line"),
        Case(name: "wrong field type", line: #"{"t":0,"event":"returnKey","view":42}"#, code: .malformedJSON, column: 35, mentions: "a string"),
        Case(
            name: "rectangle with three numbers", line: #"{"t":0,"event":"keyboardWillShow","end":[0,521,375]}"#, code: .wrongType, column: 41,
            mentions: "[x, y, width, height]"),
        Case(
            name: "unknown event", line: #"{"t":0,"event":"keyboardWillExplode"}"#, code: .unknownEvent, column: 16, mentions: "keyboardWillExplode"),
        Case(name: "missing event", line: #"{"t":0,"view":"a"}"#, code: .missingField, column: 1, mentions: "event"),
        Case(name: "missing t", line: #"{"event":"returnKey","view":"a"}"#, code: .missingField, column: 1, mentions: "\"t\""),
        Case(name: "missing view", line: #"{"t":0,"event":"returnKey"}"#, code: .missingField, column: 1, mentions: "view"),
        Case(name: "NaN", line: #"{"t":0,"event":"keyboardWillShow","duration":NaN}"#, code: .invalidValue, column: 46, mentions: "NaN"),
        Case(
            name: "Infinity", line: #"{"t":0,"event":"keyboardWillShow","duration":-Infinity}"#, code: .invalidValue, column: 46, mentions: "infinite"
        ),
        Case(
            name: "a number too large", line: #"{"t":0,"event":"viewShift","originY":1e999,"origin":"derived","by":"X"}"#, code: .invalidValue,
            column: 38, mentions: "finite"),
        Case(
            name: "negative duration", line: #"{"t":0,"event":"keyboardWillShow","duration":-0.25}"#, code: .invalidValue, column: 46,
            mentions: "negative duration"),
        Case(name: "negative t", line: #"{"t":-1,"event":"returnKey","view":"a"}"#, code: .invalidValue, column: 1, mentions: "negative"),
        Case(
            name: "derived without by", line: #"{"t":0,"event":"resign","view":"a","origin":"derived"}"#, code: .missingField, column: 45,
            mentions: "by"),
        Case(
            name: "unknown origin", line: #"{"t":0,"event":"resign","view":"a","origin":"alien"}"#, code: .invalidValue, column: 45, mentions: "alien"
        ),
        Case(
            name: "diagnostic views not an array", line: #"{"t":0,"event":"diagnostic","level":"info","message":"m","views":"a"}"#,
            code: .wrongType, column: 66, mentions: "array of strings"),
        Case(
            name: "diagnostic metadata with a number", line: #"{"t":0,"event":"diagnostic","level":"info","message":"m","metadata":{"k":1}}"#,
            code: .malformedJSON, column: nil, mentions: "string"),
        Case(
            name: "a second header", line: #"{"format":"responder-bus-log","version":1,"screen":{"width":1,"height":1}}"#, code: .invalidValue,
            column: 1, mentions: "second header"),
        Case(
            name: "an unescaped control character", line: "{\"t\":0,\"event\":\"action\",\"name\":\"a\tb\",\"origin\":\"derived\",\"by\":\"X\"}",
            code: .malformedJSON, column: 34, mentions: "control character"),
        Case(name: "a leading zero", line: #"{"t":01,"event":"returnKey","view":"a"}"#, code: .malformedJSON, column: 6, mentions: "start with 0"),
    ]

    @Test("each bad line is named, skipped, and the lines around it survive", arguments: cases)
    func badLine(_ bad: Case) throws {
        let log =
            header + "\n" + #"{"t":0,"event":"returnKey","view":"before"}"# + "\n" + bad.line + "\n" + #"{"t":5,"event":"returnKey","view":"after"}"#
            + "\n"
        let (_, records, problems) = readAll(log)
        #expect(records.count == 2, "the good lines around the bad one are kept")
        let problem = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(problem.code == bad.code)
        #expect(problem.line == 3)
        if let column = bad.column { #expect(problem.column == column) }
        #expect(problem.message.contains(bad.mentions), "\(problem.message)")
        #expect(problem.description.hasPrefix("line 3"))
    }

    @Test("a view kind the reader does not know keeps the scene: a warning with line and column, then the record, the kind kept")
    func unknownViewKind() throws {
        let scene =
            #"{"t":0,"event":"scene","root":{"id":"r","kind":"view","frame":[0,0,10,10],"children":[{"id":"go","kind":"stepper","frame":[0,0,1,1]},{"id":"ok","kind":"button","frame":[0,2,1,1]},{"id":"x","kind":"slider","frame":[0,4,1,1]}]}}"#
        let log = header + "\n" + scene + "\n" + #"{"t":1,"event":"returnKey","view":"go"}"# + "\n"
        let (_, records, problems) = readAll(log)
        #expect(problems.map(\.code) == [.unknownViewKind, .unknownViewKind])
        #expect(problems.filter { !$0.isWarning }.isEmpty)
        #expect(problems.map(\.line) == [2, 2])
        #expect(problems.first?.column == 105)
        #expect(problems.first?.message.contains("'stepper'") == true)
        #expect(records.count == 2, "the scene and the line after it are read")
        guard case .scene(let info) = records.first?.event else {
            Issue.record("the scene was not read")
            return
        }
        #expect(info.root.children.map(\.kind) == [.view, .button, .view])
        #expect(info.root.children.map(\.unrecognizedKind) == ["stepper", nil, "slider"])
        // Written back as it was read.
        #expect(LogWriter.line(for: try #require(records.first)).contains(#""kind":"stepper""#))
    }

    @Test("a view with its kind twice takes the last, whole: a known kind after an unknown one forgets the unknown")
    func repeatedKind() throws {
        let scene =
            #"{"t":0,"event":"scene","root":{"id":"r","kind":"view","frame":[0,0,10,10],"children":[{"id":"b","kind":"gizmo","kind":"textField","frame":[0,0,1,1]}]}}"#
        let (_, records, _) = readAll(header + "\n" + scene + "\n")
        let record = try #require(records.first)
        guard case .scene(let info) = record.event else {
            Issue.record("the scene was not read")
            return
        }
        #expect(info.root.children.first?.kind == .textField)
        #expect(info.root.children.first?.unrecognizedKind == nil)
        // And it is written as what it is.
        let (_, again, _) = readAll(header + "\n" + LogWriter.line(for: record) + "\n")
        #expect(again.first == record)
    }

    @Test("time going backwards is rejected; the next good line still reads")
    func timeGoesBackwards() {
        let log =
            header + "\n" + #"{"t":5,"event":"returnKey","view":"a"}"# + "\n" + #"{"t":4,"event":"returnKey","view":"b"}"# + "\n"
            + #"{"t":6,"event":"returnKey","view":"c"}"#
        let (_, records, problems) = readAll(log)
        #expect(records.count == 2)
        #expect(problems.first?.code == .invalidValue)
        #expect(problems.first?.message.contains("goes back") == true)
    }

    @Test("a missing, wrong or newer header")
    func headers() {
        let cases: [(String, LogReadError.Code, String)] = [
            ("", .emptyFile, "empty"),
            (#"{"t":0,"event":"returnKey","view":"a"}"#, .missingHeader, "returnKey"),
            (#"{"format":"other-log","version":1,"screen":{"width":1,"height":1}}"#, .missingHeader, "other-log"),
            (#"{"format":"responder-bus-log","version":2,"screen":{"width":1,"height":1}}"#, .unsupportedVersion, "version 2"),
            (#"{"format":"responder-bus-log","version":1}"#, .missingField, "screen"),
            ("not json at all", .missingHeader, "line 1"),
        ]
        for (line, code, mention) in cases {
            let (result, _, _) = readAll(line)
            guard case .failure(let error) = result else {
                Issue.record("accepted \(line)")
                continue
            }
            #expect(error.code == code, "\(line)")
            #expect(error.description.contains(mention), "\(error)")
        }
    }

    @Test("a truncated last line is reported as cut off")
    func truncated() {
        let (_, records, problems) = readAll(
            header + "\n" + #"{"t":0,"event":"returnKey","view":"a"}"# + "\n" + #"{"t":1,"event":"keyboardWillShow","end":[0,5"#)
        #expect(records.count == 1)
        #expect(problems.map(\.code) == [.truncatedLine])
        #expect(problems.first?.line == 3)
    }

    @Test("invalid UTF-8 in a string is named with its place")
    func invalidUTF8() {
        var bytes = Array((header + "\n").utf8)
        bytes += Array(#"{"t":0,"event":"returnKey","view":""#.utf8) + [0xC3, 0x28] + Array("\"}\n".utf8)
        bytes += Array(#"{"t":1,"event":"returnKey","view":"ok"}"#.utf8)
        let (_, records, problems) = readAll(bytes)
        #expect(records.count == 1)
        #expect(problems.first?.code == .invalidUTF8)
        #expect(problems.first?.column == 35)
    }

    @Test("deeply nested unknown fields and view trees do not overflow the stack")
    func deepNesting() {
        let deepArray = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        var deepView = #"{"id":"leaf","frame":[0,0,1,1]}"#
        for index in 0..<300 { deepView = #"{"id":"v\#(index)","frame":[0,0,1,1],"children":[\#(deepView)]}"# }
        let log =
            header + "\n" + #"{"t":0,"event":"returnKey","view":"a","junk":"# + deepArray + "}\n" + #"{"t":0,"event":"scene","root":"# + deepView
            + "}\n"
        let (_, records, problems) = readAll(log)
        #expect(records.count == 1)
        #expect(problems.map(\.code) == [.invalidValue])
        #expect(problems.first?.message.contains("nested") == true)
    }

    @Test("a scene nested 200 levels deep, as real app windows can be, reads")
    func deepScene() {
        var deepView = #"{"id":"leaf","kind":"textField","frame":[0,0,1,1]}"#
        for index in 0..<200 { deepView = #"{"id":"v\#(index)","frame":[0,0,1,1],"children":[\#(deepView)]}"# }
        let (_, records, problems) = readAll(header + "\n" + #"{"t":0,"event":"scene","root":"# + deepView + "}\n")
        #expect(problems.isEmpty)
        #expect(records.count == 1)
    }

    @Test("a directory and a missing file are unreadable, with what to do")
    func unreadable() {
        #expect {
            _ = try LogReader(path: "/tmp")
        } throws: { error in
            (error as? LogReadError)?.code == .unreadable && "\(error)".contains("directory")
        }
        #expect {
            _ = try LogReader(path: "/nonexistent/session.jsonl")
        } throws: { error in
            (error as? LogReadError)?.code == .unreadable && "\(error)".contains("No such file")
        }
    }

    @Test("arbitrary bytes never crash the reader", arguments: 0..<50)
    func randomBytes(_ seed: Int) {
        var generator = SplitMix(seed: UInt64(seed))
        var bytes = Array((header + "\n").utf8)
        let fragments = [
            #"{"t":"#, #""event":"#, "\"keyboardWillShow\"", "[", "]", "{", "}", ",", ":", "1e", "-", "\"", "\\u", "null", "\n", "0.5", "\u{FF}",
        ]
        for _ in 0..<400 {
            if generator.next() % 3 == 0 {
                bytes.append(UInt8(truncatingIfNeeded: generator.next()))
            } else {
                bytes += Array(fragments[Int(generator.next() % UInt64(fragments.count))].utf8)
            }
        }
        let reader = LogReader(bytes: bytes)
        _ = try? reader.readHeader()
        var items = 0
        while let item = reader.next() {
            items += 1
            if case .problem(let error) = item {
                // Every rejection is placed and explained.
                #expect(error.line >= 2 && error.line <= reader.lineNumber, "\(error)")
                #expect(!error.message.isEmpty)
            }
        }
        // The whole input was consumed, whatever it held, and every non-blank line gave an item.
        #expect(reader.bytesConsumed == bytes.count)
        #expect(items <= reader.lineNumber)
    }
}

/// A small deterministic generator for the random-input tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
