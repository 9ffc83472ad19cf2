import Foundation
import Testing

/// The words of a reference page's code: its inline code spans and fenced blocks, as identifiers.
enum ReferencePage {
    static func codeWords(_ page: String) -> Set<String> {
        var code = ""
        var fenced = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                fenced.toggle()
                continue
            }
            if fenced {
                code += line + "\n"
            } else {
                for (index, part) in line.split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
                    code += part + "\n"
                }
            }
        }
        return Set(code.matches(of: #/[A-Za-z_]\w*/#).map { String($0.0) })
    }

    /// The names `exported` has that the page's code never spells.
    static func missing(_ exported: Set<String>, from path: String) -> [String] {
        let words = codeWords(KitText.read(path))
        return exported.subtracting(words).sorted()
    }
}

/// Each WebAssembly kit has a reference page in ResponderBusWasm's documentation; every name the
/// kit exports is on it, in code, so that a name added to a kit without a line on its page fails.
@Suite("the WebAssembly kits' reference pages name everything the kits export")
struct KitReferenceTests {
    static let cPage = "Sources/ResponderBusWasm/ResponderBusWasm.docc/CPluginKit.md"
    static let swiftPage = "Sources/ResponderBusWasm/ResponderBusWasm.docc/EmbeddedSwiftPluginKit.md"

    /// The C header's names: its `rb_` and `RB_` identifiers, and the fields of its structures.
    static func cNames() -> Set<String> {
        var names = Set(KitText.cHeader.matches(of: #/\b(?:rb|RB)_\w+/#).map { String($0.0) })
        for match in KitText.cHeader.matches(of: #/\}\s*(rb_\w+);/#) {
            names.formUnion(KitText.cStruct(String(match.1)).keys)
        }
        return names
    }

    /// The Embedded Swift kit's names: its declarations at the top level and in its types (not in
    /// function bodies), neither private nor starting with `_`.
    static func swiftNames() -> Set<String> {
        var names = Set<String>()
        // Whether each open brace is a type's body (a declaration in it is exported).
        var blocks: [Bool] = []
        let declaration =
            #/^\s*(?:@[^\s]+(?:\([^)]*\))?\s+)*(?:(?:static|nonisolated\(unsafe\)|mutating|indirect)\s+)*(func|var|let|enum|struct|case|typealias|init)\b\s*([A-Za-z_]\w*)?/#
        for line in KitText.swiftKit.split(separator: "\n") {
            if blocks.allSatisfy({ $0 }), !line.contains("private"), let match = line.firstMatch(of: declaration), let name = match.2 {
                if !name.hasPrefix("_") { names.insert(String(name)) }
                // `var a: T, b: T` declares two.
                if match.1 == "var" { names.formUnion(line.matches(of: #/,\s*(\w+):/#).map { String($0.1) }) }
            }
            let opensType = line.firstMatch(of: #/^\s*(?:\w+\s+)*(?:enum|struct|extension|class)\s/#) != nil
            for character in line {
                if character == "{" { blocks.append(opensType && blocks.allSatisfy { $0 }) }
                if character == "}", !blocks.isEmpty { blocks.removeLast() }
            }
        }
        return names
    }

    @Test("every name of the C header is on the C kit's reference page")
    func cPageNamesEverything() {
        let names = Self.cNames()
        #expect(names.count > 100, "the C header's names were not found")
        let missing = ReferencePage.missing(names, from: Self.cPage)
        #expect(missing.isEmpty, "\(Self.cPage) does not name \(missing.joined(separator: ", ")), which \(KitText.cHeaderPath) exports")
    }

    @Test("every name of the Embedded Swift kit is on its reference page")
    func swiftPageNamesEverything() {
        let names = Self.swiftNames()
        #expect(names.isSuperset(of: ["EventKind", "keyboardWillShow", "coveredPart", "postViewSettings", "rb_post_view_settings", "safeRight"]))
        #expect(!names.contains("raw") && !names.contains("eventBuffer"), "locals and private names are not exported: \(names.sorted())")
        let missing = ReferencePage.missing(names, from: Self.swiftPage)
        #expect(missing.isEmpty, "\(Self.swiftPage) does not name \(missing.joined(separator: ", ")), which \(KitText.swiftKitPath) exports")
    }

    @Test("each kit's README points at its reference page and at the restart rule")
    func readmesLink() {
        for (readme, page) in [
            ("PluginKits/c-wasm/README.md", "CPluginKit.md"), ("PluginKits/swift-wasm/README.md", "EmbeddedSwiftPluginKit.md"),
        ] {
            let text = KitText.read(readme)
            #expect(text.contains(page), "\(readme) does not link its reference page \(page)")
            #expect(text.contains("RestartsAndCatchUp.md"), "\(readme) does not link the restart rule")
        }
        for page in [Self.cPage, Self.swiftPage] {
            #expect(KitText.read(page).contains("*Restarts and catch-up*"), "\(page) does not name the restart rule")
        }
    }
}
