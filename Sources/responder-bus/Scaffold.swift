import ResponderBus
import ResponderBusExternal
import ResponderBusPlatform

/// The files of a plugin `responder-bus new-plugin` writes: template folders of the repository's
/// `Templates/` (embedded in the command when it is built, as `EmbeddedTemplates`), laid down in
/// order, their placeholders filled.
///
/// A template's path under its folder is the file's path in the plugin's folder; a later folder's
/// file replaces an earlier one's at the same path. A placeholder is `__` and an UpperCamelCase word
/// and `__` (`__PluginName__`), in a file's path or text; its value is never read for placeholders
/// again. `Templates/README.md` lists the folders and placeholders.
struct Scaffold {
    /// The template folders, in the order they are laid down.
    let folders: [String]
    /// Each placeholder's value, by its word (`PluginName` for `__PluginName__`).
    let values: [String: String]

    /// The files (path in the plugin's folder, text): the first folder's in path order, then the
    /// next folders' new paths; a later folder's file takes an earlier one's place.
    var files: [(String, String)] {
        var files: [(path: String, text: String)] = []
        for folder in folders {
            let prefix = folder + "/"
            let templates = EmbeddedTemplates.files.filter { $0.path.hasPrefix(prefix) }
            precondition(!templates.isEmpty, "no template folder Templates/\(folder) was built into the command")
            for template in templates {
                let file = (
                    path: Self.fill(String(template.path.dropFirst(prefix.count)), with: values), text: Self.fill(template.text, with: values)
                )
                if let index = files.firstIndex(where: { $0.path == file.path }) {
                    files[index] = file
                } else {
                    files.append(file)
                }
            }
        }
        return files.map { ($0.path, $0.text) }
    }

    /// `text` with each placeholder `values` has a value for replaced by it; other text, an
    /// unknown placeholder included, is left as it is.
    static func fill(_ text: String, with values: [String: String]) -> String {
        var out = ""
        var rest = text[...]
        while let open = rest.firstRange(of: "__") {
            let word = rest[open.upperBound...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber) }
            if let value = values[String(word)], rest[word.endIndex...].hasPrefix("__") {
                out += rest[..<open.lowerBound] + value
                rest = rest[rest.index(word.endIndex, offsetBy: 2)...]
            } else {
                // One character on: `test___PluginName__` has its placeholder a character later.
                let next = rest.index(after: open.lowerBound)
                out += rest[..<next]
                rest = rest[next...]
            }
        }
        return out + rest
    }

    /// The text of `Templates/fragments/<name>`, without its final newline: what a placeholder
    /// whose value depends on an option is filled with.
    static func fragment(_ name: String, with values: [String: String]) -> String {
        guard var text = EmbeddedTemplates.files.first(where: { $0.path == "fragments/" + name })?.text else {
            preconditionFailure("no template fragment Templates/fragments/\(name) was built into the command")
        }
        if text.hasSuffix("\n") { text.removeLast() }
        return fill(text, with: values)
    }
}

extension Scaffold {
    /// The built-ins a Swift package can wrap (`--wrapping`): those with a template folder
    /// `swift-wrapping-<Builtin>`.
    static let wrappable: [String] = {
        let prefix = "swift-wrapping-"
        let folders = EmbeddedTemplates.files.compactMap { $0.path.split(separator: "/").first.map(String.init) }
        return Set(folders.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }).sorted()
    }()

    /// A Swift package depending on `responderBus` (a checkout's path, or a git URL): the plugin as
    /// a library `replay --plugin` loads, served as a process of its own (`--plugin-command`), or
    /// wrapping the built-in `wrapping` (a library, and `responderBus` a checkout's path).
    static func swift(name: String, responderBus: String, isURL: Bool, outOfProcess: Bool = false, wrapping: String? = nil) -> Scaffold {
        var values = [
            "PluginName": name,
            "ResponderBusLiteral": literal(responderBus),
            "PackageIdentity": identity(of: responderBus),
            "ResponderBusLink": isURL ? responderBus : "file://" + responderBus,
            "PluginAPIVersionSymbol": PluginABI.versionSymbol(forLibrary: name),
            "PluginMakeSymbol": PluginABI.makeSymbol(forLibrary: name),
            // What SwiftPM calls the libraries on this system: `.so` on Linux, `.dylib` on macOS.
            "PluginLibrary": PluginLibrary.fileName(forPlugin: name),
            "ResponderBusLibrary": PluginLibrary.fileName(forPlugin: "ResponderBus"),
            "LibraryNamePattern": PluginLibrary.fileName(forPlugin: "<Name>"),
            "LibraryExtension": LoadedImages.libraryExtension,
        ]
        values["Dependency"] = fragment(isURL ? "Dependency.url" : "Dependency.path", with: values)
        let folders = ["swift", outOfProcess ? "swift-process" : "swift-library"] + (wrapping.map { ["swift-wrapping-" + $0] } ?? [])
        return Scaffold(folders: folders, values: values)
    }

    /// A Python plugin, run out of process (the author module is copied beside it from the checkout).
    static func python(name: String) -> Scaffold {
        Scaffold(folders: ["python"], values: ["PluginName": name])
    }

    /// A WebAssembly plugin in C (`c-wasm`) or Embedded Swift (`swift-wasm`) whose test script runs
    /// `responderBus` (the kit is copied beside it from the checkout).
    static func webAssembly(name: String, language: String, responderBus: String) -> Scaffold {
        Scaffold(folders: ["wasm", language], values: ["PluginName": name, "ResponderBusCommand": responderBus])
    }

    /// SwiftPM's identity for the dependency on `responderBus`: its last path component, without
    /// `.git`, lowercased, as the contents of a string literal.
    static func identity(of responderBus: String) -> String {
        var last = String(responderBus.split(separator: "/").last ?? "responder-bus")
        if last.hasSuffix(".git") { last.removeLast(4) }
        return literal(last.lowercased())
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
}
