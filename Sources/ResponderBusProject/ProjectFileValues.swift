import EventLog

/// Reads the known keys' values out of the file's JSON (read by EventLog's `JSONValueReader`), and
/// collects the warnings. A value set to `null` is read as not set.
struct ProjectFileValues {
    /// The file's path, for messages.
    let path: String
    /// The unknown keys' lines, in the order they were met.
    var warnings: [String] = []

    init(path: String) {
        self.path = path
    }

    /// The top-level members of the file's `bytes`; the reader's problem as the file's error.
    static func members(of bytes: [UInt8], path: String) throws(ProjectFileError) -> [JSONMember] {
        if bytes.count > ProjectFileSystem.maximumSize { throw ProjectFileSystem.tooLarge(path) }
        do throws(JSONReadError) {
            return try JSONValueReader.readObject(bytes, document: "a project file", example: #"{"disable": ["FieldAdvancing"]}"#)
        } catch {
            throw ProjectFileError(path: path, line: error.line, column: error.column, message: error.message)
        }
    }

    /// `expected EXPECTED, got VALUE` at `node`, for `key`.
    func wrong(_ node: JSONNode, key: String, _ expected: String) -> ProjectFileError {
        ProjectFileError(path: path, line: node.line, column: node.column, key: key, message: "expected \(expected), got \(node.shown)")
    }

    /// Notes the unknown key `key` (dotted) of `member`, with the keys `known` at its level and,
    /// when one is close (a typo, another case) or the key belongs in a plugin's object, what it
    /// probably meant.
    mutating func warnUnknown(_ member: JSONMember, key: String, known: [String]) {
        let shown = JSONMessageText.escaped(key).text
        let guess = Self.suggestion(for: member.key, among: known).map { " did you mean '\($0)'?" } ?? ""
        warnings.append("\(path):\(member.line): unknown key '\(shown)' (ignored);\(guess) the keys are \(known.joined(separator: ", "))")
    }

    /// The keys of the three plugin objects, dotted, for a key written at the top level.
    static let nestedKeys = [
        "keyboardAvoidance.keyboardDistance", "keyboardAvoidance.timing", "keyboardAvoidance.honorsOtherAppsKeyboards",
        "fieldAdvancing.order", "fieldAdvancing.textViewReturnAdvances", "textViewOrdering.settleWindow",
        "textViewOrdering.heldFrameTimeout",
    ]

    /// The known key `key` most probably meant: one of `known` at most two edits away (or equal
    /// but for case), else a plugin object's key it is, or nearly is, written at the top level.
    static func suggestion(for key: String, among known: [String]) -> String? {
        func distance(_ a: String, _ b: String) -> Int {
            let a = Array(a.lowercased())
            let b = Array(b.lowercased())
            guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
            var row = Array(0...b.count)
            for i in 1...a.count {
                var previous = row[0]
                row[0] = i
                for j in 1...b.count {
                    let current = row[j]
                    row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                    previous = current
                }
            }
            return row[b.count]
        }
        let limit = min(2, max(1, key.count / 4))
        if let close = known.map({ ($0, distance(key, $0)) }).filter({ $0.1 <= limit }).min(by: { $0.1 < $1.1 }) { return close.0 }
        guard known.contains("keyboardAvoidance") else { return nil }
        return nestedKeys.map { ($0, distance(key, String($0.split(separator: ".").last!))) }.filter { $0.1 <= limit }
            .min(by: { $0.1 < $1.1 })?.0
    }

    /// An array of non-empty strings (`item` says what one is, `list` what they are), each
    /// passed to `check`, which returns what is wrong with one.
    func strings(
        _ node: JSONNode, key: String, list: String, item: String, check: (String) -> String? = { _ in nil }
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
    func integer(_ node: JSONNode, key: String, _ range: ClosedRange<Int>, unit: String = "milliseconds") throws(ProjectFileError) -> Int? {
        switch node.value {
        case .null: return nil
        case .number(_, let value)
        where value.isFinite && value.rounded() == value && value >= Double(range.lowerBound) && value <= Double(range.upperBound):
            return Int(value)
        default: throw wrong(node, key: key, "an integer from \(range.lowerBound) to \(range.upperBound) (\(unit))")
        }
    }

    /// A finite number within `range`.
    func number(_ node: JSONNode, key: String, _ range: ClosedRange<Double>) throws(ProjectFileError) -> Double? {
        switch node.value {
        case .null: return nil
        case .number(_, let value) where value.isFinite && range.contains(value): return value
        default:
            throw wrong(node, key: key, "a number from \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound))")
        }
    }

    /// One of the strings `choices`.
    func choice(_ node: JSONNode, key: String, _ choices: [String]) throws(ProjectFileError) -> String? {
        switch node.value {
        case .null: return nil
        case .string(let text) where choices.contains(text): return text
        default:
            let quoted = choices.map { "\"\($0)\"" }
            let listed = quoted.count > 1 ? quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "") : quoted.joined()
            throw wrong(node, key: key, listed)
        }
    }

    /// `true` or `false`.
    func bool(_ node: JSONNode, key: String) throws(ProjectFileError) -> Bool? {
        switch node.value {
        case .null: return nil
        case .bool(let value): return value
        default: throw wrong(node, key: key, "true or false")
        }
    }

    /// A number without `.0` when it is whole.
    static func plain(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// An object from non-empty paths to non-empty reasons (`"expectedFailures"`); `nil` for
    /// `null`.
    func reasons(_ node: JSONNode, key: String) throws(ProjectFileError) -> [String: String]? {
        if case .null = node.value { return nil }
        var reasons: [String: String] = [:]
        for entry in try object(node, key: key) {
            guard case .string(let reason) = entry.value.value, !entry.key.isEmpty, !reason.isEmpty else {
                throw wrong(
                    entry.value, key: "\(key).\(entry.key)", "a session's path (not empty) with why it is expected to fail, a non-empty string")
            }
            reasons[entry.key] = reason
        }
        return reasons
    }

    /// An object's members; none for `null`.
    func object(_ node: JSONNode, key: String) throws(ProjectFileError) -> [JSONMember] {
        switch node.value {
        case .null: return []
        case .object(let members): return members
        default: throw wrong(node, key: key, "an object ({ ... })")
        }
    }
}
