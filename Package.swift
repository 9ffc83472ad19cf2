// swift-tools-version: 6.1
import PackageDescription

// What `swift package responder-bus` may do. macOS runs a command plugin (and what it starts) in a
// sandbox that keeps it from writing to the package, so the plugin asks (give
// `--allow-writing-to-package-directory`, or answer the prompt); Linux has no such sandbox, and
// asking would only make every run need the flag.
#if os(macOS)
    let commandPluginPermissions: [PluginPermission] = [
        .writeToPackageDirectory(reason: "responder-bus writes what it is asked to: JUnit, reports, recordings, snapshots")
    ]
#else
    let commandPluginPermissions: [PluginPermission] = []
#endif

let package = Package(
    name: "ResponderBus",
    platforms: [.macOS(.v15)],
    products: [
        // Dynamic, so that a plugin library loaded at run time and the host share one copy of the
        // plugin protocols' type metadata: with a static copy in each, a loaded plugin's conformance
        // to ResponderPlugin is not the host's, and its `as? any ResponderPlugin` fails.
        .library(name: "ResponderBus", type: .dynamic, targets: ["ResponderBus"]),
        .library(name: "ResponderBusUV", targets: ["ResponderBusUV"]),
        .library(name: "EventLog", targets: ["EventLog"]),
        .library(name: "ResponderBusReplay", targets: ["ResponderBusReplay"]),
        .library(name: "ResponderBusProject", targets: ["ResponderBusProject"]),
        .library(name: "ConsoleImport", targets: ["ConsoleImport"]),
        .library(name: "ResponderBusTesting", targets: ["ResponderBusTesting"]),
        .library(name: "ResponderBusSessions", targets: ["ResponderBusSessions"]),
        .library(name: "ResponderBusExplore", targets: ["ResponderBusExplore"]),
        .library(name: "ResponderBusExternal", targets: ["ResponderBusExternal"]),
        .library(name: "KeyboardAvoidance", targets: ["KeyboardAvoidance"]),
        .library(name: "FieldAdvancing", targets: ["FieldAdvancing"]),
        .library(name: "TextViewOrdering", targets: ["TextViewOrdering"]),
        .library(name: "KeyboardNoise", targets: ["KeyboardNoise"]),
        .library(name: "CoveredControlWarner", targets: ["CoveredControlWarner"]),
        .library(name: "PasswordGap", targets: ["PasswordGap"]),
        .library(name: "ChatInputBar", targets: ["ChatInputBar"]),
        .library(name: "ResponderBusReport", targets: ["ResponderBusReport"]),
        .library(name: "ResponderBusWasm", targets: ["ResponderBusWasm"]),
        .executable(name: "responder-bus", targets: ["responder-bus"]),
        .executable(name: "responder-bus-example", targets: ["responder-bus-example"]),
        // `swift package responder-bus …` in a package that depends on this one.
        .plugin(name: "ResponderBusCommandPlugin", targets: ["ResponderBusCommandPlugin"]),
    ],
    traits: [
        // The replay pipeline (and so the command) loads `--plugin X.wasm`: on by default, so that
        // the command runs every kind of plugin `new-plugin` writes. A program that embeds the
        // replay without it depends on this package with `traits: []` (and builds no interpreter);
        // `swift build --disable-default-traits` builds the command without it.
        .trait(name: "WebAssembly", description: "WebAssembly plugins (--plugin X.wasm) in the replay pipeline and the command"),
        .default(enabledTraits: ["WebAssembly"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation`; nothing of it is built otherwise.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // The WebAssembly plugin host's interpreter; built only with the WebAssembly trait, or by a
        // program that uses the ResponderBusWasm product.
        .package(url: "https://github.com/swiftwasm/WasmKit.git", .upToNextMinor(from: "0.4.2")),
    ],
    targets: [
        .systemLibrary(
            name: "CLibUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"]), .brew(["libuv"])]
        ),
        // The platform layer: the one module that imports the C library (Glibc, Musl or Darwin) and
        // holds every call that differs between Linux and Darwin (threads, processes, signals,
        // files, the dynamic loader), a branch for each. Not a product: the package's own modules
        // use it (`package` declarations); `.ci/platform-layer` keeps the others off Glibc, Darwin
        // and `/proc`.
        .target(name: "ResponderBusPlatform"),
        .target(
            name: "ResponderBus",
            dependencies: [
                "ResponderBusPlatform",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        .target(
            name: "ResponderBusUV",
            dependencies: [
                "ResponderBus", "ResponderBusPlatform", "CLibUV",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // The log: its format, reading (and following a file by name), writing (the output files,
        // their descriptor I/O, the helper thread), replaying records onto a bus, the checks.
        .target(
            name: "EventLog",
            dependencies: ["ResponderBus", "ResponderBusPlatform", "CSignalCleanup", .product(name: "DequeModule", package: "swift-collections")]
        ),
        // The replay pipeline and its sessions: one log through the built-ins, libraries, commands
        // and in-process plugins, collecting what a caller asks for (recording, verifier, check,
        // timeline, report), its outputs to the caller's ReplaySinks.
        .target(
            name: "ResponderBusReplay",
            dependencies: [
                "ResponderBus", "ResponderBusPlatform", "ResponderBusUV", "EventLog", "ResponderBusExternal", "ResponderBusReport",
                "ResponderBusProject", "ResponderBusExplore", "KeyboardAvoidance", "FieldAdvancing", "TextViewOrdering",
                .target(name: "ResponderBusWasm", condition: .when(traits: ["WebAssembly"])),
            ]
        ),
        // The project file (`.responder-bus.json`): read with EventLog's JSON reader, every setting
        // checked and named by its dotted key, line and column.
        .target(name: "ResponderBusProject", dependencies: ["EventLog", "ResponderBusExternal", "ResponderBusPlatform"]),
        // The kit a plugin's tests use: what they need (the bus, the log, the out-of-process
        // plugin's conformance) and no more.
        .target(name: "ResponderBusTesting", dependencies: ["ResponderBus", "EventLog", "ResponderBusExternal", "ResponderBusExplore"]),
        // Recorded sessions as a test suite (`responder-bus test`): each through its folder's
        // pipeline, verified and checked, with JUnit.
        .target(
            name: "ResponderBusSessions",
            dependencies: [
                "ResponderBus", "ResponderBusPlatform", "EventLog", "ResponderBusExternal", "ResponderBusReplay", "ResponderBusReport",
                "ResponderBusExplore",
            ]
        ),
        // Generated sessions checked against the properties every pipeline keeps, and shrunk when
        // one breaks (`responder-bus explore`): the bus and the log, no replay pipeline, so that a
        // plugin's tests use it through the kit.
        .target(name: "ResponderBusExplore", dependencies: ["ResponderBus", "EventLog", "ResponderBusPlatform"]),
        // The importer of iOS console dumps and UIKit view-hierarchy dumps (`responder-bus import`):
        // a module of its own, so that a program that only replays does not build it.
        .target(name: "ConsoleImport", dependencies: ["EventLog", "ResponderBus"]),
        // What a signal ending the command removes: its outputs' temporary files and its plugins'
        // process groups (C: the handler may call only async-signal-safe functions).
        .target(name: "CSignalCleanup"),
        // Writing to a plugin process's pipe with SIGPIPE blocked on the writing thread.
        .target(name: "CPluginPipes"),
        // WebAssembly plugins (`--plugin X.wasm`): a module of its own, so that a program that does
        // not run them does not build the interpreter.
        .target(
            name: "ResponderBusWasm",
            dependencies: ["ResponderBus", "ResponderBusPlatform", "ResponderBusExternal", .product(name: "WasmKit", package: "WasmKit")]
        ),
        // Plugins from outside the host: libraries loaded with dlopen, processes, and the sandbox
        // WebAssembly modules share with them.
        .target(
            name: "ResponderBusExternal",
            dependencies: ["ResponderBus", "ResponderBusPlatform", "EventLog", "CLibUV", "CPluginPipes", "CSignalCleanup"]),
        // The HTML report of a replay (`replay --report`, `render`): a library of the package, so that
        // its tests run in the test process; the CLI only writes what it makes.
        .target(name: "ResponderBusReport", dependencies: ["ResponderBus", "EventLog"]),
        // The built-in plugins: each depends only on the public API of ResponderBus.
        .target(name: "KeyboardAvoidance", dependencies: ["ResponderBus"], path: "Plugins/KeyboardAvoidance"),
        .target(name: "FieldAdvancing", dependencies: ["ResponderBus"], path: "Plugins/FieldAdvancing"),
        .target(name: "TextViewOrdering", dependencies: ["ResponderBus"], path: "Plugins/TextViewOrdering"),
        .target(name: "KeyboardNoise", dependencies: ["ResponderBus"], path: "Plugins/KeyboardNoise"),
        // The plugin guide's second worked example: it checks KeyboardAvoidance's decisions.
        .target(name: "CoveredControlWarner", dependencies: ["ResponderBus"], path: "Plugins/CoveredControlWarner"),
        // The plugin guide's third worked example: a per-field gap given through the screen model.
        .target(name: "PasswordGap", dependencies: ["ResponderBus"], path: "Plugins/PasswordGap"),
        .target(name: "ChatInputBar", dependencies: ["ResponderBus"], path: "Plugins/ChatInputBar"),
        .executableTarget(
            name: "responder-bus",
            dependencies: [
                "ResponderBus", "ResponderBusPlatform", "ResponderBusUV", "EventLog", "KeyboardAvoidance", "FieldAdvancing", "TextViewOrdering",
                "ResponderBusReport", "ResponderBusExternal", "ResponderBusTesting", "ResponderBusSessions", "ResponderBusReplay", "ConsoleImport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Templates links to the repository's Templates/, the scaffolds the EmbedTemplates plugin
            // builds in: through it, SwiftPM plans the build again when a template is added or removed.
            exclude: ["Examples", "Templates"],
            // Plugins loaded with dlopen bind their ResponderBus symbols to the host's copy, which
            // the command exports: GNU ld's and lld's `--export-dynamic` on Linux, ld64's
            // `-export_dynamic` on macOS (without it a program's unused globals are dead-stripped).
            // On Linux the command is also named libResponderBus.so (the library a plugin library
            // needs: the dynamic loader takes a loaded object of that name before it searches any
            // folder), so a plugin library copied anywhere loads with nothing beside it; gold, the
            // toolchain's default linker, leaves a program's name out, lld (shipped with it) writes it.
            // A Mach-O program has no install name, so on macOS a plugin library is linked
            // `-flat_namespace` instead (the plugin templates do; see PluginLibrary).
            linkerSettings: [
                .unsafeFlags(["-Xlinker", "--export-dynamic"], .when(platforms: [.linux])),
                .unsafeFlags(["-use-ld=lld", "-Xlinker", "-soname=libResponderBus.so"], .when(platforms: [.linux])),
                .unsafeFlags(["-Xlinker", "-export_dynamic"], .when(platforms: [.macOS])),
            ],
            plugins: ["EmbedTemplates"]
        ),
        // The scaffolds `new-plugin` writes (Templates/), built into the command as string constants
        // by the embed-templates tool, so that an installed binary needs no checkout to write them.
        .plugin(name: "EmbedTemplates", capability: .buildTool(), dependencies: ["embed-templates"], path: "PackagePlugins/EmbedTemplates"),
        .executableTarget(name: "embed-templates"),
        // `swift package responder-bus …`: the command, run in the package's folder.
        .plugin(
            name: "ResponderBusCommandPlugin",
            capability: .command(
                intent: .custom(
                    verb: "responder-bus",
                    description: "Run responder-bus (test, replay, import, render) on the package's files; `test` alone tests sessions/"),
                permissions: commandPluginPermissions
            ),
            dependencies: ["responder-bus"],
            path: "PackagePlugins/ResponderBusCommandPlugin"
        ),
        .executableTarget(
            name: "responder-bus-example",
            dependencies: ["ResponderBus", "ResponderBusUV"]
        ),
        // The built-in keyboard avoidance served out of process (`--plugin-command`).
        .executableTarget(
            name: "keyboard-avoidance-process",
            dependencies: ["KeyboardAvoidance", "ResponderBusExternal"]
        ),
        // Any plugin under Plugins/ served out of process (`shipped-plugin-process NAME`): the tests
        // check that each decides out of process what it decides in process.
        .executableTarget(
            name: "shipped-plugin-process",
            dependencies: [
                "ResponderBus", "ResponderBusPlatform", "ResponderBusExternal", "KeyboardAvoidance", "FieldAdvancing", "TextViewOrdering",
                "KeyboardNoise", "CoveredControlWarner", "PasswordGap", "ChatInputBar",
            ]
        ),
        // The README's embedding example, word for word (a test compares them and runs it).
        .executableTarget(
            name: "readme-example",
            dependencies: ["ResponderBus", "ResponderBusUV"]
        ),
        // The platform layer's calls, each checked against what the system says another way.
        .testTarget(name: "ResponderBusPlatformTests", dependencies: ["ResponderBusPlatform"]),
        .testTarget(name: "ResponderBusTests", dependencies: ["ResponderBus", "ResponderBusPlatform"]),
        .testTarget(
            name: "PluginTests",
            dependencies: [
                "ResponderBus", "KeyboardAvoidance", "FieldAdvancing", "TextViewOrdering", "KeyboardNoise", "CoveredControlWarner",
                "PasswordGap", "ChatInputBar", "ResponderBusTesting",
            ]
        ),
        .testTarget(
            name: "ExploreTests",
            dependencies: ["ResponderBusExplore", "ResponderBusTesting", "KeyboardAvoidance", "FieldAdvancing", "TextViewOrdering"]
        ),
        .testTarget(
            name: "EventLogTests",
            dependencies: ["EventLog", "ResponderBus", "ResponderBusPlatform", "KeyboardAvoidance", "FieldAdvancing", "TextViewOrdering"]
        ),
        .testTarget(name: "ConsoleImportTests", dependencies: ["ConsoleImport", "EventLog", "ResponderBus"]),
        .testTarget(
            name: "CLITests",
            dependencies: ["responder-bus", "ResponderBusTesting", "ResponderBusPlatform"],
            exclude: ["Golden"]
        ),
        .testTarget(name: "ResponderBusUVTests", dependencies: ["ResponderBus", "ResponderBusUV", "ResponderBusPlatform"]),
        // Builds Examples/Embedding, a package of its own over this one, and runs its programs (and
        // `responder-bus test` beside session-checker).
        .testTarget(name: "EmbeddingTests", dependencies: ["responder-bus", "ResponderBusTesting", "ResponderBusPlatform"]),
        .testTarget(
            name: "ExternalPluginTests",
            dependencies: ["ResponderBusExternal", "ResponderBus", "ResponderBusPlatform", "EventLog", "KeyboardAvoidance"]),
        .testTarget(
            name: "ReplayTests",
            dependencies: [
                "ResponderBusReplay", "ResponderBus", "ResponderBusPlatform", "EventLog", "ResponderBusTesting", "ResponderBusReport",
                "ResponderBusExternal", "ResponderBusUV", "ResponderBusSessions", "CoveredControlWarner", "KeyboardNoise", "PasswordGap",
                "ChatInputBar",
            ]
        ),
        .testTarget(
            name: "WasmPluginTests",
            dependencies: [
                "ResponderBusWasm", "ResponderBus", "ResponderBusExternal", "ResponderBusReplay", "ResponderBusTesting", "EventLog", "KeyboardNoise",
            ],
            exclude: ["Modules"]
        ),
        .testTarget(
            name: "ReportTests",
            dependencies: [
                "ResponderBusReport", "ResponderBus", "EventLog", "ResponderBusTesting", "ResponderBusReplay", "KeyboardAvoidance",
                "FieldAdvancing", "TextViewOrdering",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
