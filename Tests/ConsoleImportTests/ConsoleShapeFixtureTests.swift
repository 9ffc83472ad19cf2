import EventLog
import Foundation
import ResponderBus
import Testing

@testable import ConsoleImport

/// `Tests/Fixtures/console-shapes`: real pastes in the shapes beside UIKit's dumps, copied verbatim.
private let shapesFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/console-shapes")

private let shapeFixtures: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: shapesFolder.path)) ?? [])
    .filter { $0.hasSuffix(".txt") }.sorted()

/// The bytes of a shape fixture.
func shapeFixture(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: shapesFolder.appendingPathComponent(name)))
}

@Suite("Consoles in more shapes: every real fixture read as a person reads it")
struct ConsoleShapeFixtureTests {
    @Test("every fixture has a hand-written expectation, every expectation a fixture, and each shape three sources or more")
    func everyFixtureIsChecked() {
        #expect(shapeFixtures.count >= 30, "only \(shapeFixtures.count) fixtures")
        for name in shapeFixtures { #expect(ShapeExpectations.all[name] != nil, "no expectation for \(name)") }
        for name in ShapeExpectations.all.keys { #expect(shapeFixtures.contains(name), "an expectation for a missing fixture \(name)") }
        // Texture and Swift 2's unwrapped keys have fewer real public pastes than that (see the folder's README).
        for shape in ["earlgrey-", "xcuitest-", "scrollview-", "unifiedlog-", "syslog-"] {
            #expect(shapeFixtures.count { $0.hasPrefix(shape) } >= 3, "\(shape)")
        }
    }

    @Test("dumps, views, text inputs, scroll views, keyboards and problems are the ones the text shows", arguments: shapeFixtures)
    func fixture(_ name: String) throws {
        let expected = try #require(ShapeExpectations.all[name])
        let bytes = try shapeFixture(name)

        // Each dump, as the readers see it.
        var builder = SceneBuilder()
        let found = HierarchyReader.readAll(bytes, building: &builder)
        try #require(found.scenes.count == expected.dumps.count, "dumps: \(found.scenes.map { ($0.scene.rootClass, $0.scene.viewCount) })")
        for (index, (placed, want)) in zip(found.scenes, expected.dumps).enumerated() {
            let scene = placed.scene
            #expect(scene.rootClass == want.root, "dump \(index + 1)")
            if let frame = want.frame { #expect(scene.root.frame == frame, "dump \(index + 1): the root's place") }
            #expect(scene.viewCount == want.views, "dump \(index + 1): views")
            let views = preorder(scene.root)
            let inputs = views.filter(\.kind.isTextInput)
            #expect(inputs.map(\.id.rawValue) == want.inputs.map(\.id), "dump \(index + 1): text inputs")
            for (input, wanted) in zip(inputs, want.inputs) {
                #expect(input.kind == wanted.kind, "\(input.id)")
                #expect(input.frame == wanted.frame, "\(input.id)")
                #expect(input.isSecure == wanted.secure, "\(input.id)")
            }
            #expect(
                views.filter { $0.kind == .scrollView }.map(\.className) == want.scrollViews.map { Optional($0) }, "dump \(index + 1): scroll views")
        }

        // The whole import.
        let result = ConsoleImporter(options: .init(screen: expected.given)).importDump(bytes)
        #expect(Set(result.problems.map(\.kind)) == expected.problems, "\(result.problems)")
        guard let screen = expected.screen else {
            #expect(result.records.isEmpty)
            return
        }
        #expect(result.header.screen == screen)
        #expect(result.records.count { if case .scene = $0.event { true } else { false } } == expected.scenes)
        let keyboard: [(String, Rect?)] = result.records.compactMap { record in
            if case .keyboard(let event, let info) = record.event { (event.rawValue, info.end) } else { nil }
        }
        #expect(keyboard.map(\.0) == expected.keyboard.map(\.event))
        #expect(keyboard.map(\.1) == expected.keyboard.map(\.end))
    }
}
