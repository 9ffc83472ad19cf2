import EventLog
import ResponderBus
import Testing

@testable import ConsoleImport

/// Issue 33, item 5: Swift's printing of a `[AnyHashable: Any]` without the `AnyHashable(...)`
/// wrapper, and a userInfo that repeats its keys. No public paste of the unwrapped form was found
/// (every one found prints the wrapper); the text is the issue's own quotation of it, in the
/// print's shape, beside the wrapped form it must import the same as.
@Suite("Swift userInfo keys printed without AnyHashable, and keys printed again")
struct UnwrappedKeysTests {
    static let unwrapped = """
        keyboardWillShow userInfo: [("UIKeyboardCenterBeginUserInfoKey"): NSPoint: {207, 1069}, ("UIKeyboardIsLocalUserInfoKey"): 1, ("UIKeyboardFrameEndUserInfoKey"): NSRect: {{0, 550}, {414, 346}}, ("UIKeyboardAnimationDurationUserInfoKey"): 0.25, ("UIKeyboardFrameBeginUserInfoKey"): NSRect: {{0, 896}, {414, 346}}, ("UIKeyboardAnimationCurveUserInfoKey"): 7]
        """

    @Test("`(\"UIKeyboardFrameEndUserInfoKey\"): NSRect: …` imports as the AnyHashable form does, with no problem")
    func unwrappedAsWrapped() throws {
        let wrapped = Self.unwrapped.replacingOccurrences(of: "(\"UIKeyboard", with: "AnyHashable(\"UIKeyboard")
        let plain = ConsoleImporter().importDump(Self.unwrapped)
        let reference = ConsoleImporter().importDump(wrapped)
        #expect(plain.problems.isEmpty, "\(plain.problems)")
        #expect(plain.records == reference.records)
        #expect(plain.header == reference.header)
        let record = try #require(plain.records.first)
        guard case .keyboard(let name, let info) = record.event else {
            Issue.record("not a keyboard event: \(record)")
            return
        }
        #expect(name == .keyboardWillShow)
        #expect(info.end == Rect(x: 0, y: 550, width: 414, height: 346))
        #expect(info.begin == Rect(x: 0, y: 896, width: 414, height: 346))
        #expect(info.duration == 0.25)
        #expect(info.curve == 7)
        #expect(info.isLocal == true)
    }

    @Test("an unknown key in the unwrapped form is read past, not taken for prose")
    func unknownUnwrappedKey() {
        let text = """
            userInfo: [("UIKeyboardFrameEndUserInfoKey"): NSRect: {{0, 550}, {414, 346}}, ("MyAppExtraKey"): 12, ("UIKeyboardAnimationDurationUserInfoKey"): 0.25]
            """
        let result = ConsoleImporter().importDump(text)
        #expect(result.records.count == 1)
        #expect(result.problems.isEmpty, "\(result.problems)")
    }

    @Test("a userInfo that names a key again is read as two notifications, and the import says so where the repeat is")
    func repeatSaid() throws {
        let text = """
            {
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 550}, {414, 346}}";
                UIKeyboardAnimationDurationUserInfoKey = "0.25";
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 896}, {414, 346}}";
            }
            """
        let result = ConsoleImporter().importDump(text)
        #expect(result.records.count == 2)
        let problem = try #require(result.problems.first { $0.kind == .repeatedKey }, "\(result.problems)")
        #expect(problem.line == 4)
        #expect(problem.column == 5)
        #expect(problem.message.hasPrefix("UIKeyboardFrameEndUserInfoKey again"))
    }
}
