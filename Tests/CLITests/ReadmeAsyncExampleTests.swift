import Foundation
import Testing

/// The README's embedding example is `Sources/readme-example/ReadmeExample.swift`, word for word,
/// and runs: an async `@main` program with an actor on the libuv loop.
@Suite("README: the async embedding example")
struct ReadmeAsyncExampleTests {
    @Test("the README's Swift block is the example program, word for word")
    func sameText() throws {
        let readme = try String(contentsOf: CLI.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Embedding the bus with your own plugin\n\n```swift\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```\n").first)
        let source = try String(contentsOf: CLI.repository.appendingPathComponent("Sources/readme-example/ReadmeExample.swift"), encoding: .utf8)
        #expect(block == source, "README.md and Sources/readme-example/ReadmeExample.swift differ: change both")
    }

    @Test("the example runs: the plugin counted on the loop, the stream delivered, the loop closed cleanly")
    func runs() throws {
        let process = Process()
        process.executableURL = CLI.binary.deletingLastPathComponent().appendingPathComponent("readme-example")
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(
            String(decoding: data, as: UTF8.self) == """
                keyboardDidShow after 0.25 s
                shows per field: [email: 1]
                first responder: email
                loop closed cleanly: true

                """)
    }
}
