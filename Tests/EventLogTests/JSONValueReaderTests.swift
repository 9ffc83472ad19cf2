import Testing

@testable import EventLog

/// The members of `text`, read as a settings file.
private func members(_ text: String) throws(JSONReadError) -> [JSONMember] {
    try JSONValueReader.readObject(Array(text.utf8), document: "a settings file", example: #"{"a": 1}"#)
}

/// The error reading `bytes` throws, or `nil` when it reads.
private func readError(_ bytes: [UInt8]) -> JSONReadError? {
    do {
        _ = try JSONValueReader.readObject(bytes, document: "a settings file", example: #"{"a": 1}"#)
        return nil
    } catch {
        return error
    }
}

@Suite("JSONValueReader: a hand-written document's values, each with its line and column")
struct JSONValueReaderTests {
    @Test("values, keys and where each starts: lines from 1, columns in characters, after a byte order mark")
    func valuesAndLocations() throws {
        let text = "\u{FEFF}{\"é\": [1.50, -2e3, \"a\\u00e9\\n\"],\r\n  \"日本\": {\"t\": true, \"f\": false, \"n\": null}}"
        let top = try members(text)
        #expect(top.map(\.key) == ["é", "日本"])
        #expect(top.map(\.line) == [1, 2])
        #expect(top.map(\.column) == [2, 3])
        guard case .array(let items) = top[0].value.value else {
            Issue.record("not an array: \(top[0].value.shown)")
            return
        }
        #expect(items.map(\.column) == [8, 14, 20])
        #expect(items.map(\.shown) == ["1.50", "-2e3", #""aé\n""#])
        guard case .number(let text, let value) = items[1].value else {
            Issue.record("not a number")
            return
        }
        #expect(text == "-2e3")
        #expect(value == -2000)
        guard case .object(let inner) = top[1].value.value else {
            Issue.record("not an object")
            return
        }
        #expect(top[1].value.line == 2)
        #expect(top[1].value.column == 9)
        #expect(inner.map(\.value.shown) == ["true", "false", "null"])
        #expect(inner.map(\.column) == [10, 21, 33])
    }

    @Test("the messages about the whole document name what it is")
    func documentMessages() {
        #expect(
            readError([]) == JSONReadError(line: 1, column: 1, message: #"the file is empty; a settings file is a JSON object, such as {"a": 1}"#))
        #expect(
            readError(Array("{\n \"a\": \"".utf8) + [0xFE] + Array("\"}".utf8))
                == JSONReadError(line: 2, column: 8, message: "the file is not valid UTF-8 (byte 0xFE); a settings file is UTF-8 text"))
        #expect(
            readError(Array("[1]".utf8)) == JSONReadError(line: 1, column: 1, message: "the top level must be a JSON object ({ ... }), got an array"))
    }

    @Test("a number too large for a double is read, infinite, with its text; the log reader refuses it")
    func largeNumbers() throws {
        let top = try members(#"{"big": 1e999, "long": 123456789012345678901234567890}"#)
        guard case .number(let text, let value) = top[0].value.value, case .number(_, let long) = top[1].value.value else {
            Issue.record("not numbers")
            return
        }
        #expect(text == "1e999")
        #expect(value == .infinity)
        #expect(long == 123456789012345678901234567890.0)
    }

    @Test("a string's problem is located wherever the scan finds it, around its eight-byte steps", arguments: 0..<20)
    func stringProblems(_ offset: Int) {
        let before = String(repeating: "é", count: offset)
        let prefix = "{\"k\": \"" + before
        let column = 8 + offset
        #expect(readError(Array((prefix + "\u{01}\"}").utf8))?.column == column)
        #expect(readError(Array((prefix + "\u{01}\"}").utf8))?.message == #"control character U+0001 in a string; write it as \u0001"#)
        #expect(readError(Array((prefix + #"\q"}"#).utf8))?.column == column)
        #expect(readError(Array((prefix + #"\uDC00"}"#).utf8))?.column == column)
        #expect(readError(Array(prefix.utf8))?.column == column)
    }
}
