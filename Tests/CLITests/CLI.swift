import Foundation
import ResponderBusPlatform
import Testing

/// Runs the built `responder-bus` binary, the way a user's script would.
enum CLI {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The folder the test bundle was built into; `responder-bus` is built next to it. The test
    /// code's own image: an executable on Linux, a bundle's binary in `….xctest/Contents/MacOS` on
    /// macOS (where the process is the test runner, not the bundle).
    static let binary: URL = {
        let executable = URL(fileURLWithPath: LoadedImages.path(containing: #dsohandle) ?? CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        // The test bundle may be a folder (.xctest/...) on some platforms: walk up to find the binary.
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("responder-bus")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return executable.deletingLastPathComponent().appendingPathComponent("responder-bus")
    }()

    /// The repository's root, and its folder of real console dumps (`Tests/Fixtures/ios-logs`).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let consoleDumps = repository.appendingPathComponent("Tests/Fixtures/ios-logs")
    static let example = repository.appendingPathComponent("Sources/responder-bus/Examples/sign-up-session.jsonl").path
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// Runs `executable` (the binary, or `/bin/sh` for a test that needs redirections) and
    /// collects what it wrote.
    static func run(
        _ arguments: [String], stdin: String? = nil, executable: URL = binary, environment: [String: String] = [:]
    ) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes before waiting, so a large output cannot block the child.
        let errData = UncheckedData()
        let reader = Thread { errData.value = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while errData.value == nil { usleep(1000) }
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.value ?? Data(), as: UTF8.self))
    }

    /// Runs `command` with `/bin/sh -c`.
    static func shell(_ command: String) throws -> Run {
        try run(["-c", command], executable: URL(fileURLWithPath: "/bin/sh"))
    }

    /// `path` quoted for `sh`.
    static func quoted(_ path: String) -> String { "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Compares with a golden file; with `UPDATE_GOLDEN=1` in the environment, rewrites it instead.
    static func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        if expected != text {
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let index = Array(zip(expectedLines, actualLines)).firstIndex { $0.0 != $0.1 } ?? min(expectedLines.count, actualLines.count)
            let want = index < expectedLines.count ? String(expectedLines[index]) : "<end>"
            let got = index < actualLines.count ? String(actualLines[index]) : "<end>"
            Issue.record("\(name) differs at line \(index + 1):\n  golden: \(want)\n  actual: \(got)", sourceLocation: sourceLocation)
        }
    }

    /// Writes a temporary file and returns its path.
    static func temporaryFile(_ contents: String, name: String = "log.jsonl") throws -> String {
        let folder = TestFolders.root.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}

final class UncheckedData: @unchecked Sendable {
    var value: Data?
}

/// Where the tests write their files: one folder per test process, removed when the process exits,
/// so that runs leave nothing in the temporary directory.
enum TestFolders {
    static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("responder-bus-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("responder-bus-tests-\(getpid())")
            try? FileManager.default.removeItem(at: url)
        }
        // Resolved, as the command prints the paths it resolves (macOS's /var is /private/var).
        return URL(fileURLWithPath: SystemFiles.resolvedPath(url.path))
    }()
}
