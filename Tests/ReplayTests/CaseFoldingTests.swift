import EventLog
import Foundation
import ResponderBusPlatform
import ResponderBusSessions
import Testing

/// Where the file system folds case (APFS and HFS+ by default, which the platform layer asks on
/// Darwin), two outputs whose names differ only in case are one file, and two sessions whose names
/// differ only in case would share a snapshot and a report. Here the folding is given, so that the
/// rule is checked on any system; `PlatformLayerTests` checks that the layer says what a file system does.
@Suite("Names compared as the file system compares them")
struct CaseFoldingTests {
    /// A folder of its own, its symbolic links resolved.
    private func folder() throws -> String {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("rb-case-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
        return SystemFiles.resolvedPath(made)
    }

    @Test("two outputs named apart only by case clash where the folder folds case, and not where it does not")
    func outputs() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let outputs = [root + "/Out.html", root + "/out.html"]
        let folding = try #require(OutputClash.check(inputs: [], outputs: outputs, foldsCase: { _ in true }))
        #expect(folding.contains("the output '\(root)/out.html' is the same file as the output '\(root)/Out.html'"), "\(folding)")
        #expect(OutputClash.check(inputs: [], outputs: outputs, foldsCase: { _ in false }) == nil)
        // The folder asked is the output's own, resolved.
        var asked: [String] = []
        _ = OutputClash.check(
            inputs: [], outputs: [root + "/./a.html"],
            foldsCase: {
                asked.append($0)
                return false
            })
        #expect(asked == [root])
    }

    @Test("two sessions named apart only by case share a name where the file system folds case")
    func sessionNames() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for sub in ["a/Sessions", "b/sessions"] {
            try FileManager.default.createDirectory(atPath: root + "/" + sub, withIntermediateDirectories: true)
            try "{}\n".write(toFile: root + "/" + sub + "/login.jsonl", atomically: true, encoding: .utf8)
        }
        let arguments = [root + "/a/Sessions", root + "/b/sessions"]
        #expect(throws: SessionList.Problem.self) {
            _ = try SessionList.collect(arguments, standardInput: { [] }, foldsCase: { _ in true })
        }
        do {
            _ = try SessionList.collect(arguments, standardInput: { [] }, foldsCase: { _ in true })
        } catch {
            #expect(error.description.contains("would both be named 'Sessions/login.jsonl'") || error.description.contains("'sessions/login.jsonl'"))
            #expect(error.description.contains("does not tell names apart by case"), "\(error.description)")
            #expect(error.isUsage)
        }
        let apart = try SessionList.collect(arguments, standardInput: { [] }, foldsCase: { _ in false })
        #expect(apart.map(\.name) == ["Sessions/login.jsonl", "sessions/login.jsonl"])
    }
}
