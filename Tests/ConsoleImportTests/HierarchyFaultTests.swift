import EventLog
import Foundation
import ResponderBus
import Testing

@testable import ConsoleImport

/// Issue 30, item 11: an entry left out takes the views inside it along, so that its siblings never
/// nest inside each other.
@Suite("View-hierarchy dumps: a view whose frame cannot be read")
struct HierarchyFaultTests {
    /// The ids and parents of a scene's views, in pre-order: `id<parent`.
    static func shape(_ root: ViewSpec) -> [String] {
        var out: [String] = []
        func walk(_ view: ViewSpec, parent: String?) {
            out.append(parent.map { "\(view.id.rawValue)<\($0)" } ?? view.id.rawValue)
            for child in view.children { walk(child, parent: view.id.rawValue) }
        }
        walk(root, parent: nil)
        return out
    }

    @Test(
        "a view whose frame cannot be read leaves with the views inside it: its siblings never nest in each other",
        arguments: [
            // `|` markers.
            """
            <UIWindow: 0x1; frame = (0 0; 375 812); layer = <UIWindowLayer: 0x91>>
               | <UIView: 0x2; frame = (0 0; 375 812); layer = <CALayer: 0x92>>
               |    | <UITextField: 0x3; frame = (20 100; 335 40); layer = <CALayer: 0x93>>
               |    | <MyApp.Card: 0x4; frame = (20 nan; 335 100); layer = <CALayer: 0x94>>
               |    |    | <UITextField: 0x5; frame = (0 60; 335 40); layer = <CALayer: 0x95>>
               |    |    |    | <UILabel: 0x6; frame = (0 nan; 10 10); layer = <CALayer: 0x96>>
               |    | <UITextField: 0x7; frame = (20 300; 335 40); layer = <CALayer: 0x97>>
            """,
            // Indentation alone.
            """
            <UIWindow: 0x1; frame = (0 0; 375 812); layer = <UIWindowLayer: 0x91>>
               <UIView: 0x2; frame = (0 0; 375 812); layer = <CALayer: 0x92>>
                  <UITextField: 0x3; frame = (20 100; 335 40); layer = <CALayer: 0x93>>
                  <MyApp.Card: 0x4; frame = (20 nan; 335 100); layer = <CALayer: 0x94>>
                     <UITextField: 0x5; frame = (0 60; 335 40); layer = <CALayer: 0x95>>
                        <UILabel: 0x6; frame = (0 nan; 10 10); layer = <CALayer: 0x96>>
                  <UITextField: 0x7; frame = (20 300; 335 40); layer = <CALayer: 0x97>>
            """,
        ])
    func unreadableFrameTakesItsSubtree(_ text: String) throws {
        let (found, problems) = scenes(of: text)
        let scene = try #require(found.first)
        #expect(found.count == 1)
        #expect(
            Self.shape(scene.root) == [
                "UIWindow@0x1", "UIView@0x2<UIWindow@0x1", "UITextField@0x3<UIView@0x2", "UITextField@0x7<UIView@0x2",
            ])
        #expect(scene.id(ofAddress: "0x5") == nil)
        #expect(
            problems.map(\.description) == [
                "line 4, column \(text.contains("|") ? 11 : 7): the view entry <MyApp.Card: …> has a frame that cannot be read; it is left out of the scene with the 2 views inside it"
            ])
    }

    @Test("a root whose frame cannot be read leaves with its dump; the next dump is read")
    func unreadableRoot() {
        let text = """
            <UIWindow: 0x1; frame = (inf 0; 375 812); layer = <UIWindowLayer: 0x91>>
               | <UITextField: 0x3; frame = (20 100; 335 40); layer = <CALayer: 0x93>>
            <UIWindow: 0x8; frame = (0 0; 320 480); layer = <UIWindowLayer: 0x98>>
               | <UITextField: 0x9; frame = (20 100; 280 40); layer = <CALayer: 0x99>>
            """
        let (found, problems) = scenes(of: text)
        #expect(found.map { Self.shape($0.root) } == [["UIWindow@0x8", "UITextField@0x9<UIWindow@0x8"]])
        #expect(problems.map(\.message).first?.hasSuffix("left out of the scene with the 1 view inside it") == true)
    }
}

@Suite("View-hierarchy dumps: a class name holding a terminal's escape codes")
struct EscapedClassNameTests {
    @Test("an entry whose class name holds a colour code or another control character is kept, with the name as printed, not dropped without a word")
    func escapedClassNames() throws {
        let text = """
            <UIWindow: 0x1; frame = (0 0; 375 812); layer = <UIWindowLayer: 0x91>>
               | <My\u{1B}[31mField: 0x2; frame = (20 100; 335 40); layer = <CALayer: 0x92>>
               | <Odd\u{7}View: 0x3; frame = (20 200; 335 40); layer = <CALayer: 0x93>>
               | <UITextField: 0x4; frame = (20 300; 335 40); layer = <CALayer: 0x94>>
            """
        let result = ConsoleImporter().importDump(text)
        let scene = try #require(
            result.records.compactMap { record -> SceneInfo? in
                if case .scene(let scene) = record.event { scene } else { nil }
            }.first)
        #expect(
            HierarchyFaultTests.shape(scene.root) == [
                "UIWindow@0x1", "My\u{1B}[31mField@0x2<UIWindow@0x1", "Odd\u{7}View@0x3<UIWindow@0x1", "UITextField@0x4<UIWindow@0x1",
            ])
    }
}
