import Foundation
import ResponderBus
import ResponderBusPlatform
import Testing

@testable import ResponderBusExternal

/// Issue 48, item 5: a plugin library's entry points carry its name (so that one package holds
/// several plugins), and a library the loader cannot satisfy is refused with why and what to do.
/// The libraries here are C libraries built for the test: they load into this test process as far
/// as the loader's checks go.
@Suite("Plugin libraries: entry points named after the library, and the libraries they need", .serialized)
struct PluginLibraryEntryTests {
    /// A folder of its own (mode 755) under the tests' temporary folder.
    static func folder(_ name: String) throws -> String {
        let folder = Scripts.root.appendingPathComponent("\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        chmod(folder, 0o755)
        return folder
    }

    /// Compiles `source` into the shared library `folder/file` with `cc`, with `flags` after the
    /// source (`-L…`, `-l…`).
    @discardableResult
    static func library(_ source: String, file: String, in folder: String, flags: String = "") throws -> String {
        let sourcePath = folder + "/" + file + ".c"
        try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        let library = folder + "/" + file
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "cc -shared -fPIC -o '\(library)' '\(sourcePath)' \(flags) 2>&1"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "cc failed: \(output)")
        return library
    }

    /// Why loading the library at `path` failed (the test fails when it loaded).
    static func refusal(_ path: String) -> String {
        do {
            _ = try PluginLibrary.load(path)
            Issue.record("'\(path)' loaded")
            return ""
        } catch {
            return error.message
        }
    }

    @Test("the library's name comes from its file's name, lib<Name>.so or lib<Name>.dylib, and names its entry points")
    func names() {
        #expect(PluginABI.libraryName(ofFile: "/x/.build/debug/libFocusReporter.so") == "FocusReporter")
        #expect(PluginABI.libraryName(ofFile: "libFocusReporter.dylib") == "FocusReporter")
        #expect(PluginABI.libraryName(ofFile: "/x/FocusReporter.so") == nil)
        #expect(PluginABI.libraryName(ofFile: "/x/lib.so") == nil)
        #expect(PluginABI.libraryName(ofFile: "/x/libFocusReporter.wasm") == nil)
        #expect(PluginABI.versionSymbol(forLibrary: "FocusReporter") == "responder_bus_plugin_api_version_FocusReporter")
        #expect(PluginABI.makeSymbol(forLibrary: "FocusReporter") == "responder_bus_plugin_make_FocusReporter")
    }

    @Test("the loader calls the entry points of the file's name before the unnamed ones, and says which it looked for")
    func namedBeforeUnnamed() throws {
        let folder = try Self.folder("named")
        // Both versions exported: the named one (999) is the one read.
        let both = try Self.library(
            """
            int responder_bus_plugin_api_version_Both(void) { return 999; }
            int responder_bus_plugin_api_version(void) { return \(PluginABI.version); }
            """, file: "libBoth.so", in: folder)
        #expect(Self.refusal(both).contains("built for plugin API version 999"), "\(Self.refusal(both))")
        // A named version without its named make: the unnamed make is not taken in its place.
        let half = try Self.library(
            """
            int responder_bus_plugin_api_version_Half(void) { return \(PluginABI.version); }
            void *responder_bus_plugin_make(void) { return 0; }
            """, file: "libHalf.so", in: folder)
        #expect(Self.refusal(half).contains("exports no responder_bus_plugin_make_Half"), "\(Self.refusal(half))")
        // Named entry points under another file name: neither named nor unnamed ones are found,
        // and the message says the name comes from the file's.
        let renamed = try Self.library(
            "int responder_bus_plugin_api_version_Original(void) { return \(PluginABI.version); }\n", file: "libRenamed.so", in: folder)
        let message = Self.refusal(renamed)
        #expect(message.contains("exports no responder_bus_plugin_api_version_Renamed nor responder_bus_plugin_api_version"), "\(message)")
        #expect(message.contains("keep the name"))
        // The unnamed ones alone are still taken (a library written before the named ones).
        let unnamed = try Self.library(
            """
            int responder_bus_plugin_api_version(void) { return \(PluginABI.version); }
            void *responder_bus_plugin_make(void) { return 0; }
            """, file: "libUnnamed.so", in: folder)
        #expect(Self.refusal(unnamed).contains("responder_bus_plugin_make returned no plugin"), "\(Self.refusal(unnamed))")
    }

    // glibc's words and Linux's remedy (a program named libResponderBus.so); dyld's words are
    // read by `dyldMissingLibrary`, and a Mac's message has no soname to offer.
    @Test(
        "a library that needs libResponderBus.so, which the loading program does not provide and which is not beside it, is refused with why, where the loader looked and what to do",
        .enabled(if: !LoadedImages.isDyld, "glibc's message and the soname remedy are Linux's")
    )
    func needsResponderBus() {
        // The loader's own words (this test process, which links the command's target, provides
        // libResponderBus.so as the command does; PluginLibraryHomeCLITests loads such a library).
        let message = PluginLibrary.notLoaded(
            "plugins/libMoved.so", resolved: "/home/me/project/plugins/libMoved.so",
            reason: "libResponderBus.so: cannot open shared object file: No such file or directory")
        #expect(
            message.hasPrefix("cannot load plugin 'plugins/libMoved.so': it needs libResponderBus.so, the ResponderBus library it was built with"))
        #expect(message.contains("looked beside the plugin (in '/home/me/project/plugins'"), "\(message)")
        #expect(message.contains("cp .build/debug/libResponderBus.so '/home/me/project/plugins/'"), "\(message)")
        #expect(message.contains("`responder-bus`, which provides its own ResponderBus"))
        #expect(message.contains("-soname=libResponderBus.so"))
        // Any other reason is said as it was.
        let other = PluginLibrary.notLoaded("libX.so", resolved: "/p/libX.so", reason: "/p/libX.so: invalid ELF header")
        #expect(
            other
                == "cannot load plugin 'libX.so': not a loadable library (/p/libX.so: invalid ELF header); pass the \(PluginLibrary.fileName(forPlugin: "<Name>")) that `swift build` made"
        )
    }

    @Test("dyld's words for a library it did not find name the library, as glibc's do")
    func dyldMissingLibrary() {
        // What dlerror says on macOS 15 for a plugin whose @rpath dependency is nowhere.
        let dyld = """
            dlopen(/Users/me/plugins/libMoved.dylib, 0x0006): Library not loaded: @rpath/libResponderBus.dylib
              Referenced from: <8F3C1A52-0B8E-3E4B-9D7A-2C1E5B6F7A80> /Users/me/plugins/libMoved.dylib
              Reason: tried: '/Users/me/plugins/libResponderBus.dylib' (no such file)
            """
        #expect(LoadedImages.missingLibrary(inLoadError: dyld, dyld: true) == "libResponderBus.dylib")
        #expect(
            LoadedImages.missingLibrary(inLoadError: "dlopen(/p/libX.dylib, 0x0006): tried: '/p/libX.dylib' (not a mach-o file)", dyld: true) == nil)
        #expect(LoadedImages.missingLibrary(inLoadError: "libHelper.so: cannot open shared object file: No such file", dyld: false) == "libHelper.so")
        #expect(LoadedImages.missingLibrary(inLoadError: "/p/libX.so: invalid ELF header", dyld: false) == nil)
    }

    @Test("another library a plugin needs and the loader cannot find is named, with where the loader looked")
    func needsAnotherLibrary() throws {
        let helper = LoadedImages.libraryFile("Helper")
        let built = try Self.folder("dependency")
        // Named for the run path on macOS (a library's install name is its path otherwise).
        try Self.library(
            "int helper(void) { return 1; }\n", file: helper, in: built, flags: LoadedImages.isDyld ? "-Wl,-install_name,@rpath/\(helper)" : "")
        // Linked as SwiftPM links a library: its own folder as run path.
        let plugin = try Self.folder("plugin")
        let library = try Self.library(
            "int helper(void);\nint responder_bus_plugin_api_version_Helped(void) { return helper(); }\n", file: LoadedImages.libraryFile("Helped"),
            in: plugin, flags: "-L'\(built)' -lHelper -Wl,-rpath,'\(LoadedImages.isDyld ? "@loader_path" : "$ORIGIN")'")
        let message = Self.refusal(library)
        #expect(message.contains("it needs \(helper), which was not found"), "\(message)")
        #expect(
            message.contains("'\(plugin)'") && message.contains(LoadedImages.isDyld ? "DYLD_LIBRARY_PATH" : "LD_LIBRARY_PATH"), "\(message)")
        #expect(message.contains("Copy \(helper) beside the plugin"))
        // The fix it gives: the library beside the plugin. It then loads, and is refused further on.
        try FileManager.default.copyItem(atPath: built + "/" + helper, toPath: plugin + "/" + helper)
        #expect(Self.refusal(library).contains("built for plugin API version 1"), "\(Self.refusal(library))")
    }
}
