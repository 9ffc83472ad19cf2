// swift-tools-version: 6.1
import PackageDescription

// Four programs built on ResponderBus as a dependent package would build them (see the
// "Embedding ResponderBus" article of ResponderBusReplay); the repository's EmbeddingTests build
// and run them.
let package = Package(
    name: "Embedding",
    platforms: [.macOS(.v15)],
    dependencies: [
        // A dependent outside this repository writes
        // .package(url: "https://github.com/<owner>/ResponderBus", from: "…") instead. `traits: []`
        // leaves out the WebAssembly trait (on by default): none of these programs loads a
        // .wasm plugin, so the interpreter is not built. The dependency also brings the command
        // plugin: `swift package responder-bus test` tests sessions/.
        .package(name: "ResponderBus", path: "../..", traits: [])
    ],
    targets: [
        // `responder-bus test`'s lines, summary, JUnit and exit code, from SessionSuite.
        .executableTarget(
            name: "session-checker",
            dependencies: [.product(name: "ResponderBusSessions", package: "ResponderBus")]
        ),
        // The built-in plugins on the libuv loop, producer threads posting, consumers awaiting.
        .executableTarget(
            name: "live-service",
            dependencies: [
                .product(name: "ResponderBus", package: "ResponderBus"),
                .product(name: "ResponderBusUV", package: "ResponderBus"),
                .product(name: "ResponderBusReplay", package: "ResponderBus"),
            ]
        ),
        // Several devices' sessions pushed live from threads into one libuv loop.
        .executableTarget(
            name: "live-ingest",
            dependencies: [
                .product(name: "EventLog", package: "ResponderBus"),
                .product(name: "ResponderBusReplay", package: "ResponderBus"),
                .product(name: "ResponderBusUV", package: "ResponderBus"),
            ]
        ),
        // A console paste imported and replayed in memory into the HTML report and an SVG frame.
        .executableTarget(
            name: "import-report",
            dependencies: [
                .product(name: "ConsoleImport", package: "ResponderBus"),
                .product(name: "ResponderBusReplay", package: "ResponderBus"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
