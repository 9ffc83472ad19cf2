import Foundation
import Testing

/// Issue 48, item 7: the symbol graph printed `ViewNode.frame { get set }` for a property whose
/// setter was `package`, and a plugin's assignment then failed. A public property the package
/// alone changes is get-only in its declaration, with the package's setter a function of its own.
@Suite("Public API says what a plugin can set")
struct PublicSetterTests {
    @Test("no public property has a package setter (the symbol graph shows one as { get set })")
    func noPackageSetters() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var found: [String] = []
        var scanned = 0
        for case let url as URL in files where url.pathExtension == "swift" {
            scanned += 1
            let text = try String(contentsOf: url, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("public package(set)") {
                found.append("\(url.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(scanned > 100)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
