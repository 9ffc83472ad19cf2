import EventLog
import ResponderBus

/// What the scanner found: one notification, in dump order, before times and the screen are decided.
struct ScannedNotification {
    /// What it was.
    enum Kind {
        /// A keyboard notification with what could be read of its userInfo.
        case keyboard(LogEvent.KeyboardEvent, KeyboardInfo)
        /// A begin/end editing notification for a text field or text view.
        case editing(isBegin: Bool, view: ScannedView)
    }

    var kind: Kind
    /// The NSLog timestamp in force where it was printed, in microseconds.
    var timestamp: Int64?
    /// The 1-based line it starts on.
    var line: Int
    /// Where its end frame's value was printed (1-based line and column), when it has one.
    var endFrameAt: (line: Int, column: Int)? = nil
}

/// A text field or text view named by an editing notification.
struct ScannedView {
    var id: ViewID
    var kind: ViewKind
    var frame: Rect?
    var tag: Int?
    /// The printed object's address (`0x7f9…`), which links it to a view-hierarchy dump.
    var address: String? = nil
}

/// A forgiving, single-pass scanner over the bytes of a console dump.
///
/// It never backtracks more than a bounded distance, allocates per notification rather than per
/// byte, and treats anything it does not understand as prose. Its state is small:
///
/// - the notification names waiting for a userInfo (`pending`): a run of names on their own
///   lines, or the `name = X` of a description whose `userInfo = {` has not come yet;
/// - the userInfo block being read (`block`), with the bracket that opened it, if any;
/// - the brackets opened since the last prose (`openers`), to find the bracket a block sits in and
///   to see where a `{name = X; object = <…>}` description ends.
///
/// A block ends at its closing bracket; at a `*/` or a Markdown fence (an unclosed block is then
/// taken as pasted short, and kept); at prose, a new NSLog line, a new notification or a bracket
/// opening a new line (an unclosed block is then cut off, and dropped); at a repeated key; at the
/// end of the input (cut off if its bracket is still open). A block without brackets (`//`-prefixed
/// `key = value;` lines) is never cut off: it simply ends.
///
/// The scanner is one state machine in three files: this one (its state, the driving loop, lines
/// and the body of a line), `ConsoleScanner+Entries.swift` (keys, values, blocks, brackets) and
/// `ConsoleScanner+Names.swift` (notification names, `object = <…>` descriptions, stray text,
/// frames printed alone). Its members are internal rather than private only so that those files
/// can share them; nothing outside the importer uses the type.
struct ConsoleScanner {
    let bytes: [UInt8]
    let defaultEvent: LogEvent.KeyboardEvent

    /// What was found, and what could not be read (read by ``ConsoleImporter`` after ``run()``).
    var notifications: [ScannedNotification] = []
    /// How many of the last ``notifications`` were made of the whole keys of a userInfo cut off at
    /// the end of the text (`GrowingImport` holds them back until the rest arrives).
    var notificationsCutAtEnd = 0
    /// Where the end frame of the userInfo read last (`keyboardInfo(of:what:)`) was printed.
    var lastEndFrameAt: (line: Int, column: Int)?
    var problems: [ImportProblem] = []
    /// Where a userInfo key was mentioned without a value (`` `UIKeyboardFrameEndUserInfoKey` we get ``):
    /// reported only when nothing could be imported, to say why.
    var keyMentions: [(line: Int, column: Int, word: String)] = []
    /// How many problems were not recorded because of the cap.
    var droppedProblems = 0

    // Cursor.
    var pos = 0
    var line = 1
    var lineStart = 0
    var lineEnd = 0
    var timestamp: Int64?

    // Per-line state.
    var lineHasEntry = false
    var lineDisqualified = false
    var armedFieldName = false
    /// `Name(_rawValue: X)`: the name sits inside the bracket it is printed in.
    var armedInsideBracket = false
    /// `object = `: the next `<…>` is the notification's object.
    var armedObject = false
    var lastLeadingNameEnd: Int?
    /// A code argument label (`forName:`) was read on this line.
    var lineHasCodeLabel = false
    /// The last keyboard name read inside a sentence (`Got UIKeyboardWillShowNotification with
    /// userInfo {`): the name of a userInfo that opens on its line when no other name leads it.
    var sentenceName: PendingName?

    // Cross-line state.
    /// Changed only through `appendPending` and `takePending`, which keep the two summaries below
    /// up to date so that long runs of names cost linear time.
    var pending: [PendingName] = []
    var pendingHasField = false
    var pendingMaxDepth = -1
    var block: Block?
    var openers: [Opener] = []
    var stray: (start: Int, end: Int)?
    var columnCache: (lineStart: Int, index: Int, column: Int) = (-1, 0, 1)
    var angleCache: (lineStart: Int, last: Int?) = (-1, nil)

    static let maxOpeners = 64
    static let maxProblems = 1000

    struct Opener {
        var byte: UInt8
        var line: Int
        var column: Int
    }

    struct PendingName {
        var word: ConsoleWord
        var line: Int
        var timestamp: Int64?
        /// How many brackets were open when the name was read; closing below that ends its description.
        var depth: Int
        /// `name = X` (part of a description) rather than a name at the start of a line.
        var isField: Bool
        var view: ScannedView?
    }

    struct Entry {
        var key: ConsoleWord.UserInfoKey
        var value: ArraySlice<UInt8>
        var line: Int
        var column: Int
        /// The value's brackets or quotes do not close on its line.
        var isUnbalanced: Bool
        var atEndOfInput: Bool
    }

    struct Block {
        var names: [PendingName]
        var entries: [Entry] = []
        var keys: Set<ConsoleWord.UserInfoKey> = []
        /// The bracket the block sits in: its index in `openers` and the bracket itself.
        var container: (index: Int, opener: Opener)?
        var line: Int
        var column: Int
        var timestamp: Int64?
    }

    enum BlockEnd {
        case closed, closerWithoutOpener, terminator, prose, timestamp, newNotification, repeatedKey, endOfInput
    }

    /// The index after the last byte that is not white space: a line ending at or after it is the
    /// last line of the dump.
    let contentEnd: Int

    init(bytes: [UInt8], defaultEvent: LogEvent.KeyboardEvent) {
        self.bytes = bytes
        self.defaultEvent = defaultEvent
        var end = bytes.count
        while end > 0, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n")].contains(bytes[end - 1]) {
            end -= 1
        }
        contentEnd = end
    }

    /// Whether the current line is the last one with any text.
    var isLastLine: Bool { lineEnd >= contentEnd }

    // MARK: - Driving

    /// Scans the whole input.
    mutating func run() {
        let n = bytes.count
        while pos < n {
            beginLine()
            scanLine()
            // Move past the newline.
            pos = lineEnd + 1
            line += 1
        }
        flushStray()
        endBlock(.endOfInput)
        flushPending()
    }

    mutating func beginLine() {
        lineStart = pos
        var end = pos
        let n = bytes.count
        while end < n, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        lineEnd = end
        lineHasEntry = false
        lineDisqualified = false
        armedFieldName = false
        armedInsideBracket = false
        armedObject = false
        lastLeadingNameEnd = nil
        lineHasCodeLabel = false
    }

    /// The 1-based column of a byte of the current line, in characters (Unicode scalars: every byte
    /// that does not continue a UTF-8 sequence). Cached, so that columns taken left to right along a
    /// huge line cost linear time in total.
    mutating func column(of index: Int) -> Int {
        let stop = min(max(index, lineStart), bytes.count)
        if columnCache.lineStart != lineStart || columnCache.index > stop {
            columnCache = (lineStart, lineStart, 1)
        }
        var count = columnCache.column
        var i = columnCache.index
        while i < stop {
            if bytes[i] & 0xC0 != 0x80 { count += 1 }
            i += 1
        }
        columnCache = (lineStart, stop, count)
        return count
    }

    mutating func report(_ kind: ImportProblem.Kind, line: Int, column: Int?, _ message: String) {
        guard problems.count < Self.maxProblems else {
            droppedProblems += 1
            return
        }
        problems.append(ImportProblem(kind: kind, line: line, column: column, message: message))
    }

    func text(_ range: Range<Int>, limit: Int = 60) -> String {
        let clipped = range.lowerBound..<min(range.upperBound, range.lowerBound + limit)
        var text = String(decoding: bytes[clipped], as: UTF8.self)
        if clipped.upperBound < range.upperBound { text += "…" }
        return text
    }

    // MARK: - Lines

    mutating func scanLine() {
        var i = pos
        // Lines starting with `#` are annotations (Markdown headings, shell comments), never dump text.
        if i < lineEnd, bytes[i] == UInt8(ascii: "#") { return }
        // Leaders: indentation, comment markers, Javadoc `*`, Markdown quotes and fences.
        while i < lineEnd {
            let c = bytes[i]
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") {
                i += 1
            } else if matches("```", at: i) || matches("~~~", at: i) {
                terminator()
                return
            } else if matches("*/", at: i) {
                terminator()
                i += 2
            } else if matches("/*", at: i) {
                i += 2
                while i < lineEnd, bytes[i] == UInt8(ascii: "*") { i += 1 }
            } else if matches("//", at: i) {
                i += 2
                while i < lineEnd, bytes[i] == UInt8(ascii: "/") { i += 1 }
            } else if c == UInt8(ascii: "*") || c == UInt8(ascii: ">") {
                guard i + 1 >= lineEnd || bytes[i + 1] == UInt8(ascii: " ") || bytes[i + 1] == UInt8(ascii: "\t") else { break }
                i += 1
            } else {
                break
            }
        }
        if let (micros, next) = NSLogTimestamp.parse(bytes, at: i, lineEnd: lineEnd) {
            flushStray()
            endBlock(.timestamp)
            flushPending()
            timestamp = micros
            i = next
        }
        if scanStandaloneFrame(from: i) { return }
        pos = i
        scanBody()
        flushStray()
    }

    func matches(_ literal: StaticString, at index: Int) -> Bool {
        // Literals here are ASCII, so they have a pointer representation.
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        guard index >= 0, index + count <= lineEnd else { return false }
        for k in 0..<count where bytes[index + k] != start[k] { return false }
        return true
    }

    /// `*/` or a fence: the pasted text ends here.
    mutating func terminator() {
        flushStray()
        endBlock(.terminator)
        flushPending()
        openers.removeAll()
    }

    // MARK: - Body

    mutating func scanBody() {
        while pos < lineEnd {
            let c = bytes[pos]
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\""), UInt8(ascii: "\\"),
                UInt8(ascii: "'"), UInt8(ascii: "`"):
                pos += 1
            case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"):
                pos += 1
            case UInt8(ascii: "/") where matches("//", at: pos):
                // A trailing comment: the rest of the line is prose about the dump, not the dump.
                pos = lineEnd
            case UInt8(ascii: "*"):
                // A comment's closer (`*/`, `**/`), or Markdown's emphasis around a word
                // (`**UIKeyboardFrameEndUserInfoKey**`), which is no part of the dump.
                var end = pos
                while end < lineEnd, bytes[end] == UInt8(ascii: "*") { end += 1 }
                if end < lineEnd, bytes[end] == UInt8(ascii: "/") {
                    terminator()
                    pos = end + 1
                } else {
                    pos = end
                }
            case UInt8(ascii: "("):
                // `("UIKeyboardFrameEndUserInfoKey"): …`: a Swift userInfo key printed without its
                // `AnyHashable` wrapper, as some Swift versions print `[AnyHashable: Any]`.
                if let (key, after) = readAnyHashableKey(from: pos) {
                    if let key {
                        keyWord(key, start: pos, end: after)
                        continue
                    } else if block != nil, let separatorEnd = readSeparator(from: after) {
                        let start = pos
                        pos = separatorEnd
                        readEntry(key: .ignored, keyStart: start)
                        continue
                    }
                }
                openBracket(c)
                pos += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                openBracket(c)
                pos += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                closeBracket(c)
                pos += 1
            case UInt8(ascii: "<"):
                let isObject = armedObject
                armedObject = false
                if pos + 1 < lineEnd, ConsoleValues.isLetter(bytes[pos + 1]) || bytes[pos + 1] >= 0x80, let view = readObject(at: pos) {
                    if isObject { attachObject(view) }
                } else {
                    noteStray(pos, pos + 1)
                    pos += 1
                }
            default:
                if ConsoleValues.isLetter(c) || c == UInt8(ascii: "_") {
                    scanWord()
                } else if ConsoleValues.isDigit(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") {
                    let start = pos
                    pos += 1
                    while pos < lineEnd, ConsoleValues.isWordByte(bytes[pos]) || bytes[pos] == UInt8(ascii: ".") { pos += 1 }
                    if start + 1 < pos || ConsoleValues.isDigit(c) { noteStray(start, pos) }
                } else if c >= 0x80 {
                    // Emoji sentinels, notes in other languages: neither dump text nor prose that ends a block.
                    pos += 1
                } else {
                    noteStray(pos, pos + 1)
                    pos += 1
                }
            }
        }
    }

    mutating func scanWord() {
        let start = pos
        while pos < lineEnd {
            let c = bytes[pos]
            if ConsoleValues.isWordByte(c) {
                pos += 1
            } else if c == UInt8(ascii: "."), pos + 1 < lineEnd,
                ConsoleValues.isLetter(bytes[pos + 1]) || bytes[pos + 1] == UInt8(ascii: "_")
            {
                pos += 1
            } else {
                break
            }
        }
        let word = bytes[start..<pos]
        var kind = ConsoleWord.classify(word)
        if case .other = kind, let (key, end) = spacedKey(from: start, firstEnd: pos) {
            // `UIKeyboard FrameEnd UserInfoKey = …`: a key an editor or a blog broke with spaces.
            kind = .key(key)
            pos = end
        }
        let wasArmed = armedFieldName
        let wasInsideBracket = armedInsideBracket
        armedFieldName = false
        armedInsideBracket = false
        // `object = Optional(<UITextField: …>)`: the wrapper keeps the object armed.
        if kind != .grammar(.filler) { armedObject = false }
        switch kind {
        case .grammar(.anyHashable):
            if let (key, after) = readAnyHashableKey(from: pos) {
                if let key {
                    keyWord(key, start: start, end: after)
                } else if block != nil, let separatorEnd = readSeparator(from: after) {
                    // An unknown Swift key inside a userInfo: read past its value.
                    pos = separatorEnd
                    readEntry(key: .ignored, keyStart: start)
                }
            }
        case .key(let key):
            keyWord(key, start: start, end: pos)
        case .keyboardName, .editingName:
            nameWord(kind, start: start, wasArmed: wasArmed, insideBracket: wasInsideBracket)
        case .grammar(let grammar):
            let separator = nextSeparator(from: pos)
            if block != nil, separator != nil, grammar != .userInfo, grammar != .name {
                // `object = …` inside a userInfo would be odd; treat any `word =` there as an unknown key.
                readUnknownEntry(start: start)
                return
            }
            switch grammar {
            case .filler:
                // `Received notification: UIKeyboardWillShowNotification`.
                if separator == UInt8(ascii: ":") { lineDisqualified = false }
            case .name:
                armedFieldName = separator == UInt8(ascii: "=")
            case .rawValue:
                // `Name(_rawValue: X)`; not LLDB's tree line `- _rawValue : X`, which repeats a name.
                armedFieldName = pos < lineEnd && bytes[pos] == UInt8(ascii: ":")
                armedInsideBracket = armedFieldName
                if !armedFieldName { lineDisqualified = true }
            case .object:
                if separator == UInt8(ascii: "="), let after = readSeparator(from: pos) {
                    pos = after
                    armedObject = true
                }
            default:
                break
            }
        case .other:
            if block != nil, nextSeparator(from: pos) != nil, lineHasEntry || block?.container != nil {
                // An unknown key among the keys (`UIKeyboardPrivateKey = 1;`): read past its value.
                readUnknownEntry(start: start)
                return
            }
            proseWord(start: start)
        }
    }

    /// A key name written with spaces inside it (`UIKeyboard FrameEnd UserInfoKey`,
    /// `UIKeyboardAnimation Duration UserInfoKey`), as some pasted dumps show: the words that begin
    /// with `UIKeyboard`, joined, name a key and a separator follows them. The key and the index
    /// after its last word, or `nil`.
    func spacedKey(from start: Int, firstEnd: Int) -> (ConsoleWord.UserInfoKey, Int)? {
        guard matches("UIKeyboard", at: start) else { return nil }
        var joined = Array(bytes[start..<firstEnd])
        var i = firstEnd
        for _ in 0..<4 {
            var next = i
            while next < lineEnd, bytes[next] == UInt8(ascii: " ") { next += 1 }
            guard next > i, next < lineEnd, ConsoleValues.isLetter(bytes[next]) else { return nil }
            var end = next
            while end < lineEnd, ConsoleValues.isWordByte(bytes[end]) { end += 1 }
            joined += bytes[next..<end]
            i = end
            if case .key(let key) = ConsoleWord.classify(joined[...]) {
                return nextSeparator(from: i) != nil ? (key, i) : nil
            }
        }
        return nil
    }

    /// `word` followed by `=` or `:`: the separator byte.
    func nextSeparator(from index: Int) -> UInt8? {
        var i = index
        while i < lineEnd, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") { i += 1 }
        guard i < lineEnd else { return nil }
        let c = bytes[i]
        if c == UInt8(ascii: "=") { return i + 1 < lineEnd && bytes[i + 1] == UInt8(ascii: "=") ? nil : c }
        if c == UInt8(ascii: ":") { return i + 1 < lineEnd && bytes[i + 1] == UInt8(ascii: ":") ? nil : c }
        return nil
    }

    /// The index after `=`/`:` following a key (closing quotes of a quoted key skipped), or `nil`.
    func readSeparator(from index: Int) -> Int? {
        var i = index
        // Closing quotes, and Markdown's emphasis closed after the key (`**Key** = …`).
        while i < lineEnd,
            bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "\\") || bytes[i] == UInt8(ascii: "'") || bytes[i] == UInt8(ascii: "*")
        {
            i += 1
        }
        while i < lineEnd, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") { i += 1 }
        guard nextSeparator(from: i) != nil else { return nil }
        return i + 1
    }

    /// `AnyHashable("UIKeyboard…Key")` (quotes possibly escaped): the key (`nil` when it is not a
    /// keyboard key) and the index after `)`.
    func readAnyHashableKey(from index: Int) -> (ConsoleWord.UserInfoKey?, Int)? {
        var i = index
        guard i < lineEnd, bytes[i] == UInt8(ascii: "(") else { return nil }
        i += 1
        while i < lineEnd, bytes[i] == UInt8(ascii: "\\") || bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: " ") { i += 1 }
        let start = i
        while i < lineEnd, ConsoleValues.isWordByte(bytes[i]) || bytes[i] == UInt8(ascii: ".") { i += 1 }
        guard i > start else { return nil }
        var key: ConsoleWord.UserInfoKey?
        if case .key(let k) = ConsoleWord.classify(bytes[start..<i]) { key = k }
        while i < lineEnd, bytes[i] == UInt8(ascii: "\\") || bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: " ") { i += 1 }
        guard i < lineEnd, bytes[i] == UInt8(ascii: ")") else { return nil }
        return (key, i + 1)
    }
}
