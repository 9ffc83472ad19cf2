import EventLog
import ResponderBus
import Testing

@testable import ConsoleImport

/// Issue 33, item 3: a second dump of the window that shows another screen (a login screen, then
/// the home screen) is a new scene, not changes to the first. The console is written for the test
/// in UIKit's `recursiveDescription` form (no public paste of two screens in one window was found).
@Suite("A dump of another screen in the same window: a new scene")
struct AnotherScreenTests {
    static let console = """
        <UIWindow: 0x7f01; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x901>>
           | <UIView: 0x7f02; frame = (0 0; 375 667); layer = <CALayer: 0x902>>
           |    | <UITextField: 0x7f03; frame = (20 400; 335 40); text = ''; layer = <CALayer: 0x903>>
           |    | <UITextField: 0x7f04; frame = (20 460; 335 40); text = ''; layer = <CALayer: 0x904>>
           |    | <UIButton: 0x7f05; frame = (20 520; 335 44); layer = <CALayer: 0x905>>
        UIKeyboardWillShowNotification userInfo: {
            UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 451}, {375, 216}}";
        }
        <UIWindow: 0x7f01; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x901>>
           | <UIView: 0x7f10; frame = (0 0; 375 667); layer = <CALayer: 0x910>>
           |    | <UITableView: 0x7f11; frame = (0 64; 375 603); contentOffset: {0, 0}; contentSize: {375, 1200}; layer = <CALayer: 0x911>>
           |    |    | <UITableViewCell: 0x7f12; frame = (0 0; 375 44); layer = <CALayer: 0x912>>
           |    |    | <UITableViewCell: 0x7f13; frame = (0 44; 375 44); layer = <CALayer: 0x913>>
           |    | <UITextField: 0x7f14; frame = (10 20; 355 36); text = ''; layer = <CALayer: 0x914>>
        """

    @Test("two scenes, the second where its dump was printed, with its own text input; the import says why")
    func twoScenes() throws {
        let result = ConsoleImporter().importDump(Self.console)
        let scenes = result.records.compactMap { record -> SceneInfo? in
            if case .scene(let scene) = record.event { return scene }
            return nil
        }
        #expect(scenes.count == 2, "\(result.records)")
        func ids(_ view: ViewSpec) -> [String] { [view.id.rawValue] + view.children.flatMap(ids) }
        let second = try #require(scenes.last)
        #expect(ids(second.root).contains { $0.hasPrefix("UITableView@") })
        #expect(ids(second.root).contains("UITextField@0x7f14"))
        #expect(!ids(second.root).contains("UITextField@0x7f03"))
        // The keyboard notification is between the two: the second scene comes after it.
        let kinds = result.records.map(\.event.name)
        #expect(kinds == ["scene", "keyboardWillShow", "scene"], "\(kinds)")
        let problem = try #require(result.problems.first { $0.kind == .anotherScreen }, "\(result.problems)")
        #expect(problem.line == 9)
        #expect(problem.message.contains("shares 1 of its 6 printed views"))
        #expect(!result.problems.contains { $0.kind == .viewsAddedOrRemoved })
    }

    @Test("the same screen dumped again, a field moved, stays one scene with a setFrame")
    func sameScreenAgain() {
        let again =
            Self.console.split(separator: "\n").prefix(8).joined(separator: "\n") + "\n"
                + """
                <UIWindow: 0x7f01; frame = (0 0; 375 667); layer = <UIWindowLayer: 0x901>>
                   | <UIView: 0x7f02; frame = (0 0; 375 667); layer = <CALayer: 0x902>>
                   |    | <UITextField: 0x7f03; frame = (20 300; 335 40); text = ''; layer = <CALayer: 0x903>>
                   |    | <UITextField: 0x7f04; frame = (20 460; 335 40); text = ''; layer = <CALayer: 0x904>>
                   |    | <UIButton: 0x7f05; frame = (20 520; 335 44); layer = <CALayer: 0x905>>
                """
        let result = ConsoleImporter().importDump(again)
        #expect(result.records.map(\.event.name) == ["scene", "keyboardWillShow", "setFrame"], "\(result.records)")
        #expect(!result.problems.contains { $0.kind == .anotherScreen })
    }
}
