import EventLog
import ResponderBusExternal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pipeline written in a project file (`.responder-bus.json`), which a folder of recorded sessions
/// carries so that replaying them needs no command-line options.
///
/// The file is found the way `.swift-format` is (``find(from:)``: the session's folder, then its
/// parents up to `/`) and holds one JSON object; every key is optional:
///
/// ```json
/// {
///     "disable": ["FieldAdvancing"],
///     "plugins": ["libs/libWarner.so@after:KeyboardAvoidance"],
///     "pluginCommands": ["python3 plugins/gap.py"],
///     "pluginTimeout": 200,
///     "pluginFailure": "continue",
///     "pluginFuel": 1000000,
///     "pluginMemory": 16,
///     "keyboardAvoidance": {"keyboardDistance": 20, "timing": "automatic", "honorsOtherAppsKeyboards": true},
///     "fieldAdvancing": {"order": "tag", "textViewReturnAdvances": false},
///     "textViewOrdering": {"settleWindow": 50, "heldFrameTimeout": 1000}
/// }
/// ```
///
/// The JSON is strict: no comments, no trailing commas, no duplicate keys, at most 64 levels of
/// nesting and 1 MiB. A key set to `null` is not set, as if it were absent. A key this type does not
/// know, at the top level or inside one of the three plugin objects, is not an error: it is ignored,
/// with a line in ``warnings``. Every other problem throws a ``ProjectFileError`` that names the file,
/// the line and column (counted in characters, from 1) and, for a value of the wrong type or out of
/// range, the dotted key (`keyboardAvoidance.keyboardDistance`, `plugins[1]` for an item of a list).
public struct ProjectFile: Sendable, Equatable {
    /// The project file's name: `.responder-bus.json`.
    public static let fileName = ".responder-bus.json"

    /// The file's path, as read.
    public var path: String
    /// `"disable"`: the names of built-in plugins to leave out of the pipeline, such as
    /// `FieldAdvancing`.
    public var disable: [String]?
    /// `"plugins"`: plugin libraries to load, as written: `PATH[@POSITION]`, where the position is
    /// `first`, `last`, `before:NAME` or `after:NAME`. A relative path is relative to the file's
    /// folder: ``resolvedPlugins`` has them made absolute.
    public var plugins: [String]?
    /// `"pluginCommands"`: commands that each run a plugin out of process, as written
    /// (`python3 plugins/gap.py`).
    public var pluginCommands: [String]?
    /// `"pluginTimeout"`: how long an out-of-process plugin may take to answer, in milliseconds
    /// (an integer from 1 to 600000).
    public var pluginTimeout: Int?
    /// `"pluginFailure"`: what a failing plugin does to the replay, `"continue"` or `"stop"`.
    public var pluginFailure: String?
    /// `"pluginFuel"`: the fuel one delivery to a WebAssembly plugin may burn (an integer from 1000
    /// to 10¹², or 0 for no metering).
    public var pluginFuel: Int?
    /// `"pluginMemory"`: the most memory a WebAssembly plugin may have, in MiB (1 to 4096).
    public var pluginMemory: Int?
    /// `"keyboardAvoidance"."keyboardDistance"`: the gap kept between a field and the keyboard, in
    /// points (a finite number from 0 to 10000).
    public var keyboardDistance: Double?
    /// `"keyboardAvoidance"."timing"`: when keyboard avoidance acts, `"automatic"`, `"everyEvent"`
    /// or `"settledTurns"`.
    public var avoidanceTiming: String?
    /// `"keyboardAvoidance"."honorsOtherAppsKeyboards"`: whether keyboard avoidance moves the screen
    /// for another app's keyboard.
    public var honorsOtherAppsKeyboards: Bool?
    /// `"fieldAdvancing"."order"`: the order Return moves through fields in, `"tag"` or `"position"`.
    public var fieldOrder: String?
    /// `"fieldAdvancing"."textViewReturnAdvances"`: whether Return in a text view moves to the next
    /// field rather than typing a line break.
    public var textViewReturnAdvances: Bool?
    /// `"textViewOrdering"."settleWindow"`: how long the text-view ordering waits for events to
    /// settle, in milliseconds (an integer from 0 to 60000).
    public var settleWindow: Int?
    /// `"textViewOrdering"."heldFrameTimeout"`: how long a held frame is kept at most, in milliseconds
    /// (an integer from 1 to 600000).
    public var heldFrameTimeout: Int?
    /// Unknown keys, one line each, in the order they are in the file:
    /// `PATH:LINE: unknown key 'x' (ignored); the keys are ...`, naming the keys known at that level.
    public var warnings: [String]

    /// Parses `text`, the file's bytes as UTF-8, read from `path`.
    ///
    /// A byte order mark at the start is skipped.
    ///
    /// - Parameters:
    ///   - text: The file's contents.
    ///   - path: The file's path, for messages and for ``folder``.
    /// - Throws: ``ProjectFileError`` when `text` is not strict JSON, its top level is not an
    ///   object, a known key's value has the wrong type or is out of range, or it is over 1 MiB.
    public init(parsing text: String, path: String) throws(ProjectFileError) {
        try self.init(bytes: Array(text.utf8), path: path)
    }

    /// Reads and parses the file at `path`.
    ///
    /// - Parameter path: The file's path; a relative path is taken from the current directory.
    /// - Throws: ``ProjectFileError``: with line 0 when the file cannot be read (it is missing, a
    ///   folder, not readable, over 1 MiB), else as ``init(parsing:path:)`` throws, and when the file
    ///   is not valid UTF-8.
    public init(contentsOf path: String) throws(ProjectFileError) {
        try self.init(bytes: ProjectFileSystem.readFile(path), path: path)
    }

    /// The nearest project file: `folder`'s own, else its parent's, and so on up to `/`.
    ///
    /// A relative `folder` is taken from the current directory; trailing slashes and `.` are
    /// ignored, and a folder with `..` in it is resolved first. Any entry named
    /// ``fileName`` counts, so a `.responder-bus.json` that is a folder, unreadable or a broken link
    /// is returned rather than skipped: reading it then fails with a clear error.
    ///
    /// - Parameter folder: The folder to start from, such as a recorded session's.
    /// - Returns: The path of the nearest project file, or `nil` when there is none (or the current
    ///   directory cannot be read for a relative `folder`).
    public static func find(from folder: String) -> String? {
        guard var components = ProjectFileSystem.searchStart(folder) else { return nil }
        while true {
            let candidate = "/" + (components + [fileName]).joined(separator: "/")
            var info = stat()
            if lstat(candidate, &info) == 0 { return candidate }
            if components.isEmpty { return nil }
            components.removeLast()
        }
    }

    /// ``plugins`` with each relative path made absolute against ``folder``.
    ///
    /// A position suffix is kept as it is: the last `@` is one when `first`, `last`,
    /// `before:NAME` or `after:NAME` follows it; any other `@` is part of the path.
    public var resolvedPlugins: [String]? {
        guard let plugins else { return nil }
        let base = folder
        return plugins.map { entry in
            let (file, position) = ProjectFileSystem.splitPosition(entry)
            guard !file.isEmpty, !file.hasPrefix("/") else { return entry }
            var relative = file
            while relative.hasPrefix("./") {
                relative = relative.dropFirst(2).drop { $0 == "/" }
            }
            let absolute = base == "/" ? "/" + relative : base + "/" + relative
            return position.map { absolute + "@" + $0 } ?? absolute
        }
    }

    /// The folder the file is in: ``path`` without its last component, made absolute against the
    /// current directory when it is relative.
    public var folder: String {
        let absolute = ProjectFileSystem.absolute(path) ?? path
        var parts = absolute.split(separator: "/").filter { $0 != "." }
        if !parts.isEmpty { parts.removeLast() }
        let joined = parts.joined(separator: "/")
        if absolute.hasPrefix("/") { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    private init(bytes: [UInt8], path: String) throws(ProjectFileError) {
        if bytes.count > ProjectFileSystem.maximumSize { throw ProjectFileSystem.tooLarge(path) }
        var parser = ProjectJSONParser(bytes: bytes, path: path)
        let members = try parser.parseDocument()
        var reader = ProjectFileValues(path: path)
        self.path = path
        for member in members {
            let value = member.value
            switch member.key {
            case "disable":
                disable = try reader.strings(
                    value, key: "disable", list: "plugin names", item: "a plugin name (a non-empty string)",
                    check: { name in
                        BuiltinPlugins.names.contains(name)
                            ? nil : "'\(name)' is no built-in plugin; the built-in plugins are \(BuiltinPlugins.names.joined(separator: ", "))"
                    })
            case "plugins":
                plugins = try reader.strings(
                    value, key: "plugins", list: "plugin library paths",
                    item: "a plugin library path (a non-empty string such as \"libs/libWarner.so@after:KeyboardAvoidance\")",
                    check: ProjectFileSystem.pluginProblem)
            case "pluginCommands":
                pluginCommands = try reader.strings(
                    value, key: "pluginCommands", list: "commands", item: "a command (a non-empty string such as \"python3 plugins/gap.py\")",
                    check: { command in
                        do throws(ExternalPluginError) {
                            _ = try ExternalPlugin.Configuration.words(of: command)
                            return nil
                        } catch {
                            return error.message
                        }
                    })
            case "pluginTimeout":
                pluginTimeout = try reader.integer(value, key: "pluginTimeout", 1...600_000)
            case "pluginFailure":
                pluginFailure = try reader.choice(value, key: "pluginFailure", ["continue", "stop"])
            case "pluginFuel":
                pluginFuel = try reader.integer(
                    value, key: "pluginFuel", 0...1_000_000_000_000, unit: "fuel units per delivery; 0 turns metering off")
            case "pluginMemory":
                pluginMemory = try reader.integer(value, key: "pluginMemory", 1...4096, unit: "MiB")
            case "keyboardAvoidance":
                for inner in try reader.object(value, key: "keyboardAvoidance") {
                    let key = "keyboardAvoidance." + inner.key
                    switch inner.key {
                    case "keyboardDistance": keyboardDistance = try reader.number(inner.value, key: key, 0...10_000)
                    case "timing": avoidanceTiming = try reader.choice(inner.value, key: key, ["automatic", "everyEvent", "settledTurns"])
                    case "honorsOtherAppsKeyboards": honorsOtherAppsKeyboards = try reader.bool(inner.value, key: key)
                    default: reader.warnUnknown(inner, key: key, known: ["keyboardDistance", "timing", "honorsOtherAppsKeyboards"])
                    }
                }
            case "fieldAdvancing":
                for inner in try reader.object(value, key: "fieldAdvancing") {
                    let key = "fieldAdvancing." + inner.key
                    switch inner.key {
                    case "order": fieldOrder = try reader.choice(inner.value, key: key, ["tag", "position"])
                    case "textViewReturnAdvances": textViewReturnAdvances = try reader.bool(inner.value, key: key)
                    default: reader.warnUnknown(inner, key: key, known: ["order", "textViewReturnAdvances"])
                    }
                }
            case "textViewOrdering":
                for inner in try reader.object(value, key: "textViewOrdering") {
                    let key = "textViewOrdering." + inner.key
                    switch inner.key {
                    case "settleWindow": settleWindow = try reader.integer(inner.value, key: key, 0...60_000)
                    case "heldFrameTimeout": heldFrameTimeout = try reader.integer(inner.value, key: key, 1...600_000)
                    default: reader.warnUnknown(inner, key: key, known: ["settleWindow", "heldFrameTimeout"])
                    }
                }
            default:
                reader.warnUnknown(
                    member, key: member.key,
                    known: [
                        "disable", "plugins", "pluginCommands", "pluginTimeout", "pluginFailure", "pluginFuel", "pluginMemory",
                        "keyboardAvoidance", "fieldAdvancing", "textViewOrdering",
                    ])
            }
        }
        warnings = reader.warnings
    }
}

/// A project file that could not be read, or whose contents are wrong: where, and what is wrong.
public struct ProjectFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path.
    public var path: String
    /// The 1-based line of the problem; 0 when the file could not be read at all.
    public var line: Int
    /// The 1-based column of the problem, in characters; 0 when unknown.
    public var column: Int
    /// The dotted key path, such as `keyboardAvoidance.keyboardDistance` (`plugins[1]` for an item
    /// of a list), when the problem is a value; `nil` otherwise.
    public var key: String?
    /// What is wrong, and what was expected.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - line: The 1-based line, or 0 when the file could not be read at all.
    ///   - column: The 1-based column, or 0 when unknown.
    ///   - key: The dotted key path, when the problem is a value.
    ///   - message: What is wrong.
    public init(path: String, line: Int, column: Int, key: String? = nil, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    /// `PATH:LINE:COLUMN: key 'KEY': MESSAGE`, without the parts that are not known:
    /// `PATH:LINE:COLUMN: MESSAGE` without a key, `PATH: MESSAGE` when the file could not be read.
    public var description: String {
        var location = path
        if line > 0 {
            location += ":\(line)"
            if column > 0 { location += ":\(column)" }
        }
        if let key { return "\(location): key '\(key)': \(message)" }
        return "\(location): \(message)"
    }
}

// MARK: - Files and paths

/// Reading the file, finding it, and the paths in it.
private enum ProjectFileSystem {
    /// The largest file read: 1 MiB.
    static let maximumSize = 1 << 20

    static func tooLarge(_ path: String) -> ProjectFileError {
        ProjectFileError(
            path: path, line: 0, column: 0, message: "the file is larger than 1 MiB (\(maximumSize) bytes), too large for a project file")
    }

    /// The whole file, refusing folders and files over ``maximumSize``.
    static func readFile(_ path: String) throws(ProjectFileError) -> [UInt8] {
        func failure(_ code: Int32) -> ProjectFileError {
            ProjectFileError(path: path, line: 0, column: 0, message: "cannot read: " + String(cString: strerror(code)))
        }
        // Not blocking in `open` on a FIFO that has no writer; blocking reads are restored below.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw failure(errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(errno) }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { throw failure(EISDIR) }
        if type == S_IFREG {
            if info.st_size > maximumSize { throw tooLarge(path) }
        } else {
            let flags = fcntl(descriptor, F_GETFL)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        }
        switch DescriptorIO.readAll(descriptor, maximumSize: maximumSize) {
        case .success(let bytes): return bytes
        case .failure(.error(let code)): throw failure(code)
        case .failure(.tooLarge): throw tooLarge(path)
        }
    }

    /// The current directory, or `nil` when it cannot be read.
    static func currentDirectory() -> String? {
        guard let pointer = getcwd(nil, 0) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// `path` made absolute against the current directory.
    static func absolute(_ path: String) -> String? {
        if path.hasPrefix("/") { return path }
        guard let directory = currentDirectory() else { return nil }
        return path.isEmpty ? directory : directory + "/" + path
    }

    /// The components of the absolute folder ``ProjectFile/find(from:)`` starts from, without empty
    /// ones and `.`; `..` resolved by `realpath` when the folder exists, else by dropping the
    /// component before it.
    static func searchStart(_ folder: String) -> [String]? {
        guard let absolute = absolute(folder) else { return nil }
        let parts = absolute.split(separator: "/").filter { $0 != "." }
        if parts.contains("..") {
            if let resolved = realpath(absolute, nil) {
                defer { free(resolved) }
                return String(cString: resolved).split(separator: "/").map(String.init)
            }
            var kept: [String] = []
            for part in parts {
                if part == ".." {
                    if !kept.isEmpty { kept.removeLast() }
                } else {
                    kept.append(String(part))
                }
            }
            return kept
        }
        return parts.map(String.init)
    }

    /// Whether `suffix` (after an `@`) is a position: `first`, `last`, `before:NAME`, `after:NAME`.
    static func isPosition(_ suffix: Substring) -> Bool {
        suffix == "first" || suffix == "last" || (suffix.hasPrefix("before:") && suffix.count > 7)
            || (suffix.hasPrefix("after:") && suffix.count > 6)
    }

    /// A `plugins` entry split into its path and, when its last `@` starts one, its position.
    static func splitPosition(_ entry: String) -> (path: Substring, position: Substring?) {
        guard let at = entry.lastIndex(of: "@") else { return (entry[...], nil) }
        let suffix = entry[entry.index(after: at)...]
        return isPosition(suffix) ? (entry[..<at], suffix) : (entry[...], nil)
    }

    /// What is wrong with a `plugins` entry, by the rules of `--plugin`: an `@` followed by neither
    /// a position nor something with a `/` or `.` in it is a mistaken position.
    static func pluginProblem(_ entry: String) -> String? {
        guard let at = entry.lastIndex(of: "@") else { return nil }
        let suffix = entry[entry.index(after: at)...]
        let shown = ProjectJSONText.escaped(String(suffix)).text
        if isPosition(suffix) {
            return entry[..<at].isEmpty ? "the library's path before '@\(shown)' is empty" : nil
        }
        if suffix.hasPrefix("before") || suffix.hasPrefix("after") {
            return "'@\(shown)' names no plugin; write @before:NAME or @after:NAME, such as @after:KeyboardAvoidance"
        }
        if suffix.contains("/") || suffix.contains(".") { return nil }
        return "'@\(shown)' is not a position; use @first, @last, @before:NAME or @after:NAME"
    }
}

// MARK: - Values

/// Reads the known keys' values out of parsed JSON, and collects the warnings.
private struct ProjectFileValues {
    let path: String
    var warnings: [String] = []

    init(path: String) {
        self.path = path
    }

    func wrong(_ node: ProjectJSONNode, key: String, _ expected: String) -> ProjectFileError {
        ProjectFileError(path: path, line: node.line, column: node.column, key: key, message: "expected \(expected), got \(node.shown)")
    }

    mutating func warnUnknown(_ member: ProjectJSONMember, key: String, known: [String]) {
        let shown = ProjectJSONText.escaped(key).text
        warnings.append("\(path):\(member.line): unknown key '\(shown)' (ignored); the keys are \(known.joined(separator: ", "))")
    }

    func strings(
        _ node: ProjectJSONNode, key: String, list: String, item: String, check: (String) -> String? = { _ in nil }
    ) throws(ProjectFileError) -> [String]? {
        switch node.value {
        case .null: return nil
        case .array(let items):
            var result: [String] = []
            for (index, element) in items.enumerated() {
                let elementKey = "\(key)[\(index)]"
                guard case .string(let text) = element.value, text.contains(where: { !$0.isWhitespace }) else {
                    throw wrong(element, key: elementKey, item)
                }
                if let problem = check(text) {
                    throw ProjectFileError(path: path, line: element.line, column: element.column, key: elementKey, message: problem)
                }
                result.append(text)
            }
            return result
        default: throw wrong(node, key: key, "an array of \(list) (strings)")
        }
    }

    /// An integer within `range`, in `unit` (said in the message when it is not one).
    func integer(_ node: ProjectJSONNode, key: String, _ range: ClosedRange<Int>, unit: String = "milliseconds") throws(ProjectFileError) -> Int? {
        switch node.value {
        case .null: return nil
        case .number(_, let value)
        where value.isFinite && value.rounded() == value && value >= Double(range.lowerBound) && value <= Double(range.upperBound):
            return Int(value)
        default: throw wrong(node, key: key, "an integer from \(range.lowerBound) to \(range.upperBound) (\(unit))")
        }
    }

    func number(_ node: ProjectJSONNode, key: String, _ range: ClosedRange<Double>) throws(ProjectFileError) -> Double? {
        switch node.value {
        case .null: return nil
        case .number(_, let value) where value.isFinite && range.contains(value): return value
        default:
            throw wrong(node, key: key, "a number from \(ProjectJSONText.plain(range.lowerBound)) to \(ProjectJSONText.plain(range.upperBound))")
        }
    }

    func choice(_ node: ProjectJSONNode, key: String, _ choices: [String]) throws(ProjectFileError) -> String? {
        switch node.value {
        case .null: return nil
        case .string(let text) where choices.contains(text): return text
        default:
            let quoted = choices.map { "\"\($0)\"" }
            let listed = quoted.count > 1 ? quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "") : quoted.joined()
            throw wrong(node, key: key, listed)
        }
    }

    func bool(_ node: ProjectJSONNode, key: String) throws(ProjectFileError) -> Bool? {
        switch node.value {
        case .null: return nil
        case .bool(let value): return value
        default: throw wrong(node, key: key, "true or false")
        }
    }

    /// An object's members; none for `null`.
    func object(_ node: ProjectJSONNode, key: String) throws(ProjectFileError) -> [ProjectJSONMember] {
        switch node.value {
        case .null: return []
        case .object(let members): return members
        default: throw wrong(node, key: key, "an object ({ ... })")
        }
    }
}

// MARK: - JSON

/// A JSON value and the line and column it starts at.
private struct ProjectJSONNode {
    var value: ProjectJSONValue
    var line: Int
    var column: Int

    /// The value as a message shows it: JSON, strings escaped, cut at about 40 characters.
    var shown: String {
        switch value {
        case .object: return "an object"
        case .array: return "an array"
        case .string(let text):
            let (body, cut) = ProjectJSONText.escaped(text)
            return "\"" + body + (cut ? "…" : "") + "\""
        case .number(let text, _): return ProjectJSONText.cut(text)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        }
    }
}

/// A JSON value.
private enum ProjectJSONValue {
    case object([ProjectJSONMember])
    case array([ProjectJSONNode])
    case string(String)
    /// A number: its text as written, and its value.
    case number(String, Double)
    case bool(Bool)
    case null
}

/// One member of a JSON object, and the line and column its key starts at.
private struct ProjectJSONMember {
    var key: String
    var line: Int
    var column: Int
    var value: ProjectJSONNode
}

/// Text for messages.
private enum ProjectJSONText {
    /// About how many characters of a value a message shows.
    static let limit = 40

    /// `text` JSON-escaped, without quotes, cut at about ``limit`` characters; whether it was cut.
    static func escaped(_ text: String) -> (text: String, cut: Bool) {
        var result = ""
        var length = 0
        for scalar in text.unicodeScalars {
            let piece = escape(scalar)
            if length + piece.count > limit { return (result, true) }
            result += piece
            length += piece.count
        }
        return (result, false)
    }

    /// `text` cut at ``limit`` characters, with `…` when it was.
    static func cut(_ text: String) -> String {
        text.count > limit ? String(text.prefix(limit)) + "…" : text
    }

    /// A number without `.0` when it is whole.
    static func plain(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case "\u{08}": return "\\b"
        case "\u{0C}": return "\\f"
        default:
            if isInvisible(scalar) {
                let value = scalar.value
                if value > 0xFFFF {
                    let high = 0xD800 + ((value - 0x10000) >> 10)
                    let low = 0xDC00 + ((value - 0x10000) & 0x3FF)
                    return "\\u" + hex(high) + "\\u" + hex(low)
                }
                return "\\u" + hex(value)
            }
            return String(scalar)
        }
    }

    /// Control, format and separator characters, which a message shows escaped.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return true
        default: return false
        }
    }
}

/// A strict JSON parser that knows the line and column of every token.
private struct ProjectJSONParser {
    /// The deepest nesting of objects and arrays read.
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private let path: String
    private var index: Int
    private var line = 1
    private var column = 1

    init(bytes: [UInt8], path: String) {
        self.bytes = bytes
        self.path = path
        index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// The top-level object's members.
    mutating func parseDocument() throws(ProjectFileError) -> [ProjectJSONMember] {
        try validateUTF8()
        try skipWhitespace()
        guard let first = current else {
            throw failure("the file is empty; a project file is a JSON object, such as {\"disable\": [\"FieldAdvancing\"]}")
        }
        guard first == UInt8(ascii: "{") else {
            let found: String
            switch first {
            case UInt8(ascii: "["): found = "an array"
            case UInt8(ascii: "\""): found = "a string"
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): found = "a number"
            default: found = shownCurrent
            }
            throw failure("the top level must be a JSON object ({ ... }), got \(found)")
        }
        let members = try parseObject(depth: 1, keyPath: "")
        try skipWhitespace()
        if current != nil { throw failure("expected the end of the file after the top-level object, got \(shownCurrent)") }
        return members
    }

    // MARK: Reading bytes

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func advance() {
        guard index < bytes.count else { return }
        let byte = bytes[index]
        index += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    private func failure(_ message: String) -> ProjectFileError {
        ProjectFileError(path: path, line: line, column: column, message: message)
    }

    private func failure(_ message: String, line: Int, column: Int) -> ProjectFileError {
        ProjectFileError(path: path, line: line, column: column, message: message)
    }

    /// The character at the current position as a message shows it.
    private var shownCurrent: String {
        guard index < bytes.count else { return "the end of the file" }
        let end = min(bytes.count, index + 4)
        guard let scalar = String(decoding: bytes[index..<end], as: UTF8.self).unicodeScalars.first else { return "the end of the file" }
        let code = "U+" + ProjectJSONText.hex(scalar.value)
        if ProjectJSONText.isInvisible(scalar) || scalar.properties.isWhitespace { return code }
        return scalar.isASCII ? "'\(scalar)'" : "'\(scalar)' (\(code))"
    }

    private static func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "$"):
            return true
        default: return false
        }
    }

    /// The word (letters, digits, `_`, `$`) that starts at the current position.
    private func word() -> String {
        var end = index
        while end < bytes.count, Self.isWordByte(bytes[end]) { end += 1 }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }

    /// Checks that the bytes from the current position are UTF-8, naming the first that is not.
    private func validateUTF8() throws(ProjectFileError) {
        var position = index
        var line = 1
        var column = 1
        while position < bytes.count {
            let byte = bytes[position]
            var length = 1
            var secondLow: UInt8 = 0x80
            var secondHigh: UInt8 = 0xBF
            switch byte {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                secondLow = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                secondHigh = 0x9F
            case 0xF0:
                length = 4
                secondLow = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                secondHigh = 0x8F
            default: length = 0
            }
            var valid = length > 0 && position + length <= bytes.count
            if valid && length > 1 {
                let second = bytes[position + 1]
                valid = second >= secondLow && second <= secondHigh
                for offset in 2..<length where valid {
                    valid = bytes[position + offset] & 0xC0 == 0x80
                }
            }
            guard valid else {
                let hex = String(byte, radix: 16, uppercase: true)
                throw failure(
                    "the file is not valid UTF-8 (byte 0x\(hex.count < 2 ? "0" + hex : hex)); a project file is UTF-8 text", line: line,
                    column: column)
            }
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            position += length
        }
    }

    /// Skips JSON whitespace, refusing comments.
    private mutating func skipWhitespace() throws(ProjectFileError) {
        while let byte = current {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: advance()
            case UInt8(ascii: "/"):
                let next = index + 1 < bytes.count ? bytes[index + 1] : 0
                if next == UInt8(ascii: "/") || next == UInt8(ascii: "*") { throw failure("comments are not allowed in JSON") }
                return
            default: return
            }
        }
    }

    // MARK: Values

    private mutating func parseValue(depth: Int, keyPath: String) throws(ProjectFileError) -> ProjectJSONNode {
        try skipWhitespace()
        let startLine = line
        let startColumn = column
        guard let byte = current else { throw failure("unexpected end of the file; expected a value") }
        let value: ProjectJSONValue
        switch byte {
        case UInt8(ascii: "{"): value = .object(try parseObject(depth: depth, keyPath: keyPath))
        case UInt8(ascii: "["): value = .array(try parseArray(depth: depth, keyPath: keyPath))
        case UInt8(ascii: "\""): value = .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try parseNumber()
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: "$"):
            let word = word()
            let shown = ProjectJSONText.cut(word)
            switch word {
            case "true": value = .bool(true)
            case "false": value = .bool(false)
            case "null": value = .null
            case "NaN", "Infinity": throw failure("expected a value, got '\(shown)'; JSON has no NaN or Infinity")
            case "True", "TRUE", "False", "FALSE", "Null", "NULL", "None", "nil":
                throw failure("expected a value, got '\(shown)'; JSON's literals are lowercase: true, false and null")
            default: throw failure("expected a value, got '\(shown)'; a string needs double quotes")
            }
            for _ in 0..<word.utf8.count { advance() }
        case UInt8(ascii: "'"): throw failure("strings need double quotes (\"), not single quotes (')")
        case UInt8(ascii: "+"): throw failure("a number cannot start with '+'")
        case UInt8(ascii: ".") where Self.isDigit(index + 1 < bytes.count ? bytes[index + 1] : nil):
            throw failure("a number cannot start with '.'; write a 0 before it")
        default: throw failure("expected a value (an object, array, string, number, true, false or null), got \(shownCurrent)")
        }
        return ProjectJSONNode(value: value, line: startLine, column: startColumn)
    }

    private mutating func parseObject(depth: Int, keyPath: String) throws(ProjectFileError) -> [ProjectJSONMember] {
        if depth > Self.maximumDepth { throw failure("objects and arrays are nested more than \(Self.maximumDepth) deep") }
        let openLine = line
        let openColumn = column
        advance()
        var members: [ProjectJSONMember] = []
        var seen: [String: (line: Int, column: Int)] = [:]
        try skipWhitespace()
        if current == UInt8(ascii: "}") {
            advance()
            return members
        }
        while true {
            try skipWhitespace()
            let keyLine = line
            let keyColumn = column
            switch current {
            case UInt8(ascii: "\"")?: break
            case nil:
                throw failure(
                    "unexpected end of the file; expected a key (the object at line \(openLine), column \(openColumn) is not closed)")
            case UInt8(ascii: "'")?: throw failure("keys need double quotes (\"), not single quotes (')")
            case let byte? where Self.isWordByte(byte):
                let word = ProjectJSONText.cut(word())
                throw failure("expected a key in double quotes, got \(word) (write \"\(word)\")")
            default: throw failure("expected a key in double quotes, got \(shownCurrent)")
            }
            let key = try parseString()
            let memberPath = keyPath.isEmpty ? key : keyPath + "." + key
            if let first = seen[key] {
                throw failure(
                    "duplicate key '\(ProjectJSONText.escaped(memberPath).text)' (first at line \(first.line), column \(first.column))",
                    line: keyLine, column: keyColumn)
            }
            seen[key] = (keyLine, keyColumn)
            try skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                let shownKey = ProjectJSONText.escaped(key).text
                if current == nil { throw failure("unexpected end of the file; expected ':' after the key '\(shownKey)'") }
                throw failure("expected ':' after the key '\(shownKey)', got \(shownCurrent)")
            }
            advance()
            let value = try parseValue(depth: depth + 1, keyPath: memberPath)
            members.append(ProjectJSONMember(key: key, line: keyLine, column: keyColumn, value: value))
            try skipWhitespace()
            switch current {
            case UInt8(ascii: ",")?:
                let commaLine = line
                let commaColumn = column
                advance()
                try skipWhitespace()
                if current == UInt8(ascii: "}") {
                    throw failure("trailing comma: JSON allows no ',' before '}'", line: commaLine, column: commaColumn)
                }
            case UInt8(ascii: "}")?:
                advance()
                return members
            case nil:
                throw failure(
                    "unexpected end of the file; expected ',' or '}' (the object at line \(openLine), column \(openColumn) is not closed)")
            default: throw failure("expected ',' or '}' after a member")
            }
        }
    }

    private mutating func parseArray(depth: Int, keyPath: String) throws(ProjectFileError) -> [ProjectJSONNode] {
        if depth > Self.maximumDepth { throw failure("objects and arrays are nested more than \(Self.maximumDepth) deep") }
        let openLine = line
        let openColumn = column
        advance()
        var items: [ProjectJSONNode] = []
        try skipWhitespace()
        if current == UInt8(ascii: "]") {
            advance()
            return items
        }
        while true {
            items.append(try parseValue(depth: depth + 1, keyPath: "\(keyPath)[\(items.count)]"))
            try skipWhitespace()
            switch current {
            case UInt8(ascii: ",")?:
                let commaLine = line
                let commaColumn = column
                advance()
                try skipWhitespace()
                if current == UInt8(ascii: "]") {
                    throw failure("trailing comma: JSON allows no ',' before ']'", line: commaLine, column: commaColumn)
                }
            case UInt8(ascii: "]")?:
                advance()
                return items
            case nil:
                throw failure(
                    "unexpected end of the file; expected ',' or ']' (the array at line \(openLine), column \(openColumn) is not closed)")
            default: throw failure("expected ',' or ']' after an array item")
            }
        }
    }

    private mutating func parseString() throws(ProjectFileError) -> String {
        let openLine = line
        let openColumn = column
        advance()
        var text: [UInt8] = []
        while true {
            guard let byte = current else {
                throw failure(
                    "unexpected end of the file in a string (the string at line \(openLine), column \(openColumn) is not closed)")
            }
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &text)
            case 0x0A, 0x0D:
                throw failure("a line break in a string (is a closing '\"' missing? write \\n for a line break)")
            case 0x00..<0x20:
                throw failure("control character \(shownCurrent) in a string; write it as \\u\(ProjectJSONText.hex(UInt32(byte)))")
            default:
                text.append(byte)
                advance()
            }
        }
    }

    /// Reads the escape at the current position (a backslash) into `text`.
    private mutating func parseEscape(into text: inout [UInt8]) throws(ProjectFileError) {
        let escapeLine = line
        let escapeColumn = column
        advance()
        guard let letter = current else { throw failure("unexpected end of the file in a string's escape") }
        let simple: UInt8?
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = letter
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
            let shown = Self.isWordByte(letter) || (0x21..<0x7F).contains(letter) ? String(UnicodeScalar(letter)) : shownCurrent
            throw failure(
                "invalid escape '\\\(shown)' in a string; the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX", line: escapeLine,
                column: escapeColumn)
        }
        if let simple {
            text.append(simple)
            advance()
            return
        }
        advance()
        let first = try hexQuad(line: escapeLine, column: escapeColumn)
        var scalarValue = first
        if (0xD800...0xDBFF).contains(first) {
            let lowLine = line
            let lowColumn = column
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw failure(
                    "unpaired surrogate '\\u\(ProjectJSONText.hex(first))': a high surrogate must be followed by a low one (\\uDC00 to \\uDFFF)",
                    line: escapeLine, column: escapeColumn)
            }
            advance()
            advance()
            let second = try hexQuad(line: lowLine, column: lowColumn)
            guard (0xDC00...0xDFFF).contains(second) else {
                throw failure(
                    "unpaired surrogate '\\u\(ProjectJSONText.hex(first))': a high surrogate must be followed by a low one (\\uDC00 to \\uDFFF)",
                    line: escapeLine, column: escapeColumn)
            }
            scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(first) {
            throw failure(
                "unpaired surrogate '\\u\(ProjectJSONText.hex(first))': a low surrogate must follow a high one (\\uD800 to \\uDBFF)",
                line: escapeLine, column: escapeColumn)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else {
            throw failure("invalid escape '\\u\(ProjectJSONText.hex(first))'", line: escapeLine, column: escapeColumn)
        }
        text.append(contentsOf: String(scalar).utf8)
    }

    /// Four hex digits, for the `\u` escape at `line`, `column`.
    private mutating func hexQuad(line: Int, column: Int) throws(ProjectFileError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let digit: UInt32
            switch current {
            case let byte? where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case let byte? where byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case let byte? where byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("invalid escape: '\\u' must be followed by four hex digits", line: line, column: column)
            }
            value = value << 4 | digit
            advance()
        }
        return value
    }

    private mutating func parseNumber() throws(ProjectFileError) -> ProjectJSONValue {
        let start = index
        var problem: String?
        if current == UInt8(ascii: "-") { advance() }
        if current == UInt8(ascii: "0") {
            advance()
            if Self.isDigit(current) { problem = "leading zeros are not allowed" }
        } else if Self.isDigit(current) {
            while Self.isDigit(current) { advance() }
        } else {
            problem = "a digit must follow '-'"
        }
        if problem == nil, current == UInt8(ascii: ".") {
            advance()
            if !Self.isDigit(current) { problem = "a digit must follow '.'" }
            while Self.isDigit(current) { advance() }
        }
        if problem == nil, current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            if !Self.isDigit(current) { problem = "the exponent has no digits" }
            while Self.isDigit(current) { advance() }
        }
        if problem == nil, let byte = current, Self.isWordByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+") {
            problem = ""
        }
        if let problem {
            var end = start
            while end < bytes.count, Self.isWordByte(bytes[end]) || [UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(bytes[end]) {
                end += 1
            }
            let token = ProjectJSONText.cut(String(decoding: bytes[start..<max(end, start + 1)], as: UTF8.self))
            let startColumn = column - (index - start)
            throw failure("invalid number '\(token)'" + (problem.isEmpty ? "" : ": " + problem), line: line, column: startColumn)
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        return .number(text, Double(text) ?? .nan)
    }
}
