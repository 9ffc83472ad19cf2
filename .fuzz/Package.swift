// swift-tools-version: 6.0
// The libFuzzer targets for the EventLog reader and the console importer. A separate package in a
// dot-folder, so the main package's `swift build` / `swift test` never build it; run it with
// `bash .fuzz/run.sh SECONDS` from the repository's root (see README.md here).
import PackageDescription

// libFuzzer provides `main`; SwiftPM links an executable with `--defsym main=<Module>_main`, so each
// target is compiled as a library (`-parse-as-library`, no `@main`) and defines `<Module>_main` itself,
// handing over to `LLVMFuzzerRunDriver` (TOOLCHAIN-NOTES §4).
let fuzzSettings: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "ResponderBusFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ResponderBus", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "FuzzLogReader",
            dependencies: [
                .product(name: "EventLog", package: "ResponderBus"),
                .product(name: "ResponderBus", package: "ResponderBus"),
                // What the reader accepts is also replayed through the built-in plugins and checks.
                .product(name: "KeyboardAvoidance", package: "ResponderBus"),
                .product(name: "FieldAdvancing", package: "ResponderBus"),
                .product(name: "TextViewOrdering", package: "ResponderBus"),
            ],
            swiftSettings: fuzzSettings
        ),
        .executableTarget(
            name: "FuzzImporter",
            dependencies: [
                .product(name: "ConsoleImport", package: "ResponderBus"),
                .product(name: "EventLog", package: "ResponderBus"),
                .product(name: "ResponderBus", package: "ResponderBus"),
            ],
            swiftSettings: fuzzSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
