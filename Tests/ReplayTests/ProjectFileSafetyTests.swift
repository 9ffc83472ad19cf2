import Foundation
import ResponderBusPlatform
import Testing

@testable import ResponderBusReplay

@Suite("A project file others could have written is refused")
struct ProjectFileSafetyTests {
    /// A folder of its own holding a project file with `mode`.
    private func folder(withProjectFileMode mode: Int) throws -> String {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("rb-safety-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
        // Resolved, as the messages name resolved paths (macOS's /var is /private/var).
        let folder = SystemFiles.resolvedPath(made)
        let path = folder + "/" + ProjectFile.fileName
        try Data(#"{"disable": ["FieldAdvancing"]}"#.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return folder
    }

    @Test("a file writable by others or by its group is refused with 78, naming it and the fix")
    func writable() throws {
        for mode in [0o666, 0o664] {
            let folder = try folder(withProjectFileMode: mode)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let resolver = PipelineResolver()
            #expect(throws: PipelineError.self) { _ = try resolver.pipeline(forSessionsIn: folder) }
            do {
                _ = try resolver.description(forSessionsIn: folder)
                Issue.record("a writable project file was used")
            } catch {
                #expect(error.kind == .plugin)
                #expect(error.exitCode == 78)
                #expect(error.message.contains(ProjectFile.fileName))
                #expect(error.message.contains("chmod go-w"))
            }
        }
    }

    @Test("the owner's own file (mode 644) is used")
    func ownFile() throws {
        let folder = try folder(withProjectFileMode: 0o644)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let description = try PipelineResolver().description(forSessionsIn: folder)
        #expect(description.disabled == ["FieldAdvancing"])
    }
}
