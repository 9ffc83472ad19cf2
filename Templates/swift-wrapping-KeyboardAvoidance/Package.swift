// swift-tools-version: 6.0
import PackageDescription

// On macOS a plugin library binds to the ResponderBus of the program that loads it only when linked
// flat (a Mach-O program cannot stand in for libResponderBus.dylib by name, as an ELF one does on
// Linux): every plugin target takes these settings. See PluginLibrary in ResponderBusExternal.
let pluginLinking: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "-flat_namespace"], .when(platforms: [.macOS]))]

let package = Package(
    name: "__PluginName__",
    // ResponderBus's own: SwiftPM refuses a dependency that needs a later macOS than its dependent.
    platforms: [.macOS(.v15)],
    products: [
        // The library `responder-bus replay --plugin` loads: .build/debug/__PluginLibrary__
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
        .target(
            name: "__PluginName__", dependencies: ["BuiltinKeyboardAvoidance", .product(name: "ResponderBus", package: "__PackageIdentity__")],
            linkerSettings: pluginLinking),
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
