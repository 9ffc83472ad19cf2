// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "__PluginName__",
    products: [
        // The library `responder-bus replay --plugin` loads: .build/debug/lib__PluginName__.so.
        // Another plugin is another such product and target (README.md, "More plugins").
        .library(name: "__PluginName__", type: .dynamic, targets: ["__PluginName__"]),
    ],
    dependencies: [
        __Dependency__,
    ],
    targets: [
        .target(name: "__PluginName__", dependencies: [.product(name: "ResponderBus", package: "__PackageIdentity__")]),
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
