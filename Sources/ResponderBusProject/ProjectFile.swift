import EventLog
import ResponderBusExternal
import ResponderBusPlatform

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
///     "allowConflicts": false,
///     "checkProperties": true,
///     "expectedFailures": {"login/se-rotate.jsonl": "issue 12: the password field stays covered after rotating"},
///     "keyboardAvoidance": {"keyboardDistance": 20, "timing": "automatic", "honorsOtherAppsKeyboards": true},
///     "fieldAdvancing": {"order": "tag", "textViewReturnAdvances": false},
///     "textViewOrdering": {"settleWindow": 50, "heldFrameTimeout": 1000}
/// }
/// ```
///
/// The JSON is strict: no comments, no trailing commas, no duplicate keys, at most 64 levels of
/// nesting and 1 MiB. A key set to `null` is not set, as if it were absent. A key this type does not
/// know, at the top level or inside one of the three plugin objects, is not an error here: it is
/// ignored, with a line in ``warnings`` that names what it probably meant (`did you mean
/// 'keyboardAvoidance.keyboardDistance'?`). `responder-bus test` refuses such a file (exit 78), so
/// that a typo cannot pass CI with a default in its place; `replay` warns and goes on. Every other problem throws a ``ProjectFileError`` that names the file,
/// the line and column (counted in characters, from 1) and, for a value of the wrong type or out of
/// range, the dotted key (`keyboardAvoidance.keyboardDistance`, `plugins[1]` for an item of a list).
public struct ProjectFile: Sendable, Equatable {
    /// The built-in plugins' names, in pipeline order: what `disable` may name (the replay's
    /// `BuiltinPlugins.names`).
    public static let builtinPluginNames = ["TextViewOrdering", "FieldAdvancing", "KeyboardAvoidance"]

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
    /// `"allowConflicts"`: whether `responder-bus test` lets a session pass in which two plugins
    /// set the root, a scroll view or the first responder against each other in one loop turn (a
    /// conflict the bus names either way; by default such a session fails).
    public var allowConflicts: Bool?
    /// `"checkProperties"`: whether `responder-bus test` checks, in each session, the properties
    /// `responder-bus explore` checks that a replay of one session can (the screen put back when the
    /// keyboard covers nothing, one move per change); a session that breaks one fails. `explore`
    /// writes it beside the sessions it shrinks.
    public var checkProperties: Bool?
    /// `"expectedFailures"`: sessions `responder-bus test` expects to fail, each with why (a known
    /// bug kept in the suite): an object from a session's path, relative to the file's folder, to
    /// a non-empty reason. Such a session passes while it fails (listed as an expected failure) and
    /// fails once it passes, until its entry is removed. ``resolvedExpectedFailures`` has the
    /// paths made absolute.
    public var expectedFailures: [String: String]?
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

    /// ``expectedFailures`` with each relative path made absolute against ``folder``.
    public var resolvedExpectedFailures: [String: String] {
        var resolved: [String: String] = [:]
        for (path, reason) in expectedFailures ?? [:] { resolved[path.hasPrefix("/") ? path : folder + "/" + path] = reason }
        return resolved
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

    /// What is wrong with a plugin command, if anything: words that cannot be split.
    private static func commandProblem(_ command: String) -> String? {
        do throws(ExternalPluginError) {
            _ = try ExternalPlugin.Configuration.words(of: command)
            return nil
        } catch {
            return error.message
        }
    }

    private init(bytes: [UInt8], path: String) throws(ProjectFileError) {
        let members = try ProjectFileValues.members(of: bytes, path: path)
        var reader = ProjectFileValues(path: path)
        self.path = path
        for member in members {
            let value = member.value
            switch member.key {
            case "disable":
                disable = try reader.strings(
                    value, key: "disable", list: "plugin names", item: "a plugin name (a non-empty string)",
                    check: { name in
                        Self.builtinPluginNames.contains(name)
                            ? nil : "'\(name)' is no built-in plugin; the built-in plugins are \(Self.builtinPluginNames.joined(separator: ", "))"
                    })
            case "plugins":
                plugins = try reader.strings(
                    value, key: "plugins", list: "plugin library paths",
                    item:
                        "a plugin library path (a non-empty string such as \"libs/\(PluginLibrary.fileName(forPlugin: "Warner"))@after:KeyboardAvoidance\")",
                    check: ProjectFileSystem.pluginProblem)
            case "pluginCommands":
                pluginCommands = try reader.strings(
                    value, key: "pluginCommands", list: "commands", item: "a command (a non-empty string such as \"python3 plugins/gap.py\")",
                    check: Self.commandProblem)
            case "pluginTimeout":
                pluginTimeout = try reader.integer(value, key: "pluginTimeout", 1...600_000)
            case "pluginFailure":
                pluginFailure = try reader.choice(value, key: "pluginFailure", ["continue", "stop"])
            case "pluginFuel":
                pluginFuel = try reader.integer(
                    value, key: "pluginFuel", 0...1_000_000_000_000, unit: "fuel units per delivery; 0 turns metering off")
            case "pluginMemory":
                pluginMemory = try reader.integer(value, key: "pluginMemory", 1...4096, unit: "MiB")
            case "allowConflicts":
                allowConflicts = try reader.bool(value, key: "allowConflicts")
            case "checkProperties":
                checkProperties = try reader.bool(value, key: "checkProperties")
            case "expectedFailures":
                expectedFailures = try reader.reasons(value, key: "expectedFailures")
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
                        "allowConflicts", "checkProperties", "expectedFailures", "keyboardAvoidance", "fieldAdvancing", "textViewOrdering",
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
