import Foundation
import Testing

/// The plugin guide's listings, compared with the plugins that ship: the code of a step's Swift
/// block and of a source file, blank lines and doc comments left out.
enum GuideListing {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    static func code(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("///") }
    }

    /// Expects the first Swift block after the guide's heading `step` (`"### 9. "`) to be the code of
    /// `source`.
    static func expectListing(step: String, is source: String) throws {
        let guide = try text("Sources/ResponderBus/ResponderBus.docc/WritingAPlugin.md")
        let after = try #require(guide.range(of: step).map { guide[$0.upperBound...] })
        let start = try #require(after.range(of: "```swift\n"))
        let end = try #require(after[start.upperBound...].range(of: "```"))
        #expect(code(after[start.upperBound..<end.lowerBound]) == code(try text(source)))
    }
}
