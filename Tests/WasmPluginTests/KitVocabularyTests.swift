import EventLog
import Foundation
import ResponderBus
import ResponderBusWasm
import Testing

/// The C header and the Embedded Swift kit restate the ABI in their languages; these tests hold
/// them to the Swift source of truth field by field — the vocabulary (`BuiltinEvent`), the ABI's
/// tables and constants (``WasmPluginABI``), the payload structs (`KeyboardInfo`, `ViewShift`, …) —
/// and say which kit lacks which name. Adding an event: give it a kind in `WasmPluginABI.eventKinds`,
/// then add what these tests name to `responder_bus_plugin.h` and `ResponderBusPlugin.swift`.
@Suite("the WebAssembly kits and the event table agree, name by name")
struct KitVocabularyTests {
    static let c = "the C kit (\(KitText.cHeaderPath))"
    static let swift = "the Embedded Swift kit (\(KitText.swiftKitPath))"

    @Test("every event a log may hold has an ABI kind; turnSettled has none")
    func everyEventHasAKind() {
        for event in BuiltinEvent.allCases where event.isInLog {
            #expect(
                WasmPluginABI.kind(of: event.anyName) != nil,
                "the event '\(event.name)' has no kind in WasmPluginABI.eventKinds: give it the next number (none is ever reused)")
        }
        #expect(WasmPluginABI.kind(of: BuiltinEvent.turnSettled.anyName) == nil)
    }

    @Test("the C header names every event kind with the ABI's number, and no other")
    func cEventKinds() {
        let declared = KitText.cEnum(titled: "Event kinds")
        var expected: [String] = []
        for (kind, name) in WasmPluginABI.eventKinds {
            let constant = "RB_" + KitText.screaming(name.rawValue)
            expected.append(constant)
            #expect(
                KitText.cConstants[constant] == Int(kind),
                "\(Self.c) lacks \(constant) = \(kind) in its event kinds, for the event '\(name.rawValue)'")
        }
        #expect(declared.count > 10, "the event kinds' enum of \(Self.c) was not found")
        for stale in declared where !expected.contains(stale) {
            Issue.record("\(Self.c) declares the event kind \(stale), which WasmPluginABI.eventKinds does not have")
        }
    }

    @Test(
        "the Embedded Swift kit's EventKind has every event kind with the ABI's number and name, and its keyboard and hide lists are the vocabulary's"
    )
    func swiftEventKinds() throws {
        let cases = KitText.swiftEnumCases("EventKind")
        #expect(cases.count > 10, "EventKind was not found in \(Self.swift)")
        for (kind, name) in WasmPluginABI.eventKinds {
            #expect(
                cases.contains { $0.name == name.rawValue && $0.value == Int(kind) },
                "\(Self.swift) lacks `case \(name.rawValue) = \(kind)` in EventKind")
            #expect(
                KitText.swiftKit.contains("case .\(name.rawValue): \"\(name.rawValue)\""),
                "\(Self.swift): EventKind's description lacks `case .\(name.rawValue): \"\(name.rawValue)\"`")
        }
        for stale in cases where WasmPluginABI.event(ofKind: Int32(stale.value))?.rawValue != stale.name {
            Issue.record("\(Self.swift): EventKind has `case \(stale.name) = \(stale.value)`, which WasmPluginABI.eventKinds does not have")
        }
        func list(_ name: String) throws -> [String] {
            let start = try #require(KitText.swiftKit.range(of: "static let \(name): [EventKind] = ["), "\(Self.swift) lacks EventKind.\(name)")
            let end = try #require(KitText.swiftKit[start.upperBound...].firstIndex(of: "]"))
            return KitText.swiftKit[start.upperBound..<end].matches(of: #/\.(\w+)/#).map { String($0.1) }
        }
        let keyboard = EventName<KeyboardInfo>.allKeyboardEvents
        #expect(try list("keyboardEvents") == keyboard.map(\.rawValue), "\(Self.swift): EventKind.keyboardEvents")
        #expect(try list("hideEvents") == keyboard.filter(\.isHide).map(\.rawValue), "\(Self.swift): EventKind.hideEvents")
    }

    @Test("both kits' view kinds are the ABI's, in its order")
    func viewKinds() {
        let swiftKinds = KitText.swiftEnumCases("ViewKind")
        for (number, kind) in WasmPluginABI.viewKinds.enumerated() {
            let constant = "RB_" + KitText.screaming(kind.rawValue)
            #expect(KitText.cConstants[constant] == number, "\(Self.c) lacks \(constant) = \(number), the view kind '\(kind.rawValue)'")
            #expect(
                swiftKinds.contains { $0.name == kind.rawValue && $0.value == number },
                "\(Self.swift) lacks `case \(kind.rawValue) = \(number)` in ViewKind")
        }
        #expect(swiftKinds.count == WasmPluginABI.viewKinds.count, "\(Self.swift): ViewKind has kinds the ABI does not")
    }

    @Test("both kits' flag bits, positions and diagnostic levels are the ABI's, each under the ABI's name")
    func constants() {
        // WasmPluginABI's enums of constants, read from its source so that a constant added there
        // is a constant the kits must have.
        for (enumName, swiftOptionSet) in [("ViewFlag", "ViewFlags"), ("KeyboardFlag", "KeyboardFlags"), ("Position", nil)] {
            let constants = KitText.abiConstants(enumName)
            #expect(constants.count >= 4, "WasmPluginABI.\(enumName) was not found in \(KitText.abiPath)")
            let swiftOptions = swiftOptionSet.map(KitText.swiftOptions) ?? [:]
            for (name, value) in constants {
                let constant = "RB_" + KitText.screaming(name)
                #expect(KitText.cConstants[constant] == value, "\(Self.c) lacks \(constant) = \(value) (WasmPluginABI.\(enumName).\(name))")
                if let swiftOptionSet {
                    #expect(swiftOptions[name] == value, "\(Self.swift) lacks `static let \(name)` = \(value) in \(swiftOptionSet)")
                } else {
                    let pattern = "case .\(name)"
                    let line = KitText.swiftKit.split(separator: "\n").first { $0.contains(pattern) && $0.contains("rb_set_position(") }
                    #expect(line?.contains("rb_set_position(\(value),") == true, "\(Self.swift): setPosition(.\(name)) does not pass \(value)")
                }
            }
        }
        let swiftLevels = KitText.swiftEnumCases("DiagnosticLevel")
        for (number, level) in WasmPluginABI.levels.enumerated() {
            let constant = "RB_" + KitText.screaming(level.rawValue)
            #expect(KitText.cConstants[constant] == number, "\(Self.c) lacks \(constant) = \(number), the level '\(level.rawValue)'")
            #expect(
                swiftLevels.contains { $0.name == level.rawValue && $0.value == number },
                "\(Self.swift) lacks `case \(level.rawValue) = \(number)` in DiagnosticLevel")
        }
    }

    /// The host functions a kit declares: import name → WebAssembly parameter and result types.
    static func declaredImports(c: Bool) -> [String: (parameters: String, results: String)] {
        var imports: [String: (parameters: String, results: String)] = [:]
        func types(_ list: Substring) -> String {
            list.split(separator: ",").map { parameter in
                // A C parameter is `type name`; a Swift one `_ name: Type`.
                let type =
                    c ? String(parameter.split(separator: " ").dropLast().joined(separator: " ")) : String(parameter.split(separator: ":").last ?? "")
                return KitText.wasmType(type.replacingOccurrences(of: "const ", with: "") + (c && parameter.contains("*") ? "*" : ""))
            }.filter { !$0.isEmpty }.joined(separator: " ")
        }
        if c {
            for match in KitText.cHeader.matches(of: #/RB_IMPORT\((\w+)\)\s+([\w ]+?)\s+\**rb_\w+\(([^)]*)\);/#) {
                imports[String(match.1)] = (types(match.3), KitText.wasmType(String(match.2)))
            }
        } else {
            let pattern = #/@_extern\(wasm, module: "(\w+)", name: "(\w+)"\) @_extern\(c\)\s+func \w+\(([^)]*)\)(?:\s*->\s*(\w+))?/#
            for match in KitText.swiftKit.matches(of: pattern) {
                #expect(String(match.1) == WasmPluginABI.importModule, "\(Self.swift) imports '\(match.2)' from module '\(match.1)'")
                imports[String(match.2)] = (types(match.3), match.4.map { KitText.wasmType(String($0)) } ?? "")
            }
        }
        return imports
    }

    @Test("both kits declare every host function with the ABI's types, and none the host does not offer")
    func imports() {
        for (c, kit) in [(true, Self.c), (false, Self.swift)] {
            let declared = Self.declaredImports(c: c)
            func signature(_ parameters: String, _ results: String) -> String { "(\(parameters)) -> (\(results))" }
            for function in WasmPluginABI.imports {
                let found = declared[function.name]
                let wanted = signature(function.parameters, function.results)
                #expect(found != nil, "\(kit) does not declare the host function '\(function.name)' \(wanted)")
                if let found {
                    let given = signature(found.parameters, found.results)
                    #expect(given == wanted, "\(kit) declares '\(function.name)' as \(given), not \(wanted)")
                }
            }
            for name in declared.keys where !WasmPluginABI.imports.contains(where: { $0.name == name }) {
                Issue.record("\(kit) declares the host function '\(name)', which WasmPluginABI.imports does not offer")
            }
        }
    }

    @Test("both kits export the ABI's entry points, speak its version and lend an event buffer of its size")
    func exportsAndSizes() {
        let exports = [
            WasmPluginABI.Export.abiVersion, WasmPluginABI.Export.initialize, WasmPluginABI.Export.eventBuffer, WasmPluginABI.Export.onEvent,
        ]
        let cExports = Set(KitText.cHeader.matches(of: #/RB_EXPORT\((\w+)\) int32_t/#).map { String($0.1) })
        let swiftExports = Set(KitText.swiftKit.matches(of: #/@_expose\(wasm, "(\w+)"\)/#).map { String($0.1) })
        #expect(cExports == Set(exports), "\(Self.c) exports \(cExports.sorted()), not \(exports)")
        #expect(swiftExports == Set(exports), "\(Self.swift) exports \(swiftExports.sorted()), not \(exports)")
        #expect(KitText.cHeader.contains("#define RB_ABI_VERSION \(WasmPluginABI.version)"), "\(Self.c): RB_ABI_VERSION")
        #expect(KitText.swiftKit.contains("let abiVersion: Int32 = \(WasmPluginABI.version)"), "\(Self.swift): abiVersion")
        #expect(KitText.cStruct("rb_keyboard").isEmpty == false, "\(Self.c): rb_keyboard was not found")
        #expect(KitText.cHeader.contains("unsigned char bytes[\(WasmPluginABI.eventBufferSize)]"), "\(Self.c): rb_payload's size")
        #expect(KitText.swiftKit.contains("let eventBufferSize = \(WasmPluginABI.eventBufferSize)"), "\(Self.swift): eventBufferSize")
    }

    /// The stored properties of a payload, by name, with their types without `Optional`.
    static func fields(of payload: Any) -> [(name: String, type: String)] {
        Mirror(reflecting: payload).children.compactMap { child in
            guard let label = child.label else { return nil }
            let type = String(describing: Swift.type(of: child.value))
            return (label, type.hasPrefix("Optional<") ? String(type.dropFirst(9).dropLast()) : type)
        }
    }

    /// A payload type's field types in the kits: C, then Embedded Swift.
    static let kitTypes: [String: (c: String, swift: String)] = [
        "Rect": ("rb_rect", "Rect"), "Double": ("double", "Double"), "Int": ("int32_t", "Int32"), "Bool": ("flag", "Bool"),
    ]

    @Test("the payloads the ABI lays out have every field of the bus's payload structs, with their types, in both kits")
    func payloadFields() {
        let layouts: [(payload: Any, c: String, swift: String, optional: Bool)] = [
            (KeyboardInfo(), "rb_keyboard", "KeyboardPayload", true),
            (ViewShift(originY: 0), "rb_view_shift", "ViewShiftPayload", false),
        ]
        let keyboardFlags = KitText.cEnum(titled: "Keyboard payload flags")
        for layout in layouts {
            let cFields = KitText.cStruct(layout.c)
            let swiftFields = KitText.swiftStruct(layout.swift)
            #expect(!cFields.isEmpty && !swiftFields.isEmpty, "\(layout.c) or \(layout.swift) was not found")
            for field in Self.fields(of: layout.payload) {
                let types = Self.kitTypes[field.type]
                #expect(types != nil, "the payload field '\(field.name)' is a \(field.type): say what the kits make of it here")
                guard let types else { continue }
                let cName = KitText.snake(field.name)
                if types.c == "flag" {
                    let flag = "RB_" + KitText.screaming(field.name)
                    #expect(keyboardFlags.contains(flag), "\(Self.c) lacks the flag \(flag) for \(layout.c)'s '\(field.name)'")
                } else {
                    #expect(cFields[cName] == types.c, "\(Self.c): \(layout.c) lacks `\(types.c) \(cName);` for the field '\(field.name)'")
                }
                if layout.optional, layout.c == "rb_keyboard" {
                    let presence = "RB_HAS_" + KitText.screaming(field.name)
                    #expect(keyboardFlags.contains(presence), "\(Self.c) lacks the flag \(presence): whether the event carried '\(field.name)'")
                }
                let swiftType = types.swift + (layout.optional ? "?" : "")
                #expect(swiftFields[field.name] == swiftType, "\(Self.swift): \(layout.swift) lacks `var \(field.name): \(swiftType)`")
            }
        }
        let focus = Self.fields(of: FocusChange(from: nil, to: nil)).map(\.name)
        #expect(
            KitText.swiftKit.contains("case focusChange(" + focus.map { "\($0): View?" }.joined(separator: ", ") + ")"),
            "\(Self.swift): Payload.focusChange's labels are not \(focus)")
    }
}
