/// A JSON value that ``JSONValueReader`` read, and the line and column it starts at.
package struct JSONNode: Sendable {
    /// The value.
    package var value: JSONValue
    /// The 1-based line the value starts on.
    package var line: Int
    /// The 1-based column the value starts at, in characters (Unicode scalars).
    package var column: Int

    /// Creates a node.
    package init(value: JSONValue, line: Int, column: Int) {
        self.value = value
        self.line = line
        self.column = column
    }

    /// The value as a message shows it: `an object`, `an array`, a string quoted and JSON-escaped,
    /// a number as written, `true`, `false` or `null`; cut at about 40 characters.
    package var shown: String {
        switch value {
        case .object: return "an object"
        case .array: return "an array"
        case .string(let text):
            let (body, cut) = JSONMessageText.escaped(text)
            return "\"" + body + (cut ? "…" : "") + "\""
        case .number(let text, _): return JSONMessageText.cut(text)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        }
    }
}

/// A JSON value, as ``JSONValueReader`` reads it.
package enum JSONValue: Sendable {
    /// An object's members, in the order they are written.
    case object([JSONMember])
    /// An array's items.
    case array([JSONNode])
    /// A string, decoded.
    case string(String)
    /// A number: its text as written, and its value (infinite when it is too large for a double).
    case number(String, Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
}

/// One member of a JSON object, and the line and column its key starts at.
package struct JSONMember: Sendable {
    /// The key, decoded.
    package var key: String
    /// The 1-based line the key starts on.
    package var line: Int
    /// The 1-based column the key's opening quote is at, in characters.
    package var column: Int
    /// The member's value.
    package var value: JSONNode

    /// Creates a member.
    package init(key: String, line: Int, column: Int, value: JSONNode) {
        self.key = key
        self.line = line
        self.column = column
        self.value = value
    }
}

/// A document ``JSONValueReader`` refused: where, and why, in words for the person who wrote it.
package struct JSONReadError: Error, Sendable, Equatable {
    /// The 1-based line of the problem.
    package var line: Int
    /// The 1-based column of the problem, in characters (Unicode scalars).
    package var column: Int
    /// What is wrong, and what was expected.
    package var message: String

    /// Creates an error.
    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }
}

/// A strict reader of a small JSON document that people write by hand, such as the replay's project
/// file: the values with the line and column of each, or the first problem, said so that it can be
/// fixed.
///
/// Strict: UTF-8 (a byte order mark at the start is skipped), no comments, no trailing commas, no
/// duplicate keys (compared decoded), no single quotes, no `NaN`, capitalised literals or bare
/// words, no leading zeros or `+`; at most ``maximumDepth`` levels of nesting. Each refusal names
/// what was found and what JSON wants instead. Strings and numbers are scanned as the log reader
/// scans them (`JSONScan`); lines and columns count characters from 1, as editors do.
package enum JSONValueReader {
    /// The deepest nesting of objects and arrays read.
    package static let maximumDepth = 64

    /// Reads `bytes`, a document whose top level must be an object: its members.
    ///
    /// - Parameters:
    ///   - bytes: The document, UTF-8.
    ///   - document: What the document is, for the messages about the whole of it: `a project
    ///     file` gives "the file is empty; a project file is a JSON object, such as …".
    ///   - example: A short object of the document, for the message about an empty one.
    /// - Returns: The top-level object's members, in order.
    /// - Throws: ``JSONReadError`` at the first problem.
    package static func readObject(_ bytes: [UInt8], document: String, example: String) throws(JSONReadError) -> [JSONMember] {
        let result = LineBytes.with(bytes[...]) { bytes -> Result<[JSONMember], JSONReadError> in
            var reader = JSONDocumentReader(bytes: bytes, document: document, example: example)
            do throws(JSONReadError) {
                return .success(try reader.readDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// Text for messages about JSON: values shown escaped and cut short.
package enum JSONMessageText {
    /// About how many characters of a value a message shows.
    package static let limit = 40

    /// `text` JSON-escaped, without quotes (invisible characters as `\uXXXX`), cut at about
    /// ``limit`` characters; whether it was cut.
    package static func escaped(_ text: String) -> (text: String, cut: Bool) {
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
    package static func cut(_ text: String) -> String {
        text.count > limit ? String(text.prefix(limit)) + "…" : text
    }

    /// `value` in four (or more) uppercase hex digits.
    package static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Whether a message shows `scalar` escaped: control, format and separator characters, and
    /// those that are not assigned or are for private use.
    package static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return true
        default: return false
        }
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
}
