import ResponderBus

/// The files `responder-bus new-plugin` writes.
struct PluginTemplate {
    let name: String
    let responderBus: String
    let isURL: Bool
    /// Served as a process of its own (`--plugin-command`) rather than loaded as a library.
    var outOfProcess = false

    /// SwiftPM's identity for the dependency: its last path component, without `.git`.
    var identity: String {
        var last = String(responderBus.split(separator: "/").last ?? "responder-bus")
        if last.hasSuffix(".git") { last.removeLast(4) }
        return Self.literal(last.lowercased())
    }

    var files: [(String, String)] {
        [
            ("Package.swift", outOfProcess ? processPackageSwift : packageSwift),
            ("Sources/\(name)/\(name).swift", plugin),
            outOfProcess ? ("Sources/\(name)-process/main.swift", processMain) : ("Sources/\(name)/EntryPoints.swift", entryPoints),
            ("Tests/\(name)Tests/\(name)Tests.swift", tests),
            ("README.md", outOfProcess ? processReadme : readme),
            (".gitignore", ".build/\n.swiftpm/\nPackage.resolved\n"),
        ]
    }

    /// The package of a plugin served out of process: the plugin's library, the executable that
    /// serves it, and the same tests.
    var processPackageSwift: String {
        """
        // swift-tools-version: 6.0
        import PackageDescription

        let package = Package(
            name: "\(name)",
            products: [
                // What `responder-bus replay --plugin-command` runs: .build/debug/\(name)-process
                .executable(name: "\(name)-process", targets: ["\(name)-process"]),
                .library(name: "\(name)", targets: ["\(name)"]),
            ],
            dependencies: [
                \(dependency),
            ],
            targets: [
                .target(name: "\(name)", dependencies: [.product(name: "ResponderBus", package: "\(identity)")]),
                .executableTarget(
                    name: "\(name)-process",
                    dependencies: ["\(name)", .product(name: "ResponderBusExternal", package: "\(identity)")]
                ),
                \(testTarget)
            ],
            swiftLanguageModes: [.v6]
        )

        """
    }

    var processMain: String {
        """
        // Serves the plugin out of process: `responder-bus replay LOG --plugin-command .build/debug/\(name)-process`.
        // The plugin's source is the same one a library would load in-process.
        import ResponderBusExternal
        import \(name)

        #if canImport(Glibc)
            import Glibc
        #endif

        exit(ExternalPluginMain.run(\(name)()))

        """
    }

    var processReadme: String {
        """
        # \(name)

        A [ResponderBus](\(isURL ? responderBus : "file://" + responderBus)) plugin, served out of process.

        ```sh
        swift build && swift test
        responder-bus replay session.jsonl --plugin-command .build/debug/\(name)-process
        responder-bus check-plugin -- .build/debug/\(name)-process
        ```

        - `Sources/\(name)/\(name).swift` — the plugin, written against the usual protocols: the same
          source could be loaded in-process.
        - `Sources/\(name)-process/main.swift` — serves it with `ExternalPluginMain`, speaking the
          `responder-bus-plugin` protocol on standard input and output. A crash or a hang is reported
          and contained; the replay goes on.
        - `Tests/\(name)Tests` — tests with the ResponderBusTesting kit.

        Out of process, the plugin need not be built with the toolchain `responder-bus` was built with:
        the protocol, not the ABI, is the contract.

        """
    }

    /// The test target both packages declare, indented for its place in `targets:`.
    var testTarget: String { testTarget(builtIns: ["TextViewOrdering", "FieldAdvancing", "KeyboardAvoidance"]) }

    /// The test target, with the built-in plugins its tests run the plugin with.
    func testTarget(builtIns: [String]) -> String {
        let products = builtIns.map { "\n                .product(name: \"\($0)\", package: \"\(identity)\")," }.joined()
        return """
            .testTarget(
                        name: "\(name)Tests",
                        dependencies: [
                            "\(name)",
                            .product(name: "ResponderBusTesting", package: "\(identity)"),
                            // The built-in plugins, to test yours in the pipeline `responder-bus replay` runs.\(products)
                        ]
                    ),
            """
    }

    var dependency: String {
        let location = Self.literal(responderBus)
        return isURL ? ".package(url: \"\(location)\", branch: \"main\")" : ".package(path: \"\(location)\")"
    }

    /// `text` as the contents of a Swift string literal: a quote, a backslash or a control
    /// character in a path or URL cannot end the literal and become code in `Package.swift`, which
    /// SwiftPM runs.
    static func literal(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    var packageSwift: String {
        """
        // swift-tools-version: 6.0
        import PackageDescription

        let package = Package(
            name: "\(name)",
            products: [
                // The library `responder-bus replay --plugin` loads: .build/debug/lib\(name).so
                .library(name: "\(name)", type: .dynamic, targets: ["\(name)"]),
            ],
            dependencies: [
                \(dependency),
            ],
            targets: [
                .target(name: "\(name)", dependencies: [.product(name: "ResponderBus", package: "\(identity)")]),
                \(testTarget)
            ],
            swiftLanguageModes: [.v6]
        )

        """
    }

    var plugin: String {
        """
        import ResponderBus

        /// Says, each time the keyboard shows, which field it showed for — or that no field was focused
        /// yet (a text view's keyboard comes before its didBeginEditing).
        ///
        /// Replace this with your plugin: conform to the capability protocols you need
        /// (`KeyboardObserving`, `EditingObserving`, `ReturnKeyObserving`, `EventObserving`,
        /// `TurnSettledObserving` to decide once per turn, `TurnObserving` to look once a turn's
        /// decisions are applied), implement only the callbacks you
        /// use, read the screen and the keyboard through the context, and post what you decide through it.
        public final class \(name): KeyboardObserving {
            /// The plugin's name, as it appears in the `"by"` of what it derives.
            public let name = "\(name)"
            /// Where it goes in the pipeline when `--plugin` does not say (`nil`: last). A plugin that
            /// checks avoidance's decisions says `.after("KeyboardAvoidance")`; the tests below must then
            /// run it with the built-ins, as `PluginConformance(companions: builtIns)` and
            /// `PluginHarness.replay(…, companions: builtIns())` do, wherever they run it alone.
            public var preferredPosition: PluginPosition? { nil }

            /// Creates the plugin.
            public init() {}

            /// Reports the field the keyboard showed for.
            public func keyboardWillShow(_ event: Event<KeyboardInfo>, context: PluginContext) {
                let field = context.firstResponder.map { "'\\($0.id)'" } ?? "no field yet"
                context.diagnose(.info, "the keyboard showed for \\(field)")
            }
        }

        """
    }

    var entryPoints: String {
        """
        import ResponderBus

        // The two symbols `responder-bus replay --plugin` looks for (see `PluginABI`).

        /// The plugin API version this library was built against.
        @_cdecl("\(PluginABI.versionSymbol)")
        public func responderBusPluginAPIVersion() -> Int32 { PluginABI.version }

        /// Makes a new plugin, retained once for the host.
        @_cdecl("\(PluginABI.makeSymbol)")
        public func responderBusPluginMake() -> PluginABI.Handle {
            PluginABI.handle(for: \(name)())
        }

        """
    }

    var tests: String {
        """
        import FieldAdvancing
        import KeyboardAvoidance
        import ResponderBus
        import ResponderBusTesting
        import Testing
        import TextViewOrdering
        import \(name)

        /// The plugins `responder-bus replay` runs before yours, in its order.
        func builtIns() -> [any ResponderPlugin] { [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance()] }

        @Suite struct \(name)Tests {
            @Test("passes the ResponderBus plugin conformance suite, alone and in the built-in pipeline")
            func conformance() throws {
                try PluginConformance { \(name)() }.check()
                try PluginConformance(companions: builtIns) { \(name)() }.check()
            }

            @Test("in the pipeline replay runs, it sees the keyboard avoidance moved the screen for")
            func inThePipeline() throws {
                let device = CannedScreens.Device.iPhoneX
                let session = CannedScreens.session(on: device, scene: CannedScreens.signUp(on: device), focusing: "password")
                let outcome = try PluginHarness.replay(session, header: device.header, through: [\(name)()], companions: builtIns())
                #expect(!outcome.derived(by: "KeyboardAvoidance").isEmpty)
                #expect(outcome.diagnostics.contains("info: the keyboard showed for 'password'"))
            }

            @Test("reports the field the keyboard showed for", arguments: CannedScreens.Device.all)
            func reportsTheField(_ device: CannedScreens.Device) throws {
                let session = CannedScreens.session(on: device, scene: CannedScreens.login(on: device), focusing: "password")
                let outcome = try PluginHarness.replay(session, header: device.header, through: [\(name)()])
                #expect(outcome.diagnostics == ["info: the keyboard showed for 'password'"])
            }

            @Test("says so when a text view's keyboard comes first")
            func textView() throws {
                let device = CannedScreens.Device.iPhoneX
                let session = CannedScreens.session(
                    on: device, scene: CannedScreens.textViewInScrollView(on: device), focusing: "notes", kind: .textView)
                let outcome = try PluginHarness.replay(session, header: device.header, through: [\(name)()])
                #expect(outcome.diagnostics == ["info: the keyboard showed for no field yet"])
            }
        }

        """
    }

    var readme: String {
        """
        # \(name)

        A [ResponderBus](\(isURL ? responderBus : "file://" + responderBus)) plugin.

        ```sh
        swift build && swift test
        responder-bus replay session.jsonl --plugin .build/debug/lib\(name).so
        ```

        - `Sources/\(name)/\(name).swift` — the plugin. Conform to the capability protocols you need and
          implement only the callbacks you use.
        - `Sources/\(name)/EntryPoints.swift` — the two C entry points `responder-bus` loads the plugin
          through. Keep them.
        - `Tests/\(name)Tests` — tests with the ResponderBusTesting kit: the conformance suite, canned
          screens and sessions, and a replay harness.

        Build the plugin with the same Swift toolchain and the same ResponderBus source as the
        `responder-bus` that loads it: Swift has no stable ABI on Linux, and `responder-bus` refuses a
        library built for another plugin API version. It also refuses a library that others can write
        to (`chmod go-w`).

        """
    }
}
