import EventLog
import Foundation
import ResponderBus
import Testing

@testable import ConsoleImport

/// The password fields of a view-hierarchy dump (issue 32): marked `secure` from what an entry
/// prints, or from a text field's class name, and never guessed from a placeholder.
@Suite("View-hierarchy dumps: secure text entry")
struct SecureEntryImportTests {
    /// Lines of a real `recursiveDescription` of a bank's login screen (a Chinese reverse-engineering
    /// write-up, iOS 9–10 era; search-index find_string id 37204325853), the `|` markers of its
    /// first seven levels left out and a root added. `CSJCMBCCDSIPInputField` is the password field:
    /// only its placeholder, '请输入密码' ("enter the password"), says so. UIKit prints no secure
    /// flag, so `secureLine` below is this entry with `; secureTextEntry = YES` ADDED BY HAND (no
    /// public dump prints the flag; see the issue's notes).
    static let realLogin = """
        <UIView: 0x144f00000; frame = (0 0; 320 568); layer = <CALayer: 0x144f00010>>
           | <FireflyUserNameTextFieldView: 0x144f34260; baseClass = UITextField; frame = (19 26; 221 32); text = ''; clipsToBounds = YES; opaque = NO; gestureRecognizers = <NSArray: 0x144f72190>; layer = <CALayer: 0x144f39a50>>
           |    | <UITextFieldLabel: 0x146033470; frame = (48 0; 193 32); text = '请输入员工号'; opaque = NO; userInteractionEnabled = NO; layer = <_UILabelLayer: 0x146033680>>
           | <CSJCMBCCDSIPInputField: 0x146034e00; baseClass = UITextField; frame = (19 77; 221 32.5); text = ''; clipsToBounds = YES; opaque = NO; gestureRecognizers = <NSArray: 0x144f74e20>; layer = <CALayer: 0x146034460>>
           |    | <UITextFieldLabel: 0x144f6d060; frame = (48 0; 193 32); text = '请输入密码'; opaque = NO; userInteractionEnabled = NO; layer = <_UILabelLayer: 0x144f6d270>>
           | <FireflyButton: 0x144f6e6c0; baseClass = UIButton; frame = (38 120.5; 183 34); clipsToBounds = YES; opaque = NO; layer = <CALayer: 0x144f6d690>>
        """

    static func secureLine(_ attribute: String) -> String {
        realLogin.replacingOccurrences(
            of: "text = ''; clipsToBounds = YES; opaque = NO; gestureRecognizers = <NSArray: 0x144f74e20>",
            with: "text = ''; clipsToBounds = YES; opaque = NO; gestureRecognizers = <NSArray: 0x144f74e20>; \(attribute)")
    }

    static func inputs(_ text: String) throws -> [ViewSpec] {
        let (found, _) = scenes(of: text)
        let scene = try #require(found.first)
        return preorder(scene.root).filter(\.kind.isTextInput)
    }

    @Test("the real dump as printed: two text fields, neither secure (a 'password' placeholder is no sign)")
    func realDumpMarksNothing() throws {
        let inputs = try Self.inputs(Self.realLogin)
        #expect(inputs.map(\.className) == ["FireflyUserNameTextFieldView", "CSJCMBCCDSIPInputField"])
        #expect(inputs.map(\.isSecure) == [false, false])
    }

    @Test(
        "secureTextEntry printed on the entry marks it secure, in each spelling; NO or a non-boolean does not",
        arguments: [
            ("secureTextEntry = YES", true), ("secureTextEntry: YES", true), ("isSecureTextEntry = true", true), ("isSecureTextEntry: 1", true),
            ("secureTextEntry = NO", false), ("isSecureTextEntry = false", false), ("secureTextEntry = <null>", false),
        ])
    func attribute(_ attribute: String, _ secure: Bool) throws {
        let inputs = try Self.inputs(Self.secureLine(attribute))
        #expect(inputs.map(\.isSecure) == [false, secure], "\(attribute)")
    }

    @Test("a text field whose class says Secure is secure unless it prints NO; not a text view, a plain view or an InsecureField")
    func className() throws {
        let text = """
            <UIView: 0x1; frame = (0 0; 320 568); layer = <CALayer: 0x9>>
               | <MyApp.SecureTextField: 0x2; frame = (0 0; 10 10); layer = <CALayer: 0x8>>
               | <_TtC5MyApp14SecurePinField: 0x3; frame = (0 20; 10 10); layer = <CALayer: 0x7>>
               | <PasscodeSecureInput: 0x4; baseClass = UITextField; frame = (0 40; 10 10); layer = <CALayer: 0x6>>
               | <MyApp.SecureTextField: 0x5; frame = (0 60; 10 10); secureTextEntry = NO; layer = <CALayer: 0x5>>
               | <MyApp.SecureNoteTextView: 0x6; frame = (0 80; 10 10); layer = <CALayer: 0x4>>
               | <MyApp.SecureBadgeView: 0x7; frame = (0 100; 10 10); layer = <CALayer: 0x3>>
               | <MyApp.InsecureField: 0x8; frame = (0 120; 10 10); layer = <CALayer: 0x2>>
               | <MyApp.NoteTextView: 0x9; frame = (0 140; 10 10); isSecureTextEntry = YES; layer = <CALayer: 0x1>>
               | <UIView: 0xa; frame = (0 160; 10 10); secureTextEntry = YES; layer = <CALayer: 0x0>>
            """
        let (found, _) = scenes(of: text)
        let views = preorder(try #require(found.first).root).dropFirst()
        #expect(views.map(\.kind) == [.textField, .textField, .textField, .textField, .textView, .view, .textField, .textView, .view])
        #expect(views.map(\.isSecure) == [true, true, true, false, false, false, false, true, false])
    }

    @Test("through the whole import: the log's scene carries \"secure\":true on the password field only")
    func throughTheImporter() throws {
        let result = ConsoleImporter(options: .init(screen: Size(width: 320, height: 568))).importDump(Self.secureLine("secureTextEntry = YES"))
        let scene = try #require(result.records.first { if case .scene = $0.event { true } else { false } })
        let line = LogWriter.line(for: scene)
        #expect(line.components(separatedBy: #""secure":true"#).count - 1 == 1)
        #expect(
            line.contains(
                #""class":"CSJCMBCCDSIPInputField","frame":[19,77,221,32.5],"id":"CSJCMBCCDSIPInputField@0x146034e00","kind":"textField","secure":true"#
            ))
    }
}
