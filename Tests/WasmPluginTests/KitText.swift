import Foundation

/// The author kits' sources and the ABI's Swift source, as text, and the small parsers the kit
/// tests read them with.
enum KitText {
    static let cHeaderPath = "PluginKits/c-wasm/responder_bus_plugin.h"
    static let swiftKitPath = "PluginKits/swift-wasm/ResponderBusPlugin.swift"
    static let abiPath = "Sources/ResponderBusWasm/WasmPluginABI.swift"

    /// A file of the repository, `""` when it cannot be read (the tests then fail on what is missing).
    static func read(_ path: String) -> String {
        (try? String(contentsOf: WasmModules.repository.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    static let cHeader = withoutComments(read(cHeaderPath), c: true)
    static let swiftKit = withoutComments(read(swiftKitPath), c: false)
    static let abi = withoutComments(read(abiPath), c: false)

    /// The text without its comments (`/* … */` and, for Swift, `// …`), so that a name in a comment
    /// is never taken for a declaration.
    static func withoutComments(_ text: String, c: Bool) -> String {
        var result = text.replacing(#/(?s)\/\*.*?\*\//#, with: " ")
        if !c { result = result.replacing(#/(?m)//[^\n]*/#, with: "") }
        return result
    }

    /// `keyboardWillChangeFrame` → `KEYBOARD_WILL_CHANGE_FRAME`; `isLocal` → `IS_LOCAL`.
    static func screaming(_ name: String) -> String { snake(name).uppercased() }

    /// `originY` → `origin_y`.
    static func snake(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase, !result.isEmpty { result += "_" }
            result += character.lowercased()
        }
        return result
    }

    /// The body of the first `{ … }` block after `opening` (braces balanced), `nil` when absent.
    static func block(after opening: String, in text: String) -> Substring? {
        guard let start = text.range(of: opening), let brace = text[start.upperBound...].firstIndex(of: "{") else { return nil }
        var depth = 0
        var index = brace
        while index < text.endIndex {
            if text[index] == "{" { depth += 1 }
            if text[index] == "}" {
                depth -= 1
                if depth == 0 { return text[text.index(after: brace)..<index] }
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// The `public static let NAME: Int32 = N` constants of an enum of WasmPluginABI.swift, by name.
    static func abiConstants(_ enumName: String) -> [String: Int] {
        guard let body = block(after: "enum \(enumName) ", in: abi) else { return [:] }
        var constants: [String: Int] = [:]
        for match in body.matches(of: #/static let (\w+): Int32 = (\d+)/#) { constants[String(match.1)] = Int(match.2) }
        return constants
    }

    /// The C header's `RB_X = N` constants, by name.
    static let cConstants: [String: Int] = {
        var constants: [String: Int] = [:]
        for match in cHeader.matches(of: #/\b(RB_[A-Z0-9_]+)\s*=\s*(\d+)/#) { constants[String(match.1)] = Int(match.2) }
        return constants
    }()

    /// The names of the constants of the C header's enum that follows the comment `/* title`.
    static func cEnum(titled title: String) -> [String] {
        let raw = read(cHeaderPath)
        guard let start = raw.range(of: "/* " + title), let body = block(after: "enum", in: String(raw[start.upperBound...])) else { return [] }
        return body.matches(of: #/\b(RB_[A-Z0-9_]+)\s*=/#).map { String($0.1) }
    }

    /// The fields of a C `typedef struct { … } NAME;` (or union), by name, with their types.
    static func cStruct(_ name: String) -> [String: String] {
        guard let end = cHeader.range(of: "} \(name);") else { return [:] }
        let before = cHeader[..<end.lowerBound]
        let openings = ["typedef struct {", "typedef union {"].compactMap { before.range(of: $0, options: .backwards) }
        guard let start = openings.max(by: { $0.lowerBound < $1.lowerBound }) else { return [:] }
        return fields(String(cHeader[start.upperBound..<end.lowerBound]))
    }

    /// `int32_t kind, flags; double x;` → kind, flags: int32_t; x: double.
    static func fields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for declaration in body.split(separator: ";") {
            let words = declaration.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," }).map(String.init)
            guard words.count >= 2 else { continue }
            let type = words[0] == "unsigned" ? words[0] + " " + words[1] : words[0]
            for name in words.dropFirst(type.contains(" ") ? 2 : 1) {
                fields[name.replacing(#/\[.*\]/#, with: "")] = type
            }
        }
        return fields
    }

    /// The `var NAME: TYPE` properties of a struct of the Swift kit, by name.
    static func swiftStruct(_ name: String) -> [String: String] {
        guard let body = block(after: "struct \(name):", in: swiftKit) ?? block(after: "struct \(name) ", in: swiftKit) else { return [:] }
        var properties: [String: String] = [:]
        for match in body.matches(of: #/(?m)^    var (\w+): ([\w?]+)/#) { properties[String(match.1)] = String(match.2) }
        return properties
    }

    /// The `case NAME = N` cases of an enum of the Swift kit, in order.
    static func swiftEnumCases(_ name: String) -> [(name: String, value: Int)] {
        guard let body = block(after: "enum \(name):", in: swiftKit) else { return [] }
        return body.matches(of: #/case (\w+) = (\d+)/#).map { (String($0.1), Int($0.2) ?? -1) }
    }

    /// The Swift kit's `static let NAME = T(rawValue: N)` option bits of an `OptionSet`, by name.
    static func swiftOptions(_ name: String) -> [String: Int] {
        guard let body = block(after: "struct \(name): OptionSet", in: swiftKit) else { return [:] }
        var options: [String: Int] = [:]
        for match in body.matches(of: #/static let (\w+) = \w+\(rawValue: (\d+)\)/#) { options[String(match.1)] = Int(match.2) }
        return options
    }

    /// The WebAssembly type of a C or Swift parameter or result type: `int32_t`, `Int32` and
    /// pointers are `i32`, `double` and `Double` are `f64`, `void` is nothing.
    static func wasmType(_ type: String) -> String {
        let type = type.trimmingCharacters(in: .whitespaces)
        if type.contains("*") || type.hasPrefix("Unsafe") || type == "int32_t" || type == "Int32" { return "i32" }
        if type == "double" || type == "Double" { return "f64" }
        if type.isEmpty || type == "void" { return "" }
        return "?\(type)"
    }
}
