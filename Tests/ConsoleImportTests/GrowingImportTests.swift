import ConsoleImport
import EventLog
import ResponderBus
import Testing

/// The library side of `import --follow`: a console given as it is written.
@Suite("GrowingImport: a console imported as it grows, each event once")
struct GrowingImportTests {
    static func userInfo(_ name: String, second: Int, endY: Int) -> String {
        """
        2024-05-01 12:00:0\(second).000 App[1:2] \(name) userInfo: {
            UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, \(endY)}, {375, 291}}";
            UIKeyboardAnimationDurationUserInfoKey = "0.25";
        }

        """
    }

    @Test("the header once the screen is known, each event once, a userInfo cut at the end held back until whole")
    func asItGrows() throws {
        var growing = GrowingImport()
        growing.append(Array("2024-05-01 12:00:00.000 App[1:2] launched\n".utf8))
        #expect(growing.take().header == nil, "no screen known yet: nothing")
        growing.append(Array(Self.userInfo("UIKeyboardWillShowNotification", second: 1, endY: 521).utf8))
        let first = growing.take()
        let header = try #require(first.header)
        #expect(header.screen == Size(width: 375, height: 812))
        #expect(first.records.map(\.event.name) == ["keyboardWillShow"])
        #expect(growing.take().records.isEmpty, "taken once")
        let hide = Self.userInfo("UIKeyboardWillHideNotification", second: 3, endY: 812)
        let lines = hide.split(separator: "\n", omittingEmptySubsequences: false)
        growing.append(Array((lines[0..<2].joined(separator: "\n") + "\n").utf8))
        #expect(growing.take().records.isEmpty, "a userInfo cut at the end waits")
        growing.append(Array((lines[2...].joined(separator: "\n")).utf8))
        let second = growing.take()
        #expect(second.header == nil)
        #expect(second.records.map(\.event.name) == ["keyboardWillHide"])
        #expect(second.records.first?.t == 2)
    }

    @Test("a userInfo cut at the end is held back even when the console's problems are too many to list")
    func cutAfterManyProblems() {
        var growing = GrowingImport(options: .init(screen: Size(width: 375, height: 812)))
        // 1,200 unreadable userInfos: more problems than an import lists.
        let bad = "UIKeyboardWillShowNotification userInfo: { UIKeyboardAnimationDurationUserInfoKey = \"x\"; }\n"
        growing.append(Array(String(repeating: bad, count: 1_200).utf8))
        let hide = Self.userInfo("UIKeyboardWillHideNotification", second: 3, endY: 812)
        let lines = hide.split(separator: "\n", omittingEmptySubsequences: false)
        growing.append(Array((lines[0..<2].joined(separator: "\n") + "\n").utf8))
        #expect(growing.take().records.isEmpty, "the cut userInfo waits")
        growing.append(Array((lines[2...].joined(separator: "\n")).utf8))
        let whole = growing.take().records
        #expect(whole.map(\.event.name) == ["keyboardWillHide"])
        #expect(whole.first.flatMap { if case .keyboard(_, let info) = $0.event { info.duration } else { nil } } == 0.25, "with every key")
    }

    @Test("after a restart (a truncated console) the new text's events come after those taken, never earlier")
    func restart() {
        var growing = GrowingImport()
        growing.append(
            Array(
                (Self.userInfo("UIKeyboardWillShowNotification", second: 1, endY: 521)
                    + Self.userInfo("UIKeyboardWillHideNotification", second: 4, endY: 812)).utf8))
        #expect(growing.take().records.map(\.t) == [0, 3])
        growing.restart()
        growing.append(Array(Self.userInfo("UIKeyboardWillShowNotification", second: 0, endY: 400).utf8))
        let again = growing.take()
        #expect(again.header == nil, "one header")
        #expect(again.records.map(\.t) == [3])
        #expect(again.records.count == 1)
    }

    @Test("the last line without a newline is read only when the text is final")
    func final() {
        var growing = GrowingImport(options: .init(screen: Size(width: 375, height: 812)))
        growing.append(Array("UIKeyboardWillShowNotification userInfo: { UIKeyboardFrameEndUserInfoKey = \"NSRect: {{0, 521}, {375, 291}}\"; }".utf8))
        #expect(growing.take().records.isEmpty)
        #expect(growing.take(final: true).records.count == 1)
    }

    @Test("views printed apart are held back while a view printed next could join them: the follow gives the batch import's records")
    func viewsPrintedApartSettle() throws {
        let lines = [
            "Multiple elements were matched: (\n",
            "    \"<UITextField:0x7f01; AX=Y; AX.frame={{20, 3001}, {335, 34}}; frame={{20, 3001}, {335, 34}}; alpha=1>\",\n",
            "    \"<UITextField:0x7f02; AX=Y; AX.frame={{20, 300}, {335, 34}}; frame={{20, 100}, {335, 34}}; alpha=1>\"\n",
            ")\n",
            Self.userInfo("UIKeyboardWillShowNotification", second: 1, endY: 521),
            "<UIWindow:0x7f09; AX=N; AX.frame={{0, 0}, {375, 812}}; frame={{0, 0}, {375, 812}}; alpha=1>\n",
            "  |--<UITextField:0x7f0a; AX=Y; AX.frame={{20, 200}, {335, 34}}; frame={{20, 200}, {335, 34}}; alpha=1>\n",
            "<UILabel:0x7f0b; AX=Y; AX.frame={{20, 260}, {100, 20}}; frame={{20, 260}, {100, 20}}; alpha=1>\n",
        ]
        let options = ConsoleImporter.Options(screen: Size(width: 375, height: 812))
        let batch = ConsoleImporter(options: options).importDump(lines.joined())
        var growing = GrowingImport(options: options)
        var followed: [LogRecord] = []
        for line in lines {
            growing.append(Array(line.utf8))
            followed += growing.take().records
        }
        followed += growing.take(final: true).records
        #expect(followed == batch.records)
        #expect(followed.first.map { if case .scene(let scene) = $0.event { scene.root.children.count } else { 0 } } == 2, "both matches")
    }
}
