// swift-tools-version: 6.1
// The ResponderBus benchmarks: a separate package, so neither the main build nor CI's test run
// builds them. Run `Benchmarks/run.sh` (see `Benchmarks/README.md`).
import PackageDescription

let package = Package(
    name: "ResponderBusBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    ],
    targets: [
        // C: a malloc counter (interposes malloc and friends in the benchmark executable) and the
        // raw-libuv baseline (uv_async_send + a mutex-guarded ring of structs), written in C so that
        // it is the cheapest hand-off a user's own glue could do.
        .target(
            name: "CBenchSupport",
            linkerSettings: [.linkedLibrary("uv"), .linkedLibrary("pthread", .when(platforms: [.linux]))]
        ),
        // An external plugin that decides nothing, for group 6 (plugins out of process).
        .executableTarget(
            name: "NullKeyboardProcess",
            dependencies: [
                .product(name: "ResponderBus", package: "main"),
                .product(name: "ResponderBusExternal", package: "main"),
            ]
        ),
        .executableTarget(
            name: "BusBenchmarks",
            dependencies: [
                "CBenchSupport",
                .product(name: "ResponderBus", package: "main"),
                .product(name: "ResponderBusUV", package: "main"),
                .product(name: "EventLog", package: "main"),
                .product(name: "ConsoleImport", package: "main"),
                .product(name: "ResponderBusExternal", package: "main"),
                .product(name: "ResponderBusWasm", package: "main"),
                .product(name: "KeyboardAvoidance", package: "main"),
                .product(name: "FieldAdvancing", package: "main"),
                .product(name: "TextViewOrdering", package: "main"),
                .product(name: "ResponderBusExplore", package: "main"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            // Plugin libraries loaded with dlopen bind to this program's ResponderBus: GNU ld's and
            // lld's --export-dynamic on Linux, ld64's -export_dynamic on macOS (see PluginLibrary).
            linkerSettings: [
                .unsafeFlags(["-Xlinker", "--export-dynamic"], .when(platforms: [.linux])),
                .unsafeFlags(["-Xlinker", "-export_dynamic"], .when(platforms: [.macOS])),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
