// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "__PluginName__",
    // ResponderBus's own: SwiftPM refuses a dependency that needs a later macOS than its dependent.
    platforms: [.macOS(.v15)],
    products: [
        // What `responder-bus replay --plugin-command` runs: .build/debug/__PluginName__-process
        .executable(name: "__PluginName__-process", targets: ["__PluginName__-process"]),
        .library(name: "__PluginName__", targets: ["__PluginName__"]),
    ],
    dependencies: [
        __Dependency__,
    ],
    targets: [
        .target(name: "__PluginName__", dependencies: [.product(name: "ResponderBus", package: "__PackageIdentity__")]),
        .executableTarget(
            name: "__PluginName__-process",
            dependencies: ["__PluginName__", .product(name: "ResponderBusExternal", package: "__PackageIdentity__")]
        ),
        .testTarget(
            name: "__PluginName__Tests",
            dependencies: [
                "__PluginName__",
                .product(name: "ResponderBusTesting", package: "__PackageIdentity__"),
                // The built-in plugins, to test yours in the pipeline `responder-bus replay` runs.
                .product(name: "TextViewOrdering", package: "__PackageIdentity__"),
                .product(name: "FieldAdvancing", package: "__PackageIdentity__"),
                .product(name: "KeyboardAvoidance", package: "__PackageIdentity__"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
