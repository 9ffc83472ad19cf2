import ArgumentParser
import EventLog
import ResponderBus
import ResponderBusPlatform
import ResponderBusReplay

/// `responder-bus new-plugin`.
struct NewPluginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-plugin",
        abstract: "Write a ready package for a third-party plugin.",
        discussion: """
            Writes NAME/ with a Package.swift that depends on ResponderBus (by default on the source \
            checkout this responder-bus was built from), a plugin with the entry points \
            `replay --plugin` loads, passing tests that use the ResponderBusTesting kit (one in the \
            pipeline `replay` runs: the built-in plugins, then yours), and a README. \
            `swift build` and `swift test` pass in it unchanged; the library to load is \
            .build/debug/\(LibraryNames.upperPattern), which loads from any folder it is copied to (on macOS with \
            \(LibraryNames.file("ResponderBus")) beside it). Its entry points carry \
            the plugin's name, so the package can hold more plugins (its README shows how).

            With --wrapping KeyboardAvoidance, the plugin wraps the built-in: the package builds its \
            source (linked from the checkout) against the ResponderBus product, so that the library \
            carries no ResponderBus of its own and loads with --plugin (run it with --disable KeyboardAvoidance).

            With --out-of-process, the package serves the plugin from an executable instead \
            (.build/debug/<NAME>-process, for replay --plugin-command); with --language python, it is a \
            plugin file, the author module and a unittest test, run with --plugin-command 'python3 NAME.py'. \
            With --language c-wasm or swift-wasm, it is a WebAssembly plugin in C or Embedded Swift with the \
            author kit, a build script that makes NAME.wasm with the Swift toolchain alone, and a test script; \
            run it with --plugin NAME.wasm (a responder-bus built with the WebAssembly trait, on by default; \
            from a build without it, new-plugin refuses these kinds).

            Examples:
              responder-bus new-plugin FocusReporter
              responder-bus new-plugin FocusReporter --out-of-process
              responder-bus new-plugin FocusReporter --language python
              responder-bus new-plugin FocusReporter --language c-wasm    # then ./build.sh, ./test.sh
              responder-bus new-plugin FocusReporter --language swift-wasm
              responder-bus new-plugin FocusReporter --path ~/plugins     # writes ~/plugins/FocusReporter
              responder-bus new-plugin FocusReporter --responder-bus https://example.com/responder-bus.git
              responder-bus new-plugin PasswordAwareAvoidance --wrapping KeyboardAvoidance
              cd FocusReporter && swift build && responder-bus replay session.jsonl --plugin .build/debug/\(LibraryNames.file("FocusReporter"))
            """
    )

    @Argument(help: "The plugin's name: a Swift type name such as FocusReporter.")
    var name: String

    @Option(help: ArgumentHelp("The folder to create the package in: it is written to DIR/NAME (default: ./NAME).", valueName: "dir"))
    var path: String = "."

    @Option(
        name: .customLong("responder-bus"),
        help: ArgumentHelp(
            "Where ResponderBus comes from: a local checkout's path or a git URL (default: this binary's source checkout).", valueName: "path|url"))
    var responderBus: String?

    /// The language of the plugin.
    enum Language: String, ExpressibleByArgument, CaseIterable {
        case swift, python
        case cWasm = "c-wasm"
        case swiftWasm = "swift-wasm"

        /// Whether the plugin is a WebAssembly module.
        var isWebAssembly: Bool { self == .cWasm || self == .swiftWasm }

        /// The author kit the plugin copies from the checkout: the folder, and each file's name
        /// there and in the plugin's folder.
        var kit: (folder: String, files: [(name: String, copy: String)]) {
            switch self {
            case .swift: ("", [])
            case .python: ("PluginKits/python", [("responder_bus_plugin.py", "responder_bus_plugin.py")])
            case .cWasm: ("PluginKits/c-wasm", [("responder_bus_plugin.h", "responder_bus_plugin.h")])
            case .swiftWasm:
                (
                    "PluginKits/swift-wasm",
                    [("ResponderBusPlugin.swift", "ResponderBusPlugin.swift"), ("runtime.c", "runtime.c"), ("build.sh", "kit-build.sh")]
                )
            }
        }
    }

    @Option(
        help: ArgumentHelp(
            "swift (a package), python (a plugin file, the author module and a test; always out of process), c-wasm or swift-wasm (a WebAssembly plugin, its kit, build and test scripts).",
            valueName: "swift|python|c-wasm|swift-wasm"))
    var language: Language = .swift

    @Flag(
        name: .customLong("out-of-process"),
        help: "Write a plugin that runs as a process of its own (replay --plugin-command) instead of a library loaded with --plugin.")
    var outOfProcess = false

    @Option(
        help: ArgumentHelp(
            "Wrap a built-in plugin (\(Scaffold.wrappable.joined(separator: ", "))): its source is built in the package, against this ResponderBus.",
            valueName: "builtin"))
    var wrapping: String?

    func validate() throws {
        if let wrapping {
            guard Scaffold.wrappable.contains(wrapping) else {
                throw ValidationError(
                    "--wrapping takes \(Scaffold.wrappable.joined(separator: ", ")), not '\(wrapping)'")
            }
            if language != .swift || outOfProcess {
                throw ValidationError("--wrapping writes a Swift library loaded with --plugin; leave out --language and --out-of-process")
            }
            if name == "Builtin" + wrapping {
                throw ValidationError("'\(name)' is the name of the module the package builds \(wrapping) as; choose another name")
            }
        }
        guard let first = name.unicodeScalars.first, first.properties.isXIDStart || first == "_",
            name.unicodeScalars.allSatisfy({ $0.properties.isXIDContinue }), name.unicodeScalars.allSatisfy(\.isASCII)
        else {
            throw ValidationError("'\(name)' is not a Swift type name; use letters and digits, starting with a letter, such as FocusReporter")
        }
        if Self.swiftKeywords.contains(name) {
            throw ValidationError("'\(name)' is a Swift keyword and cannot name the plugin's type; choose another name, such as FocusReporter")
        }
        if Self.reservedNames.contains(name) {
            throw ValidationError(
                "'\(name)' is the name of a module or plugin the package depends on or ships (the package written would not build); choose another name"
            )
        }
        if language.isWebAssembly, outOfProcess {
            throw ValidationError("a WebAssembly plugin runs in process, sandboxed; leave out --out-of-process")
        }
        if language.isWebAssembly, !ReplayPipeline.loadsWebAssembly {
            throw ValidationError(
                "this responder-bus was built without WebAssembly plugins, so it could not run the \(language.rawValue) plugin it would write; build one that can with `swift build --product responder-bus` in the ResponderBus checkout (the WebAssembly trait is on unless --disable-default-traits is given)"
            )
        }
        if language == .python, Self.pythonReserved.contains(name) {
            throw ValidationError(
                "'\(name)' is a Python keyword or a name the plugin's module imports, and cannot name its class; choose another name")
        }
    }

    /// Swift's keywords (those an identifier cannot be without backquotes), and `_`.
    static let swiftKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal", "let",
        "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in",
        "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super",
        "throws", "true", "try", "_",
    ]

    /// The modules the package written depends on or could clash with, and the built-in plugins.
    static let reservedNames: Set<String> = [
        "ResponderBus", "ResponderBusUV", "ResponderBusExternal", "ResponderBusTesting", "ResponderBusReplay", "ResponderBusReport",
        "EventLog", "ConsoleImport", "KeyboardAvoidance", "FieldAdvancing", "TextViewOrdering", "KeyboardNoise", "CoveredControlWarner",
        "PasswordGap",
        "Swift", "Foundation", "Glibc", "Dispatch", "Testing", "XCTest", "PackageDescription", "Synchronization",
    ]

    /// Python's keywords and the names the generated module and its test import.
    static let pythonReserved: Set<String> = [
        "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else",
        "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
        "return", "try", "while", "with", "yield", "Plugin", "run", "os", "sys", "io", "json", "unittest", "responder_bus_plugin",
    ]

    func run() throws {
        let source = responderBus ?? Self.sourceCheckout
        guard let source else {
            throw ValidationError("cannot tell where this responder-bus was built from; pass --responder-bus PATH or URL")
        }
        let isURL = source.contains("://") || source.hasPrefix("git@")
        if !isURL {
            var info = stat()
            guard stat(source + "/Package.swift", &info) == 0 else {
                complain("no ResponderBus package at '\(source)' (no Package.swift there); pass --responder-bus with a checkout's path or a git URL")
                throw Exit.noInput
            }
        }
        let folder = (path.hasSuffix("/") ? path : path + "/") + name
        var info = stat()
        if stat(folder, &info) == 0 {
            throw ValidationError("'\(folder)' already exists; choose another --path or name")
        }
        let (files, link) = try pluginFiles(from: source, isURL: isURL)
        for (relative, contents) in files {
            let file = folder + "/" + relative
            try Self.makeParents(of: file)
            guard Self.writeFile(contents, to: file) else {
                complain("cannot write '\(file)': \(String(cString: strerror(errno)))")
                throw Exit.noInput
            }
            if language.isWebAssembly, Self.scripts.contains(relative) { chmod(file, 0o755) }
        }
        if let link {
            let file = folder + "/" + link.path
            try Self.makeParents(of: file)
            guard symlink(link.target, file) == 0 else {
                complain("cannot link '\(file)' to '\(link.target)': \(String(cString: strerror(errno)))")
                throw Exit.noInput
            }
        }
        print("Wrote \(folder)/ (\(files.count) files). Next:")
        printNextSteps(in: folder)
    }

    /// The files a WebAssembly plugin's folder holds that the command marks executable.
    static let scripts: Set<String> = ["build.sh", "test.sh", "kit-build.sh"]

    /// The files of the plugin (relative path, contents), and for `--wrapping`, the link to the
    /// built-in's source.
    private func pluginFiles(from source: String, isURL: Bool) throws -> (files: [(String, String)], link: (path: String, target: String)?) {
        switch language {
        case .swift:
            guard let wrapping else {
                return (Scaffold.swift(name: name, responderBus: source, isURL: isURL, outOfProcess: outOfProcess).files, nil)
            }
            guard !isURL, let checkout = Self.absolutePath(source) else {
                complain(
                    "--wrapping links \(wrapping)'s source from a ResponderBus checkout, and \(isURL ? "--responder-bus names a git URL" : "'\(source)' cannot be resolved"); pass --responder-bus with a checkout's path"
                )
                throw Exit.noInput
            }
            var folderInfo = stat()
            guard stat(checkout + "/Plugins/\(wrapping)", &folderInfo) == 0, (folderInfo.st_mode & S_IFMT) == S_IFDIR else {
                complain(
                    "--wrapping links \(wrapping)'s source, and '\(checkout)/Plugins/\(wrapping)' is not a folder; pass --responder-bus with a ResponderBus checkout's path"
                )
                throw Exit.noInput
            }
            let scaffold = Scaffold.swift(name: name, responderBus: checkout, isURL: false, wrapping: wrapping)
            return (scaffold.files, ("Builtin/\(wrapping)", checkout + "/Plugins/\(wrapping)"))
        case .python:
            return (try kitFiles(from: source, isURL: isURL) + Scaffold.python(name: name).files, nil)
        case .cWasm, .swiftWasm:
            let binary = SystemProcess.executablePath() ?? "responder-bus"
            let scaffold = Scaffold.webAssembly(name: name, language: language.rawValue, responderBus: binary)
            return (try kitFiles(from: source, isURL: isURL) + scaffold.files, nil)
        }
    }

    /// The author kit's files (relative path, contents), read from the checkout at `source`.
    private func kitFiles(from source: String, isURL: Bool) throws -> [(String, String)] {
        let (folder, names) = language.kit
        var files: [(String, String)] = []
        for (name, copy) in names {
            let path = source + "/" + folder + "/" + name
            guard !isURL, let text = ImportCommand.readAll(path).map({ String(decoding: $0, as: UTF8.self) }) else {
                let why = isURL ? "--responder-bus names a git URL" : "'\(path)' cannot be read"
                complain(
                    language == .python
                        ? "a Python plugin copies the author module from a ResponderBus checkout, and \(why); pass --responder-bus with a checkout's path"
                        : "a WebAssembly plugin copies the author kit from a ResponderBus checkout, and \(why); pass --responder-bus with a checkout's path"
                )
                throw Exit.noInput
            }
            files.append((copy, text))
        }
        return files
    }

    /// What to run next, for the plugin written in `folder`.
    private func printNextSteps(in folder: String) {
        switch (language, outOfProcess) {
        case (.cWasm, _), (.swiftWasm, _):
            print("  cd \(folder) && ./build.sh && ./test.sh")
            print("  responder-bus replay LOG --plugin \(folder)/\(name).wasm")
        case (.python, _):
            print("  cd \(folder) && python3 -m unittest")
            print("  responder-bus replay LOG --plugin-command 'python3 \(folder)/\(name).py'")
        case (.swift, true):
            print("  cd \(folder) && swift build && swift test")
            print("  responder-bus replay LOG --plugin-command \(folder)/.build/debug/\(name)-process")
        case (.swift, false):
            print("  cd \(folder) && swift build && swift test")
            print(
                "  responder-bus replay LOG --plugin \(folder)/.build/debug/\(LibraryNames.file(name))" + (wrapping.map { " --disable \($0)" } ?? ""))
            print("  responder-bus check-plugin \(folder)/.build/debug/\(LibraryNames.file(name))" + (wrapping.map { " --disable \($0)" } ?? ""))
        }
    }

    /// `path` made absolute, symbolic links resolved; `nil` when it does not exist.
    static func absolutePath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The checkout this binary was built from, when it is still there.
    static var sourceCheckout: String? {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count > 3 else { return nil }
        parts.removeLast(3)  // Sources/responder-bus/NewPluginCommand.swift
        let root = parts.joined(separator: "/")
        var info = stat()
        return stat(root + "/Package.swift", &info) == 0 ? root : nil
    }

    static func makeParents(of file: String) throws {
        var current = ""
        let components = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for (index, component) in components.enumerated() {
            current += (index == 0 ? "" : "/") + component
            if current.isEmpty || current == "." { continue }
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                complain("cannot create '\(current)': \(String(cString: strerror(errno)))")
                throw Exit.noInput
            }
        }
    }

    static func writeFile(_ contents: String, to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return DescriptorIO.writeAll(Array(contents.utf8), to: descriptor) == nil
    }
}
