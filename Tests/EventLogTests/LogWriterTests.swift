import EventLog
import ResponderBus
import Testing

@Suite("LogWriter: stable output that reads back the same")
struct LogWriterTests {
    @Test("keys are sorted, whole numbers have no fraction, absent fields are left out")
    func stableForm() {
        let record = LogRecord(
            t: 0.51,
            event: .keyboard(
                .keyboardWillShow,
                KeyboardInfo(
                    begin: Rect(x: 0, y: 812, width: 375, height: 291), end: Rect(x: 0, y: 521, width: 375, height: 291), duration: 0.25, curve: 7,
                    isLocal: true)))
        #expect(
            LogWriter.line(for: record)
                == #"{"begin":[0,812,375,291],"curve":7,"duration":0.25,"end":[0,521,375,291],"event":"keyboardWillShow","isLocal":true,"t":0.51}"#)
        let derived = LogRecord(
            t: 2, event: .viewShift(ViewShift(originY: -103.5, duration: 0.25, curve: 7)), origin: .derived(by: "KeyboardAvoidance"))
        #expect(
            LogWriter.line(for: derived)
                == #"{"by":"KeyboardAvoidance","curve":7,"duration":0.25,"event":"viewShift","origin":"derived","originY":-103.5,"t":2}"#)
        let header = LogHeader(screen: Size(width: 375, height: 812), safeArea: EdgeInsets(top: 44, bottom: 34))
        #expect(
            LogWriter.line(for: header)
                == #"{"format":"responder-bus-log","safeArea":{"bottom":34,"left":0,"right":0,"top":44},"screen":{"height":812,"width":375},"version":1}"#
        )
    }

    static let everyEvent: [LogRecord] = [
        LogRecord(
            t: 0,
            event: .scene(
                SceneInfo(
                    root: ViewSpec(
                        id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812),
                        children: [
                            ViewSpec(
                                id: "a \"quoted\" id", kind: .textField, frame: Rect(x: 20, y: 560, width: 335, height: 44), tag: 1, isHidden: true,
                                isEnabled: false, keyboardDistance: 30),
                            ViewSpec(
                                id: "list", kind: .scrollView, frame: Rect(x: 0, y: 0, width: 375, height: 400), contentOffset: Point(x: 0, y: 12.5),
                                contentSize: Size(width: 375, height: 1200),
                                children: [
                                    ViewSpec(id: "notes", kind: .textView, frame: Rect(x: 0, y: 900, width: 375, height: 100))
                                ]),
                        ]), lastFieldAction: "signIn"))),
        LogRecord(t: 0.1, event: .screen(ScreenChange(width: 812, height: 375, safeArea: EdgeInsets(left: 44, bottom: 21, right: 44)))),
        LogRecord(t: 0.1, event: .screen(ScreenChange(width: 375, height: 812))),
        LogRecord(t: 0.2, event: .setFrame(FrameChange(view: "notes", frame: Rect(x: 0, y: 900, width: 375, height: 140.25)))),
        LogRecord(t: 0.3, event: .didBeginEditing(EditingInfo(view: "notes"))),
        LogRecord(t: 0.3, event: .didEndEditing(EditingInfo(view: "notes"))),
        LogRecord(t: 0.4, event: .returnKey(ReturnKeyInfo(view: "notes"))),
        LogRecord(t: 0.5, event: .keyboard(.keyboardDidChangeFrame, KeyboardInfo(begin: Rect(x: 0, y: 0, width: 768, height: 304)))),
        LogRecord(
            t: 0.5,
            event: .keyboard(.keyboardWillHide, KeyboardInfo(end: Rect(x: 0, y: 812, width: 375, height: 71), duration: 0, curve: 0, isLocal: false))),
        LogRecord(t: 1e-7, event: .viewShift(ViewShift(originY: -0.1, duration: 0.25, curve: 7)), origin: .derived(by: "KeyboardAvoidance")),
        LogRecord(t: 1, event: .scroll(ScrollChange(view: "list", contentOffsetY: 231, bottomInset: 291)), origin: .derived(by: "KeyboardAvoidance")),
        LogRecord(t: 1, event: .focusChange(FocusChange(from: "a", to: nil)), origin: .derived(by: "FieldAdvancing")),
        LogRecord(t: 1, event: .focusChange(FocusChange(from: nil, to: "b")), origin: .derived(by: "FieldAdvancing")),
        LogRecord(t: 1, event: .action(ActionInfo(name: "sign\nin ✓")), origin: .derived(by: "FieldAdvancing")),
        LogRecord(t: 1, event: .resign(ResignInfo(view: "b")), origin: .derived(by: "FieldAdvancing")),
        LogRecord(
            t: 1, event: .diagnostic(Diagnostic(level: .warning, message: "a \\ backslash and a \u{01} control")), origin: .derived(by: "screen")),
    ]

    @Test("every event round-trips through the writer and the reader unchanged")
    func roundTrip() throws {
        let header = LogHeader(
            screen: Size(width: 375, height: 812), safeArea: EdgeInsets(top: 44, bottom: 34), screenSource: "inferred", device: "iPhone X")
        var records = Self.everyEvent
        records.sort { $0.t < $1.t }
        let text = LogWriter.text(header: header, records: records)
        let (readHeader, readRecords, problems) = readAll(text)
        #expect(try readHeader.get() == header)
        #expect(problems.isEmpty, "\(problems)")
        #expect(readRecords == records)
        // And writing what was read gives the same bytes: the output is stable.
        #expect(LogWriter.text(header: try readHeader.get(), records: readRecords) == text)
    }

    @Test(
        "numbers are written in their shortest round-tripping form",
        arguments: [0.1, 0.25, 1.0 / 3.0, 521, -103, 1e-7, 123456789.125, 0.30000000000000004, 2e21])
    func shortestNumbers(_ value: Double) {
        let text = JSONText.number(value)
        #expect(Double(text) == value)
        if value == value.rounded(), abs(value) < 1e15 { #expect(!text.contains(".")) }
    }

    /// What the writer printed before its fast path for thousandths: whole numbers as integers,
    /// everything else as Swift's shortest round-tripping `description`.
    static func reference(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return value == 0 ? "0" : String(Int64(value))
        }
        return value.description
    }

    @Test("the fast path for thousandths prints exactly what description prints")
    func thousandthsMatchDescription() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        var values: [Double] = [0.001, -0.001, 0.005, 0.05, 0.5, -0.5, 1.005, 999_999_999.999, -999_999_999.999, 1e9 - 0.5, 0.0009, 1e9 + 0.5]
        for n in -20_000...20_000 { values.append(Double(n) / 1000) }
        for _ in 0..<300_000 {
            let n = Int64(bitPattern: next() % 2_000_000_000_000) - 1_000_000_000_000
            values.append(Double(n) / 1000)
            values.append(Double(n) / 100)
            values.append(Double(bitPattern: next()))
        }
        var mismatches: [String] = []
        for value in values where JSONText.number(value) != Self.reference(value) {
            mismatches.append("\(value): \(JSONText.number(value)) vs \(Self.reference(value))")
            if mismatches.count > 5 { break }
        }
        #expect(mismatches.isEmpty)
    }
}
