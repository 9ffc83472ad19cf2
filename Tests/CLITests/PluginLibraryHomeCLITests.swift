import Foundation
import ResponderBus
import ResponderBusPlatform
import Testing

/// Issue 48, item 5: an in-process plugin as first-class as the other kinds — `check-plugin` takes
/// the library, the library runs from wherever it is copied, and one package holds several plugins.
@Suite("Plugin libraries: check-plugin, a home outside .build, several plugins in one package", .serialized)
struct PluginLibraryHomeCLITests {
    /// A new folder under the tests' temporary folder, which only its owner may write (the loader
    /// refuses a library in a folder others may write).
    static func folder() throws -> String {
        let folder = try PluginCLITests.temporaryFolder()
        chmod(folder, 0o755)
        return folder
    }

    /// Adds the plugin `second` to the package of `first` that `new-plugin` wrote, as its README's
    /// "More plugins" says: its sources copied and renamed, a product and a target, and the test
    /// target depending on it.
    static func addPlugin(_ second: String, to package: String, beside first: String) throws {
        let readme = try String(contentsOfFile: package + "/README.md", encoding: .utf8)
        try #require(readme.contains("## More plugins"), "the scaffold's README says how to add a plugin")
        let manager = FileManager.default
        try manager.createDirectory(atPath: "\(package)/Sources/\(second)", withIntermediateDirectories: true)
        for file in try manager.contentsOfDirectory(atPath: "\(package)/Sources/\(first)") {
            let text = try String(contentsOfFile: "\(package)/Sources/\(first)/\(file)", encoding: .utf8)
            try text.replacingOccurrences(of: first, with: second).write(
                toFile: "\(package)/Sources/\(second)/\(file.replacingOccurrences(of: first, with: second))", atomically: true, encoding: .utf8)
        }
        // The README's two lines, for `Other`, with this plugin's name.
        let lines = readme.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "\n").first }
        let product = try #require(lines.first { $0.contains(".library(") }).trimmingCharacters(in: .whitespaces)
        let target = try #require(lines.first { $0.contains(".target(") }).trimmingCharacters(in: .whitespaces)
        var manifest = try String(contentsOfFile: package + "/Package.swift", encoding: .utf8)
        let firstProduct = #".library(name: "\#(first)", type: .dynamic, targets: ["\#(first)"]),"#
        let firstTarget = try #require(manifest.components(separatedBy: "\n").first { $0.contains(#".target(name: "\#(first)""#) })
        try #require(manifest.contains(firstProduct))
        manifest = manifest.replacingOccurrences(
            of: firstProduct, with: firstProduct + "\n        " + product.replacingOccurrences(of: "Other", with: second))
        manifest = manifest.replacingOccurrences(
            of: firstTarget, with: firstTarget + "\n        " + target.replacingOccurrences(of: "Other", with: second))
        let testDependency = "dependencies: [\n                \"\(first)\",\n"
        try #require(manifest.contains(testDependency), "\(manifest)")
        manifest = manifest.replacingOccurrences(of: testDependency, with: testDependency + "                \"\(second)\",\n")
        try manifest.write(toFile: package + "/Package.swift", atomically: true, encoding: .utf8)
    }

    @Test(
        "a package with two plugins builds and tests; both libraries, copied to another folder, load together, pass check-plugin, and a failing one fails it"
    )
    func twoPluginsCopiedAndChecked() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let package = try PluginCLITests.newPlugin("FocusOne", in: folder)
        try Self.addPlugin("FocusTwo", to: package, beside: "FocusOne")
        let build = try shell("swift build", in: package)
        try #require(build.status == 0, "swift build failed:\n\(build.output.suffix(3000))")
        // One test binary links both plugins' entry points.
        let test = try shell("swift test", in: package)
        #expect(test.status == 0, "swift test failed:\n\(test.output.suffix(3000))")
        #expect(!test.output.contains("multiple definition"))

        // Copied out of the build folder, alone on Linux: no libResponderBus.so beside them (the
        // command is that library). On macOS a plugin's own libResponderBus.dylib goes along: dyld
        // loads it, unused, since the plugin is linked flat and binds to the command's copy.
        let plugins = try Self.folder()
        for name in ["FocusOne", "FocusTwo"] + (LoadedImages.isDyld ? ["ResponderBus"] : []) {
            try FileManager.default.copyItem(
                atPath: "\(package)/.build/debug/\(LoadedImages.libraryFile(name))", toPath: "\(plugins)/\(LoadedImages.libraryFile(name))")
        }
        #expect(FileManager.default.fileExists(atPath: plugins + "/" + LoadedImages.libraryFile("ResponderBus")) == LoadedImages.isDyld)
        let (one, two) = (plugins + "/" + LoadedImages.libraryFile("FocusOne"), plugins + "/" + LoadedImages.libraryFile("FocusTwo"))
        let replay = try CLI.run(["replay", CLI.example, "--plugin", one, "--plugin", two])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("→ FocusOne: diagnostic info: the keyboard showed for 'name'"), "\(replay.stdout)")
        #expect(replay.stdout.contains("→ FocusTwo: diagnostic info: the keyboard showed for 'name'"))
        #expect(replay.stdout.contains("plugins: TextViewOrdering → FieldAdvancing → KeyboardAvoidance → FocusOne (loaded) → FocusTwo (loaded)"))

        let check = try CLI.run(["check-plugin", two])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("checking '\(two)' against"), "\(check.stdout)")
        #expect(check.stdout.contains("all checks passed"))

        // A plugin without a name fails the checks: exit 1, the check named.
        let source = "\(package)/Sources/FocusTwo/FocusTwo.swift"
        try String(contentsOfFile: source, encoding: .utf8).replacingOccurrences(of: #"public let name = "FocusTwo""#, with: #"public let name = """#)
            .write(toFile: source, atomically: true, encoding: .utf8)
        let rebuild = try shell("swift build --product FocusTwo", in: package)
        try #require(rebuild.status == 0, "swift build failed:\n\(rebuild.output.suffix(3000))")
        let failing = try CLI.run(["check-plugin", "\(package)/.build/debug/\(LoadedImages.libraryFile("FocusTwo"))"])
        #expect(failing.status == 1, "\(failing.stdout)\(failing.stderr)")
        #expect(failing.stdout.contains("✗ name"), "\(failing.stdout)")
    }

    @Test("check-plugin takes a library path as --plugin does, and says what it takes otherwise")
    func checkPluginArguments() throws {
        let missing = try CLI.run(["check-plugin", "/nonexistent/libNope.so"])
        #expect(missing.status == 78)
        #expect(missing.stderr.contains("cannot check '/nonexistent/libNope.so'") && missing.stderr.contains("No such file or directory"))
        let plain = try PluginCLITests.cLibrary("int nothing_here(void) { return 0; }\n", name: "Plain")
        let notPlugin = try CLI.run(["check-plugin", plain])
        #expect(notPlugin.status == 78)
        #expect(notPlugin.stderr.contains("is not a ResponderBus plugin"), "\(notPlugin.stderr)")
        let other = try CLI.run(["check-plugin", "notes.txt"])
        #expect(other.status == 64)
        #expect(other.stderr.contains("neither a plugin library (\(LoadedImages.libraryFile("<Name>"))) nor a .wasm module"), "\(other.stderr)")
        let both = try CLI.run(["check-plugin", plain, "--", "python3", "p.py"])
        #expect(both.status == 64)
        let help = try CLI.run(["check-plugin", "--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("check-plugin .build/debug/\(LoadedImages.libraryFile("FocusReporter"))"), "\(help.stdout)")
        #expect(words.contains("78 when the plugin cannot be loaded or started"))
        #expect(words.contains("<\(LoadedImages.libraryFile("X"))|module.wasm>"))
    }

    // ELF only: a Mach-O program has no install name a library's need could match (on macOS the
    // plugin links flat and brings its own libResponderBus.dylib; `twoPluginsCopiedAndChecked`).
    @Test(
        "responder-bus is the libResponderBus.so a plugin library needs: a library that needs it and its symbols loads with none beside it",
        .enabled(if: !LoadedImages.isDyld, "Linux's loader matches a need by the program's soname; dyld has no such match for a program")
    )
    func hostProvidesResponderBus() throws {
        // A stand-in libResponderBus.so to link against, in a folder of its own; the plugin uses a
        // symbol only the real ResponderBus defines (ResponderPlugin's protocol descriptor), so it
        // loads only when the host provides it.
        let standIn = try PluginCLITests.cLibrary("char responder_bus_stand_in;\n", name: "ResponderBus")
        let built = URL(fileURLWithPath: standIn).deletingLastPathComponent().path
        let plugins = try Self.folder()
        let source = plugins + "/needs.c"
        try """
        extern char descriptor __asm__("\\"$s12ResponderBus0A6PluginMp\\"");
        void *responder_bus_descriptor_address(void) { return &descriptor; }
        int responder_bus_plugin_api_version_Alone(void) { return \(PluginABI.version); }
        """.write(toFile: source, atomically: true, encoding: .utf8)
        let library = plugins + "/libAlone.so"
        let linked = try shell("cc -shared -fPIC -o '\(library)' '\(source)' -Wl,--no-as-needed -L'\(built)' -lResponderBus")
        try #require(linked.status == 0, "cc failed: \(linked.output)")
        let needed = try shell("readelf -d '\(library)'")
        try #require(needed.output.contains("[libResponderBus.so]"), "\(needed.output)")
        let run = try CLI.run(["replay", CLI.example, "--plugin", library])
        #expect(run.status == 78)
        // Past dlopen and the version: only the make entry point is missing.
        #expect(run.stderr.contains("exports no responder_bus_plugin_make_Alone"), "\(run.stderr)")
    }
}
