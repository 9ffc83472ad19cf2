import ResponderBusExternal
import ResponderBusPlatform
import Testing

@testable import ResponderBusReplay

/// A value of the wrong type, and the error that names it.
struct ProjectFileValueCase: Sendable, CustomTestStringConvertible {
    /// The member on line 3 of the file, from column 3.
    var member: String
    var key: String
    var column: Int
    var message: String

    var testDescription: String { member }

    /// The file: an unknown key on line 2, `member` on line 3.
    var text: String { "{\n  \"comment\": \"on line 2\",\n  \(member)\n}\n" }
}

/// A file that is not strict JSON, and where and why.
struct ProjectFileSyntaxCase: Sendable, CustomTestStringConvertible {
    var text: String
    var line: Int
    var column: Int
    var message: String

    var testDescription: String { text }
}

/// A folder made with `mkdtemp`; what the test makes in it is removed with it.
private final class ProjectFileScratch {
    let root: String
    private var made: [(path: String, isFolder: Bool)] = []

    init() throws {
        var template = Array("/tmp/projectfile-tests-XXXXXX".utf8CString)
        let folder = try #require(mkdtemp(&template))
        // The real path, so that paths found through `..` (resolved with realpath) compare equal.
        let real = try #require(realpath(folder, nil))
        root = String(cString: real)
        free(real)
    }

    deinit {
        for entry in made.reversed() {
            if entry.isFolder { rmdir(entry.path) } else { unlink(entry.path) }
        }
        rmdir(root)
    }

    /// Makes the folder `relative` (and the folders on the way) under the root; its path.
    @discardableResult
    func folder(_ relative: String) -> String {
        var path = root
        for part in relative.split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o755) == 0 { made.append((path, true)) }
        }
        return path
    }

    /// Writes the file `relative` under the root; its path.
    @discardableResult
    func file(_ relative: String, _ bytes: [UInt8]) -> String {
        let path = root + "/" + relative
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor >= 0 {
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            if !made.contains(where: { $0.path == path }) { made.append((path, false)) }
        }
        return path
    }

    @discardableResult
    func file(_ relative: String, _ text: String) -> String { file(relative, Array(text.utf8)) }

    /// Writes `bytes` to a new file, calls `body` with its path, and removes it. (A new file each
    /// time: rewriting one in place with `O_TRUNC` makes ext4 flush it to disk, which is slow.)
    @discardableResult
    func withFile<Result, Failure: Error>(_ bytes: [UInt8], _ body: (String) throws(Failure) -> Result) throws(Failure) -> Result {
        let path = root + "/transient.json"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor >= 0 {
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        defer { unlink(path) }
        return try body(path)
    }
}

@Suite("ProjectFile: the pipeline's .responder-bus.json")
struct ProjectFileTests {
    private static let projectPath = "/p/.responder-bus.json"

    /// The error parsing `text` throws, or `nil` when it parses.
    private static func parseError(_ text: String, path: String = projectPath) -> ProjectFileError? {
        do {
            _ = try ProjectFile(parsing: text, path: path)
            return nil
        } catch {
            return error
        }
    }

    private static let fullFile = """
        {
            "disable": ["FieldAdvancing", "TextViewOrdering"],
            "plugins": ["libs/libWarner.so@after:KeyboardAvoidance", "/opt/lib/libA.so"],
            "pluginCommands": ["python3 plugins/gap.py"],
            "pluginTimeout": 200,
            "pluginFailure": "continue",
            "allowConflicts": true,
            "keyboardAvoidance": {"keyboardDistance": 20.5, "timing": "settledTurns", "honorsOtherAppsKeyboards": true},
            "fieldAdvancing": {"order": "position", "textViewReturnAdvances": false},
            "textViewOrdering": {"settleWindow": 0, "heldFrameTimeout": 1000}
        }

        """

    // MARK: Valid files

    @Test("a file with every key reads every value")
    func fullFileReadsEveryValue() throws {
        let file = try ProjectFile(parsing: Self.fullFile, path: "/work/sessions/.responder-bus.json")
        #expect(file.path == "/work/sessions/.responder-bus.json")
        #expect(file.disable == ["FieldAdvancing", "TextViewOrdering"])
        #expect(file.plugins == ["libs/libWarner.so@after:KeyboardAvoidance", "/opt/lib/libA.so"])
        #expect(file.pluginCommands == ["python3 plugins/gap.py"])
        #expect(file.pluginTimeout == 200)
        #expect(file.pluginFailure == "continue")
        #expect(file.allowConflicts == true)
        #expect(file.keyboardDistance == 20.5)
        #expect(file.avoidanceTiming == "settledTurns")
        #expect(file.honorsOtherAppsKeyboards == true)
        #expect(file.fieldOrder == "position")
        #expect(file.textViewReturnAdvances == false)
        #expect(file.settleWindow == 0)
        #expect(file.heldFrameTimeout == 1000)
        #expect(file.warnings == [])
        #expect(file.folder == "/work/sessions")
        #expect(file.resolvedPlugins == ["/work/sessions/libs/libWarner.so@after:KeyboardAvoidance", "/opt/lib/libA.so"])
        #expect(file == (try ProjectFile(parsing: Self.fullFile, path: "/work/sessions/.responder-bus.json")))
        #expect(ProjectFile.fileName == ".responder-bus.json")
    }

    @Test("an empty object sets nothing, and null is the same as absent")
    func emptyAndNullSetNothing() throws {
        let nulls = """
            {"disable": null, "plugins": null, "pluginCommands": null, "pluginTimeout": null, "pluginFailure": null, "allowConflicts": null,
             "keyboardAvoidance": {"keyboardDistance": null, "timing": null, "honorsOtherAppsKeyboards": null},
             "fieldAdvancing": null, "textViewOrdering": {"settleWindow": null, "heldFrameTimeout": null}}
            """
        for text in ["{}", " \n\t{ }\r\n", nulls] {
            let file = try ProjectFile(parsing: text, path: Self.projectPath)
            #expect(file.disable == nil)
            #expect(file.plugins == nil)
            #expect(file.resolvedPlugins == nil)
            #expect(file.pluginCommands == nil)
            #expect(file.pluginTimeout == nil)
            #expect(file.pluginFailure == nil)
            #expect(file.allowConflicts == nil)
            #expect(file.keyboardDistance == nil)
            #expect(file.avoidanceTiming == nil)
            #expect(file.honorsOtherAppsKeyboards == nil)
            #expect(file.fieldOrder == nil)
            #expect(file.textViewReturnAdvances == nil)
            #expect(file.settleWindow == nil)
            #expect(file.heldFrameTimeout == nil)
            #expect(file.warnings == [])
        }
    }

    @Test("numbers: integers written as 1e3 or 5.0 are integers; bounds are included; lists may be empty")
    func numbersAndBounds() throws {
        let text = """
            {"pluginTimeout": 1e3, "keyboardAvoidance": {"keyboardDistance": 10000}, "textViewOrdering": {"settleWindow": 60000.0,
             "heldFrameTimeout": 600000}, "disable": [], "pluginFailure": "stop"}
            """
        let file = try ProjectFile(parsing: text, path: Self.projectPath)
        #expect(file.pluginTimeout == 1000)
        #expect(file.keyboardDistance == 10000)
        #expect(file.settleWindow == 60000)
        #expect(file.heldFrameTimeout == 600_000)
        #expect(file.disable == [])
        #expect(file.pluginFailure == "stop")
        let low = try ProjectFile(parsing: #"{"pluginTimeout": 1, "keyboardAvoidance": {"keyboardDistance": -0.0}}"#, path: Self.projectPath)
        #expect(low.pluginTimeout == 1)
        #expect(low.keyboardDistance == 0)
    }

    @Test("every JSON escape is decoded, \\u surrogate pairs too; keys are compared decoded")
    func escapesAreDecoded() throws {
        let text = #"{"pluginCommands": ["a\"b\\c\/d\"\b\f\n\r\t\u00e9\uD83D\uDE00 \u65e5"], "\u0064isable": ["Field\u0041dvancing"]}"#
        let file = try ProjectFile(parsing: text, path: Self.projectPath)
        #expect(file.pluginCommands == ["a\"b\\c/d\"\u{8}\u{C}\n\r\t\u{E9}\u{1F600} 日"])
        #expect(file.disable == ["FieldAdvancing"])
    }

    @Test("a byte order mark at the start is skipped, and columns count from after it")
    func byteOrderMarkIsSkipped() throws {
        let file = try ProjectFile(parsing: "\u{FEFF}{\"pluginTimeout\": 5}", path: Self.projectPath)
        #expect(file.pluginTimeout == 5)
        let error = Self.parseError("\u{FEFF}{\"pluginTimeout\": \"x\"}")
        #expect(error?.line == 1)
        #expect(error?.column == 19)
        #expect(error?.key == "pluginTimeout")

        let scratch = try ProjectFileScratch()
        let path = scratch.file("bom.json", [0xEF, 0xBB, 0xBF] + Array("{\"pluginCommands\": [\"A\"]}".utf8))
        #expect(try ProjectFile(contentsOf: path).pluginCommands == ["A"])
    }

    // MARK: Values of the wrong type

    static let valueCases: [ProjectFileValueCase] = [
        .init(
            member: #""disable": "FieldAdvancing""#, key: "disable", column: 14,
            message: #"expected an array of plugin names (strings), got "FieldAdvancing""#),
        .init(
            member: #""disable": ["FieldAdvancing", 3]"#, key: "disable[1]", column: 33,
            message: "expected a plugin name (a non-empty string), got 3"),
        .init(
            member: #""disable": ["KeyboardNoise"]"#, key: "disable[0]", column: 15,
            message: "'KeyboardNoise' is no built-in plugin; the built-in plugins are TextViewOrdering, FieldAdvancing, KeyboardAvoidance"),
        .init(
            member: #""pluginCommands": ["python3 'x"]"#, key: "pluginCommands[0]", column: 22, message: "unterminated single quote in 'python3 'x'"),
        .init(
            member: #""plugins": [""]"#, key: "plugins[0]", column: 15,
            message: #"expected a plugin library path (a non-empty string such as "libs/libWarner.so@after:KeyboardAvoidance"), got """#),
        .init(
            member: #""plugins": {}"#, key: "plugins", column: 14, message: "expected an array of plugin library paths (strings), got an object"),
        .init(
            member: #""plugins": ["libX.so@beforeKeyboard"]"#, key: "plugins[0]", column: 15,
            message: "'@beforeKeyboard' names no plugin; write @before:NAME or @after:NAME, such as @after:KeyboardAvoidance"),
        .init(
            member: #""plugins": ["a.so", "libX.so@soon"]"#, key: "plugins[1]", column: 23,
            message: "'@soon' is not a position; use @first, @last, @before:NAME or @after:NAME"),
        .init(member: #""plugins": ["@first"]"#, key: "plugins[0]", column: 15, message: "the library's path before '@first' is empty"),
        .init(
            member: #""pluginCommands": [" "]"#, key: "pluginCommands[0]", column: 22,
            message: #"expected a command (a non-empty string such as "python3 plugins/gap.py"), got " ""#),
        .init(
            member: #""pluginCommands": "python3 gap.py""#, key: "pluginCommands", column: 21,
            message: #"expected an array of commands (strings), got "python3 gap.py""#),
        .init(
            member: #""pluginTimeout": 0"#, key: "pluginTimeout", column: 20, message: "expected an integer from 1 to 600000 (milliseconds), got 0"),
        .init(
            member: #""pluginTimeout": 2.5"#, key: "pluginTimeout", column: 20,
            message: "expected an integer from 1 to 600000 (milliseconds), got 2.5"),
        .init(
            member: #""pluginTimeout": "200""#, key: "pluginTimeout", column: 20,
            message: #"expected an integer from 1 to 600000 (milliseconds), got "200""#),
        .init(
            member: #""pluginTimeout": 600001"#, key: "pluginTimeout", column: 20,
            message: "expected an integer from 1 to 600000 (milliseconds), got 600001"),
        .init(
            member: #""pluginMemory": 0"#, key: "pluginMemory", column: 19, message: "expected an integer from 1 to 4096 (MiB), got 0"),
        .init(
            member: #""pluginFuel": -1"#, key: "pluginFuel", column: 17,
            message: "expected an integer from 0 to 1000000000000 (fuel units per delivery; 0 turns metering off), got -1"),
        .init(member: #""pluginFailure": "Stop""#, key: "pluginFailure", column: 20, message: #"expected "continue" or "stop", got "Stop""#),
        .init(member: #""pluginFailure": [1]"#, key: "pluginFailure", column: 20, message: #"expected "continue" or "stop", got an array"#),
        .init(member: #""allowConflicts": "yes""#, key: "allowConflicts", column: 21, message: #"expected true or false, got "yes""#),
        .init(member: #""allowConflicts": 1"#, key: "allowConflicts", column: 21, message: "expected true or false, got 1"),
        .init(
            member: #""keyboardAvoidance": 20"#, key: "keyboardAvoidance", column: 24, message: "expected an object ({ ... }), got 20"),
        .init(
            member: #""keyboardAvoidance": {"keyboardDistance": "20pt"}"#, key: "keyboardAvoidance.keyboardDistance", column: 45,
            message: #"expected a number from 0 to 10000, got "20pt""#),
        .init(
            member: #""keyboardAvoidance": {"keyboardDistance": -1}"#, key: "keyboardAvoidance.keyboardDistance", column: 45,
            message: "expected a number from 0 to 10000, got -1"),
        .init(
            member: #""keyboardAvoidance": {"keyboardDistance": 1e999}"#, key: "keyboardAvoidance.keyboardDistance", column: 45,
            message: "expected a number from 0 to 10000, got 1e999"),
        .init(
            member: #""keyboardAvoidance": {"timing": "always"}"#, key: "keyboardAvoidance.timing", column: 35,
            message: #"expected "automatic", "everyEvent" or "settledTurns", got "always""#),
        .init(
            member: #""keyboardAvoidance": {"honorsOtherAppsKeyboards": "yes"}"#, key: "keyboardAvoidance.honorsOtherAppsKeyboards", column: 53,
            message: #"expected true or false, got "yes""#),
        .init(member: #""fieldAdvancing": []"#, key: "fieldAdvancing", column: 21, message: "expected an object ({ ... }), got an array"),
        .init(
            member: #""fieldAdvancing": {"order": 1}"#, key: "fieldAdvancing.order", column: 31, message: #"expected "tag" or "position", got 1"#),
        .init(
            member: #""fieldAdvancing": {"textViewReturnAdvances": 0}"#, key: "fieldAdvancing.textViewReturnAdvances", column: 48,
            message: "expected true or false, got 0"),
        .init(
            member: #""textViewOrdering": "fast""#, key: "textViewOrdering", column: 23, message: #"expected an object ({ ... }), got "fast""#),
        .init(
            member: #""textViewOrdering": {"settleWindow": 60001}"#, key: "textViewOrdering.settleWindow", column: 40,
            message: "expected an integer from 0 to 60000 (milliseconds), got 60001"),
        .init(
            member: #""textViewOrdering": {"settleWindow": -1}"#, key: "textViewOrdering.settleWindow", column: 40,
            message: "expected an integer from 0 to 60000 (milliseconds), got -1"),
        .init(
            member: #""textViewOrdering": {"heldFrameTimeout": true}"#, key: "textViewOrdering.heldFrameTimeout", column: 44,
            message: "expected an integer from 1 to 600000 (milliseconds), got true"),
        // Columns count characters, not bytes.
        .init(
            member: #""x": "日本", "pluginTimeout": -5"#, key: "pluginTimeout", column: 31,
            message: "expected an integer from 1 to 600000 (milliseconds), got -5"),
        // A value is shown JSON-escaped, and cut at 40 characters.
        .init(
            member: #""pluginFailure": "a\"b\n\u0001é\u200B""#, key: "pluginFailure", column: 20,
            message: #"expected "continue" or "stop", got "a\"b\n\u0001é\u200B""#),
        .init(
            member: "\"pluginFailure\": \"\(String(repeating: "a", count: 60))\"", key: "pluginFailure", column: 20,
            message: "expected \"continue\" or \"stop\", got \"\(String(repeating: "a", count: 40))…\""),
        .init(
            member: "\"pluginTimeout\": \(String(repeating: "9", count: 50))", key: "pluginTimeout", column: 20,
            message: "expected an integer from 1 to 600000 (milliseconds), got \(String(repeating: "9", count: 40))…"),
    ]

    @Test("a value of the wrong type names its dotted key, where the value starts, what was expected and what was found", arguments: valueCases)
    func wrongValue(_ value: ProjectFileValueCase) throws {
        let error = try #require(Self.parseError(value.text))
        #expect(error.path == Self.projectPath)
        #expect(error.line == 3)
        #expect(error.column == value.column)
        #expect(error.key == value.key)
        #expect(error.message == value.message)
        #expect(error.description == "\(Self.projectPath):3:\(value.column): key '\(value.key)': \(value.message)")
    }

    @Test("the description reads as the spec shows it")
    func descriptionFormats() {
        let error = Self.parseError(
            """
            {
              "keyboardAvoidance": {
                "keyboardDistance": "20pt"
              }
            }
            """, path: "/s/.responder-bus.json")
        #expect(
            error?.description
                == #"/s/.responder-bus.json:3:25: key 'keyboardAvoidance.keyboardDistance': expected a number from 0 to 10000, got "20pt""#)
        #expect(
            ProjectFileError(path: "a.json", line: 2, column: 0, message: "m").description == "a.json:2: m")
        #expect(
            ProjectFileError(path: "a.json", line: 0, column: 0, message: "cannot read: No such file or directory").description
                == "a.json: cannot read: No such file or directory")
    }

    // MARK: Unknown keys

    @Test("unknown keys, at the top level or in a plugin's object, are warnings with their line and the keys known there")
    func unknownKeysAreWarnings() throws {
        let text = """
            {
              "disabled": ["X"],
              "keyboardAvoidance": {
                "keyboardDistanse": 20,
                "timing": "automatic"
              },
              "fieldAdvancing": {"order": "tag", "wrap": {"deep": [1, "two", null]}},
              "textViewOrdering": {"settle": "5"},
              "a\\nb": 1
            }
            """
        let file = try ProjectFile(parsing: text, path: Self.projectPath)
        #expect(file.avoidanceTiming == "automatic")
        #expect(file.fieldOrder == "tag")
        #expect(file.keyboardDistance == nil)
        #expect(
            file.warnings == [
                "\(Self.projectPath):2: unknown key 'disabled' (ignored); did you mean 'disable'? the keys are disable, plugins, pluginCommands, pluginTimeout, pluginFailure, "
                    + "pluginFuel, pluginMemory, allowConflicts, checkProperties, expectedFailures, keyboardAvoidance, fieldAdvancing, textViewOrdering",
                "\(Self.projectPath):4: unknown key 'keyboardAvoidance.keyboardDistanse' (ignored); did you mean 'keyboardDistance'? the keys are keyboardDistance, timing, "
                    + "honorsOtherAppsKeyboards",
                "\(Self.projectPath):7: unknown key 'fieldAdvancing.wrap' (ignored); the keys are order, textViewReturnAdvances",
                "\(Self.projectPath):8: unknown key 'textViewOrdering.settle' (ignored); the keys are settleWindow, heldFrameTimeout",
                "\(Self.projectPath):9: unknown key 'a\\nb' (ignored); the keys are disable, plugins, pluginCommands, pluginTimeout, pluginFailure, "
                    + "pluginFuel, pluginMemory, allowConflicts, checkProperties, expectedFailures, keyboardAvoidance, fieldAdvancing, textViewOrdering",
            ])
    }

    // MARK: Syntax

    @Test("a key written twice is an error at the second, naming the key and where the first is")
    func duplicateKeys() {
        let top = Self.parseError("{\"pluginTimeout\": 1,\n \"pluginTimeout\": 2}")
        #expect(top?.line == 2)
        #expect(top?.column == 2)
        #expect(top?.key == nil)
        #expect(top?.message == "duplicate key 'pluginTimeout' (first at line 1, column 2)")

        let nested = Self.parseError(#"{"keyboardAvoidance": {"timing": "automatic", "timing": "everyEvent"}}"#)
        #expect(nested?.description == "\(Self.projectPath):1:47: duplicate key 'keyboardAvoidance.timing' (first at line 1, column 24)")

        let escaped = Self.parseError(#"{"disable": [], "\u0064isable": []}"#)
        #expect(escaped?.description == "\(Self.projectPath):1:17: duplicate key 'disable' (first at line 1, column 2)")

        let inUnknown = Self.parseError(#"{"x": [{"a": 1, "a": 2}]}"#)
        #expect(inUnknown?.description == "\(Self.projectPath):1:17: duplicate key 'x[0].a' (first at line 1, column 9)")
    }

    @Test("a trailing comma is an error at the comma")
    func trailingCommas() {
        let inArray = Self.parseError("{\n  \"disable\": [\"A\",],\n  \"pluginTimeout\": 5\n}")
        #expect(inArray?.description == "\(Self.projectPath):2:18: trailing comma: JSON allows no ',' before ']'")
        let inObject = Self.parseError("{\n  \"pluginTimeout\": 5,\n}")
        #expect(inObject?.description == "\(Self.projectPath):2:21: trailing comma: JSON allows no ',' before '}'")
    }

    @Test("nesting is limited to 64 levels, with an error rather than a crash")
    func nestingLimit() throws {
        let deepest = "{\"x\": " + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}"
        let file = try ProjectFile(parsing: deepest, path: Self.projectPath)
        #expect(file.warnings.count == 1)

        for count in [64, 100_000] {
            let tooDeep = "{\"x\": " + String(repeating: "[", count: count) + String(repeating: "]", count: count) + "}"
            let error = Self.parseError(tooDeep)
            #expect(error?.line == 1)
            #expect(error?.column == 70)
            #expect(error?.message == "objects and arrays are nested more than 64 deep")
        }
        let objects = "{" + String(repeating: "\"k\": {", count: 70) + String(repeating: "}", count: 71)
        let error = Self.parseError(objects)
        #expect(error?.column == 1 + 6 * 63 + 6)
        #expect(error?.message == "objects and arrays are nested more than 64 deep")
    }

    @Test("a file of one long line is read in one pass, its columns counted to the end")
    func oneLongLine() throws {
        let count = 300_000
        let text = #"{"x": ["# + String(repeating: "0,", count: count) + #"0], "pluginTimeout": "late"}"#
        let error = try #require(Self.parseError(text))
        #expect(error.line == 1)
        #expect(error.column == text.utf8.count - #""late"}"#.utf8.count + 1)
        #expect(error.key == "pluginTimeout")
        let file = try ProjectFile(
            parsing: "{" + (0..<count / 10).map { #""k\#($0)": [1, "é"]"# }.joined(separator: ",") + "}", path: Self.projectPath)
        #expect(file.warnings.count == count / 10)
    }

    static let syntaxCases: [ProjectFileSyntaxCase] = [
        .init(text: "", line: 1, column: 1, message: #"the file is empty; a project file is a JSON object, such as {"disable": ["FieldAdvancing"]}"#),
        .init(
            text: "  \n  ", line: 2, column: 3,
            message: #"the file is empty; a project file is a JSON object, such as {"disable": ["FieldAdvancing"]}"#),
        .init(text: "[]", line: 1, column: 1, message: "the top level must be a JSON object ({ ... }), got an array"),
        .init(text: "\n  \"x\"", line: 2, column: 3, message: "the top level must be a JSON object ({ ... }), got a string"),
        .init(text: "-1", line: 1, column: 1, message: "the top level must be a JSON object ({ ... }), got a number"),
        .init(text: "true", line: 1, column: 1, message: "the top level must be a JSON object ({ ... }), got 't'"),
        .init(text: "{} x", line: 1, column: 4, message: "expected the end of the file after the top-level object, got 'x'"),
        .init(text: "{}{}", line: 1, column: 3, message: "expected the end of the file after the top-level object, got '{'"),
        .init(text: "{}\u{A0}", line: 1, column: 3, message: "expected the end of the file after the top-level object, got U+00A0"),
        .init(text: #"{"a": 1 "b": 2}"#, line: 1, column: 9, message: "expected ',' or '}' after a member"),
        .init(text: #"{"a": "é" x}"#, line: 1, column: 11, message: "expected ',' or '}' after a member"),
        .init(text: #"{"a" 1}"#, line: 1, column: 6, message: "expected ':' after the key 'a', got '1'"),
        .init(text: #"{"a""#, line: 1, column: 5, message: "unexpected end of the file; expected ':' after the key 'a'"),
        .init(text: #"{a: 1}"#, line: 1, column: 2, message: #"expected a key in double quotes, got a (write "a")"#),
        .init(text: #"{'a': 1}"#, line: 1, column: 2, message: #"keys need double quotes ("), not single quotes (')"#),
        .init(text: #"{,}"#, line: 1, column: 2, message: "expected a key in double quotes, got ','"),
        .init(text: #"{"a": 'x'}"#, line: 1, column: 7, message: #"strings need double quotes ("), not single quotes (')"#),
        .init(text: "{\n  // a note\n}", line: 2, column: 3, message: "comments are not allowed in JSON"),
        .init(text: #"{"a": /* x */ 1}"#, line: 1, column: 7, message: "comments are not allowed in JSON"),
        .init(
            text: "{\"a\": \"line\nbreak\"}", line: 1, column: 12,
            message: #"a line break in a string (is a closing '"' missing? write \n for a line break)"#),
        .init(text: "{\"a\": \"tab\there\"}", line: 1, column: 11, message: #"control character U+0009 in a string; write it as \u0009"#),
        .init(
            text: #"{"a": "\x"}"#, line: 1, column: 8,
            message: #"invalid escape '\x' in a string; the escapes are \" \\ \/ \b \f \n \r \t and \uXXXX"#),
        .init(text: #"{"a": "\u12"}"#, line: 1, column: 8, message: #"invalid escape: '\u' must be followed by four hex digits"#),
        .init(
            text: #"{"a": "\uD83D"}"#, line: 1, column: 8,
            message: #"unpaired surrogate '\uD83D': a high surrogate must be followed by a low one (\uDC00 to \uDFFF)"#),
        .init(
            text: #"{"a": "\uD83D\u0041"}"#, line: 1, column: 8,
            message: #"unpaired surrogate '\uD83D': a high surrogate must be followed by a low one (\uDC00 to \uDFFF)"#),
        .init(
            text: #"{"a": "x\uDE00"}"#, line: 1, column: 9,
            message: #"unpaired surrogate '\uDE00': a low surrogate must follow a high one (\uD800 to \uDBFF)"#),
        .init(text: #"{"a": 01}"#, line: 1, column: 7, message: "invalid number '01': leading zeros are not allowed"),
        .init(text: #"{"a": 1.}"#, line: 1, column: 7, message: "invalid number '1.': a digit must follow '.'"),
        .init(text: #"{"a": -}"#, line: 1, column: 7, message: "invalid number '-': a digit must follow '-'"),
        .init(text: #"{"a": 1e+}"#, line: 1, column: 7, message: "invalid number '1e+': the exponent has no digits"),
        .init(text: #"{"a": 20pt}"#, line: 1, column: 7, message: "invalid number '20pt'"),
        .init(text: #"{"a": 1.5.2}"#, line: 1, column: 7, message: "invalid number '1.5.2'"),
        .init(text: #"{"a": +1}"#, line: 1, column: 7, message: "a number cannot start with '+'"),
        .init(text: #"{"a": .5}"#, line: 1, column: 7, message: "a number cannot start with '.'; write a 0 before it"),
        .init(text: #"{"a": tru}"#, line: 1, column: 7, message: "expected a value, got 'tru'; a string needs double quotes"),
        .init(
            text: #"{"a": True}"#, line: 1, column: 7, message: "expected a value, got 'True'; JSON's literals are lowercase: true, false and null"),
        .init(text: #"{"a": NaN}"#, line: 1, column: 7, message: "expected a value, got 'NaN'; JSON has no NaN or Infinity"),
        .init(text: #"{"a": }"#, line: 1, column: 7, message: "expected a value (an object, array, string, number, true, false or null), got '}'"),
        .init(
            text: #"{"a": «}"#, line: 1, column: 7,
            message: "expected a value (an object, array, string, number, true, false or null), got '«' (U+00AB)"),
        .init(text: #"{"a":"#, line: 1, column: 6, message: "unexpected end of the file; expected a value"),
        .init(
            text: #"{"a": 1"#, line: 1, column: 8,
            message: "unexpected end of the file; expected ',' or '}' (the object at line 1, column 1 is not closed)"),
        .init(
            text: "{\n  \"a\": [1", line: 2, column: 10,
            message: "unexpected end of the file; expected ',' or ']' (the array at line 2, column 8 is not closed)"),
        .init(text: #"{"a": [1 2]}"#, line: 1, column: 10, message: "expected ',' or ']' after an array item"),
        .init(
            text: #"{"a": "abc"#, line: 1, column: 11,
            message: "unexpected end of the file in a string (the string at line 1, column 7 is not closed)"),
        .init(text: "{", line: 1, column: 2, message: "unexpected end of the file; expected a key (the object at line 1, column 1 is not closed)"),
        .init(text: "{\r\n  \"pluginTimeout\": x\r\n}", line: 2, column: 20, message: "expected a value, got 'x'; a string needs double quotes"),
        .init(text: #"{"a": "x\"#, line: 1, column: 10, message: "unexpected end of the file in a string's escape"),
        .init(text: #"{"a": "\u12"#, line: 1, column: 8, message: #"invalid escape: '\u' must be followed by four hex digits"#),
        .init(text: #"{"a": "\uD83D\u12"}"#, line: 1, column: 14, message: #"invalid escape: '\u' must be followed by four hex digits"#),
        .init(
            text: #"{"a": "\é"}"#, line: 1, column: 8,
            message: #"invalid escape '\'é' (U+00E9)' in a string; the escapes are \" \\ \/ \b \f \n \r \t and \uXXXX"#),
        .init(text: #"{"a": -Infinity}"#, line: 1, column: 7, message: "invalid number '-Infinity': a digit must follow '-'"),
        .init(
            text: "{\n \"key", line: 2, column: 6,
            message: "unexpected end of the file in a string (the string at line 2, column 2 is not closed)"),
    ]

    @Test("JSON that is not strict is an error at the right line and column", arguments: syntaxCases)
    func syntaxError(_ syntax: ProjectFileSyntaxCase) throws {
        let error = try #require(Self.parseError(syntax.text))
        #expect(error.path == Self.projectPath)
        #expect(error.line == syntax.line)
        #expect(error.column == syntax.column)
        #expect(error.key == nil)
        #expect(error.message == syntax.message)
        #expect(error.description == "\(Self.projectPath):\(syntax.line):\(syntax.column): \(syntax.message)")
    }

    // MARK: Reading files

    @Test("a file that is not UTF-8 is an error at the first bad byte")
    func invalidUTF8() throws {
        let scratch = try ProjectFileScratch()
        let cases: [(bytes: [UInt8], column: Int, byte: String)] = [
            ([0xFF], 7, "0xFF"),
            (Array("é".utf8) + [0xC0, 0x80], 8, "0xC0"),  // an overlong encoding
            ([0xED, 0xA0, 0x80], 7, "0xED"),  // a surrogate
            ([0xE2, 0x82], 7, "0xE2"),  // cut short
            ([0xF4, 0x90, 0x80, 0x80], 7, "0xF4"),  // past U+10FFFF
        ]
        for (bytes, column, byte) in cases {
            scratch.withFile(Array("{\n\"a\": \"".utf8) + bytes + Array("\"}".utf8)) { path in
                #expect(
                    throws: ProjectFileError(
                        path: path, line: 2, column: column, message: "the file is not valid UTF-8 (byte \(byte)); a project file is UTF-8 text")
                ) { try ProjectFile(contentsOf: path) }
            }
        }
        let good = scratch.file("good.json", Array("{\"pluginCommands\": [\"é\u{1F600}\"]}".utf8))
        #expect(try ProjectFile(contentsOf: good).pluginCommands == ["é\u{1F600}"])
    }

    @Test("a file that cannot be read is an error with line 0 and the system's reason")
    func unreadableFiles() throws {
        let scratch = try ProjectFileScratch()
        let missing = scratch.root + "/missing/.responder-bus.json"
        #expect(throws: ProjectFileError(path: missing, line: 0, column: 0, message: "cannot read: No such file or directory")) {
            try ProjectFile(contentsOf: missing)
        }
        do {
            _ = try ProjectFile(contentsOf: missing)
        } catch {
            #expect(error.description == "\(missing): cannot read: No such file or directory")
        }
        let folder = scratch.folder(".responder-bus.json")
        #expect(throws: ProjectFileError(path: folder, line: 0, column: 0, message: "cannot read: Is a directory")) {
            try ProjectFile(contentsOf: folder)
        }
        if geteuid() != 0 {
            let locked = scratch.file("locked.json", "{}")
            chmod(locked, 0)
            #expect(throws: ProjectFileError(path: locked, line: 0, column: 0, message: "cannot read: Permission denied")) {
                try ProjectFile(contentsOf: locked)
            }
        }
    }

    @Test("a file over 1 MiB is refused; one of exactly 1 MiB is read")
    func sizeLimit() throws {
        let scratch = try ProjectFileScratch()
        let limit = 1 << 20
        let exact = scratch.file("exact.json", Array("{}".utf8) + [UInt8](repeating: 0x20, count: limit - 2))
        #expect(try ProjectFile(contentsOf: exact).warnings == [])
        let over = scratch.file("over.json", Array("{}".utf8) + [UInt8](repeating: 0x20, count: limit - 1))
        let message = "the file is larger than 1 MiB (1048576 bytes), too large for a project file"
        #expect(throws: ProjectFileError(path: over, line: 0, column: 0, message: message)) { try ProjectFile(contentsOf: over) }
        let text = "{}" + String(repeating: " ", count: limit - 1)
        #expect(Self.parseError(text) == ProjectFileError(path: Self.projectPath, line: 0, column: 0, message: message))
    }

    // MARK: Finding the file

    @Test("find(from:) returns the nearest project file: the folder's own, else a parent's")
    func findNearest() throws {
        let scratch = try ProjectFileScratch()
        let root = scratch.root
        let grandchild = scratch.folder("a/b/c")
        let ancestorFile = Self.ancestorProjectFile(of: root)

        #expect(ProjectFile.find(from: grandchild) == ancestorFile)
        let top = scratch.file("a/.responder-bus.json", "{}")
        #expect(top == root + "/a/.responder-bus.json")
        #expect(ProjectFile.find(from: grandchild) == top)
        #expect(ProjectFile.find(from: grandchild + "//") == top)
        #expect(ProjectFile.find(from: root + "/a") == top)
        #expect(ProjectFile.find(from: root + "//a/./b/c/") == top)
        #expect(ProjectFile.find(from: root) == ancestorFile)

        let near = scratch.file("a/b/.responder-bus.json", "{}")
        #expect(ProjectFile.find(from: grandchild) == near)
        #expect(ProjectFile.find(from: root + "/a/b") == near)
        #expect(ProjectFile.find(from: root + "/a") == top)
        // A folder that does not exist is searched from its nearest parent that has the file.
        #expect(ProjectFile.find(from: grandchild + "/not/made") == near)
        // `..` is resolved.
        #expect(ProjectFile.find(from: grandchild + "/../../b/c/..") == near)
        #expect(ProjectFile.find(from: root + "/a/b/c/../..") == top)
    }

    @Test("find(from:) takes a relative folder from the current directory")
    func findRelative() throws {
        let scratch = try ProjectFileScratch()
        let grandchild = scratch.folder("a/b/c")
        let file = scratch.file("a/.responder-bus.json", "{}")
        let current = try #require(getcwd(nil, 0))
        let depth = String(cString: current).split(separator: "/").count
        free(current)
        // From the current directory up to `/`, then down to the grandchild.
        let relative = String(repeating: "../", count: depth) + grandchild.dropFirst()
        #expect(ProjectFile.find(from: relative) == file)
    }

    @Test("find(from:) returns a .responder-bus.json that is a folder, and reading it fails clearly")
    func findDoesNotSkipAFolder() throws {
        let scratch = try ProjectFileScratch()
        scratch.file("a/.responder-bus.json", "{}")
        let folder = scratch.folder("a/b/.responder-bus.json")
        let found = try #require(ProjectFile.find(from: scratch.root + "/a/b"))
        #expect(found == folder)
        #expect(throws: ProjectFileError(path: found, line: 0, column: 0, message: "cannot read: Is a directory")) {
            try ProjectFile(contentsOf: found)
        }
    }

    @Test("a found file is read, and its warnings and errors name its path")
    func findThenRead() throws {
        let scratch = try ProjectFileScratch()
        let session = scratch.folder("sessions/today")
        scratch.file("sessions/.responder-bus.json", "{\n  \"plugins\": [\"libs/libW.so@last\"],\n  \"extra\": 1\n}\n")
        let path = try #require(ProjectFile.find(from: session))
        let file = try ProjectFile(contentsOf: path)
        #expect(file.path == scratch.root + "/sessions/.responder-bus.json")
        #expect(file.folder == scratch.root + "/sessions")
        #expect(file.resolvedPlugins == [scratch.root + "/sessions/libs/libW.so@last"])
        #expect(file.warnings.first?.hasPrefix(path + ":3: unknown key 'extra' (ignored); the keys are disable, ") == true)
    }

    // MARK: Plugin paths

    @Test("resolvedPlugins makes relative paths absolute against the file's folder, keeping positions")
    func resolvedPlugins() throws {
        let text = """
            {"plugins": ["libs/libWarner.so@after:KeyboardAvoidance", "/opt/lib/libA.so@first", "./libB.so",
              "../common/libC.so@before:FieldAdvancing", "dir@2x/libD.so", "libE.so@last", "my@lib.so", "/abs@x.y/libF.so@first"]}
            """
        let file = try ProjectFile(parsing: text, path: "/proj/sessions/.responder-bus.json")
        #expect(file.folder == "/proj/sessions")
        #expect(
            file.resolvedPlugins == [
                "/proj/sessions/libs/libWarner.so@after:KeyboardAvoidance",
                "/opt/lib/libA.so@first",
                "/proj/sessions/libB.so",
                "/proj/sessions/../common/libC.so@before:FieldAdvancing",
                "/proj/sessions/dir@2x/libD.so",
                "/proj/sessions/libE.so@last",
                "/proj/sessions/my@lib.so",
                "/abs@x.y/libF.so@first",
            ])

        let atRoot = try ProjectFile(parsing: #"{"plugins": ["libs/x.so@after:A"]}"#, path: "/.responder-bus.json")
        #expect(atRoot.folder == "/")
        #expect(atRoot.resolvedPlugins == ["/libs/x.so@after:A"])

        let untidy = try ProjectFile(parsing: #"{"plugins": ["x.so"]}"#, path: "//proj//./s/.responder-bus.json")
        #expect(untidy.folder == "/proj/s")
        #expect(untidy.resolvedPlugins == ["/proj/s/x.so"])

        let current = try #require(getcwd(nil, 0))
        let directory = String(cString: current)
        free(current)
        let relative = try ProjectFile(parsing: #"{"plugins": ["x.so"]}"#, path: "sub/.responder-bus.json")
        #expect(relative.folder == (directory == "/" ? "/sub" : directory + "/sub"))
        #expect(relative.resolvedPlugins == [(directory == "/" ? "" : directory) + "/sub/x.so"])
        let bare = try ProjectFile(parsing: "{}", path: ".responder-bus.json")
        #expect(bare.folder == directory)
    }

    // MARK: Robustness

    @Test("random bytes and mutations of a valid file only parse or throw a ProjectFileError")
    func randomInputs() throws {
        var random = SeededRandom(0x5EED_1234)
        let scratch = try ProjectFileScratch()
        let filePath = scratch.root + "/transient.json"
        let pieces: [[UInt8]] =
            [
                "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\uD83D", "\"disable\"", "\"keyboardAvoidance\"", "\"plugins\"", "1", "-",
                "0.5e", "true", "null", " ", "\n", "é", "//", "@after:", "\u{FEFF}",
            ].map { Array($0.utf8) } + [[0x00], [0xFF], [0xC3], [0xED, 0xA0]]
        let valid = Array(Self.fullFile.utf8)
        var parsed = 0
        var failed = 0
        // What was wrong with a result; one expectation at the end rather than thousands.
        var oddities: [String] = []

        func check(_ bytes: [UInt8]) {
            let text = String(decoding: bytes, as: UTF8.self)
            for fromFile in [false, true] {
                do {
                    let file: ProjectFile
                    if fromFile {
                        file = try scratch.withFile(bytes) { path throws(ProjectFileError) in try ProjectFile(contentsOf: path) }
                    } else {
                        file = try ProjectFile(parsing: text, path: Self.projectPath)
                    }
                    parsed += 1
                    if !file.warnings.allSatisfy({ $0.hasPrefix(file.path + ":") }) { oddities.append("warnings \(file.warnings)") }
                } catch {
                    failed += 1
                    let path = fromFile ? filePath : Self.projectPath
                    if error.line < 1 || error.column < 1 || error.message.isEmpty || !error.description.hasPrefix(path + ":") {
                        oddities.append(error.description)
                    }
                }
            }
        }

        for _ in 0..<2_000 {
            let count = Int.random(in: 0...200, using: &random)
            if Bool.random(using: &random) {
                check((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
            } else {
                var bytes: [UInt8] = []
                while bytes.count < count { bytes += pieces.randomElement(using: &random) ?? [] }
                check(bytes)
            }
        }
        for _ in 0..<2_000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.insert(contentsOf: pieces.randomElement(using: &random) ?? [], at: at)
                case 2: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...8, using: &random)))
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 12)], at: at)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            check(bytes)
        }
        #expect(oddities == [])
        #expect(parsed + failed == 8_000)
        #expect(parsed > 0)
        #expect(failed > 0)
    }

    /// The project file in a folder above `folder`, looked for directly.
    private static func ancestorProjectFile(of folder: String) -> String? {
        var parts = folder.split(separator: "/").map(String.init)
        while !parts.isEmpty {
            parts.removeLast()
            let candidate = "/" + (parts + [ProjectFile.fileName]).joined(separator: "/")
            var info = stat()
            if lstat(candidate, &info) == 0 { return candidate }
        }
        return nil
    }
}

@Suite("A pipeline written as a project file")
struct ProjectFileTextTests {
    @Test("what explore writes reads back as the same pipeline: plugins, commands, limits, settings, checkProperties, expected failures")
    func roundTrip() throws {
        var description = PipelineDescription(disabled: ["KeyboardAvoidance"])
        description.libraries = [PluginReference(path: "/opt/plugins/libLift.so", position: .after("FieldAdvancing"))]
        description.commands = [ExternalPlugin.Configuration(command: ["python3", "/opt/plugins/it's mine.py"], timeout: .milliseconds(350))]
        description.wasmSandbox.fuelPerDelivery = nil
        description.wasmSandbox.memoryLimit = 64 << 20
        description.settings.keyboardDistance = 12
        description.settings.settleWindow = .milliseconds(30)
        description.settings.fieldOrder = .position
        let text = description.projectFileText(checksProperties: true, expectedFailures: ["coverage.jsonl": "coverage: \"f1\" is covered"])
        let file = try ProjectFile(parsing: text, path: "/tmp/findings/.responder-bus.json")
        #expect(file.warnings.isEmpty, "\(file.warnings)")
        #expect(file.disable == ["KeyboardAvoidance"])
        #expect(file.plugins == ["/opt/plugins/libLift.so@after:FieldAdvancing"])
        #expect(file.pluginCommands == ["python3 '/opt/plugins/it'\\''s mine.py'"])
        #expect(try ExternalPlugin.Configuration.words(of: file.pluginCommands?.first ?? "") == ["python3", "/opt/plugins/it's mine.py"])
        #expect(file.pluginTimeout == 350 && file.pluginFuel == 0 && file.pluginMemory == 64)
        #expect(file.keyboardDistance == 12 && file.settleWindow == 30 && file.fieldOrder == "position")
        #expect(file.checkProperties == true)
        #expect(file.expectedFailures == ["coverage.jsonl": "coverage: \"f1\" is covered"])
        #expect(PipelineDescription().projectFileText() == "{}\n")
    }
}
