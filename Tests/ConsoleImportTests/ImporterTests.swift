import ConsoleImport
import EventLog
import Foundation
import ResponderBus
import Testing

// MARK: - Helpers

/// `Tests/Fixtures/ios-logs`: the real console dumps, copied into the repository verbatim (each
/// file's `#` header says where it was pasted).
private let fixturesDirectory: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/ios-logs").standardizedFileURL

/// Every file of the fixture folder, as it is on disk (empty when the folder is missing, which
/// ``ImporterFixtureTests/folderIsThere()`` reports).
private let fixtureFiles: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: fixturesDirectory.path)) ?? [])
    .filter { !$0.hasPrefix(".") }.sorted()

private func fixtureText(_ name: String) throws -> String {
    let url = fixturesDirectory.appendingPathComponent(name)
    let data = try Data(contentsOf: url)
    return String(decoding: data, as: UTF8.self)
}

private func rect(_ c: [Double]) -> Rect { Rect(x: c[0], y: c[1], width: c[2], height: c[3]) }

private func kb(
    _ event: LogEvent.KeyboardEvent, _ t: Double, begin: [Double]? = nil, end: [Double]? = nil, duration: Double? = nil,
    curve: Int? = nil, isLocal: Bool? = nil
) -> LogRecord {
    LogRecord(
        t: t,
        event: .keyboard(
            event,
            KeyboardInfo(begin: begin.map(rect), end: end.map(rect), duration: duration, curve: curve, isLocal: isLocal)))
}

private func importing(_ text: String, screen: Size? = nil, event: LogEvent.KeyboardEvent = .keyboardWillChangeFrame)
    -> ImportResult
{
    ConsoleImporter(options: .init(screen: screen, defaultEvent: event)).importDump(text)
}

/// The names of the events, in order.
private func names(_ result: ImportResult) -> [String] { result.records.map(\.event.name) }

/// The keyboard payloads, in order.
private func infos(_ result: ImportResult) -> [KeyboardInfo] {
    result.records.compactMap { if case .keyboard(_, let info) = $0.event { info } else { nil } }
}

/// Problems as (kind, line, column), for exact comparison.
private struct Where: Hashable, CustomStringConvertible {
    var kind: ImportProblem.Kind
    var line: Int
    var column: Int?
    init(_ kind: ImportProblem.Kind, _ line: Int, _ column: Int? = nil) {
        self.kind = kind
        self.line = line
        self.column = column
    }
    var description: String { "\(kind)@\(line):\(column.map(String.init) ?? "-")" }
}

private func wheres(_ result: ImportResult) -> [Where] {
    result.problems.map { Where($0.kind, $0.line, $0.column) }
}

/// Checks that `LogWriter` turns the import into JSON Lines: a header, then one object per record.
private func expectValidJSONLines(_ result: ImportResult, sourceLocation: SourceLocation = #_sourceLocation) {
    let text = LogWriter.text(header: result.header, records: result.records)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.last == "", "the log ends with a newline", sourceLocation: sourceLocation)
    let content = lines.dropLast()
    #expect(content.count == result.records.count + 1, sourceLocation: sourceLocation)
    for (index, line) in content.enumerated() {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(object != nil, "line \(index + 1) is not a JSON object: \(line)", sourceLocation: sourceLocation)
        guard let object else { continue }
        if index == 0 {
            #expect(object["format"] as? String == "responder-bus-log", sourceLocation: sourceLocation)
            #expect(object["version"] as? Int == 1, sourceLocation: sourceLocation)
        } else {
            #expect(object["event"] is String, sourceLocation: sourceLocation)
            #expect(object["t"] is NSNumber, sourceLocation: sourceLocation)
            for key in ["begin", "end"] {
                if let frame = object[key] {
                    let numbers = frame as? [NSNumber]
                    #expect(numbers?.count == 4, "\(key) is [x, y, width, height] in \(line)", sourceLocation: sourceLocation)
                }
            }
        }
    }
}

/// The invariants every import keeps, whatever the input.
private func expectSane(_ result: ImportResult, lineCount: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    var previous = -Double.infinity
    for record in result.records {
        #expect(record.t.isFinite && record.t >= 0 && record.t >= previous, "t never goes back", sourceLocation: sourceLocation)
        previous = record.t
        if case .keyboard(_, let info) = record.event {
            for frame in [info.begin, info.end].compactMap({ $0 }) {
                let finite = frame.components.allSatisfy(\.isFinite)
                #expect(finite, sourceLocation: sourceLocation)
            }
            if let duration = info.duration { #expect(duration.isFinite && duration >= 0, sourceLocation: sourceLocation) }
        }
    }
    for problem in result.problems {
        #expect(problem.line >= 0 && problem.line <= lineCount, "\(problem)", sourceLocation: sourceLocation)
        #expect(!problem.message.isEmpty, sourceLocation: sourceLocation)
    }
    if result.isEmpty {
        #expect(
            result.problems.contains { $0.kind == .nothingImportable || $0.kind == .screenUnknown },
            "an empty import says why", sourceLocation: sourceLocation)
    } else {
        #expect(result.header.screen.width > 0 && result.header.screen.height > 0, sourceLocation: sourceLocation)
        #expect(["given", "inferred"].contains(result.header.screenSource ?? ""), sourceLocation: sourceLocation)
    }
    expectValidJSONLines(result, sourceLocation: sourceLocation)
}

/// The text at a 1-based line and column (columns in Unicode scalars).
private func text(in source: String, line: Int, column: Int) -> String? {
    // Lines end at every "\n" byte (a String would keep "\r\n" together as one Character).
    let lines = source.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
    guard line >= 1, line <= lines.count else { return nil }
    let scalars = lines[line - 1]
    guard column >= 1, column <= scalars.count + 1 else { return nil }
    var text = String.UnicodeScalarView()
    text.append(contentsOf: scalars.dropFirst(column - 1))
    return String(text)
}

private func lineCount(_ text: String) -> Int { text.utf8.split(separator: 10, omittingEmptySubsequences: false).count }

/// A small seeded generator, so that failures reproduce.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// MARK: - The fixture dumps

/// What each fixture must import to: the exact records, the screen, and the problems (kind, line,
/// column; lines count the `#` annotations, since they are lines of the file).
private struct FixtureExpectation: Sendable {
    var screen: Size?
    var records: [LogRecord]
    var problems: [Where]
}

private let show320x568: (begin: [Double], end: [Double]) = ([0, 568, 320, 216], [0, 352, 320, 216])
private let ipadKeyboardOff: [Double] = [-352, 0, 352, 1024]
private let ipadKeyboardOn: [Double] = [0, 0, 352, 1024]
private let textField23 = ViewID("UITextField-0x189f10")

private func ipad(_ event: LogEvent.KeyboardEvent, _ t: Double, showing: Bool) -> LogRecord {
    kb(
        event, t, begin: showing ? ipadKeyboardOff : ipadKeyboardOn, end: showing ? ipadKeyboardOn : ipadKeyboardOff,
        duration: 0.25, curve: 0)
}

private func scene(screen: Size, fields: [ViewSpec]) -> LogRecord {
    LogRecord(t: 0, event: .scene(SceneInfo(root: ViewSpec(id: "root", frame: Rect(origin: .zero, size: screen), children: fields))))
}

private let fixtureExpectations: [String: FixtureExpectation] = [
    "01-swift-iphone5-320x568-full-six-notification-set.txt": FixtureExpectation(
        screen: Size(width: 320, height: 568),
        records: [
            kb(.keyboardWillShow, 0, begin: show320x568.begin, end: show320x568.end, duration: 0.25, curve: 7, isLocal: true),
            kb(.keyboardDidShow, 0.1, begin: show320x568.begin, end: show320x568.end, duration: 0.25, curve: 7, isLocal: true),
            kb(.keyboardWillHide, 0.2, begin: show320x568.end, end: show320x568.begin, duration: 0.25, curve: 7, isLocal: true),
            kb(.keyboardDidHide, 0.3, begin: show320x568.end, end: show320x568.begin, duration: 0.25, curve: 7, isLocal: true),
            kb(.keyboardWillChangeFrame, 0.4, begin: show320x568.begin, end: show320x568.end, duration: 0.25, curve: 7, isLocal: true),
            kb(.keyboardDidChangeFrame, 0.5, begin: show320x568.begin, end: show320x568.end, duration: 0.25, curve: 7, isLocal: true),
        ],
        problems: []),
    "03-swift-iphoneXR-414x896-willshow-begin-height-54.txt": FixtureExpectation(
        screen: Size(width: 414, height: 896),
        records: [kb(.keyboardWillShow, 0, begin: [0, 896, 414, 54], end: [0, 595, 414, 301], duration: 0.25, curve: 7, isLocal: true)],
        problems: []),
    "05-swift-iphone6-375x667-begin216-end258.txt": FixtureExpectation(
        screen: Size(width: 375, height: 667),
        records: [
            kb(.keyboardWillChangeFrame, 0, begin: [0, 667, 375, 216], end: [0, 409, 375, 258], duration: 0.25, curve: 7, isLocal: true)
        ],
        problems: []),
    "07-swift-iphone6-375x667-print-userinfo-258-split-entry.txt": FixtureExpectation(
        screen: Size(width: 375, height: 667),
        records: [
            kb(.keyboardWillChangeFrame, 0, begin: [0, 667, 375, 258], end: [0, 409, 375, 258], duration: 0.25, curve: 7, isLocal: true)
        ],
        problems: []),
    "09-objc-iphone4-320x480-ios7-nsconcretenotification-willchangeframe.txt": FixtureExpectation(
        screen: Size(width: 320, height: 480),
        records: [kb(.keyboardWillChangeFrame, 0, begin: [0, 480, 320, 216], end: [0, 264, 320, 216], duration: 0.25, curve: 7)],
        problems: []),
    "11-objc-ipad-landscape-1024x768-ios8-userinfo-391.txt": FixtureExpectation(
        screen: Size(width: 1024, height: 768),
        records: [kb(.keyboardWillChangeFrame, 0, begin: [0, 768, 1024, 391], end: [0, 377, 1024, 391], duration: 0.25, curve: 7)],
        problems: []),
    "13-swift3-iphone6-predictive-toggle-sequence-nsdictionary.txt": FixtureExpectation(
        screen: Size(width: 375, height: 667),
        records: [
            kb(.keyboardWillChangeFrame, 0, begin: [0, 442, 375, 225], end: [0, 409, 375, 258]),
            kb(.keyboardWillShow, 0.1, begin: [0, 442, 375, 225], end: [0, 409, 375, 258]),
            kb(.keyboardDidChangeFrame, 0.2, begin: [0, 442, 375, 225], end: [0, 409, 375, 258]),
            kb(.keyboardDidShow, 0.3, begin: [0, 442, 375, 225], end: [0, 409, 375, 258]),
            // The "Turning Predictive OFF" userInfo is cut off after its FrameBegin line (its `{` is on
            // line 33): its four names are imported with the keys that are whole, FrameBegin among them.
            kb(.keyboardWillChangeFrame, 0.4, begin: [0, 409, 375, 258]),
            kb(.keyboardWillShow, 0.5, begin: [0, 409, 375, 258]),
            kb(.keyboardDidChangeFrame, 0.6, begin: [0, 409, 375, 258]),
            kb(.keyboardDidShow, 0.7, begin: [0, 409, 375, 258]),
        ],
        problems: [Where(.partlyImported, 33, 12)]),
    "15-sequence-refocus-other-textfield-with-inputaccessoryview.txt": FixtureExpectation(
        screen: nil, records: [], problems: [Where(.screenUnknown, 0)]),
    "17-objc-iphoneXR-414x896-nslog-timestamped-show-then-hide.txt": FixtureExpectation(
        screen: Size(width: 414, height: 896),
        records: [
            kb(.keyboardWillChangeFrame, 0, begin: [0, 896, 414, 288], end: [0, 550, 414, 346], duration: 0.25, curve: 7, isLocal: true),
            kb(.keyboardWillChangeFrame, 1.669762, begin: [0, 550, 414, 346], end: [0, 896, 414, 346], duration: 0.25, curve: 7, isLocal: true),
        ],
        problems: []),
    "19-objc-iphone12promax-428x926-willchangeframe.txt": FixtureExpectation(
        screen: Size(width: 428, height: 926),
        records: [
            kb(.keyboardWillChangeFrame, 0, begin: [0, 926, 428, 346], end: [0, 580, 428, 346], duration: 0.25, curve: 7, isLocal: true)
        ],
        problems: []),
    "21-objc-iphone7-375x667-default-vs-accessory-only-14pt-github-issue.txt": FixtureExpectation(
        screen: Size(width: 375, height: 667),
        records: [
            kb(.keyboardWillChangeFrame, 0, begin: [0, 667, 375, 216], end: [0, 451, 375, 216], duration: 0.25, curve: 7, isLocal: true)
        ],
        // The second block (14 pt toolbar) stops after CenterBegin: its `{` is line 23.
        problems: [Where(.truncated, 23, 1)]),
    "23-objc-ipad-ios5-landscape-nsconcretenotification-full-edit-session.txt": FixtureExpectation(
        // Pre-iOS 8 landscape: sideways frames in the portrait screen, 1024 high => 768 x 1024.
        screen: Size(width: 768, height: 1024),
        records: [
            scene(
                screen: Size(width: 768, height: 1024),
                fields: [ViewSpec(id: textField23, kind: .textField, frame: Rect(x: 20, y: 20, width: 97, height: 31))]),
            LogRecord(t: 0, event: .didBeginEditing(EditingInfo(view: textField23))),
            ipad(.keyboardWillChangeFrame, 0.009, showing: true),
            ipad(.keyboardWillShow, 0.011, showing: true),
            ipad(.keyboardDidChangeFrame, 0.291, showing: true),
            ipad(.keyboardDidShow, 0.294, showing: true),
            ipad(.keyboardWillChangeFrame, 5.281, showing: false),
            ipad(.keyboardWillHide, 5.284, showing: false),
            LogRecord(t: 5.288, event: .didEndEditing(EditingInfo(view: textField23))),
            ipad(.keyboardDidChangeFrame, 5.545, showing: false),
            ipad(.keyboardDidHide, 5.547, showing: false),
        ],
        // Every frame is sideways (a landscape keyboard in portrait coordinates, shown at x = 0 or
        // hidden just past it): kept, and said once, at the first, with the conversion on offer.
        problems: [Where(.sidewaysKeyboardFrames, 23, 34)]),
    "25-objc-ipad-ios5-hardware-keyboard-no-keyboard-notifications.txt": FixtureExpectation(
        screen: nil, records: [], problems: [Where(.screenUnknown, 0)]),
    "27-objc-iphone4-320x480-ios6-hide-curve0-keyboardChange-prefix.txt": FixtureExpectation(
        screen: Size(width: 320, height: 480),
        records: [kb(.keyboardWillChangeFrame, 0, begin: [0, 264, 320, 216], end: [0, 480, 320, 216], duration: 0.25, curve: 0)],
        problems: []),
    "29-objc-iphone6-375x667-unquoted-values-unordered-keys-show-hide.txt": FixtureExpectation(
        screen: Size(width: 375, height: 667),
        records: [
            kb(.keyboardWillShow, 0, begin: [0, 667, 375, 258], end: [0, 409, 375, 258], duration: 0.25, curve: 7, isLocal: true),
            kb(.keyboardWillHide, 0.1, begin: [0, 409, 375, 258], end: [0, 667, 375, 258], duration: 0.25, curve: 7, isLocal: true),
        ],
        problems: []),
    "31-swift4-iphone6-375x667-string-keys-garbled-show-and-hide-end-height-0.txt": FixtureExpectation(
        screen: Size(width: 375, height: 667),
        records: [
            kb(.keyboardWillChangeFrame, 0, begin: [0, 667, 375, 260], end: [0, 407, 375, 260], duration: 0.4, curve: 7),
            kb(.keyboardWillChangeFrame, 0.1, begin: [0, 407, 375, 260], end: [0, 667, 375, 0], duration: 0.25, curve: 7),
        ],
        // The garbled line keeps `797}, ` and ` 260}}, ` where entries were deleted.
        problems: [Where(.strayText, 12, 78), Where(.strayText, 12, 140)]),
    "33-fragment-ios7-willhide-frameend-cgrect-inf.txt": FixtureExpectation(
        screen: nil, records: [], problems: [Where(.nothingImportable, 0)]),
    "35-objc-iphone6-375x667-willchangeframe-zero-height.txt": FixtureExpectation(
        screen: Size(width: 375, height: 667),
        records: [
            kb(.keyboardWillChangeFrame, 0, begin: [0, 667, 375, 0], end: [0, 667, 375, 0], duration: 0.25, curve: 7, isLocal: true)
        ],
        problems: []),
    "37-swift-iphoneX-375x812-escaped-quotes-begin282-end357.txt": FixtureExpectation(
        screen: Size(width: 375, height: 812),
        records: [
            kb(.keyboardWillChangeFrame, 0, begin: [0, 812, 375, 282], end: [0, 455, 375, 357], duration: 0.25, curve: 7, isLocal: true)
        ],
        problems: []),
    "39-swift-cgrect-tuple-ipad-rotation-numeric-keypad-truncated.txt": FixtureExpectation(
        // Two lone frames, one per orientation: a tie, broken by the frame seen first.
        screen: Size(width: 1024, height: 768),
        records: [
            kb(.keyboardWillChangeFrame, 0, end: [0, 768, 1024, 398]),
            kb(.keyboardWillChangeFrame, 0.1, end: [0, 1024, 768, 313]),
        ],
        // The portrait frame, on the landscape screen the first frame wins: off it, below; it fits
        // the other orientation's screen, and the problem says so.
        problems: [Where(.implausibleKeyboardFrame, 14, 14), Where(.truncated, 15, 14)]),
    "41-objc-device-iphone5s-320x568-willchangeframe-duration-0-onscreen-216-to-254.txt": FixtureExpectation(
        screen: Size(width: 320, height: 568),
        records: [
            kb(.keyboardWillChangeFrame, 0, begin: [0, 352, 320, 216], end: [0, 314, 320, 254], duration: 0, curve: 7, isLocal: true)
        ],
        problems: []),
    // Key names broken by spaces (`UIKeyboard FrameEnd UserInfoKey`) after a Chinese NSLog prefix; the
    // `rac_addObserverForName:UIKeyboardDidHideNotification` between the dumps is code, not an event.
    "43-objc-cn-rac-simulator-320x568-spaced-key-names-chinese-prefix-show-hide.txt": FixtureExpectation(
        screen: Size(width: 320, height: 568),
        records: [
            kb(.keyboardWillShow, 0, begin: [0, 352, 320, 216], end: [0, 315, 320, 253], duration: 0.25, curve: 7, isLocal: true),
            kb(.keyboardDidHide, 0.1, begin: [0, 315, 320, 253], end: [0, 568, 320, 253]),
        ],
        problems: []),
    // An iOS 5 iPad turned from landscape to portrait with the keyboard up: the landscape keyboard
    // hides in portrait coordinates (sideways, along the left edge), the portrait one shows.
    "45-objc-ipad-ios5-rotation-landscape-to-portrait-keyboard-storm.txt": FixtureExpectation(
        screen: Size(width: 768, height: 1024),
        records: [
            kb(.keyboardWillChangeFrame, 0, begin: ipadKeyboardOn, end: ipadKeyboardOff, duration: 0.25, curve: 0),
            kb(.keyboardWillHide, 0.003, begin: ipadKeyboardOn, end: ipadKeyboardOff, duration: 0.25, curve: 0),
            kb(.keyboardDidChangeFrame, 0.024, begin: ipadKeyboardOn, end: ipadKeyboardOn),
            kb(.keyboardDidHide, 0.027, begin: ipadKeyboardOn, end: ipadKeyboardOff),
            kb(.keyboardWillChangeFrame, 0.144, begin: [0, 760, 768, 264], end: [0, 760, 768, 264], duration: 0.25, curve: 0),
            kb(.keyboardWillShow, 0.146, begin: [0, 1024, 768, 264], end: [0, 760, 768, 264], duration: 0.25, curve: 0),
            kb(.keyboardDidChangeFrame, 0.565, begin: [0, 1024, 768, 264], end: [0, 760, 768, 264]),
            kb(.keyboardDidShow, 0.568, begin: [0, 1024, 768, 264], end: [0, 760, 768, 264]),
        ],
        // The four sideways notifications are said once, at the first one's end frame.
        problems: [Where(.sidewaysKeyboardFrames, 26, 34)]),
    // Three frames of three runs in a code comment, two with a note after them: a portrait one, an
    // iOS 8 landscape one (wider than the inferred portrait screen) and an iOS 7 landscape one in
    // portrait coordinates along the right edge.
    "47-objc-iphone5-ios7-landscape-right-edge-keyboard-frame-code-comment.txt": FixtureExpectation(
        screen: Size(width: 320, height: 568),
        records: [
            kb(.keyboardWillChangeFrame, 0, end: [0, 315, 320, 253]),
            kb(.keyboardWillChangeFrame, 0.1, end: [0, 127, 568, 193]),
            kb(.keyboardWillChangeFrame, 0.2, end: [158, 0, 162, 568]),
        ],
        problems: [Where(.implausibleKeyboardFrame, 14, 24), Where(.sidewaysKeyboardFrames, 15, 24)]),
    // The folder's description of the fixtures quotes formats in prose: nothing in it is a dump.
    "README.md": FixtureExpectation(screen: nil, records: [], problems: [Where(.nothingImportable, 0)]),
]

@Suite("Console importer: every fixture dump in Tests/Fixtures/ios-logs")
struct ImporterFixtureTests {
    @Test("the fixture folder is in the repository and holds every fixture these tests know")
    func folderIsThere() throws {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: fixturesDirectory.path, isDirectory: &isDirectory)
        try #require(
            exists && isDirectory.boolValue,
            "the fixtures are expected at \(fixturesDirectory.path), in the repository")
        for name in fixtureExpectations.keys.sorted() {
            #expect(fixtureFiles.contains(name), "missing fixture \(name)")
        }
    }

    @Test("imports the fixture to the exact events, screen and problems", arguments: fixtureFiles)
    func fixture(_ name: String) throws {
        let source = try fixtureText(name)
        let result = ConsoleImporter().importDump(source)
        expectSane(result, lineCount: lineCount(source))
        // A file added to the folder without expectations still gets the invariants above.
        guard let expected = fixtureExpectations[name] else { return }
        #expect(names(result) == expected.records.map(\.event.name))
        #expect(result.records == expected.records)
        #expect(wheres(result) == expected.problems, "\(result.problems)")
        if let screen = expected.screen {
            #expect(result.header.screen == screen)
            #expect(result.header.screenSource == "inferred")
            #expect(!result.isEmpty)
        } else {
            #expect(result.isEmpty)
        }
        // Problems that quote text point at it.
        for problem in result.problems where problem.kind == .strayText || problem.kind == .unreadableValue {
            guard let column = problem.column, let quoted = problem.message.split(separator: "`").dropFirst().first,
                let there = text(in: source, line: problem.line, column: column)
            else {
                Issue.record("no quoted text or position in \(problem)")
                continue
            }
            #expect(there.hasPrefix(String(quoted)), "\(problem) points at `\(there.prefix(20))`")
        }
    }

    @Test("the garbled fixture names the debris it skipped")
    func garbledDebris() throws {
        let result = ConsoleImporter().importDump(try fixtureText("31-swift4-iphone6-375x667-string-keys-garbled-show-and-hide-end-height-0.txt"))
        #expect(result.problems.map(\.message).allSatisfy { $0.contains("`797}`") || $0.contains("`260}}`") })
        #expect(result.problems.first?.description.hasPrefix("line 12, column 78: ") == true)
    }

    @Test("cut-off fixtures say which notifications were skipped and where")
    func truncatedMessages() throws {
        let predictive = ConsoleImporter().importDump(try fixtureText("13-swift3-iphone6-predictive-toggle-sequence-nsdictionary.txt"))
        let message = try #require(predictive.problems.first).message
        #expect(message.contains("cut off at the end of the input"))
        #expect(message.contains("keyboardWillChangeFrame, keyboardWillShow, keyboardDidChangeFrame, keyboardDidShow"))
        #expect(message.contains("imported 4 notifications"))
        #expect(
            message.contains("with the keys that are whole (UIKeyboardCenterBeginUserInfoKey, UIKeyboardFrameBeginUserInfoKey)")
                || message.contains("UIKeyboardFrameBeginUserInfoKey)"), "\(message)")
        let tuple = ConsoleImporter().importDump(try fixtureText("39-swift-cgrect-tuple-ipad-rotation-numeric-keypad-truncated.txt"))
        #expect(tuple.problems.first { $0.kind == .truncated }?.message.contains("`(0.0, 768.0, 1024`") == true)
        #expect(tuple.problems.first?.message.contains("it fits the 768×1024 screen: a frame in the other orientation's coordinates?") == true)
    }

    @Test("the prose fragment with a CGRectNull is not importable, and the reason names the key it mentions")
    func fragmentExplained() throws {
        let result = ConsoleImporter().importDump(try fixtureText("33-fragment-ios7-willhide-frameend-cgrect-inf.txt"))
        #expect(result.isEmpty)
        let message = try #require(result.problems.first).message
        #expect(message.contains("nothing to import"))
        #expect(message.contains("line 7, column 14 names UIKeyboardFrameEndUserInfoKey"))
    }

    @Test("the list of names imports with --screen: four events with no userInfo, 0.1 s apart")
    func namesListWithScreen() throws {
        let result = importing(
            try fixtureText("15-sequence-refocus-other-textfield-with-inputaccessoryview.txt"), screen: Size(width: 375, height: 667))
        #expect(result.header.screen == Size(width: 375, height: 667))
        #expect(result.header.screenSource == "given")
        #expect(
            result.records == [
                kb(.keyboardWillChangeFrame, 0), kb(.keyboardWillShow, 0.1), kb(.keyboardDidChangeFrame, 0.2), kb(.keyboardDidShow, 0.3),
            ])
        #expect(result.problems.isEmpty)
        expectValidJSONLines(result)
    }

    @Test("the hardware-keyboard session imports with --screen: a scene, then begin and end editing 7.046 s apart")
    func hardwareKeyboardWithScreen() throws {
        let screen = Size(width: 1024, height: 768)
        let result = importing(try fixtureText("25-objc-ipad-ios5-hardware-keyboard-no-keyboard-notifications.txt"), screen: screen)
        #expect(
            result.records == [
                scene(screen: screen, fields: [ViewSpec(id: textField23, kind: .textField, frame: Rect(x: 20, y: 20, width: 97, height: 31))]),
                LogRecord(t: 0, event: .didBeginEditing(EditingInfo(view: textField23))),
                LogRecord(t: 7.046, event: .didEndEditing(EditingInfo(view: textField23))),
            ])
        #expect(result.problems.isEmpty)
        expectValidJSONLines(result)
    }

    @Test("without --screen, the dumps with no keyboard frame explain what to pass")
    func screenUnknownMessages() throws {
        let hardware = ConsoleImporter().importDump(try fixtureText("25-objc-ipad-ios5-hardware-keyboard-no-keyboard-notifications.txt"))
        #expect(
            hardware.problems.map(\.description) == [
                "found 2 editing notifications but no docked keyboard frame to infer the screen from; pass --screen WxH (e.g. --screen 375x667)"
            ])
        let list = ConsoleImporter().importDump(try fixtureText("15-sequence-refocus-other-textfield-with-inputaccessoryview.txt"))
        #expect(list.problems.first?.message.hasPrefix("found 4 keyboard notifications but") == true)
    }

    @Test("a given screen wins over the one the frames show", arguments: fixtureFiles)
    func givenScreen(_ name: String) throws {
        let screen = Size(width: 500, height: 900)
        let given = importing(try fixtureText(name), screen: screen)
        let inferred = ConsoleImporter().importDump(try fixtureText(name))
        if !given.isEmpty {
            #expect(given.header.screen == screen)
            #expect(given.header.screenSource == "given")
        }
        // The events do not depend on the screen (except the scene's root frame).
        let keyboard = { (r: ImportResult) in r.records.filter { if case .scene = $0.event { false } else { true } } }
        if !inferred.isEmpty { #expect(keyboard(given) == keyboard(inferred)) }
    }
}

// MARK: - Synthetic dumps

@Suite("Console importer: formats, keys, names and times")
struct ImporterFormatTests {
    static let objcKeys: [String] = [
        #"UIKeyboardAnimationCurveUserInfoKey = 7;"#,
        #"UIKeyboardAnimationDurationUserInfoKey = "0.25";"#,
        #"UIKeyboardBoundsUserInfoKey = "NSRect: {{0, 0}, {375, 291}}";"#,
        #"UIKeyboardCenterEndUserInfoKey = "NSPoint: {187.5, 666.5}";"#,
        #"UIKeyboardFrameBeginUserInfoKey = "NSRect: {{0, 812}, {375, 291}}";"#,
        #"UIKeyboardFrameChangedByUserInteraction = 0;"#,
        #"UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 521}, {375, 291}}";"#,
        #"UIKeyboardIsLocalUserInfoKey = 1;"#,
    ]
    static let expectedInfo = KeyboardInfo(
        begin: Rect(x: 0, y: 812, width: 375, height: 291), end: Rect(x: 0, y: 521, width: 375, height: 291), duration: 0.25,
        curve: 7, isLocal: true)

    @Test("keys in any order give the same userInfo", arguments: [0, 1, 2, 3, 4, 5, 6, 7])
    func keysInAnyOrder(_ seed: Int) {
        var generator = SplitMix64(state: UInt64(seed))
        let keys = seed == 0 ? Self.objcKeys.reversed() : Self.objcKeys.shuffled(using: &generator)
        let dump =
            "NSConcreteNotification 0x600 {name = UIKeyboardWillShowNotification; userInfo = {\n"
            + keys.map { "    " + $0 }.joined(separator: "\n") + "\n}}"
        let result = ConsoleImporter().importDump(dump)
        #expect(result.records == [LogRecord(t: 0, event: .keyboard(.keyboardWillShow, Self.expectedInfo))])
        #expect(result.header.screen == Size(width: 375, height: 812))
        #expect(result.problems.isEmpty)
    }

    @Test("quoted and unquoted values read the same")
    func unquotedValues() {
        let unquoted = Self.objcKeys.map { $0.replacingOccurrences(of: "\"", with: "") }.joined(separator: "\n")
        let quoted = Self.objcKeys.joined(separator: "\n")
        for dump in ["{\n\(unquoted)\n}", "{\n\(quoted)\n}", unquoted, quoted] {
            let result = ConsoleImporter().importDump(dump)
            #expect(infos(result) == [Self.expectedInfo], "\(dump)")
            #expect(names(result) == ["keyboardWillChangeFrame"])
            #expect(result.problems.isEmpty)
        }
    }

    @Test(
        "every spelling of a name maps to its event",
        arguments: [
            ("UIKeyboardWillHideNotification", "keyboardWillHide"), ("UIKeyboardWillHide", "keyboardWillHide"),
            ("UIResponder.keyboardWillHideNotification", "keyboardWillHide"), ("keyboardWillHideNotification", "keyboardWillHide"),
            ("NSNotification.Name.UIKeyboardWillHide", "keyboardWillHide"), ("keyboardDidHide", "keyboardDidHide"),
            ("UIKeyboardDidShowNotification", "keyboardDidShow"), ("UIApplication.keyboardWillChangeFrameNotification", "keyboardWillChangeFrame"),
            ("UIKeyboardDidChangeFrameNotification", "keyboardDidChangeFrame"), ("uikeyboardwillshownotification", "keyboardWillShow"),
        ])
    func nameSpellings(_ spelling: String, _ event: String) {
        let dump =
            #"name = \#(spelling), object = nil, userInfo = Optional([AnyHashable("UIKeyboardFrameEndUserInfoKey"): NSRect: {{0, 667}, {375, 258}}, AnyHashable("UIKeyboardFrameBeginUserInfoKey"): NSRect: {{0, 409}, {375, 258}}])"#
        let result = ConsoleImporter().importDump(dump)
        #expect(names(result) == [event])
        #expect(infos(result).first?.end == Rect(x: 0, y: 667, width: 375, height: 258))
    }

    @Test(
        "every spelling of a rectangle reads as [x, y, width, height]",
        arguments: [
            #""NSRect: {{0, 352}, {320, 216}}""#, "NSRect: {{0, 352}, {320, 216}}", "CGRect:  {{0, 352}, {320, 216}}",
            "(0.0, 352.0, 320.0, 216.0)", "CGRect(origin: CGPoint(x: 0.0, y: 352.0), size: CGSize(width: 320.0, height: 216.0))",
            "(origin = (x = 0, y = 352), size = (width = 320, height = 216))", "{{0, 352}, {320, 216}}", "NSRect: {{0, 3.52e2}, {320, 216}}",
        ])
    func rectSpellings(_ value: String) {
        for dump in ["UIKeyboardFrameEndUserInfoKey = \(value);", #"["UIKeyboardFrameEndUserInfoKey": \#(value)]"#] {
            let result = ConsoleImporter().importDump(dump)
            #expect(infos(result) == [KeyboardInfo(end: Rect(x: 0, y: 352, width: 320, height: 216))], "\(dump)")
            #expect(result.problems.isEmpty, "\(result.problems)")
        }
    }

    @Test("NSLog timestamps give t, relative to the first, to the microsecond; time zones are applied")
    func nslogTimestamps() {
        let dump = """
            2019-04-30 21:44:27.627646+0800 test[7689:297428] -----{
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 550}, {414, 346}}";
            }
            2019-04-30 21:44:29.297408+0800 test[7689:297428] -----{
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 896}, {414, 346}}";
            }
            2019-04-30 14:44:30.5+0100 test[7689:297428] {UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 550}, {414, 346}}";}
            2019-04-30 13:44:31Z My App[1:2] {UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 550}, {414, 346}}";}
            """
        let result = ConsoleImporter().importDump(dump)
        #expect(result.records.map(\.t) == [0, 1.669762, 2.872354, 3.372354])
        #expect(result.problems.isEmpty, "\(result.problems)")
    }

    @Test("old-style NSLog timestamps (no zone, milliseconds) and lines without one share the last one")
    func oldStyleTimestamps() {
        let dump = """
            2012-01-19 13:05:48.782 KeyboardNotficationTest[1453:707] note: UIKeyboardWillShowNotification
            UIKeyboardDidShowNotification
            2012-01-19 13:05:49.076 KeyboardNotficationTest[1453:707] note: UIKeyboardDidChangeFrameNotification
            """
        let result = importing(dump, screen: Size(width: 768, height: 1024))
        #expect(names(result) == ["keyboardWillShow", "keyboardDidShow", "keyboardDidChangeFrame"])
        #expect(result.records.map(\.t) == [0, 0, 0.294])
    }

    @Test("without timestamps, events are 0.1 s apart")
    func consecutiveTimes() {
        let dump = (0..<12).map { _ in "UIKeyboardFrameEndUserInfoKey = \"NSRect: {{0, 352}, {320, 216}}\";" }.joined(separator: "\n")
        let result = ConsoleImporter().importDump(dump)
        #expect(result.records.count == 12)
        #expect(result.records.map(\.t) == (0..<12).map { Double($0) / 10 })
        #expect(result.records[3].t == 0.3)
    }

    @Test("a timestamp that goes back is reported and t holds")
    func timeGoesBack() {
        let dump = """
            2019-04-30 21:44:28.000000+0800 a[1:2] {UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 352}, {320, 216}}";}
            2019-04-30 21:44:27.000000+0800 a[1:2] {UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 568}, {320, 216}}";}
            """
        let result = ConsoleImporter().importDump(dump)
        #expect(result.records.map(\.t) == [0, 0])
        #expect(wheres(result) == [Where(.timeWentBack, 2)])
    }

    @Test("a timestamp more than a log can replay after the first is reported and t holds; so is an absurd duration")
    func timeTooLate() throws {
        let dump = """
            2019-04-30 21:44:28.000000+0800 a[1:2] {UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 352}, {320, 216}}";}
            4019-04-30 21:44:29.000000+0800 a[1:2] {UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 568}, {320, 216}}";}
            2019-04-30 21:44:30.000000+0800 a[1:2] {UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 352}, {320, 216}}"; UIKeyboardAnimationDurationUserInfoKey = 1e10;}
            """
        let result = ConsoleImporter(options: .init(screen: Size(width: 320, height: 568))).importDump(dump)
        #expect(result.records.map(\.t) == [0, 0])
        #expect(wheres(result).map(\.kind) == [.timeTooLate, .unreadableValue])
        // What was imported reads back.
        let text = ([LogWriter.line(for: result.header)] + result.records.map { LogWriter.line(for: $0) }).joined(separator: "\n")
        let reader = LogReader(bytes: Array(text.utf8))
        _ = try reader.readHeader()
        while let item = reader.next() {
            if case .problem(let problem) = item { Issue.record("does not read back: \(problem)") }
        }
    }

    @Test("--event names a userInfo printed without its notification; named ones keep their name")
    func defaultEvent() {
        let dump = """
            {
            UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 352}, {320, 216}}";
            }
            NSConcreteNotification 0x1 {name = UIKeyboardDidShowNotification; userInfo = {
            UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 352}, {320, 216}}";
            }}
            keyboardSize (0.0, 352.0, 320.0, 216.0)
            """
        #expect(names(importing(dump)) == ["keyboardWillChangeFrame", "keyboardDidShow", "keyboardWillChangeFrame"])
        #expect(names(importing(dump, event: .keyboardWillShow)) == ["keyboardWillShow", "keyboardDidShow", "keyboardWillShow"])
    }

    @Test("--screen is written as given, even when the frames say otherwise")
    func givenScreen() {
        let result = importing("UIKeyboardFrameEndUserInfoKey = \"NSRect: {{0, 352}, {320, 216}}\";", screen: Size(width: 390, height: 844))
        #expect(result.header == LogHeader(screen: Size(width: 390, height: 844), screenSource: "given"))
        let inferred = ConsoleImporter().importDump("UIKeyboardFrameEndUserInfoKey = \"NSRect: {{0, 352}, {320, 216}}\";")
        #expect(inferred.header == LogHeader(screen: Size(width: 320, height: 568), screenSource: "inferred"))
        #expect(LogWriter.line(for: inferred.header).contains(#""screenSource":"inferred""#))
    }

    @Test("the screen is the pair most docked frames vote for; floating frames do not vote")
    func screenInference() {
        // Two shows on a 390x844 screen, one floating iPad-style frame that would suggest another.
        let dump = """
            UIKeyboardWillShowNotification: {UIKeyboardFrameBeginUserInfoKey = "NSRect: {{0, 844}, {390, 336}}"; UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 508}, {390, 336}}";}
            UIKeyboardWillChangeFrameNotification: {UIKeyboardFrameBeginUserInfoKey = "NSRect: {{0, 508}, {390, 336}}"; UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 478}, {390, 366}}";}
            UIKeyboardWillChangeFrameNotification: {UIKeyboardFrameEndUserInfoKey = "NSRect: {{120, 300}, {320, 250}}";}
            """
        let result = ConsoleImporter().importDump(dump)
        #expect(names(result) == ["keyboardWillShow", "keyboardWillChangeFrame", "keyboardWillChangeFrame"])
        #expect(result.header.screen == Size(width: 390, height: 844))
        // A single on-screen frame: (320, 352) and (320, 568) tie; the real screen size wins.
        #expect(
            ConsoleImporter().importDump("UIKeyboardFrameEndUserInfoKey = {{0, 352}, {320, 216}};").header.screen == Size(width: 320, height: 568))
        // An iOS 7 iPhone in landscape: sideways frames in the portrait screen.
        #expect(
            ConsoleImporter().importDump("UIKeyboardFrameEndUserInfoKey = \"NSRect: {{0, 0}, {162, 480}}\";").header.screen
                == Size(width: 320, height: 480))
        // An undocked iPad keyboard (iOS 5): frames at the top of the screen do not vote.
        let undocked = ConsoleImporter().importDump(
            "UIKeyboardFrameBeginUserInfoKey = \"NSRect: {{0, 0}, {768, 304}}\"; UIKeyboardFrameEndUserInfoKey = \"NSRect: {{0, -264}, {768, 304}}\";"
        )
        #expect(wheres(undocked) == [Where(.screenUnknown, 0)])
        // Only a floating frame: nothing to infer from.
        let floating = ConsoleImporter().importDump("UIKeyboardFrameEndUserInfoKey = \"NSRect: {{120, 300}, {320, 250}}\";")
        #expect(floating.isEmpty)
        #expect(wheres(floating) == [Where(.screenUnknown, 0)])
    }

    @Test("a run of names on their own lines shares the userInfo that follows; prose ends the run")
    func namesRun() {
        let dump = """
            UIKeyboardWillChangeFrameNotification:
            UIKeyboardWillShowNotification:
            userInfo = {
            UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 409}, {375, 258}}";
            }
            UIKeyboardDidShowNotification
            then the user tapped elsewhere
            {
            UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 667}, {375, 258}}";
            }
            """
        let result = ConsoleImporter().importDump(dump)
        #expect(names(result) == ["keyboardWillChangeFrame", "keyboardWillShow", "keyboardDidShow", "keyboardWillChangeFrame"])
        #expect(
            infos(result).map(\.end) == [
                Rect(x: 0, y: 409, width: 375, height: 258), Rect(x: 0, y: 409, width: 375, height: 258), nil,
                Rect(x: 0, y: 667, width: 375, height: 258),
            ])
    }

    @Test("a name after a label leads its line: custom log prefixes")
    func labelledNames() {
        let dump = """
            Received notification: UIKeyboardWillShowNotification, userInfo: [AnyHashable("UIKeyboardFrameEndUserInfoKey"): NSRect: {{0, 352}, {320, 216}}]
            note: UIKeyboardDidShowNotification
            -----> keyboardWillHide: {
            UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 568}, {320, 216}}";
            }
            """
        let result = ConsoleImporter().importDump(dump)
        #expect(names(result) == ["keyboardWillShow", "keyboardDidShow", "keyboardWillHide"])
        #expect(infos(result).map(\.end) == [Rect(x: 0, y: 352, width: 320, height: 216), nil, Rect(x: 0, y: 568, width: 320, height: 216)])
    }

    @Test("unknown and private keys are read past, even in a dump without braces")
    func unknownKeys() {
        let dump = """
            //UIKeyboardAnimationCurveUserInfoKey = 7;
            //_UIKeyboardLayoutAlignmentKey = 0;
            //UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 377}, {1024, 391}}";
            [AnyHashable("UIKeyboardIsLocalUserInfoKey"): 1, AnyHashable("SomethingElse"): Optional(3), AnyHashable("UIKeyboardAnimationDurationUserInfoKey"): 0.25]
            """
        let result = ConsoleImporter().importDump(dump)
        #expect(
            result.records == [
                kb(.keyboardWillChangeFrame, 0, end: [0, 377, 1024, 391], curve: 7),
                kb(.keyboardWillChangeFrame, 0.1, duration: 0.25, isLocal: true),
            ])
        #expect(result.problems.isEmpty, "\(result.problems)")
    }

    @Test("names in code or prose are not notifications")
    func namesInCode() {
        let dump = """
            NotificationCenter.default.addObserver(self, selector: #selector(kbShow), name: UIResponder.keyboardWillShowNotification, object: nil)
            NotificationCenter.default.addObserver(forName: UIResponder.keyboardWillHideNotification, object: nil, queue: .main) { n in }
            case UIResponder.keyboardWillShowNotification:
            @objc func keyboardWillShow(_ notification: Notification) {
            - (void)keyboardWillHide:(NSNotification *)notification
            We get UIKeyboardWillShowNotification twice here.
            UIKeyboardWillShowNotification is posted twice.
            let frame = userInfo[UIKeyboardFrameEndUserInfoKey] as! NSValue
            """
        let result = ConsoleImporter().importDump(dump)
        #expect(result.isEmpty)
        #expect(result.problems.map(\.kind) == [.nothingImportable])
    }

    @Test("Swift Notification descriptions: one line, NSNotification.Name(_rawValue:), and LLDB's tree below it")
    func swiftDescriptions() {
        let dump = """
            name = UIKeyboardWillShowNotification, object = nil, userInfo = Optional([AnyHashable("UIKeyboardFrameEndUserInfoKey"): NSRect: {{0, 510}, {390, 334}}, AnyHashable("UIKeyboardIsLocalUserInfoKey"): 1, AnyHashable("UIKeyboardAnimationDurationUserInfoKey"): 0.25, AnyHashable("UIKeyboardAnimationCurveUserInfoKey"): 7])
            test->NSNotification.Name(_rawValue: UIKeyboardWillHideNotification), Optional([AnyHashable("UIKeyboardFrameEndUserInfoKey"): NSRect: {{0, 844}, {390, 334}}, AnyHashable("UIKeyboardIsLocalUserInfoKey"): false])
            ▿ name = UIKeyboardDidHideNotification, object = nil, userInfo = Optional([AnyHashable("UIKeyboardFrameEndUserInfoKey"): NSRect: {{0, 844}, {390, 334}}])
              ▿ name : NSNotification.Name
                - _rawValue : UIKeyboardDidHideNotification
              - object : nil
            """
        let result = ConsoleImporter().importDump(dump)
        #expect(names(result) == ["keyboardWillShow", "keyboardWillHide", "keyboardDidHide"])
        #expect(infos(result).map(\.isLocal) == [true, false, nil])
        #expect(result.header.screen == Size(width: 390, height: 844))
    }

    @Test("editing notifications name their view by class and address, or tag, or kind; a scene declares them")
    func editingViews() {
        let dump = """
            2020-01-01 10:00:00.000 App[1:2] NSConcreteNotification 0x1 {name = UITextViewTextDidBeginEditingNotification; object = <UITextView: 0x7fb1e2c0a5e0; frame = (20 620; 335 120); text = 'a>b'; tag = 2; layer = <CALayer: 0x1>>}
            2020-01-01 10:00:00.100 App[1:2] UIKeyboardWillShowNotification: {
            UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 521}, {375, 291}}";
            }
            2020-01-01 10:00:01.000 App[1:2] NSConcreteNotification 0x2 {name = UITextViewTextDidEndEditingNotification; object = <MyApp.NotesView: 0x7fb1e2c0a5e0; baseClass = UITextView; frame = (20 620; 335 120)>}
            2020-01-01 10:00:01.000 App[1:2] name = UITextFieldTextDidBeginEditingNotification, object = Optional(<UITextField: tag = 7>), userInfo = nil
            textFieldDidEndEditing(_:)
            """
        let result = ConsoleImporter().importDump(dump)
        #expect(names(result) == ["scene", "didBeginEditing", "keyboardWillShow", "didEndEditing", "didBeginEditing", "didEndEditing"])
        guard case .scene(let scene) = result.records.first?.event else {
            Issue.record("no scene")
            return
        }
        #expect(scene.root.frame == Rect(x: 0, y: 0, width: 375, height: 812))
        #expect(
            scene.root.children == [
                ViewSpec(id: "UITextView-0x7fb1e2c0a5e0", kind: .textView, frame: Rect(x: 20, y: 620, width: 335, height: 120), tag: 2),
                ViewSpec(id: "MyApp.NotesView-0x7fb1e2c0a5e0", kind: .textView, frame: Rect(x: 20, y: 620, width: 335, height: 120)),
                ViewSpec(id: "UITextField-tag7", kind: .textField, frame: .zero, tag: 7),
                ViewSpec(id: "UITextField", kind: .textField, frame: .zero),
            ])
        #expect(result.records.map(\.t) == [0, 0, 0.1, 1, 1, 1])
        expectValidJSONLines(result)
    }

    @Test("a garbled frame skips its notification and says where; a CGRectNull frame is left out")
    func garbledAndNullFrames() {
        let dump = """
            {
            UIKeyboardFrameBeginUserInfoKey = "NSRect: {{0, 667}, {375, 258}}";
            UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 4x09}, {375, 258}}";
            }
            {
            UIKeyboardFrameBeginUserInfoKey = "NSRect: {{0, 667}, {375, 258}}";
            UIKeyboardFrameEndUserInfoKey = "CGRect: {{inf, inf}, {0, 0}}";
            UIKeyboardAnimationDurationUserInfoKey = "-1";
            }
            {
            UIKeyboardFrameBeginUserInfoKey = "NSRect: {{0, 409}, {375, 258}}";
            UIKeyboardFrameEndUserInfoKey = "CGRect: {{inf, inf}, {0, 0}}";
            UIKeyboardIsLocalUserInfoKey = maybe;
            }
            {
            UIKeyboardFrameBeginUserInfoKey = "NSRect: {{0, 409}, {375, 258}}";
            UIKeyboardFrameEndUserInfoKey = CGRect:  {{inf, inf}, {0, 0}};
            }
            """
        let result = ConsoleImporter().importDump(dump)
        #expect(result.records == [kb(.keyboardWillChangeFrame, 0, begin: [0, 409, 375, 258])])
        #expect(
            wheres(result) == [
                Where(.unreadableValue, 3, 33), Where(.unrepresentableFrame, 7, 33), Where(.unreadableValue, 8, 42),
                Where(.unrepresentableFrame, 12, 33), Where(.unreadableValue, 13, 32), Where(.unrepresentableFrame, 17, 33),
            ])
        #expect(result.problems[0].message.contains("`\"NSRect: {{0, 4x09}, {375, 258}}\"`"))
        expectValidJSONLines(result)
    }

    @Test("comment markers, fences, quotes and invalid UTF-8 around a dump do not matter")
    func surroundings() {
        let dump = """
            Here is what I get:
            ```objc
            > 2019-04-30 21:44:27.627646+0800 test[7689:297428] NSConcreteNotification 0x1 {name = UIKeyboardWillShowNotification; userInfo = {
            >  * UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 550}, {414, 346}}"; // the end frame
            > }}
            ```
            /* UIKeyboardWillHideNotification */
            """
        var bytes = Array(dump.utf8)
        bytes.insert(contentsOf: [0xFF, 0xC3, 0x28, 0x80], at: 5)
        bytes.append(contentsOf: [0xE2, 0x9D])
        let result = importing(String(decoding: bytes, as: UTF8.self), screen: Size(width: 414, height: 896))
        #expect(names(result) == ["keyboardWillShow", "keyboardWillHide"])
        #expect(ConsoleImporter(options: .init(screen: Size(width: 414, height: 896))).importDump(bytes).records == result.records)
    }

    @Test("--event accepts every spelling of a keyboard notification's name")
    func eventNames() {
        #expect(ConsoleImporter.keyboardEvent(named: "keyboardWillShow") == .keyboardWillShow)
        #expect(ConsoleImporter.keyboardEvent(named: "UIKeyboardDidHideNotification") == .keyboardDidHide)
        #expect(ConsoleImporter.keyboardEvent(named: "UIResponder.keyboardWillChangeFrameNotification") == .keyboardWillChangeFrame)
        #expect(ConsoleImporter.keyboardEvent(named: "uikeyboarddidchangeframe") == .keyboardDidChangeFrame)
        for other in [
            "", "keyboard", "didBeginEditing", "UITextFieldTextDidBeginEditingNotification", "UIKeyboardFrameEndUserInfoKey", "keyboardWillShow ",
        ] {
            #expect(ConsoleImporter.keyboardEvent(named: other) == nil, "\(other)")
        }
    }

    @Test("problems read `line L, column C: message`")
    func problemDescription() {
        #expect(ImportProblem(kind: .strayText, line: 3, column: 7, message: "m").description == "line 3, column 7: m")
        #expect(ImportProblem(kind: .truncated, line: 3, message: "m").description == "line 3: m")
        #expect(ImportProblem(kind: .nothingImportable, line: 0, message: "m").description == "m")
    }

    @Test("an empty or blank dump has nothing to import")
    func emptyDump() {
        for dump in ["", "\n\n  \n", "# only an annotation\n"] {
            let result = ConsoleImporter().importDump(dump)
            #expect(result.isEmpty)
            #expect(result.problems.map(\.kind) == [.nothingImportable])
            #expect(result.header.screenSource == nil)
        }
    }
}

// MARK: - Robustness

@Suite("Console importer: never traps, whatever the input")
struct ImporterRobustnessTests {
    @Test("random bytes", arguments: 0..<8)
    func randomBytes(_ seed: Int) {
        var generator = SplitMix64(state: UInt64(seed) &* 7919)
        for _ in 0..<40 {
            let count = Int.random(in: 0..<4096, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let result = ConsoleImporter().importDump(bytes)
            expectSane(result, lineCount: bytes.split(separator: 10, omittingEmptySubsequences: false).count)
        }
    }

    @Test("random soup of the dump's own tokens", arguments: 0..<8)
    func tokenSoup(_ seed: Int) {
        let tokens = [
            "{", "}", "[", "]", "(", ")", "<", ">", "\"", "\\\"", ";", ",", ":", " = ", "\n", " ", "//", "/*", "*/", "```", "#",
            "UIKeyboardFrameEndUserInfoKey", "UIKeyboardFrameBeginUserInfoKey", "UIKeyboardAnimationDurationUserInfoKey",
            "UIKeyboardAnimationCurveUserInfoKey", "UIKeyboardIsLocalUserInfoKey", "UIKeyboardBoundsUserInfoKey", "AnyHashable(",
            "NSRect: {{0, 352}, {320, 216}}", "NSRect: {{", "{{inf, inf}, {0, 0}}", "(0.0, 768.0, 1024", "0.25", "7", "1", "-352",
            "1e308", "nan", "name = ", "userInfo = ", "object = <UITextField: 0x1; frame = (1 2; 3 4)>", "<UITextView: ",
            "UIKeyboardWillShowNotification", "keyboardDidHide", "UITextFieldTextDidBeginEditingNotification", "NSConcreteNotification 0x1 ",
            "2019-04-30 21:44:27.627646+0800 test[7689:297428] ", "1969-12-31 23:59:59.999 a[1:1] ", "9999-12-31 23:59:60.9+2359 ",
            "keyboardSize ", "Optional(", "_rawValue:", "é", "\u{0}", "\r", "\t", "prose", "0x600000648c70", "99999999999999999999999",
        ]
        var generator = SplitMix64(state: UInt64(seed) &+ 1)
        for _ in 0..<60 {
            let count = Int.random(in: 0..<600, using: &generator)
            let dump = (0..<count).map { _ in tokens.randomElement(using: &generator)! }.joined()
            for screen in [nil, Size(width: 375, height: 667)] {
                let result = importing(dump, screen: screen)
                expectSane(result, lineCount: lineCount(dump))
            }
        }
    }

    @Test("fixtures cut at every tenth byte and with bytes flipped", arguments: fixtureFiles)
    func mutatedFixtures(_ name: String) throws {
        let bytes = Array(try fixtureText(name).utf8)
        for cut in stride(from: 0, through: bytes.count, by: 10) {
            let prefix = Array(bytes[..<cut])
            expectSane(ConsoleImporter().importDump(prefix), lineCount: prefix.split(separator: 10, omittingEmptySubsequences: false).count)
        }
        var generator = SplitMix64(state: UInt64(bytes.count))
        for _ in 0..<20 {
            var mutated = bytes
            for _ in 0..<8 where !mutated.isEmpty {
                let at = Int.random(in: 0..<mutated.count, using: &generator)
                mutated[at] = [UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "\""), UInt8(ascii: "\n"), 0xFF, UInt8(ascii: ";")]
                    .randomElement(using: &generator)!
            }
            expectSane(ConsoleImporter().importDump(mutated), lineCount: mutated.split(separator: 10, omittingEmptySubsequences: false).count)
        }
    }

    @Test("unbalanced brackets and pathological lines")
    func pathological() {
        let dumps = [
            String(repeating: "{", count: 200_000), String(repeating: "}", count: 200_000), String(repeating: "([{<", count: 50_000),
            String(repeating: "\"", count: 100_001), String(repeating: "UIKeyboardFrameEndUserInfoKey = ", count: 20_000),
            String(repeating: "UIKeyboardWillShowNotification ", count: 20_000), String(repeating: "<UITextField: ", count: 20_000),
            "UIKeyboardFrameEndUserInfoKey = " + String(repeating: "{", count: 100_000),
            "UIKeyboardFrameEndUserInfoKey = NSRect: {{" + String(repeating: "9", count: 10_000) + ", 0}, {1, 1}};",
            String(repeating: "UIKeyboardFrameEndUserInfoKey:\n", count: 10_000),
            String(repeating: "2019-04-30 21:44:27.627646+0800 test[", count: 10_000),
            String(repeating: "\n", count: 200_000),
        ]
        for dump in dumps {
            let result = ConsoleImporter().importDump(dump)
            expectSane(result, lineCount: lineCount(dump))
        }
    }

    @Test("a 5 MB dump imports in reasonable time")
    func largeDump() throws {
        let session = try fixtureText("23-objc-ipad-ios5-landscape-nsconcretenotification-full-edit-session.txt")
        let garbled = try fixtureText("31-swift4-iphone6-375x667-string-keys-garbled-show-and-hide-end-height-0.txt")
        let unit = session + "\nsome prose between sessions\n" + garbled + "\n"
        let copies = 5_000_000 / unit.utf8.count + 1
        let dump = String(repeating: unit, count: copies)
        #expect(dump.utf8.count >= 5_000_000)
        let clock = ContinuousClock()
        var result: ImportResult?
        let elapsed = clock.measure { result = ConsoleImporter().importDump(dump) }
        let imported = try #require(result)
        // Per copy: 10 + 2 events from the two dumps, 2 stray fragments; one scene for all.
        #expect(imported.records.count == copies * 12 + 1)
        // Problems are capped at 1000, and a last one says how many more there were.
        #expect(imported.problems.filter { $0.kind == .strayText && $0.line > 0 }.count == min(copies * 2, 1000))
        #expect(imported.problems.last?.message == "\(copies * 2 - 1000) more problems were not listed")
        #expect(elapsed < .seconds(60), "took \(elapsed)")
        print("imported \(dump.utf8.count) bytes, \(imported.records.count) records in \(elapsed)")
    }
}

@Suite("Console importer: the dumps it used to misread")
struct ImporterMisreadTests {
    @Test("key names broken by spaces are read next to a prefix in another script")
    func spacedKeys() {
        let dump = """
            2017-12-26 10:00:00.000 Demo[1:2] キーボード表示:NSConcreteNotification 0x6000002562f0 {name = UIKeyboardWillShowNotification; userInfo = {
                UIKeyboardAnimation Curve UserInfoKey = 7;
                UIKeyboard FrameEnd UserInfoKey = "NSRect: {{0, 315}, {320, 253}}";
                UIKeyboard   IsLocal UserInfoKey = 1;
                UIKeyboard Private Thing = 3;
            }}
            """
        let result = importing(dump)
        #expect(result.records == [kb(.keyboardWillShow, 0, end: [0, 315, 320, 253], curve: 7, isLocal: true)])
        #expect(result.header.screen == Size(width: 320, height: 568))
    }

    @Test("a notification named in the sentence its userInfo opens on is that notification, not --event's")
    func nameInSentence() {
        let objc = """
            2016-03-01 10:00:00.000 Demo[100:200] Got UIKeyboardWillShowNotification with userInfo {
                UIKeyboardAnimationDurationUserInfoKey = "0.25";
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 451}, {375, 216}}";
            }
            """
        #expect(importing(objc).records == [kb(.keyboardWillShow, 0, end: [0, 451, 375, 216], duration: 0.25)])
        let swift = """
            hiding because UIKeyboardWillHideNotification came, userInfo = [AnyHashable("UIKeyboardFrameEndUserInfoKey"): NSRect: {{0, 667}, {375, 216}}]
            """
        #expect(importing(swift, screen: Size(width: 375, height: 667)).records == [kb(.keyboardWillHide, 0, end: [0, 667, 375, 216])])
        // A name passed in code (`addObserverForName:`) names no userInfo; one on an earlier line neither.
        let code = """
            [center addObserverForName:UIKeyboardWillHideNotification object:nil queue:nil usingBlock:^(NSNotification *note) { NSLog(@"%@", note.userInfo); }];
            {
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 451}, {375, 216}}";
            }
            """
        #expect(importing(code).records == [kb(.keyboardWillChangeFrame, 0, end: [0, 451, 375, 216])])
        let earlier = """
            We got UIKeyboardWillHideNotification first, then:
            userInfo = {
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 451}, {375, 216}}";
            }
            """
        #expect(importing(earlier, event: .keyboardDidShow).records.map(\.event.name) == ["keyboardDidShow"])
    }

    @Test("a userInfo cut off after whole keys imports its notification with them, and says so")
    func cutAfterWholeKeys() throws {
        let dump = """
            NSConcreteNotification 0x6000002562f0 {name = UIKeyboardWillShowNotification; userInfo = {
                UIKeyboardAnimationCurveUserInfoKey = 7;
                UIKeyboardAnimationDurationUserInfoKey = "0.25";
                UIKeyboardFrameEndUserInfoKey = "NSRect: {{0, 451}, {3
            """
        let result = importing(dump, screen: Size(width: 375, height: 667))
        #expect(result.records == [kb(.keyboardWillShow, 0, duration: 0.25, curve: 7)])
        let problem = try #require(result.problems.first)
        #expect(problem.kind == .partlyImported)
        #expect(
            problem.description
                == "line 1, column 90: the userInfo that starts here is cut off at the end of the input (no closing `}`); imported keyboardWillShow with the keys that are whole (UIKeyboardAnimationCurveUserInfoKey, UIKeyboardAnimationDurationUserInfoKey)"
        )
        // Without a name, or without a whole key, there is nothing whole to import: skipped, as before.
        let unnamed = importing(
            "userInfo = {\n    UIKeyboardAnimationCurveUserInfoKey = 7;\n    UIKeyboardFrameEndUserInfoKey = \"NSRect: {{0, 4",
            screen: Size(width: 375, height: 667))
        #expect(unnamed.records.isEmpty)
        #expect(unnamed.problems.first?.kind == .truncated)
        let nothingWhole = importing(
            "{name = UIKeyboardWillShowNotification; userInfo = {\n    UIKeyboardFrameEndUserInfoKey = \"NSRect: {{0, 4",
            screen: Size(width: 375, height: 667))
        #expect(nothingWhole.records.isEmpty)
        #expect(nothingWhole.problems.first?.kind == .truncated)
    }
}
