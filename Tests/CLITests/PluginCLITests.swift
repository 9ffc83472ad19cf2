import Foundation
import ResponderBusPlatform
import Testing

/// Runs a shell command (for `swift build` and `cc`), returning its status and output.
func shell(_ command: String, in folder: String? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    // SwiftPM's lock files go to TMPDIR: into the tests' own folder, removed at exit.
    process.arguments = ["-c", "TMPDIR='\(TestFolders.root.path)' " + command + " 2>&1"]
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

@Suite("Plugins written by third parties: new-plugin, --plugin, and every way loading can fail", .serialized)
struct PluginCLITests {
    /// A new empty folder under the temporary directory.
    static func temporaryFolder() throws -> String {
        let folder = TestFolders.root.appendingPathComponent("plugin-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The Swift listing of the plugin guide's step `step` (`"### 8. "`), with `name` renamed `renamed`.
    static func guideListing(step heading: String, renaming name: String, to renamed: String) throws -> String {
        let guide = try String(
            contentsOf: CLI.repository.appendingPathComponent("Sources/ResponderBus/ResponderBus.docc/WritingAPlugin.md"), encoding: .utf8)
        let step = try #require(guide.range(of: heading).map { guide[$0.upperBound...] })
        let start = try #require(step.range(of: "```swift\n"))
        let end = try #require(step[start.upperBound...].range(of: "```"))
        return step[start.upperBound..<end.lowerBound].replacingOccurrences(of: name, with: renamed)
    }

    /// Runs `new-plugin NAME --path folder` against this checkout; returns the package's folder.
    static func newPlugin(_ name: String, in folder: String) throws -> String {
        let made = try CLI.run(["new-plugin", name, "--path", folder, "--responder-bus", CLI.repository.path])
        #expect(made.status == 0, "\(made.stderr)")
        return folder + "/" + name
    }

    /// Runs `new-plugin NAME` and makes the plugin's own target depend on `product` of this
    /// checkout too; returns the package's folder.
    static func newPlugin(_ name: String, in folder: String, alsoDependingOn product: String) throws -> String {
        let package = try newPlugin(name, in: folder)
        let manifestPath = package + "/Package.swift"
        let manifest = try String(contentsOfFile: manifestPath, encoding: .utf8)
        // This checkout's package identity: its folder's name, as the manifest spells it.
        let identity = CLI.repository.lastPathComponent.lowercased()
        let target = #".target(name: "\#(name)", dependencies: [.product(name: "ResponderBus", package: "\#(identity)")]"#
        try #require(manifest.contains(target), "\(manifest)")
        let extended =
            #".target(name: "\#(name)", dependencies: [.product(name: "ResponderBus", package: "\#(identity)"), "#
            + #".product(name: "\#(product)", package: "\#(identity)")]"#
        try manifest.replacingOccurrences(of: target, with: extended).write(toFile: manifestPath, atomically: true, encoding: .utf8)
        return package
    }

    @Test("new-plugin writes a package that builds and tests unchanged, and replay --plugin runs it with the built-ins")
    func scaffoldBuildLoad() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let package = try Self.newPlugin("FocusReporter", in: folder)
        for file in [
            "Package.swift", "Sources/FocusReporter/FocusReporter.swift", "Sources/FocusReporter/EntryPoints.swift",
            "Tests/FocusReporterTests/FocusReporterTests.swift", "README.md",
        ] {
            #expect(FileManager.default.fileExists(atPath: package + "/" + file), "\(file)")
        }

        let build = try shell("swift build", in: package)
        try #require(build.status == 0, "swift build failed:\n\(build.output.suffix(3000))")
        let test = try shell("swift test", in: package)
        #expect(test.status == 0, "swift test failed:\n\(test.output.suffix(3000))")
        #expect(test.output.contains("passed"))

        let library = package + "/.build/debug/" + LoadedImages.libraryFile("FocusReporter")
        let replay = try CLI.run(["replay", CLI.example, "--plugin", library])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("→ FocusReporter: diagnostic info: the keyboard showed for 'name'"))
        // The built-ins still decide as before.
        #expect(replay.stdout.contains("→ KeyboardAvoidance: viewShift root to y -23"))
        let jsonl = try CLI.run(["replay", CLI.example, "--plugin", library, "--format", "jsonl"])
        #expect(jsonl.stdout.contains(#""by":"FocusReporter""#))

        // `test` loads it once and gives every session a plugin of its own, on every job.
        let copy = folder + "/again.jsonl"
        try FileManager.default.copyItem(atPath: CLI.example, toPath: copy)
        let suite = try CLI.run(["test", CLI.example, copy, "--plugin", library, "--jobs", "2"])
        #expect(suite.status == 0, "\(suite.stdout)\(suite.stderr)")
        #expect(suite.stdout.contains("2 sessions: 2 passed"))
        // Its diagnostics are not in the recorded log: compared, they fail both sessions.
        let strict = try CLI.run(["test", CLI.example, copy, "--plugin", library, "--jobs", "2", "--verify-diagnostics"])
        #expect(strict.status == 1)
        #expect(strict.stdout.components(separatedBy: #""by":"FocusReporter""#).count - 1 == 2, "\(strict.stdout)")
    }

    @Test("new-plugin --out-of-process writes a package whose executable serves the plugin: it builds, tests, replays and passes check-plugin")
    func outOfProcessScaffold() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try CLI.run(["new-plugin", "FocusProc", "--out-of-process", "--path", folder, "--responder-bus", CLI.repository.path])
        #expect(made.status == 0, "\(made.stderr)")
        let package = folder + "/FocusProc"
        #expect(FileManager.default.fileExists(atPath: package + "/Sources/FocusProc-process/main.swift"))
        #expect(!FileManager.default.fileExists(atPath: package + "/Sources/FocusProc/EntryPoints.swift"))
        let build = try shell("swift build", in: package)
        try #require(build.status == 0, "swift build failed:\n\(build.output.suffix(3000))")
        let test = try shell("swift test", in: package)
        #expect(test.status == 0, "swift test failed:\n\(test.output.suffix(3000))")
        let executable = package + "/.build/debug/FocusProc-process"
        let replay = try CLI.run(["replay", CLI.example, "--plugin-command", executable])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("→ FocusProc: diagnostic info: the keyboard showed for 'name'"))
        let check = try CLI.run(["check-plugin", "--", executable])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test("a library that carries its own copy of ResponderBus is refused as exactly that, with what to change in its Package.swift")
    func ownCopyOfResponderBus() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // KeyboardAvoidance is a static library product (the issue's wrapper depended on it):
        // depending on it from the plugin's own target links ResponderBus into the library.
        let package = try Self.newPlugin("CarriesItsOwn", in: folder, alsoDependingOn: "KeyboardAvoidance")
        let source = package + "/Sources/CarriesItsOwn/CarriesItsOwn.swift"
        let wrapping = "\nimport KeyboardAvoidance\nfunc wrapped() -> KeyboardAvoidance { KeyboardAvoidance() }\n"
        try (String(contentsOfFile: source, encoding: .utf8) + wrapping)
            .write(toFile: source, atomically: true, encoding: .utf8)
        let build = try shell("swift build --product CarriesItsOwn", in: package)
        try #require(build.status == 0, "swift build failed:\n\(build.output.suffix(3000))")
        let replay = try CLI.run(["replay", CLI.example, "--plugin", package + "/.build/debug/" + LoadedImages.libraryFile("CarriesItsOwn")])
        #expect(replay.status == 78)
        #expect(replay.stderr.contains("carries its own copy of ResponderBus"), "\(replay.stderr)")
        #expect(replay.stderr.contains("Package.swift"))
    }

    @Test(
        "the guide's covered-button warner, put in a new-plugin package and loaded: its preferred place, the pipeline line, the summary, the report's outline"
    )
    func coveredButtonWarner() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A package's module cannot share a name with one ResponderBus ships: the guide's plugin goes
        // in a package of another name, renamed to match (as the guide says).
        let package = try Self.newPlugin("CoveredButtonWarner", in: folder)
        // The plugin exactly as the guide's step 8 shows it (its Swift block): written from the
        // guide alone.
        let source = try Self.guideListing(step: "### 8. ", renaming: "CoveredControlWarner", to: "CoveredButtonWarner")
        try source.write(toFile: package + "/Sources/CoveredButtonWarner/CoveredButtonWarner.swift", atomically: true, encoding: .utf8)
        let build = try shell("swift build --product CoveredButtonWarner", in: package)
        try #require(build.status == 0, "swift build failed:\n\(build.output.suffix(3000))")
        let library = package + "/.build/debug/" + LoadedImages.libraryFile("CoveredButtonWarner")

        let report = folder + "/report.html"
        let replay = try CLI.run(["replay", CLI.example, "--plugin", library, "--report", report])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(
            replay.stdout.contains("plugins: TextViewOrdering → FieldAdvancing → KeyboardAvoidance → CoveredButtonWarner (loaded)"),
            "\(replay.stdout)")
        let warning = "→ CoveredButtonWarner: diagnostic warning: the keyboard covers a button the user cannot reach: 'createAccountButton'"
        #expect(replay.stdout.contains(warning), "\(replay.stdout)")
        #expect(replay.stdout.contains("[views: 'createAccountButton']"))
        let page = try String(contentsOfFile: report, encoding: .utf8)
        #expect(page.contains("rb-named-ring"))
        #expect(page.contains("⚑ createAccountButton"))

        let jsonl = try CLI.run(["replay", CLI.example, "--plugin", library, "--format", "jsonl"])
        let summary = try #require(jsonl.stdout.split(separator: "\n").last)
        #expect(summary.contains(#""loadedPlugins":["CoveredButtonWarner"]"#))
        #expect(summary.contains(#""plugins":["TextViewOrdering","FieldAdvancing","KeyboardAvoidance","CoveredButtonWarner"]"#))
        #expect(jsonl.stdout.contains(#""views":["createAccountButton"]"#))

        // The command line places it otherwise, or says which anchor was meant.
        let first = try CLI.run(["replay", CLI.example, "--plugin", library + "@first"])
        #expect(first.stdout.contains("plugins: CoveredButtonWarner (loaded) → TextViewOrdering → FieldAdvancing → KeyboardAvoidance"))
        let typo = try CLI.run(["replay", CLI.example, "--plugin", library + "@after:KeyboardAvoidanc"])
        #expect(typo.status == 78)
        #expect(typo.stderr.contains("did you mean 'KeyboardAvoidance'?"), "\(typo.stderr)")
        let bad = try CLI.run(["replay", CLI.example, "--plugin", library + "@beside:KeyboardAvoidance"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("@first, @last, @before:NAME or @after:NAME"))
    }

    @Test("new-plugin refuses bad names and existing folders")
    func scaffoldErrors() throws {
        let bad = try CLI.run(["new-plugin", "9lives"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("not a Swift type name"))
        let folder = try CLI.temporaryFile("", name: "Taken")
        let taken = try CLI.run(["new-plugin", "Taken", "--path", (folder as NSString).deletingLastPathComponent])
        #expect(taken.status == 64)
        #expect(taken.stderr.contains("already exists"))
        let nowhere = try CLI.run(["new-plugin", "Fine", "--path", "/tmp", "--responder-bus", "/nonexistent/checkout"])
        #expect(nowhere.status == 66)
        #expect(nowhere.stderr.contains("no ResponderBus package"))
    }

    /// Builds a C shared library exporting the given source.
    static func cLibrary(_ source: String, name: String) throws -> String {
        let folder = TestFolders.root.appendingPathComponent("clib-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try source.write(toFile: folder + "/lib.c", atomically: true, encoding: .utf8)
        let library = folder + "/" + LoadedImages.libraryFile(name)
        let built = try shell("cc -shared -fPIC -o '\(library)' lib.c", in: folder)
        try #require(built.status == 0, "cc failed: \(built.output)")
        return library
    }

    @Test("each loading failure exits 78 with a message that says what to do")
    func loadingFailures() throws {
        let missing = try CLI.run(["replay", CLI.example, "--plugin", "/nonexistent/libNope.so"])
        #expect(missing.status == 78)
        #expect(try CLI.run(["test", CLI.example, "--plugin", "/nonexistent/libNope.so"]).status == 78)
        #expect(missing.stderr.contains("No such file or directory") && missing.stderr.contains("swift build"))

        let text = try CLI.temporaryFile("not a library", name: "libText.so")
        let notLibrary = try CLI.run(["replay", CLI.example, "--plugin", text])
        #expect(notLibrary.status == 78)
        #expect(notLibrary.stderr.contains("not a loadable library"))

        let plain = try Self.cLibrary("int nothing_here(void) { return 0; }\n", name: "Plain")
        let notPlugin = try CLI.run(["replay", CLI.example, "--plugin", plain])
        #expect(notPlugin.status == 78)
        #expect(notPlugin.stderr.contains("is not a ResponderBus plugin") && notPlugin.stderr.contains("new-plugin"))

        let future = try Self.cLibrary("int responder_bus_plugin_api_version(void) { return 999; }\n", name: "Future")
        let mismatch = try CLI.run(["replay", CLI.example, "--plugin", future])
        #expect(mismatch.status == 78)
        #expect(mismatch.stderr.contains("built for plugin API version 999") && mismatch.stderr.contains("rebuild the plugin"))

        let headless = try Self.cLibrary("int responder_bus_plugin_api_version(void) { return 3; }\n", name: "Headless")
        let noEntry = try CLI.run(["replay", CLI.example, "--plugin", headless])
        #expect(noEntry.status == 78)
        #expect(noEntry.stderr.contains("exports no responder_bus_plugin_make"))

        let null = try Self.cLibrary(
            "int responder_bus_plugin_api_version(void) { return 3; }\nvoid *responder_bus_plugin_make(void) { return 0; }\n", name: "Null")
        let noPlugin = try CLI.run(["replay", CLI.example, "--plugin", null])
        #expect(noPlugin.status == 78)
        #expect(noPlugin.stderr.contains("returned no plugin"))

        let loose = try Self.cLibrary("int responder_bus_plugin_api_version(void) { return 3; }\n", name: "Loose")
        chmod(loose, 0o666)
        let writable = try CLI.run(["replay", CLI.example, "--plugin", loose])
        #expect(writable.status == 78)
        #expect(writable.stderr.contains("refusing to load") && writable.stderr.contains("chmod go-w"))
    }
}

@Suite("Plugin loading: nothing of a library others could swap runs", .serialized)
struct PluginFolderTests {
    @Test("a library in a folder anyone may write (no sticky bit) is refused before its constructor runs")
    func writableFolder() throws {
        let marker = TestFolders.root.appendingPathComponent("ran-\(UUID().uuidString)").path
        let source = """
            #include <stdio.h>
            __attribute__((constructor)) static void ran(void) { FILE *f = fopen("\(marker)", "w"); if (f) fclose(f); }
            int responder_bus_plugin_api_version(void) { return 3; }
            """
        let library = try PluginCLITests.cLibrary(source, name: "Swappable")
        let folder = URL(fileURLWithPath: library).deletingLastPathComponent().path
        chmod(folder, 0o777)
        let run = try CLI.run(["replay", CLI.example, "--plugin", library])
        #expect(run.status == 78)
        #expect(
            run.stderr.contains("refusing to load plugin") && run.stderr.contains("its folder '\(folder)' is writable by anyone (mode 777)"),
            "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker), "the library's constructor ran before it was refused")

        // With the sticky bit (as /tmp has) only a file's owner may replace it: the library loads
        // (and, lacking the entry point, is refused after its constructor ran).
        chmod(folder, 0o1777)
        let sticky = try CLI.run(["replay", CLI.example, "--plugin", library])
        #expect(sticky.status == 78)
        #expect(sticky.stderr.contains("exports no responder_bus_plugin_make"), "\(sticky.stderr)")
        #expect(FileManager.default.fileExists(atPath: marker))
        try? FileManager.default.removeItem(atPath: marker)
    }

    @Test("a symbolic link is followed and its target's folders are checked")
    func symlinkTarget() throws {
        let library = try PluginCLITests.cLibrary("int responder_bus_plugin_api_version(void) { return 3; }\n", name: "Linked")
        let folder = URL(fileURLWithPath: library).deletingLastPathComponent().path
        let link = try CLI.temporaryFile("", name: "placeholder")
        let linkPath = URL(fileURLWithPath: link).deletingLastPathComponent().appendingPathComponent(LoadedImages.libraryFile("Linked")).path
        try FileManager.default.createSymbolicLink(atPath: linkPath, withDestinationPath: library)
        chmod(folder, 0o775)
        let run = try CLI.run(["replay", CLI.example, "--plugin", linkPath])
        #expect(run.status == 78)
        #expect(run.stderr.contains("its folder '\(folder)' is writable by its group"), "\(run.stderr)")
    }
}
