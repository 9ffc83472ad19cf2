/// The package `responder-bus new-plugin NAME --wrapping KeyboardAvoidance` writes: a plugin that
/// wraps a built-in plugin, loadable with `--plugin`.
///
/// It cannot depend on the built-in's product: SwiftPM links a library product's target
/// dependencies into the library that uses it, so the plugin's library would carry a copy of
/// ResponderBus, and the copy's symbols bind the library to itself (Swift gives them protected
/// visibility on ELF), not to the host's, which refuses it. Instead the package builds the built-in
/// from its source, through a link to the checkout's `Plugins/<Builtin>` folder, as a module of its
/// own (`Builtin<Builtin>`) that depends on the `ResponderBus` product alone: the library then holds
/// the built-in's code and binds to the host's one ResponderBus when it is loaded.
struct WrappingPluginTemplate {
    /// The built-ins a package can wrap this way.
    static let wrappable = ["KeyboardAvoidance"]

    let base: PluginTemplate
    /// The built-in plugin wrapped: one of ``wrappable``.
    let builtin: String

    var module: String { "Builtin\(builtin)" }
    /// Where the package reads the built-in's source: a link to the checkout's folder.
    var sourceLink: String { "Builtin/\(builtin)" }
    /// The checkout's folder the link points at.
    var sourceFolder: String { base.responderBus + "/Plugins/\(builtin)" }

    var files: [(String, String)] {
        [
            ("Package.swift", packageSwift),
            ("Sources/\(base.name)/\(base.name).swift", plugin),
            ("Sources/\(base.name)/EntryPoints.swift", base.entryPoints),
            ("Tests/\(base.name)Tests/\(base.name)Tests.swift", tests),
            ("README.md", readme),
            (".gitignore", ".build/\n.swiftpm/\nPackage.resolved\n"),
        ]
    }

    var packageSwift: String {
        let name = base.name
        let identity = base.identity
        return """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "\(name)",
                products: [
                    // The library `responder-bus replay --plugin` loads: .build/debug/lib\(name).so
                    .library(name: "\(name)", type: .dynamic, targets: ["\(name)"]),
                ],
                dependencies: [
                    \(base.dependency),
                ],
                targets: [
                    // \(builtin)'s own source (\(sourceLink) links to the checkout's Plugins/\(builtin)),
                    // built here against the ResponderBus product alone. Do not depend on the
                    // `\(builtin)` product instead: it would link a second, static ResponderBus into the
                    // library, and `responder-bus` refuses a library that carries its own copy.
                    .target(
                        name: "\(module)", dependencies: [.product(name: "ResponderBus", package: "\(identity)")],
                        path: "\(sourceLink)", exclude: ["\(builtin).docc"]),
                    .target(name: "\(name)", dependencies: ["\(module)", .product(name: "ResponderBus", package: "\(identity)")]),
                    \(base.testTarget(builtIns: ["TextViewOrdering", "FieldAdvancing"]))
                ],
                swiftLanguageModes: [.v6]
            )

            """
    }

    var plugin: String {
        let name = base.name
        return """
            import \(module)
            import ResponderBus

            /// KeyboardAvoidance, wrapped: it decides exactly as the built-in does, under this plugin's
            /// name, with a rule of yours around each call. Here, a field whose id ends in `password` keeps
            /// 40 points above the keyboard, every other field 20.
            ///
            /// Run it in place of the built-in: `responder-bus replay LOG --plugin lib\(name).so --disable
            /// KeyboardAvoidance`. (To change only the gap of some fields, a plugin placed before the
            /// built-in that posts `viewSettings` needs no wrapping: see the plugin guide's step 9.)
            public final class \(name): KeyboardObserving, EditingObserving, EventObserving, TurnSettledObserving {
                /// The plugin's name, as it appears in the `"by"` of what it derives.
                public let name = "\(name)"
                private let avoidance = KeyboardAvoidance(name: "\(name)")

                /// Creates the plugin.
                public init() {}

                /// Where the built-in runs: after the plugins that settle turns and advance fields.
                public var preferredPosition: PluginPosition? { .after("FieldAdvancing") }

                /// The events besides keyboard and editing events avoidance decides on.
                public var observedEvents: Set<AnyEventName>? { avoidance.observedEvents }

                /// Chooses the gap for the focused field, before avoidance decides.
                private func chooseGap(_ context: PluginContext) {
                    let isPassword = context.firstResponder?.id.rawValue.lowercased().hasSuffix("password") ?? false
                    let gap: Double = isPassword ? 40 : 20
                    // Set only when it changes: a new setting makes avoidance decide again.
                    if avoidance.defaultGap != gap { avoidance.defaultGap = gap }
                }

                /// Forwards every keyboard event.
                public func keyboardEvent(_ event: Event<KeyboardInfo>, context: PluginContext) {
                    chooseGap(context)
                    avoidance.keyboardEvent(event, context: context)
                }

                /// Forwards `didBeginEditing`.
                public func didBeginEditing(_ event: Event<EditingInfo>, context: PluginContext) {
                    chooseGap(context)
                    avoidance.didBeginEditing(event, context: context)
                }

                /// Forwards `didEndEditing`.
                public func didEndEditing(_ event: Event<EditingInfo>, context: PluginContext) {
                    chooseGap(context)
                    avoidance.didEndEditing(event, context: context)
                }

                /// Forwards the other events avoidance observes.
                public func observe(_ event: AnyEvent, context: PluginContext) {
                    chooseGap(context)
                    avoidance.observe(event, context: context)
                }

                /// Forwards `turnSettled`.
                public func turnSettled(_ event: Event<TurnSettled>, context: PluginContext) {
                    chooseGap(context)
                    avoidance.turnSettled(event, context: context)
                }
            }

            """
    }

    var tests: String {
        let name = base.name
        return """
            import \(module)
            import FieldAdvancing
            import ResponderBus
            import ResponderBusTesting
            import Testing
            import TextViewOrdering
            import \(name)

            /// The built-ins `responder-bus replay` runs before it (KeyboardAvoidance is the one it replaces).
            func builtIns() -> [any ResponderPlugin] { [TextViewOrdering(), FieldAdvancing()] }

            @Suite struct \(name)Tests {
                @Test("passes the ResponderBus plugin conformance suite in the pipeline it replaces avoidance in")
                func conformance() throws {
                    try PluginConformance(companions: builtIns) { \(name)() }.check()
                }

                @Test("a password field keeps 40 points above the keyboard, another field 20", arguments: CannedScreens.Device.all)
                func gaps(_ device: CannedScreens.Device) throws {
                    for (field, gap) in [("password", 40.0), ("username", 20.0)] {
                        let scene = CannedScreens.login(on: device)
                        let session = CannedScreens.session(on: device, scene: scene, focusing: ViewID(field))
                        let outcome = try PluginHarness.replay(session, header: device.header, through: [\(name)()], companions: builtIns())
                        let shifts = outcome.derived(by: "\(name)").compactMap { $0.event.as(.viewShift)?.payload }
                        let moved = try #require(shifts.first { $0.originY < 0 }, "it moves the root for \\(field) on \\(device)")
                        // Where the built-in's rule puts the root for that field and gap.
                        let frame = try #require(Self.frame(of: ViewID(field), in: scene.root))
                        let target = AvoidanceRule.rootTarget(
                            fieldMinY: frame.minY, fieldMaxY: frame.maxY, gap: gap, keyboardTop: device.screen.height - device.keyboardHeight,
                            screenHeight: device.screen.height, safeTop: device.safeArea.top)
                        #expect(moved.originY == target)
                    }
                }

                static func frame(of id: ViewID, in root: ViewSpec, origin: Point = .zero) -> Rect? {
                    let frame = root.frame.offsetBy(dx: origin.x, dy: origin.y)
                    if root.id == id { return frame }
                    for child in root.children {
                        if let found = self.frame(of: id, in: child, origin: frame.origin) { return found }
                    }
                    return nil
                }
            }

            """
    }

    var readme: String {
        let name = base.name
        return """
            # \(name)

            A [ResponderBus](file://\(base.responderBus)) plugin that wraps the built-in \(builtin).

            ```sh
            swift build && swift test
            responder-bus replay session.jsonl --plugin .build/debug/lib\(name).so --disable \(builtin)
            ```

            - `Sources/\(name)/\(name).swift` — the wrapper: it forwards every event to a \(builtin) it owns,
              with its own rule around each call.
            - `\(sourceLink)` — a link to \(builtin)'s source in the ResponderBus checkout, built here as the
              module `\(module)` against the `ResponderBus` product alone, so that the library binds to the
              one ResponderBus of the `responder-bus` that loads it. Depending on the `\(builtin)` product
              instead would put a second ResponderBus into the library, which `responder-bus` refuses.
            - `Sources/\(name)/EntryPoints.swift` — the two C entry points `responder-bus` loads the plugin
              through. Keep them.
            - `Tests/\(name)Tests` — tests with the ResponderBusTesting kit.

            Build it with the same Swift toolchain and ResponderBus source as the `responder-bus` that loads it.
            `\(sourceLink)` is an absolute link into that checkout: when the checkout moves, or the package
            is used on another machine, point it at the checkout there (`ln -sfn CHECKOUT/Plugins/\(builtin) \(sourceLink)`).

            """
    }
}
