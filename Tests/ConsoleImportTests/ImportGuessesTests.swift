import EventLog
import Foundation
import ResponderBus
import Testing

@testable import ConsoleImport

// Issue 51, item 3: an import that says what it guessed. Landscape keyboards in portrait
// coordinates (iOS before 8) are said, with the conversion on offer, and converted on a landscape
// screen; the text inputs are named; the only one is taken as focused when nothing else says which
// (and said); a `focus` that names nothing refuses the import, listing what it could name.

private let iosLogs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/ios-logs")

private func iosLog(_ prefix: String) throws -> String {
    let names = try FileManager.default.contentsOfDirectory(atPath: iosLogs.path)
    let name = try #require(names.first { $0.hasPrefix(prefix) }, "no fixture \(prefix)")
    return String(decoding: try Data(contentsOf: iosLogs.appendingPathComponent(name)), as: UTF8.self)
}

/// The begin and end frames of each keyboard record.
private func frames(_ result: ImportResult) -> [(begin: Rect?, end: Rect?)] {
    result.records.compactMap { record in
        if case .keyboard(_, let info) = record.event { (info.begin, info.end) } else { nil }
    }
}

private func r(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }

@Suite("Landscape keyboards in portrait coordinates: said on a portrait screen, converted on a landscape one")
struct SidewaysKeyboardFrameTests {
    let ipad = Size(width: 768, height: 1024)
    let iphone5 = Size(width: 320, height: 568)

    @Test("a sideways frame is as tall as the portrait screen from its top, on or just past its left or right edge")
    func edges() {
        func edge(_ frame: Rect, _ portrait: Size) -> SidewaysKeyboardFrames.Edge? { SidewaysKeyboardFrames.edge(of: frame, portrait: portrait) }
        #expect(edge(r(0, 0, 352, 1024), ipad) == .left, "shown, home button to the right")
        #expect(edge(r(-352, 0, 352, 1024), ipad) == .left, "hidden just past the left edge")
        #expect(edge(r(416, 0, 352, 1024), ipad) == .right, "shown, home button to the left")
        #expect(edge(r(768, 0, 352, 1024), ipad) == .right, "hidden just past the right edge")
        #expect(edge(r(158, 0, 162, 568), iphone5) == .right)
        #expect(edge(r(0, 0, 162, 480), Size(width: 320, height: 480)) == .left)
        // Not sideways: a docked portrait keyboard, a strip in the middle, one too short, one past
        // the hidden place, and any frame on a landscape "portrait".
        #expect(edge(r(0, 760, 768, 264), ipad) == nil)
        #expect(edge(r(200, 0, 352, 1024), ipad) == nil)
        #expect(edge(r(0, 0, 352, 900), ipad) == nil)
        #expect(edge(r(-800, 0, 352, 1024), ipad) == nil)
        #expect(edge(r(0, 0, 352, 1024), Size(width: 1024, height: 768)) == nil)
    }

    @Test("converted, the edge a sideways keyboard lies along is the landscape screen's bottom, in both orientations")
    func conversion() {
        func landscape(_ frame: Rect, _ portrait: Size) -> Rect? {
            SidewaysKeyboardFrames.edge(of: frame, portrait: portrait).map { SidewaysKeyboardFrames.landscape(frame, along: $0, portrait: portrait) }
        }
        // Left edge (x = 0): [x, y, w, h] → [y, W − (x + w), h, w].
        #expect(landscape(r(0, 0, 352, 1024), ipad) == r(0, 416, 1024, 352))
        #expect(landscape(r(-352, 0, 352, 1024), ipad) == r(0, 768, 1024, 352))
        // Right edge (x = W − w): [x, y, w, h] → [H − (y + h), x, h, w].
        #expect(landscape(r(416, 0, 352, 1024), ipad) == r(0, 416, 1024, 352))
        #expect(landscape(r(768, 0, 352, 1024), ipad) == r(0, 768, 1024, 352))
        #expect(landscape(r(158, 0, 162, 568), iphone5) == r(0, 158, 568, 162))
        #expect(landscape(r(-162, 0, 162, 568), iphone5) == r(0, 320, 568, 162))
    }

    @Test("the iOS 5 iPad console, its screen inferred: kept as it is, and said once with the conversion on offer")
    func saidOnPortrait() throws {
        let result = ConsoleImporter().importDump(try iosLog("23-"))
        #expect(result.header.screen == ipad)
        let said = result.problems.filter { $0.kind == .sidewaysKeyboardFrames }
        let problem = try #require(said.first, "\(result.problems)")
        #expect(said.count == 1)
        #expect(!result.problems.contains { $0.kind == .implausibleKeyboardFrame }, "the hidden frames are sideways, not implausible")
        #expect((problem.line, problem.column) == (23, 34), "at the first end frame")
        #expect(
            problem.message.contains(
                "the end frame [0, 0, 352, 1024] of keyboardWillChangeFrame (and 15 more keyboard frames of 7 more notifications)"))
        #expect(problem.message.contains("along its left edge"))
        #expect(problem.message.contains("It fits the screen turned the other way: on the 1024×768 screen it is [0, 416, 1024, 352]"))
        #expect(problem.message.contains("import with --screen 1024x768 to convert the frames (the screen is inferred)"))
        #expect(frames(result).first?.end == r(0, 0, 352, 1024), "imported as it is")
    }

    @Test("the same console on the landscape screen: every frame converted, the keyboard docked at the bottom, said once")
    func convertedOnLandscape() throws {
        let landscape = Size(width: 1024, height: 768)
        let result = ConsoleImporter(options: .init(screen: landscape)).importDump(try iosLog("23-"))
        let shown = r(0, 416, 1024, 352)
        let hidden = r(0, 768, 1024, 352)
        let pairs = frames(result)
        #expect(pairs.count == 8)
        #expect(pairs.prefix(4).allSatisfy { $0.begin == hidden && $0.end == shown }, "\(pairs)")
        #expect(pairs.suffix(4).allSatisfy { $0.begin == shown && $0.end == hidden }, "\(pairs)")
        #expect(result.problems.map(\.kind) == [.convertedKeyboardFrames], "\(result.problems)")
        #expect(result.problems.first?.message.contains("converted to the 1024×768 screen (given), where it is [0, 416, 1024, 352]") == true)
        // The scene of the editing notifications' field is the landscape screen.
        guard case .scene(let scene) = result.records.first?.event else {
            Issue.record("no scene first")
            return
        }
        #expect(scene.root.frame == Rect(origin: .zero, size: landscape))
    }

    @Test("the right edge: an iOS 7 iPhone 5 frame, and an iPad keyboard shown and hidden on that side")
    func rightEdge() throws {
        let comment = try iosLog("47-")
        let onPortrait = ConsoleImporter().importDump(comment)
        let hint = try #require(onPortrait.problems.first { $0.kind == .sidewaysKeyboardFrames })
        #expect(hint.message.contains("along its right edge"))
        #expect(hint.message.contains("on the 568×320 screen it is [0, 158, 568, 162]; import with --screen 568x320"))
        let converted = ConsoleImporter(options: .init(screen: Size(width: 568, height: 320))).importDump(comment)
        #expect(frames(converted).map(\.end) == [r(0, 315, 320, 253), r(0, 127, 568, 193), r(0, 158, 568, 162)], "only the sideways frame")

        let ipadRight = """
            UIKeyboardWillShowNotification {
                UIKeyboardFrameBeginUserInfoKey = "NSRect: {{768, 0}, {352, 1024}}";
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{416, 0}, {352, 1024}}";
            }
            UIKeyboardWillHideNotification {
                UIKeyboardFrameBeginUserInfoKey = "NSRect: {{416, 0}, {352, 1024}}";
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{768, 0}, {352, 1024}}";
            }
            """
        let turned = ConsoleImporter(options: .init(screen: Size(width: 1024, height: 768))).importDump(ipadRight)
        #expect(frames(turned).map(\.begin) == [r(0, 768, 1024, 352), r(0, 416, 1024, 352)])
        #expect(frames(turned).map(\.end) == [r(0, 416, 1024, 352), r(0, 768, 1024, 352)])
        // Given as portrait: kept, and the hint says the screen was given.
        let given = ConsoleImporter(options: .init(screen: ipad)).importDump(ipadRight)
        #expect(frames(given).map(\.end) == [r(416, 0, 352, 1024), r(768, 0, 352, 1024)])
        #expect(given.problems.map(\.kind) == [.sidewaysKeyboardFrames])
        #expect(given.problems.first?.message.contains("(the screen is given)") == true)
        let one = ConsoleImporter(options: .init(screen: ipad)).importDump(ipadRight.components(separatedBy: "UIKeyboardWillHideNotification")[0])
        #expect(
            one.problems.first?.message.hasPrefix(
                "the end frame [416, 0, 352, 1024] of keyboardWillShow (and its begin frame) is as tall as the 768×1024 screen, along its right edge")
                == true, "\(one.problems)")
    }

    @Test("a landscape screen's own frames are left alone; a frame in the other orientation is still implausible")
    func othersUntouched() {
        let dump = """
            UIKeyboardWillShowNotification {
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 377}, {1024, 391}}";
            }
            UIKeyboardWillShowNotification {
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 1024}, {768, 313}}";
            }
            """
        let result = ConsoleImporter(options: .init(screen: Size(width: 1024, height: 768))).importDump(dump)
        #expect(frames(result).map(\.end) == [r(0, 377, 1024, 391), r(0, 1024, 768, 313)])
        #expect(result.problems.map(\.kind) == [.implausibleKeyboardFrame])
    }

    @Test("a labelled frame followed by a note is read; the note is not part of it")
    func labelledFrameWithNote() {
        let result = ConsoleImporter().importDump("    // Keyboard Frame: {{158, 0}, {162, 568}} (iOS 7)\n")
        #expect(frames(result).map(\.end) == [r(158, 0, 162, 568)])
        #expect(result.header.screen == iphone5)
    }
}

@Suite("Focus: the text inputs named, the only one taken as focused and said, a focus that names nothing refused")
struct ImportFocusTests {
    static let window = """
        <UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x9>>
           | <UITextField: 0x2; frame = (20 600; 335 30); layer = <CALayer: 0x8>>
           | <UILabel: 0x3; frame = (0 0; 1 1); layer = <CALayer: 0x7>>
        """
    static let keyboard = "\nUIKeyboardFrameEndUserInfoKey = \"NSRect: {{0, 451}, {375, 216}}\";\n"

    @Test("the only text input is taken as focused while the keyboard shows, before a text field's first notification, and said")
    func guessed() throws {
        let result = ConsoleImporter().importDump(Self.window + Self.keyboard)
        #expect(result.records.map(\.event.name) == ["scene", "didBeginEditing", "keyboardWillChangeFrame"])
        #expect(result.records[1].event == .didBeginEditing(EditingInfo(view: "UITextField@0x2")))
        let said = try #require(result.problems.first { $0.kind == .focusGuessed })
        #expect(said.message.contains("UITextField@0x2, the only text field of the first view-hierarchy dump that is neither hidden nor disabled"))
        #expect(said.message.contains("(name another with --focus)"))
        #expect(result.summary.description.contains("(3 views, 1 text input: UITextField@0x2)"))
    }

    @Test("a text view is placed after the keyboard's first notification")
    func guessedTextView() {
        let view = Self.window.replacingOccurrences(of: "UITextField: 0x2", with: "UITextView: 0x2")
        let result = ConsoleImporter().importDump(view + Self.keyboard)
        #expect(result.records.map(\.event.name) == ["scene", "keyboardWillChangeFrame", "didBeginEditing"])
        #expect(result.problems.first?.message.contains("the only text view") == true)
    }

    @Test("hidden and disabled inputs do not count; two that could be edited, no keyboard, or editing notifications: no guess")
    func notGuessed() {
        func guess(_ text: String) -> ViewID? {
            let result = ConsoleImporter().importDump(text)
            return result.records.lazy.compactMap { if case .didBeginEditing(let info) = $0.event { info.view } else { nil } }.first
        }
        let hiddenSecond = Self.window + "\n   | <UITextField: 0x4; frame = (20 100; 335 30); hidden = YES; layer = <CALayer: 0x6>>"
        #expect(guess(hiddenSecond + Self.keyboard) == "UITextField@0x2")
        let disabledSecond = Self.window + "\n   | <UITextField: 0x4; frame = (20 100; 335 30); userInteractionEnabled = NO; layer = <CALayer: 0x6>>"
        #expect(guess(disabledSecond + Self.keyboard) == "UITextField@0x2")
        let twoFields = Self.window + "\n   | <UITextField: 0x4; frame = (20 100; 335 30); layer = <CALayer: 0x6>>"
        #expect(guess(twoFields + Self.keyboard) == nil)
        #expect(ConsoleImporter().importDump(twoFields + Self.keyboard).problems.isEmpty)
        #expect(guess(Self.window) == nil, "no keyboard: nothing says a field was edited")
        let editing =
            "\nNSConcreteNotification 0x6000 {name = UITextFieldTextDidEndEditingNotification; object = <UITextField: 0x2; frame = (20 600; 335 30)>}"
        let withEditing = ConsoleImporter().importDump(Self.window + Self.keyboard + editing)
        #expect(withEditing.records.map(\.event.name) == ["scene", "keyboardWillChangeFrame", "didEndEditing"])
        #expect(!withEditing.problems.contains { $0.kind == .focusGuessed })
    }

    @Test("a focus that names no text input refuses the import and lists the ones it could name")
    func notFound() throws {
        let text = Self.window + "\n   | <UITextView: 0x5; frame = (20 100; 335 90); layer = <CALayer: 0x6>>" + Self.keyboard
        let unknown = ConsoleImporter(options: .init(focus: "0x99")).importDump(text)
        #expect(unknown.isEmpty)
        let refused = try #require(unknown.focusNotFound)
        #expect(
            refused.message
                == "--focus 0x99 names no view of the first view-hierarchy dump (the screen from the start): its text inputs are UITextField@0x2, UITextView@0x5 (give an id, or the address printed for it); nothing is imported"
        )
        let label = ConsoleImporter(options: .init(focus: "0x3")).importDump(text)
        #expect(label.focusNotFound?.message.hasPrefix("--focus 0x3 names UILabel@0x3, a label, not a text field or text view") == true)
        // The summary still names them, for the CLI to print.
        #expect(unknown.summary.textInputIDs == ["UITextField@0x2", "UITextView@0x5"])
    }

    @Test("an accessibilityIdentifier is listed with its address; a dump without text inputs says so; many are cut at ten")
    func candidates() {
        let identified = """
            <UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x9>>
               | <UITextField: 0x2; frame = (20 600; 335 30); accessibilityIdentifier = 'email'; layer = <CALayer: 0x8>>
            """
        let named = ConsoleImporter(options: .init(focus: "mail")).importDump(identified + Self.keyboard)
        #expect(named.focusNotFound?.message.contains("its text input is email (0x2)") == true, "\(named.problems)")
        let none = ConsoleImporter(options: .init(focus: "0x2")).importDump(
            "<UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x9>>\n   | <UILabel: 0x2; frame = (0 0; 1 1); layer = <CALayer: 0x7>>"
                + Self.keyboard)
        #expect(none.focusNotFound?.message.contains("it has no text field or text view; nothing is imported") == true, "\(none.problems)")
        let many = (0..<12).map { "   | <UITextField: 0x\(100 + $0); frame = (0 \($0 * 40); 335 30); layer = <CALayer: 0x9>>" }
        let crowded = ConsoleImporter(options: .init(focus: "0x1")).importDump(
            "<UIWindow: 0x1; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x9>>\n" + many.joined(separator: "\n") + Self.keyboard)
        #expect(crowded.focusNotFound?.message.contains("UITextField@0x109 and 2 more (give an id") == true, "\(crowded.problems)")
        #expect(crowded.summary.description.contains("12 text inputs: UITextField@0x100, UITextField@0x101,"))
    }

    @Test("a growing console holds every record back while the focus names nothing, and says why; the dump that names it lets them through")
    func growing() {
        var growing = GrowingImport(options: .init(focus: "0x4"))
        growing.append(Array((Self.window + Self.keyboard).utf8))
        let before = growing.take()
        #expect(before.header == nil && before.records.isEmpty)
        #expect(growing.problems.contains { $0.kind == .focusNotFound })
        growing.restart()
        growing.append(Array((Self.window + "\n   | <UITextField: 0x4; frame = (20 100; 335 30); layer = <CALayer: 0x6>>" + Self.keyboard).utf8))
        let after = growing.take()
        #expect(after.header != nil)
        #expect(after.records.map(\.event.name) == ["scene", "didBeginEditing", "keyboardWillChangeFrame"])
        #expect(!growing.problems.contains { $0.kind == .focusNotFound })
    }

    @Test("a growing console keeps the focus it guessed once handed out: an editing notification printed later loses no record")
    func growingKeepsTheGuess() {
        var growing = GrowingImport()
        growing.append(Array((Self.window + Self.keyboard).utf8))
        let first = growing.take()
        #expect(first.records.map(\.event.name) == ["scene", "didBeginEditing", "keyboardWillChangeFrame"])
        let editing =
            "NSConcreteNotification 0x6000 {name = UITextFieldTextDidBeginEditingNotification; object = <UITextField: 0x2; frame = (20 600; 335 30)>}\n"
        growing.append(Array((editing + "UIKeyboardFrameEndUserInfoKey = \"NSRect: {{0, 409}, {375, 258}}\";\n").utf8))
        let second = growing.take()
        // Without the guess kept, the guessed begin-editing vanished from the re-import and the
        // printed one took its index: the one handed out next was the keyboard's, the begin lost.
        #expect(second.records.map(\.event.name) == ["didBeginEditing", "keyboardWillChangeFrame"], "\(second.records)")
        #expect(second.records.first?.event == .didBeginEditing(EditingInfo(view: "UITextField@0x2")))
    }

    @Test("without a dump: a focus names nothing (refused) unless editing notifications make it unneeded (said, kept)")
    func withoutDump() {
        let bare = ConsoleImporter(options: .init(focus: "0x2")).importDump(Self.keyboard)
        #expect(bare.isEmpty)
        #expect(bare.focusNotFound?.message.contains("the console has no view-hierarchy dump to find it in") == true)
        let editing =
            "NSConcreteNotification 0x6000 {name = UITextFieldTextDidBeginEditingNotification; object = <UITextField: 0x2; frame = (20 600; 335 30)>}"
        let unneeded = ConsoleImporter(options: .init(screen: Size(width: 375, height: 667), focus: "0x2")).importDump(editing + Self.keyboard)
        #expect(!unneeded.isEmpty)
        #expect(unneeded.problems.map(\.kind) == [.focusNotUsed])
        #expect(unneeded.focusNotFound == nil)
    }
}
