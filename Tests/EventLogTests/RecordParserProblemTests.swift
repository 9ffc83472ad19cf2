import EventLog
import Testing

/// A line of a log whose string or number is wrong, and the exact problem the reader reports.
struct RecordParserProblemCase: Sendable, CustomTestStringConvertible {
    /// The bytes of the line after the header (without its newline).
    var line: [UInt8]
    /// Whether the line is the file's last and has no newline.
    var endsFile = false
    var code: LogReadError.Code
    var column: Int
    var message: String

    var testDescription: String { String(decoding: line, as: UTF8.self) }

    /// An action whose name is `text` after its opening quote (at column 32).
    static func name(_ text: String, endsFile: Bool = false, _ code: LogReadError.Code, _ column: Int, _ message: String) -> Self {
        name(Array(text.utf8), endsFile: endsFile, code, column, message)
    }

    static func name(_ bytes: [UInt8], endsFile: Bool = false, _ code: LogReadError.Code, _ column: Int, _ message: String) -> Self {
        let line = Array(#"{"t":0,"event":"action","name":""#.utf8) + bytes + (endsFile ? [] : Array(#","origin":"derived","by":"X"}"#.utf8))
        return Self(line: line, endsFile: endsFile, code: code, column: column, message: message)
    }

    /// A view shift whose `originY` is `text` (at column 38).
    static func originY(_ text: String, endsFile: Bool = false, _ code: LogReadError.Code, _ column: Int, _ message: String) -> Self {
        let line = #"{"t":0,"event":"viewShift","originY":"# + text + (endsFile ? "" : #","origin":"derived","by":"X"}"#)
        return Self(line: Array(line.utf8), endsFile: endsFile, code: code, column: column, message: message)
    }
}

/// The log reader's messages for strings and numbers, word for word: the scanning it shares with the
/// JSON value reader words its problems for each reader, and a log's stay as they were.
@Suite("RecordParser: the problems of strings and numbers, exactly")
struct RecordParserProblemTests {
    static let cases: [RecordParserProblemCase] = [
        .name(#"a\qb""#, .malformedJSON, 34, #"unknown escape '\q'"#),
        .name(#"\u12""#, .malformedJSON, 37, #"expected a hex digit in a \u escape"#),
        .name(#"\uD83D""#, .malformedJSON, 39, #"a lone surrogate escape; pair \uD8xx with \uDCxx"#),
        .name(#"\uD83D\u0041""#, .malformedJSON, 45, "a lone surrogate escape"),
        .name(#"\uD83D\u00""#, .malformedJSON, 43, #"expected a hex digit in a \u escape"#),
        .name(#"\uDE00""#, .malformedJSON, 39, "a lone surrogate escape"),
        .name("a\tb\"", .malformedJSON, 34, "a control character inside a string must be escaped"),
        .name("\\nb\tc\"", .malformedJSON, 36, "a control character inside a string must be escaped"),
        .name([0xC3, 0x28, 0x22], .invalidUTF8, 32, "the string here is not valid UTF-8; logs are UTF-8 text"),
        .name([0x5C, 0x6E, 0xFF, 0x22], .invalidUTF8, 32, "the string here is not valid UTF-8; logs are UTF-8 text"),
        .name(
            "abc", endsFile: true, .truncatedLine, 36, "the file ends in the middle of this record (expected the end of a string); was it cut off?"),
        .name(
            #"a\nbc"#, endsFile: true, .truncatedLine, 38,
            "the file ends in the middle of this record (expected the end of a string); was it cut off?"),
        .name(#"ab\"#, endsFile: true, .truncatedLine, 36, "the file ends in the middle of this record (expected an escape); was it cut off?"),
        .name(#"\u12"#, endsFile: true, .truncatedLine, 35, "the file ends in the middle of this record (expected four hex digits); was it cut off?"),
        .originY("1.", .malformedJSON, 40, "expected a digit after the decimal point, found ','"),
        .originY("1e", .malformedJSON, 40, "expected the digits of an exponent, found ','"),
        .originY("1e+", .malformedJSON, 41, "expected the digits of an exponent, found ','"),
        .originY("-", .malformedJSON, 38, "expected a number, found '-'"),
        .originY("012", .malformedJSON, 38, "a number must not start with 0"),
        .originY("-012.5e1", .malformedJSON, 38, "a number must not start with 0"),
        .originY("-1e999", .invalidValue, 38, "this number is too large to be finite; write a finite number"),
        .originY("NaN", .invalidValue, 38, "NaN and infinite numbers are not allowed in a log; write a finite number"),
        .originY("-Infinity", .invalidValue, 38, "NaN and infinite numbers are not allowed in a log; write a finite number"),
        .originY(
            "1.5e", endsFile: true, .truncatedLine, 42,
            "the file ends in the middle of this record (expected the digits of an exponent); was it cut off?"),
        .originY("x", .malformedJSON, 38, "expected a number, found 'x'"),
    ]

    @Test("each problem keeps its code, column and message", arguments: cases)
    func problem(_ bad: RecordParserProblemCase) throws {
        let bytes = Array((header + "\n").utf8) + bad.line + (bad.endsFile ? [] : [0x0A])
        let (_, records, problems) = readAll(bytes)
        #expect(records.isEmpty)
        let problem = try #require(problems.first)
        #expect(problem.code == bad.code)
        #expect(problem.line == 2)
        #expect(problem.column == bad.column)
        #expect(problem.message == bad.message)
    }
}
