// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "__PluginName__",
    products: [
        // The library `responder-bus replay --plugin` loads: .build/debug/lib__PluginName__.so
        .library(name: "__PluginName__", type: .dynamic, targets: ["__PluginName__"]),
    ],
    dependencies: [
        __Dependency__,
    ],
    targets: [
        // KeyboardAvoidance's own source (Builtin/KeyboardAvoidance links to the checkout's Plugins/KeyboardAvoidance),
        // built here against the ResponderBus product alone. Do not depend on the
        // `KeyboardAvoidance` product instead: it would link a second, static ResponderBus into the
        // library, and `responder-bus` refuses a library that carries its own copy.
        .target(
            name: "BuiltinKeyboardAvoidance", dependencies: [.product(name: "ResponderBus", package: "__PackageIdentity__")],
            path: "Builtin/KeyboardAvoidance", exclude: ["KeyboardAvoidance.docc"]),
        .target(name: "__PluginName__", dependencies: ["BuiltinKeyboardAvoidance", .product(name: "ResponderBus", package: "__PackageIdentity__")]),
        .testTarget(
            name: "__PluginName__Tests",
            dependencies: [
                "__PluginName__",
                .product(name: "ResponderBusTesting", package: "__PackageIdentity__"),
                // The built-in plugins, to test yours in the pipeline `responder-bus replay` runs.
                .product(name: "TextViewOrdering", package: "__PackageIdentity__"),
                .product(name: "FieldAdvancing", package: "__PackageIdentity__"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
