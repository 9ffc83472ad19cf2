import Foundation
import Testing

@Suite("new-plugin: what it writes into source is a literal, and names that cannot work are refused")
struct NewPluginSafetyCLITests {
    @Test("a --responder-bus value with quotes stays one string literal in Package.swift: no dependency is injected")
    func injectionIsEscaped() throws {
        let folder = URL(fileURLWithPath: try CLI.temporaryFile("")).deletingLastPathComponent().path
        let hostile = #"https://x.example/rb.git"), .package(url: "https://evil.example/pwn.git", from: "1.0.0"#
        let made = try CLI.run(["new-plugin", "Inj", "--path", folder, "--responder-bus", hostile])
        #expect(made.status == 0, "\(made.stderr)")
        let manifest = try String(contentsOfFile: folder + "/Inj/Package.swift", encoding: .utf8)
        #expect(!manifest.contains(#".package(url: "https://evil.example"#), "\(manifest)")
        // SwiftPM reads one dependency whose URL is the whole value, quotes and all.
        let dump = Process()
        dump.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        dump.arguments = ["swift", "package", "--package-path", folder + "/Inj", "dump-package"]
        let pipe = Pipe()
        dump.standardOutput = pipe
        dump.standardError = FileHandle.nullDevice
        try dump.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        dump.waitUntilExit()
        #expect(dump.terminationStatus == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let dependencies = try #require(json["dependencies"] as? [[String: Any]])
        #expect(dependencies.count == 1)
        let text = String(decoding: try JSONSerialization.data(withJSONObject: dependencies), as: UTF8.self)
        #expect(text.contains("evil.example"), "the whole value is the one URL: \(text)")
    }

    @Test(
        "Swift keywords, reserved module names and Python keywords are refused with 64, saying why",
        arguments: [
            (["class"], "Swift keyword"), (["Self"], "Swift keyword"), (["_"], "Swift keyword"), (["init"], "Swift keyword"),
            (["Any"], "Swift keyword"), (["ResponderBus"], "module or plugin"), (["KeyboardAvoidance"], "module or plugin"),
            (["None", "--language", "python"], "Python keyword"), (["Plugin", "--language", "python"], "Python keyword"),
        ])
    func reservedNames(_ arguments: [String], _ why: String) throws {
        let folder = URL(fileURLWithPath: try CLI.temporaryFile("")).deletingLastPathComponent().path
        let run = try CLI.run(["new-plugin"] + arguments + ["--path", folder, "--responder-bus", CLI.repository.path])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(why), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/" + arguments[0]))
    }
}
