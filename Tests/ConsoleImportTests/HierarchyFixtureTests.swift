import Foundation
import ResponderBus
import Testing

@testable import ConsoleImport

/// `Tests/Fixtures/hierarchy-dumps`: real view-hierarchy dumps, copied verbatim.
private let hierarchyFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/hierarchy-dumps")

private let hierarchyFixtures: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: hierarchyFolder.path)) ?? [])
    .filter { $0.hasSuffix(".txt") }.sorted()

@Suite("View-hierarchy dumps: every real fixture read as a person reads it")
struct HierarchyFixtureTests {
    @Test("every fixture in the folder has a hand-written expectation, and every expectation a fixture")
    func everyFixtureIsChecked() {
        #expect(hierarchyFixtures.count >= 34, "only \(hierarchyFixtures.count) fixtures")
        for name in hierarchyFixtures {
            #expect(HierarchyExpectations.all[name] != nil, "no expectation for \(name)")
        }
        for name in HierarchyExpectations.all.keys {
            #expect(hierarchyFixtures.contains(name), "an expectation for a missing fixture \(name)")
        }
    }

    @Test("dumps, views, text inputs, scroll views and links are the ones the dump shows", arguments: hierarchyFixtures)
    func fixture(_ name: String) throws {
        let expectation = try #require(HierarchyExpectations.all[name])
        let bytes = Array(try Data(contentsOf: hierarchyFolder.appendingPathComponent(name)))
        let (found, problems) = scenes(of: bytes)
        try #require(found.count == expectation.dumps.count, "dumps: \(found.map(\.viewCount)) against \(expectation.dumps.map(\.views))")
        for (index, (scene, expected)) in zip(found, expectation.dumps).enumerated() {
            #expect(scene.viewCount == expected.views, "dump \(index + 1): views")
            let views = preorder(scene.root)
            let inputs = views.filter(\.kind.isTextInput)
            #expect(inputs.map(\.className) == expected.inputs.map(\.className), "dump \(index + 1): text inputs")
            for (input, want) in zip(inputs, expected.inputs) {
                #expect(input.kind == want.kind, "\(input.id)")
                #expect(input.frame == want.frame, "\(input.id)")
                #expect(input.tag == want.tag, "\(input.id)")
                #expect(input.isHidden == want.hidden, "\(input.id)")
                #expect(input.isEnabled == want.enabled, "\(input.id)")
                #expect(input.isSecure == want.secure, "\(input.id)")
            }
            let scrollViews = views.filter { $0.kind == .scrollView }
            #expect(scrollViews.map(\.className) == expected.scrollViews.map(\.className), "dump \(index + 1): scroll views")
            for (view, want) in zip(scrollViews, expected.scrollViews) {
                #expect((view.contentOffset ?? .zero) == want.contentOffset, "\(view.id)")
                #expect(view.contentSize == want.contentSize, "\(view.id)")
            }
        }
        #expect(
            problems.contains { $0.kind == .truncated } ? expectation.cutOff : true, "a cut-off entry in a fixture not marked cut off: \(problems)")

        // Editing notifications linked by address, through the whole import.
        let result = ConsoleImporter(options: .init(screen: Size(width: 375, height: 667))).importDump(bytes)
        let linked: [(Bool, String)] = result.records.compactMap { record in
            switch record.event {
            case .didBeginEditing(let info): (true, String(info.view.rawValue.split(separator: "@").last ?? ""))
            case .didEndEditing(let info): (false, String(info.view.rawValue.split(separator: "@").last ?? ""))
            default: nil
            }
        }
        #expect(linked.map(\.0) == expectation.links.map(\.isBegin))
        #expect(linked.map(\.1) == expectation.links.map(\.address))
    }
}
