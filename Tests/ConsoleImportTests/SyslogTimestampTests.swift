import EventLog
import ResponderBus
import Testing

@testable import ConsoleImport

/// Issue 33, item 7, in part: syslog's and idevicesyslog's timestamps (`Apr 28 02:30:08`, no year)
/// give the times, as NSLog's and the unified log's do.
@Suite("syslog timestamps: Mon DD HH:MM:SS")
struct SyslogTimestampTests {
    @Test("a real idevicesyslog line's time and process are read; the message starts after them")
    func realLine() throws {
        // From minh-ton/reynard-browser issue 42 (iOS 17 device syslog), verbatim.
        let line = Array("Apr 28 02:30:08 Reynard(libxpc.dylib)[8930] <Notice>: [0x15c487280] activating connection".utf8)
        let later = Array("Apr 28 02:30:10 Reynard(libxpc.dylib)[8930] <Notice>: x".utf8)
        let (first, next) = try #require(NSLogTimestamp.parse(line, at: 0, lineEnd: line.count))
        let (second, _) = try #require(NSLogTimestamp.parse(later, at: 0, lineEnd: later.count))
        #expect(second - first == 2_000_000)
        #expect(String(decoding: line[next...], as: UTF8.self).hasPrefix("<Notice>:"))
    }

    @Test("single-digit days are padded with a space; words that are not months are no time")
    func shapes() {
        func parse(_ text: String) -> Int64? {
            let bytes = Array(text.utf8)
            return NSLogTimestamp.parse(bytes, at: 0, lineEnd: bytes.count)?.micros
        }
        #expect(parse("May  1 12:00:04 iPhone MyApp[1] <Notice>: x") != nil)
        #expect(parse("May 01 12:00:04 iPhone MyApp[1] <Notice>: x") == parse("May  1 12:00:04 iPhone MyApp[1] <Notice>: x"))
        #expect(parse("Mayo 1 12:00:04 x") == nil)
        #expect(parse("May 32 12:00:04 x") == nil)
        #expect(parse("May  1 1200:04 x") == nil)
    }

    @Test("a console in syslog's form imports with the times its lines give")
    func importsTimes() {
        // Written for the test in idevicesyslog's form: no public syslog paste prints a keyboard userInfo.
        let console = """
            May  1 12:00:04 iPhone MyApp(UIKitCore)[1234] <Notice>: UIKeyboardWillShowNotification userInfo: {
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 521}, {375, 291}}";
            }
            May  1 12:00:06 iPhone MyApp(UIKitCore)[1234] <Notice>: UIKeyboardWillHideNotification userInfo: {
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 812}, {375, 291}}";
            }
            """
        let result = ConsoleImporter().importDump(console)
        #expect(result.records.map(\.t) == [0, 2])
        #expect(result.records.map(\.event.name) == ["keyboardWillShow", "keyboardWillHide"])
    }
}
