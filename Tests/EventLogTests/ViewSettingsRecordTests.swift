import EventLog
import ResponderBus
import Testing

/// The `viewSettings` record (issue 32): written and read back as itself, its defaults, and each
/// bad value refused at its column.
@Suite("The viewSettings record: round trip, defaults, and bad values named where they are")
struct ViewSettingsRecordTests {
    static func read(_ line: String) throws(LogReadError) -> LogRecord {
        try LogReader.record(line: Array(line.utf8))
    }

    @Test("written and read back as itself; a gap left out is avoidance's default, avoidsKeyboard left out is true")
    func roundTrip() throws {
        for settings in [
            ViewSettings(view: "password", keyboardDistance: 40), ViewSettings(view: "notes", keyboardDistance: nil, avoidsKeyboard: false),
        ] {
            let record = LogRecord(t: 1.5, event: .viewSettings(settings), origin: .derived(by: "P"))
            let line = LogWriter.line(for: record)
            #expect(try Self.read(line) == record, "\(line)")
        }
        #expect(
            LogWriter.line(for: LogRecord(t: 0, event: .viewSettings(ViewSettings(view: "a", keyboardDistance: 40)), origin: .derived(by: "P")))
                == #"{"avoidsKeyboard":true,"by":"P","event":"viewSettings","keyboardDistance":40,"origin":"derived","t":0,"view":"a"}"#)
        let bare = try Self.read(#"{"t":0,"event":"viewSettings","view":"a","keyboardDistance":null,"origin":"derived","by":"P"}"#)
        #expect(bare.event == .viewSettings(ViewSettings(view: "a", keyboardDistance: nil, avoidsKeyboard: true)))
    }

    /// The 1-based column where `value` starts in `line`.
    static func column(of value: String, in line: String) -> Int {
        line.utf8.count - line[line.range(of: value)!.lowerBound...].utf8.count + 1
    }

    @Test("a negative gap, a non-boolean avoidsKeyboard and a missing view are refused, each at its column")
    func badValues() {
        let negative = #"{"t":0,"event":"viewSettings","view":"a","keyboardDistance":-3,"origin":"derived","by":"P"}"#
        #expect(throws: LogReadError.self) { try Self.read(negative) }
        do {
            _ = try Self.read(negative)
        } catch {
            #expect(error.column == Self.column(of: "-3", in: negative))
            #expect(error.message.contains("a keyboardDistance of -3.0"))
        }
        let number = #"{"t":0,"event":"viewSettings","view":"a","avoidsKeyboard":1,"origin":"derived","by":"P"}"#
        do {
            _ = try Self.read(number)
            Issue.record("a number for avoidsKeyboard was accepted")
        } catch {
            #expect(error.column == Self.column(of: ":1", in: number) + 1)
            #expect(error.message.contains("expected true or false"))
        }
        do {
            _ = try Self.read(#"{"t":0,"event":"viewSettings","origin":"derived","by":"P"}"#)
            Issue.record("a viewSettings without a view was accepted")
        } catch {
            #expect(error.message.contains(#"'viewSettings' needs "view""#))
        }
    }

    @Test("followsKeyboard is written only when on, so older records read and write as before; viewMove round-trips with its frame")
    func followingAndMoving() throws {
        let follows = LogRecord(
            t: 2, event: .viewSettings(ViewSettings(view: "bar", avoidsKeyboard: false, followsKeyboard: true)), origin: .derived(by: "P"))
        let line = LogWriter.line(for: follows)
        #expect(line == #"{"avoidsKeyboard":false,"by":"P","event":"viewSettings","followsKeyboard":true,"origin":"derived","t":2,"view":"bar"}"#)
        #expect(try Self.read(line) == follows)
        let move = LogRecord(
            t: 1, event: .viewMove(ViewMove(view: "bar", frame: Rect(x: 0, y: 458, width: 390, height: 50), duration: 0.25, curve: 7)),
            origin: .derived(by: "KeyboardAvoidance"))
        let moveLine = LogWriter.line(for: move)
        #expect(
            moveLine
                == #"{"by":"KeyboardAvoidance","curve":7,"duration":0.25,"event":"viewMove","frame":[0,458,390,50],"origin":"derived","t":1,"view":"bar"}"#
        )
        #expect(try Self.read(moveLine) == move)
        do {
            _ = try Self.read(#"{"t":0,"event":"viewMove","view":"bar","origin":"derived","by":"P"}"#)
            Issue.record("a viewMove without a frame was accepted")
        } catch {
            #expect(error.message.contains(#"'viewMove' needs "frame""#))
        }
    }
}
