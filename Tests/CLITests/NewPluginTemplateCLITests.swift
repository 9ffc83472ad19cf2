import Foundation
import Testing

@Suite("new-plugin's templates (Templates/): every file there is written by some kind, and no placeholder is left in what is written")
struct NewPluginTemplateCLITests {
    /// The plugin's name in every kind written.
    static let name = "TemplateProbe"

    /// Every kind `new-plugin` writes, as its options (a URL for the dependency's other fragment).
    static var kinds: [[String]] {
        let swift = [
            ["--responder-bus", CLI.repository.path], ["--responder-bus", "https://example.com/ResponderBus.git"],
            ["--out-of-process", "--responder-bus", CLI.repository.path],
            ["--out-of-process", "--responder-bus", "https://example.com/ResponderBus.git"],
            ["--wrapping", "KeyboardAvoidance", "--responder-bus", CLI.repository.path],
            ["--language", "python", "--responder-bus", CLI.repository.path],
        ]
        guard CLI.loadsWebAssembly else { return swift }
        return swift + ["c-wasm", "swift-wasm"].map { ["--language", $0, "--responder-bus", CLI.repository.path] }
    }

    /// A placeholder as `Templates/README.md` defines it: `__`, an UpperCamelCase word, `__`.
    static let placeholder = "__[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*__"

    /// The regular files under `folder` (not what a symbolic link leads to), by relative path.
    static func files(under folder: String, prefix: String = "") throws -> [String: String] {
        var files: [String: String] = [:]
        for entry in try FileManager.default.contentsOfDirectory(atPath: folder + "/" + prefix) {
            let path = prefix + entry
            let type = try FileManager.default.attributesOfItem(atPath: folder + "/" + path)[.type] as? FileAttributeType
            if type == .typeDirectory {
                files.merge(try Self.files(under: folder, prefix: path + "/")) { old, _ in old }
            } else if type == .typeRegular {
                files[path] = try String(contentsOfFile: folder + "/" + path, encoding: .utf8)
            }
        }
        return files
    }

    /// A regular expression for `template`'s text with each placeholder standing for any text,
    /// matching a whole file (`whole`, for a template) or a part of one (for a fragment).
    static func expression(for template: String, whole: Bool) throws -> NSRegularExpression {
        let parts = try template.split(separator: Regex(placeholder), omittingEmptySubsequences: false)
        let pattern = parts.map { NSRegularExpression.escapedPattern(for: String($0)) }.joined(separator: ".*?")
        return try NSRegularExpression(pattern: whole ? "^" + pattern + "$" : pattern, options: [.dotMatchesLineSeparators])
    }

    /// Whether `expression` matches in `text`.
    static func matches(_ expression: NSRegularExpression, _ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// What every kind writes: each kind's files, by relative path.
    static func written() throws -> [(kind: [String], files: [String: String])] {
        try kinds.map { options in
            let folder = URL(fileURLWithPath: try CLI.temporaryFile("")).deletingLastPathComponent().path
            let made = try CLI.run(["new-plugin", name, "--path", folder] + options)
            #expect(made.status == 0, "\(options): \(made.stderr)")
            return (options, try files(under: folder + "/" + name))
        }
    }

    @Test("no placeholder is left in any file any kind writes, nor in its path")
    func noPlaceholderLeft() throws {
        for (kind, files) in try Self.written() {
            #expect(!files.isEmpty, "\(kind) wrote no file")
            for (path, text) in files {
                let both = path + "\n" + text
                let left = try both.matches(of: Regex(Self.placeholder)).map { String(both[$0.range]) }
                #expect(left.isEmpty, "\(kind): \(path) holds \(left)")
            }
        }
    }

    @Test("every file of Templates/ is used: a template is written, placeholders filled, by some kind; a fragment is in some file written")
    func everyTemplateIsUsed() throws {
        let templates = try Self.files(under: CLI.repository.appendingPathComponent("Templates").path).filter { $0.key.contains("/") }
        #expect(templates.count > 20, "Templates/ has \(templates.count) templates")
        let written = try Self.written()
        for (path, template) in templates.sorted(by: { $0.key < $1.key }) {
            let folder = String(path.prefix { $0 != "/" })
            let relative = String(path.dropFirst(folder.count + 1)).replacingOccurrences(of: "__PluginName__", with: Self.name)
            var used = false
            if folder == "fragments" {
                // Inserted without its final newline.
                let expression = try Self.expression(for: template.hasSuffix("\n") ? String(template.dropLast()) : template, whole: false)
                used = written.contains { $0.files.values.contains { Self.matches(expression, $0) } }
            } else {
                let expression = try Self.expression(for: template, whole: true)
                used = written.contains { $0.files[relative].map { Self.matches(expression, $0) } ?? false }
            }
            #expect(used, "Templates/\(path) is in no file new-plugin writes")
        }
    }
}
