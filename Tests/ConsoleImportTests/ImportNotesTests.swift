import EventLog
import Foundation
import ResponderBus
import Testing

@testable import ConsoleImport

/// Issue 30, item 13, at the library: odd class names are read; renamed ids and unused `--kind`
/// classes are said; the `--scene` text's problems are its own.
@Suite("Imports that say what they did: odd names, renamed ids, unused options, the scene's problems")
struct ImportNotesTests {
    @Test("classes with non-ASCII names are read, as entries and as a notification's object")
    func nonASCIIClassNames() throws {
        let text = """
            <UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x91>>
               | <MyApp.CaféField: 0x2; frame = (20 400; 335 40); layer = <CALayer: 0x92>>
               | <Ωmega.Ünïcode: 0x3; baseClass = UITextView; frame = (20 500; 335 100); layer = <CALayer: 0x93>>
            2019-04-30 21:44:27.627646+0800 a[1:2] NSConcreteNotification 0x6000 {name = UITextFieldTextDidBeginEditingNotification; object = <MyApp.CaféField: 0x2; frame = (20 400; 335 40)>}
            """
        let result = ConsoleImporter().importDump(text)
        guard case .scene(let scene) = result.records.first?.event else {
            Issue.record("no scene: \(result.problems)")
            return
        }
        let views = preorder(scene.root)
        #expect(views.map(\.id.rawValue) == ["UIWindow@0x1", "MyApp.CaféField@0x2", "Ωmega.Ünïcode@0x3"])
        #expect(views.map(\.kind) == [.view, .textField, .textView])
        try #require(views.count == 3)
        #expect(views[1].className == "MyApp.CaféField")
        #expect(result.records.last?.event == .didBeginEditing(EditingInfo(view: "MyApp.CaféField@0x2")))
        #expect(result.summary.linkedAddresses == 1)
        // What is written reads back.
        let log = LogWriter.text(header: result.header, records: result.records)
        let reader = LogReader(bytes: Array(log.utf8))
        _ = try reader.readHeader()
        var records = 0
        while let item = reader.next() {
            if case .problem(let error) = item { Issue.record("\(error)") }
            records += 1
        }
        #expect(records == result.records.count)
    }

    @Test("an address or an identifier printed twice in one dump is renamed #2, and said once per id")
    func duplicateIDsAreSaid() {
        let text = """
            <UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x91>>
               | <UITextField: 0x2; frame = (20 100; 335 40); layer = <CALayer: 0x92>>
               | <UITextField: 0x2; frame = (20 200; 335 40); layer = <CALayer: 0x93>>
               | <UITextField: 0x2; frame = (20 300; 335 40); layer = <CALayer: 0x94>>
               | <UILabel: 0x5; frame = (0 0; 1 1); accessibilityIdentifier = 'title'; layer = <CALayer: 0x95>>
               | <UILabel: 0x6; frame = (0 0; 1 1); accessibilityIdentifier = 'title'; layer = <CALayer: 0x96>>
            """
        let (found, problems) = scenes(of: text)
        #expect(
            found.first.map { preorder($0.root).map(\.id.rawValue) } == [
                "UIWindow@0x1", "UITextField@0x2", "UITextField@0x2#2", "UITextField@0x2#3", "title", "title#2",
            ])
        #expect(
            problems.map(\.description) == [
                "line 3, column 6: the address 0x2 is printed 3 times in this dump; the later ones are named UITextField@0x2#2 to UITextField@0x2#3, and an editing notification of 0x2 goes to the first",
                "line 6, column 6: the id title is given to 2 views of this dump (the accessibilityIdentifier they print); the later one is named title#2",
            ])
    }

    @Test("an address printed again under another class or with an identifier is said, and notifications go to the first")
    func repeatedAddressesAreSaid() {
        let text = """
            <UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x91>>
               | <UITextField: 0x7f02; frame = (20 100; 335 40); layer = <CALayer: 0x92>>
               | <UILabel: 0x7f02; frame = (20 200; 335 40); layer = <CALayer: 0x93>>
               | <UITextField: 0x7f02; frame = (20 300; 335 40); accessibilityIdentifier = 'email'; layer = <CALayer: 0x94>>
               | <UITextView: 0x7F03; frame = (20 400; 335 80); layer = <CALayer: 0x95>>
               | <UITextView: 0x00007f03; frame = (20 500; 335 80); layer = <CALayer: 0x96>>
            2019-04-30 21:44:27.627646+0800 a[1:2] NSConcreteNotification 0x6000 {name = UITextViewTextDidBeginEditingNotification; object = <UITextView: 0x7f03; frame = (20 400; 335 80)>}
            """
        let result = ConsoleImporter().importDump(text)
        guard case .scene(let scene) = result.records.first?.event else {
            Issue.record("no scene: \(result.problems)")
            return
        }
        // Every view is kept, with the id it prints (the spellings of an address are kept too).
        #expect(
            preorder(scene.root).map(\.id.rawValue) == [
                "UIWindow@0x1", "UITextField@0x7f02", "UILabel@0x7f02", "email", "UITextView@0x7F03", "UITextView@0x00007f03",
            ])
        // Said once per address, at the first repeat, however the address is spelled.
        #expect(
            result.problems.filter { $0.kind == .renamedViews }.map(\.description) == [
                "line 3, column 6: the address 0x7f02 is printed 3 times in this dump; the later ones are named UILabel@0x7f02 to email, and an editing notification of 0x7f02 goes to the first",
                "line 6, column 6: the address 0x7f03 is printed 2 times in this dump; the later one is named UITextView@0x00007f03, and an editing notification of 0x7f03 goes to the first",
            ])
        // The notification, its address spelled another way, goes to the first view printed with it.
        #expect(result.records.last?.event == .didBeginEditing(EditingInfo(view: "UITextView@0x7F03")))
    }

    @Test("a --kind class that no view has is said")
    func unusedKind() {
        let text = """
            <UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x91>>
               | <MyApp.NoteBox: 0x2; frame = (20 400; 335 40); layer = <CALayer: 0x92>>
            """
        var options = ConsoleImporter.Options()
        options.kinds = ["MyApp.NoteBox": .textView, "MyApp.NoteBx": .textView, "Zed": .button]
        let result = ConsoleImporter(options: options).importDump(text)
        #expect(!result.records.isEmpty)
        let notes = result.problems.filter { $0.kind == .kindNotUsed }.map(\.description)
        #expect(
            notes == [
                "--kind MyApp.NoteBx=textView is not used: no view of the view-hierarchy dumps has that class",
                "--kind Zed=button is not used: no view of the view-hierarchy dumps has that class",
            ])
    }

    @Test("problems in a --scene text are the scene's, at its own lines; a --scene text with no dump imports nothing")
    func sceneProblemsAreTheScenes() {
        let scene = """
            <UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x91>>
               | <UITextField: 0x2; frame = (20 100; 335 40); lay
               | <UITextField: 0x3; frame = (20 200; 335 40); layer = <CALayer: 0x93>>
            """
        var options = ConsoleImporter.Options(screen: Size(width: 375, height: 667))
        options.sceneText = Array(scene.utf8)
        let result = ConsoleImporter(options: options).importDump("nothing here\n")
        #expect(
            result.problems.map { "\($0.source) \($0)" } == [
                "scene line 2, column 6: the view entry <UITextField: …> is cut off before its closing '>'; it is left out of the scene"
            ])
        options.sceneText = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ $0 >> 3) }
        let garbage = ConsoleImporter(options: options).importDump("nothing here\n")
        #expect(garbage.isEmpty)
        #expect(garbage.problems.map(\.source) == [.scene])
        #expect(garbage.problems.first?.kind == .nothingImportable)
    }
}
