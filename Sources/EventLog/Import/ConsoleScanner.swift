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
struct ConsoleScanner {
    let bytes: [UInt8]
    let defaultEvent: LogEvent.KeyboardEvent

    private(set) var notifications: [ScannedNotification] = []
    private(set) var problems: [ImportProblem] = []
    /// Where a userInfo key was mentioned without a value (`` `UIKeyboardFrameEndUserInfoKey` we get ``):
    /// reported only when nothing could be imported, to say why.
    private(set) var keyMentions: [(line: Int, column: Int, word: String)] = []
    /// How many problems were not recorded because of the cap.
    private(set) var droppedProblems = 0

    // Cursor.
    private var pos = 0
    private var line = 1
    private var lineStart = 0
    private var lineEnd = 0
    private var timestamp: Int64?

    // Per-line state.
    private var lineHasEntry = false
    private var lineDisqualified = false
    private var armedFieldName = false
    /// `Name(_rawValue: X)`: the name sits inside the bracket it is printed in.
    private var armedInsideBracket = false
    /// `object = `: the next `<…>` is the notification's object.
    private var armedObject = false
    private var lastLeadingNameEnd: Int?
    /// A code argument label (`forName:`) was read on this line.
    private var lineHasCodeLabel = false
    /// The last keyboard name read inside a sentence (`Got UIKeyboardWillShowNotification with
    /// userInfo {`): the name of a userInfo that opens on its line when no other name leads it.
    private var sentenceName: PendingName?

    // Cross-line state.
    /// Changed only through `appendPending` and `takePending`, which keep the two summaries below
    /// up to date so that long runs of names cost linear time.
    private var pending: [PendingName] = []
    private var pendingHasField = false
    private var pendingMaxDepth = -1
    private var block: Block?
    private var openers: [Opener] = []
    private var stray: (start: Int, end: Int)?
    private var columnCache: (lineStart: Int, index: Int, column: Int) = (-1, 0, 1)
    private var angleCache: (lineStart: Int, last: Int?) = (-1, nil)

    private static let maxOpeners = 64
    private static let maxProblems = 1000

    private struct Opener {
        var byte: UInt8
        var line: Int
        var column: Int
    }

    private struct PendingName {
        var word: ConsoleWord
        var line: Int
        var timestamp: Int64?
        /// How many brackets were open when the name was read; closing below that ends its description.
        var depth: Int
        /// `name = X` (part of a description) rather than a name at the start of a line.
        var isField: Bool
        var view: ScannedView?
    }

    private struct Entry {
        var key: ConsoleWord.UserInfoKey
        var value: ArraySlice<UInt8>
        var line: Int
        var column: Int
        /// The value's brackets or quotes do not close on its line.
        var isUnbalanced: Bool
        var atEndOfInput: Bool
    }

    private struct Block {
        var names: [PendingName]
        var entries: [Entry] = []
        var keys: Set<ConsoleWord.UserInfoKey> = []
        /// The bracket the block sits in: its index in `openers` and the bracket itself.
        var container: (index: Int, opener: Opener)?
        var line: Int
        var column: Int
        var timestamp: Int64?
    }

    private enum BlockEnd {
        case closed, closerWithoutOpener, terminator, prose, timestamp, newNotification, repeatedKey, endOfInput
    }

    /// The index after the last byte that is not white space: a line ending at or after it is the
    /// last line of the dump.
    private let contentEnd: Int

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
    private var isLastLine: Bool { lineEnd >= contentEnd }

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

    private mutating func beginLine() {
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
    private mutating func column(of index: Int) -> Int {
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

    private mutating func report(_ kind: ImportProblem.Kind, line: Int, column: Int?, _ message: String) {
        guard problems.count < Self.maxProblems else {
            droppedProblems += 1
            return
        }
        problems.append(ImportProblem(kind: kind, line: line, column: column, message: message))
    }

    private func text(_ range: Range<Int>, limit: Int = 60) -> String {
        let clipped = range.lowerBound..<min(range.upperBound, range.lowerBound + limit)
        var text = String(decoding: bytes[clipped], as: UTF8.self)
        if clipped.upperBound < range.upperBound { text += "…" }
        return text
    }

    // MARK: - Lines

    private mutating func scanLine() {
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

    private func matches(_ literal: StaticString, at index: Int) -> Bool {
        // Literals here are ASCII, so they have a pointer representation.
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        guard index >= 0, index + count <= lineEnd else { return false }
        for k in 0..<count where bytes[index + k] != start[k] { return false }
        return true
    }

    /// `*/` or a fence: the pasted text ends here.
    private mutating func terminator() {
        flushStray()
        endBlock(.terminator)
        flushPending()
        openers.removeAll()
    }

    // MARK: - Body

    private mutating func scanBody() {
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
            case UInt8(ascii: "*") where matches("*/", at: pos):
                terminator()
                pos += 2
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                openBracket(c)
                pos += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                closeBracket(c)
                pos += 1
            case UInt8(ascii: "<"):
                let isObject = armedObject
                armedObject = false
                if pos + 1 < lineEnd, ConsoleValues.isLetter(bytes[pos + 1]), let view = readObject(at: pos) {
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

    private mutating func scanWord() {
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
    private func spacedKey(from start: Int, firstEnd: Int) -> (ConsoleWord.UserInfoKey, Int)? {
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
    private func nextSeparator(from index: Int) -> UInt8? {
        var i = index
        while i < lineEnd, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") { i += 1 }
        guard i < lineEnd else { return nil }
        let c = bytes[i]
        if c == UInt8(ascii: "=") { return i + 1 < lineEnd && bytes[i + 1] == UInt8(ascii: "=") ? nil : c }
        if c == UInt8(ascii: ":") { return i + 1 < lineEnd && bytes[i + 1] == UInt8(ascii: ":") ? nil : c }
        return nil
    }

    /// The index after `=`/`:` following a key (closing quotes of a quoted key skipped), or `nil`.
    private func readSeparator(from index: Int) -> Int? {
        var i = index
        while i < lineEnd, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "\\") || bytes[i] == UInt8(ascii: "'") { i += 1 }
        while i < lineEnd, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") { i += 1 }
        guard nextSeparator(from: i) != nil else { return nil }
        return i + 1
    }

    /// `AnyHashable("UIKeyboard…Key")` (quotes possibly escaped): the key (`nil` when it is not a
    /// keyboard key) and the index after `)`.
    private func readAnyHashableKey(from index: Int) -> (ConsoleWord.UserInfoKey?, Int)? {
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

    // MARK: - Keys and values

    private mutating func keyWord(_ key: ConsoleWord.UserInfoKey, start: Int, end: Int) {
        pos = end
        guard let after = readSeparator(from: end) else {
            // A key named in prose or code (`userInfo[UIKeyboardFrameEndUserInfoKey]`).
            if keyMentions.count < 8 {
                keyMentions.append((line, column(of: start), String(decoding: bytes[start..<end], as: UTF8.self)))
            }
            proseWord(start: start)
            return
        }
        pos = after
        readEntry(key: key, keyStart: start)
    }

    private mutating func readUnknownEntry(start: Int) {
        guard let after = readSeparator(from: pos) else { return }
        pos = after
        readEntry(key: .ignored, keyStart: start)
    }

    /// Reads the value after a key's separator and files the entry.
    private mutating func readEntry(key: ConsoleWord.UserInfoKey, keyStart: Int) {
        flushStray()
        let keyLine = line
        let keyColumn = column(of: keyStart)
        // The block this entry belongs to.
        if block == nil {
            startBlock(line: keyLine, column: keyColumn)
        } else if key != .ignored, block?.keys.contains(key) == true {
            endBlock(.repeatedKey)
            startBlock(line: keyLine, column: keyColumn, inheritContainer: false)
        }
        block?.keys.insert(key)
        lineHasEntry = true

        // The value: on this line, or (when the line ends after the separator) on the next one.
        while pos < lineEnd, bytes[pos] == UInt8(ascii: " ") || bytes[pos] == UInt8(ascii: "\t") || bytes[pos] == UInt8(ascii: "\r") { pos += 1 }
        if pos >= lineEnd, lineEnd < bytes.count {
            let next = lineEnd + 1
            var end = next
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            var i = next
            while i < end, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") || bytes[i] == UInt8(ascii: "\r") { i += 1 }
            if i < end, bytes[i] != UInt8(ascii: "#"), !startsWithKey(at: i, end: end) {
                line += 1
                lineStart = next
                lineEnd = end
                lineDisqualified = false
                lastLeadingNameEnd = nil
                pos = i
            }
        }
        let valueStart = pos
        var depth = 0
        var inQuote = false
        var i = pos
        scan: while i < lineEnd {
            let c = bytes[i]
            if c == UInt8(ascii: "\\"), i + 1 < lineEnd, bytes[i + 1] == UInt8(ascii: "\"") {
                inQuote.toggle()
                i += 2
                continue
            }
            if c == UInt8(ascii: "\"") {
                inQuote.toggle()
                i += 1
                continue
            }
            if inQuote {
                i += 1
                continue
            }
            switch c {
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                if depth == 0 { break scan }
                depth -= 1
            case UInt8(ascii: ";"), UInt8(ascii: ","):
                if depth == 0 { break scan }
            case UInt8(ascii: "*"):
                if depth == 0, i + 1 < lineEnd, bytes[i + 1] == UInt8(ascii: "/") { break scan }
            case UInt8(ascii: "/"):
                if depth == 0, i + 1 < lineEnd, bytes[i + 1] == UInt8(ascii: "/") { break scan }
            default:
                break
            }
            i += 1
        }
        var valueEnd = i
        while valueEnd > valueStart,
            bytes[valueEnd - 1] == UInt8(ascii: " ") || bytes[valueEnd - 1] == UInt8(ascii: "\t") || bytes[valueEnd - 1] == UInt8(ascii: "\r")
        {
            valueEnd -= 1
        }
        let entry = Entry(
            key: key, value: bytes[valueStart..<valueEnd], line: line, column: column(of: valueStart),
            isUnbalanced: inQuote || depth > 0, atEndOfInput: isLastLine)
        if entry.isUnbalanced, key == .ignored, !entry.atEndOfInput {
            report(
                .unreadableValue, line: entry.line, column: entry.column,
                "the value `\(text(valueStart..<valueEnd))` does not close on its line; ignored")
        }
        block?.entries.append(entry)
        pos = i
        if pos < lineEnd, bytes[pos] == UInt8(ascii: ";") || bytes[pos] == UInt8(ascii: ",") { pos += 1 }
    }

    /// Whether a line's text starts with a userInfo key (so a key with an empty value does not
    /// swallow the next line).
    private func startsWithKey(at index: Int, end: Int) -> Bool {
        var i = index
        while i < end, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "\\") { i += 1 }
        let start = i
        while i < end, ConsoleValues.isWordByte(bytes[i]) || bytes[i] == UInt8(ascii: ".") { i += 1 }
        guard i > start else { return false }
        switch ConsoleWord.classify(bytes[start..<i]) {
        case .key, .grammar(.anyHashable): return true
        default: return false
        }
    }

    // MARK: - Blocks

    private mutating func startBlock(line: Int, column: Int, inheritContainer: Bool = true) {
        var names: [PendingName] = []
        // Names waiting for a userInfo take this one; editing names among them are events of their own.
        for name in takePending() {
            if case .keyboardName = name.word { names.append(name) } else { emit(name, info: nil) }
        }
        var newBlock = Block(names: names, line: line, column: column, timestamp: timestamp)
        if inheritContainer, let last = openers.last {
            newBlock.container = (openers.count - 1, last)
            newBlock.line = last.line
            newBlock.column = last.column
        }
        // No name leads this userInfo, but the sentence it opens in names one: that is its name.
        if newBlock.names.isEmpty, let named = sentenceName, named.line == newBlock.line {
            newBlock.names = [named]
        }
        sentenceName = nil
        block = newBlock
    }

    private mutating func endBlock(_ reason: BlockEnd) {
        guard let finished = block else { return }
        block = nil
        flushStray()
        let cutOff: Bool
        switch reason {
        case .closed, .closerWithoutOpener, .terminator, .repeatedKey:
            cutOff = false
        case .prose, .timestamp, .newNotification, .endOfInput:
            cutOff = finished.container != nil
        }
        let lastEntryCut = finished.entries.last.map { $0.isUnbalanced && $0.atEndOfInput } ?? false
        let eventNames =
            finished.names.isEmpty
            ? [defaultEvent.rawValue]
            : finished.names.compactMap { name -> String? in
                if case .keyboardName(let e) = name.word { return e.rawValue }
                return nil
            }
        let what = eventNames.count == 1 ? eventNames[0] : "\(eventNames.count) notifications (\(eventNames.joined(separator: ", ")))"
        var readable = finished
        if cutOff || lastEntryCut {
            let closer = finished.container.map { closing(for: $0.opener.byte) }.map { " (no closing `\(String(UnicodeScalar($0)))`)" } ?? ""
            let whereCut: String
            switch reason {
            case .endOfInput: whereCut = "is cut off at the end of the input\(closer)"
            case .timestamp: whereCut = "is cut off by the next log line\(closer)"
            case .newNotification: whereCut = "is cut off by the next notification\(closer)"
            default: whereCut = "is cut off\(closer); the text after it is not part of it"
            }
            // The keys before the cut are whole: a named notification is imported with them (a
            // value cut in the middle is left out), and the cut is said.
            if let last = readable.entries.last, last.isUnbalanced { readable.entries.removeLast() }
            let whole = readable.entries.filter { $0.key != .ignored }.map(\.key.displayName)
            guard !finished.names.isEmpty, !whole.isEmpty else {
                report(.truncated, line: finished.line, column: finished.column, "the userInfo that starts here \(whereCut); skipped \(what)")
                return
            }
            report(
                .partlyImported, line: finished.line, column: finished.column,
                "the userInfo that starts here \(whereCut); imported \(what) with the keys that are whole (\(whole.joined(separator: ", ")))")
        }
        guard let info = keyboardInfo(of: readable, what: what) else { return }
        if finished.names.isEmpty {
            notifications.append(
                ScannedNotification(kind: .keyboard(defaultEvent, info), timestamp: finished.timestamp, line: finished.line))
        } else {
            for name in finished.names { emit(name, info: info) }
        }
    }

    private func closing(for opener: UInt8) -> UInt8 {
        switch opener {
        case UInt8(ascii: "{"): UInt8(ascii: "}")
        case UInt8(ascii: "["): UInt8(ascii: "]")
        default: UInt8(ascii: ")")
        }
    }

    /// The typed userInfo, or `nil` (with problems reported) when a value the log needs is unreadable.
    private mutating func keyboardInfo(of block: Block, what: String) -> KeyboardInfo? {
        var info = KeyboardInfo()
        var readable = true
        for entry in block.entries where entry.key != .ignored {
            let value = entry.value
            let shown = text(value.startIndex..<value.endIndex)
            func unreadable(_ why: String) {
                report(
                    .unreadableValue, line: entry.line, column: entry.column,
                    "cannot read the \(entry.key.displayName) value `\(shown)`: \(why); skipped \(what)")
                readable = false
            }
            if entry.isUnbalanced {
                unreadable("its brackets or quotes do not close")
                continue
            }
            switch entry.key {
            case .frameBegin, .frameEnd:
                guard let rect = ConsoleValues.rect(in: value) else {
                    unreadable("expected a rectangle such as NSRect: {{0, 352}, {320, 216}}")
                    continue
                }
                let finite = rect.components.allSatisfy(\.isFinite)
                if !finite {
                    report(
                        .unrepresentableFrame, line: entry.line, column: entry.column,
                        "the \(entry.key.displayName) value `\(shown)` is not a finite rectangle (CGRectNull or infinite); a log cannot hold it, so \(what) is imported without it"
                    )
                    continue
                }
                if entry.key == .frameBegin { info.begin = rect } else { info.end = rect }
            case .duration:
                guard let seconds = ConsoleValues.single(in: value), seconds.isFinite, seconds >= 0,
                    seconds <= LogLimits.maximumSeconds
                else {
                    unreadable("expected a number of seconds such as 0.25 (at most \(Int(LogLimits.maximumSeconds)))")
                    continue
                }
                info.duration = seconds
            case .curve:
                guard let raw = ConsoleValues.single(in: value), raw.isFinite, raw == raw.rounded(),
                    abs(raw) <= Double(Int32.max)
                else {
                    unreadable("expected a whole number such as 7")
                    continue
                }
                info.curve = Int(raw)
            case .isLocal:
                guard let flag = ConsoleValues.bool(in: value) else {
                    unreadable("expected 1, 0, true or false")
                    continue
                }
                info.isLocal = flag
            case .ignored:
                break
            }
        }
        return readable ? info : nil
    }

    // MARK: - Brackets

    private mutating func openBracket(_ byte: UInt8) {
        if let current = block {
            guard !lineHasEntry else {
                noteStray(pos, pos + 1)
                return
            }
            // A bracket that opens a new line: another dump starts. An open one before it was cut off.
            flushStray()
            endBlock(current.container == nil ? .terminator : .newNotification)
            openers.removeAll()
        }
        if openers.count >= Self.maxOpeners { openers.removeFirst(openers.count - Self.maxOpeners + 1) }
        openers.append(Opener(byte: byte, line: line, column: column(of: pos)))
    }

    private mutating func closeBracket(_ byte: UInt8) {
        if let current = block {
            if let container = current.container {
                if closing(for: container.opener.byte) == byte {
                    endBlock(.closed)
                    if container.index < openers.count { openers.removeSubrange(container.index...) }
                } else {
                    // `797}` left inside a `[…]`: debris, not the end.
                    noteStray(pos, pos + 1)
                }
                return
            }
            endBlock(.closerWithoutOpener)
        }
        // Close the innermost matching bracket; a closer with no opener is ignored.
        if let index = openers.lastIndex(where: { closing(for: $0.byte) == byte }) {
            openers.removeSubrange(index...)
            // A description `{name = X; object = <…>}` ended: its names (no userInfo) are events now.
            if pendingMaxDepth > openers.count { flushPending() }
        }
    }

    // MARK: - Names

    private mutating func nameWord(_ word: ConsoleWord, start: Int, wasArmed: Bool, insideBracket: Bool) {
        let isField = wasArmed
        var isLeading = false
        if !isField {
            let leadingBefore = !lineDisqualified || lastLeadingNameEnd != nil
            isLeading = leadingBefore && nextWordAllowsName(from: pos)
        }
        guard isField || isLeading else {
            proseWord(start: start)
            if case .keyboardName = word, !lineHasCodeLabel {
                sentenceName = PendingName(word: word, line: line, timestamp: timestamp, depth: openers.count, isField: false)
            }
            return
        }
        if block != nil {
            flushStray()
            endBlock(.newNotification)
        }
        // A description's name, or a name whose own userInfo opens on its line
        // (`keyboardWillHide: {`), does not share that userInfo with names read before it.
        if isField || pendingHasField || (lastLeadingNameEnd == nil && opensBlockLater(from: pos)) { flushPending() }
        if isLeading { lastLeadingNameEnd = pos }
        let depth = insideBracket ? max(0, openers.count - 1) : openers.count
        var name = PendingName(word: word, line: line, timestamp: timestamp, depth: depth, isField: isField)
        if case .editingName(let editing) = word {
            // Until an `object = <…>` says which, the view is named after its kind.
            let kind = editing.kind ?? .textField
            name.view = ScannedView(id: ViewID(kind == .textView ? "UITextView" : "UITextField"), kind: kind)
        }
        appendPending(name)
    }

    /// Whether a `{` or `[` follows on the current line (before a `//` comment).
    private func opensBlockLater(from index: Int) -> Bool {
        var i = index
        while i < lineEnd {
            let c = bytes[i]
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { return true }
            if c == UInt8(ascii: "/"), i + 1 < lineEnd, bytes[i + 1] == UInt8(ascii: "/") { return false }
            i += 1
        }
        return false
    }

    /// After a name at the start of a line, only the notification's own words may follow on that
    /// line (`, userInfo: [`, `; userInfo = {`, `object = <…>`, another name of a list, `:`).
    private func nextWordAllowsName(from index: Int) -> Bool {
        var i = index
        while i < lineEnd {
            let c = bytes[i]
            if ConsoleValues.isLetter(c) || c == UInt8(ascii: "_") { break }
            if c == UInt8(ascii: "<") { return true }
            if c == UInt8(ascii: "/"), i + 1 < lineEnd, bytes[i + 1] == UInt8(ascii: "/") { return true }
            i += 1
        }
        guard i < lineEnd else { return true }
        let start = i
        while i < lineEnd, ConsoleValues.isWordByte(bytes[i]) || bytes[i] == UInt8(ascii: ".") { i += 1 }
        switch ConsoleWord.classify(bytes[start..<i]) {
        case .keyboardName, .editingName, .key, .grammar: return true
        case .other: return bytes[start..<i].allSatisfy { $0 == UInt8(ascii: "_") }
        }
    }

    private mutating func proseWord(start: Int) {
        if block != nil {
            if lineHasEntry {
                noteStray(start, pos)
                return
            }
            endBlock(.prose)
        }
        // Prose on a later line ends a list of names that no userInfo followed.
        if let last = pending.last, last.line < line { flushPending() }
        openers.removeAll()
        // `note:` / `Received ->` is a label: a name may still lead the line after it.
        var i = pos
        while i < lineEnd, bytes[i] == UInt8(ascii: " ") { i += 1 }
        let isLabel = i < lineEnd && (bytes[i] == UInt8(ascii: ":") || bytes[i] == UInt8(ascii: ">") || bytes[i] == UInt8(ascii: "-"))
        // A name may lead its line after a label; any other word, or a code argument label, spoils it.
        let word = bytes[start..<pos]
        // `forName:`, and the selectors that end in it (`addObserverForName:`, ReactiveObjC's
        // `rac_addObserverForName:`), pass a name in code.
        let isCodeLabel =
            Self.codeLabels.contains { word.elementsEqual($0) }
            || (word.count > 7 && word.suffix(7).elementsEqual("ForName".utf8))
        if isCodeLabel { lineHasCodeLabel = true }
        lineDisqualified = !isLabel || isCodeLabel
        lastLeadingNameEnd = nil
    }

    private static let codeLabels: [[UInt8]] = ["forName", "selector", "case", "observer"].map { Array($0.utf8) }

    private mutating func flushPending() {
        for name in takePending() { emit(name, info: nil) }
    }

    private mutating func appendPending(_ name: PendingName) {
        pending.append(name)
        pendingHasField = pendingHasField || name.isField
        pendingMaxDepth = max(pendingMaxDepth, name.depth)
    }

    private mutating func takePending() -> [PendingName] {
        let names = pending
        pending = []
        pendingHasField = false
        pendingMaxDepth = -1
        return names
    }

    private mutating func emit(_ name: PendingName, info: KeyboardInfo?) {
        switch name.word {
        case .keyboardName(let event):
            notifications.append(
                ScannedNotification(kind: .keyboard(event, info ?? KeyboardInfo()), timestamp: name.timestamp, line: name.line))
        case .editingName(let editing):
            let view = name.view ?? ScannedView(id: "UITextField", kind: .textField)
            notifications.append(
                ScannedNotification(kind: .editing(isBegin: editing.isBegin, view: view), timestamp: name.timestamp, line: name.line))
        default:
            break
        }
    }

    // MARK: - Objects

    /// `<UITextField: 0x189f10; frame = (20 20; 97 31); text = ''; tag = 3; layer = <CALayer: 0x179830>>`:
    /// moves past it and returns the view it describes. Looks at most 4 KB ahead.
    private mutating func readObject(at start: Int) -> ScannedView? {
        var i = start + 1
        let limit = min(lineEnd, start + 2048)
        let classStart = i
        while i < limit, ConsoleValues.isWordByte(bytes[i]) || bytes[i] == UInt8(ascii: ".") { i += 1 }
        guard i < limit, bytes[i] == UInt8(ascii: ":") else { return nil }
        let className = String(decoding: bytes[classStart..<i], as: UTF8.self)
        // The matching `>`, past `text = 'a>b'` when the quotes pair up.
        guard let last = lastCloseAngle(), last > i else { return nil }
        let (quoted, sawQuote) = matchingAngle(from: i, limit: min(limit, last + 1), skipQuoted: true)
        guard let end = quoted ?? (sawQuote ? matchingAngle(from: i, limit: min(limit, last + 1), skipQuoted: false).end : nil)
        else { return nil }
        let body = bytes[(i + 1)..<end]
        pos = end + 1
        // The address.
        var address: String?
        var j = body.startIndex
        while j < body.endIndex, bytes[j] == UInt8(ascii: " ") { j += 1 }
        if j + 1 < body.endIndex, bytes[j] == UInt8(ascii: "0"), bytes[j + 1] == UInt8(ascii: "x") {
            var k = j + 2
            while k < body.endIndex, ConsoleValues.isWordByte(bytes[k]) { k += 1 }
            address = String(decoding: bytes[j..<k], as: UTF8.self)
        }
        let frame = field("frame", in: body).flatMap { ConsoleValues.rect(in: $0) }.flatMap {
            $0.components.allSatisfy(\.isFinite) ? $0 : nil
        }
        let tag = field("tag", in: body).flatMap { ConsoleValues.single(in: $0) }.flatMap {
            $0.isFinite && $0 == $0.rounded() && abs($0) < 1e15 ? Int($0) : nil
        }
        let lower = className.lowercased()
        let kind: ViewKind = lower.contains("textview") ? .textView : .textField
        let id = address.map { "\(className)-\($0)" } ?? (tag.map { "\(className)-tag\($0)" } ?? className)
        return ScannedView(id: ViewID(id), kind: kind, frame: frame, tag: tag, address: address)
    }

    private func matchingAngle(from start: Int, limit: Int, skipQuoted: Bool) -> (end: Int?, sawQuote: Bool) {
        var depth = 1
        var inQuote = false
        var sawQuote = false
        var end = start
        while end < limit {
            let c = bytes[end]
            if skipQuoted, c == UInt8(ascii: "'") {
                inQuote.toggle()
                sawQuote = true
            } else if !inQuote {
                if c == UInt8(ascii: "<") { depth += 1 }
                if c == UInt8(ascii: ">") {
                    depth -= 1
                    if depth == 0 { return (end, sawQuote) }
                }
            }
            end += 1
        }
        return (nil, sawQuote)
    }

    /// The index of the current line's last `>` (cached per line), so that a line full of `<Foo:`
    /// without any `>` costs linear time.
    private mutating func lastCloseAngle() -> Int? {
        if angleCache.lineStart != lineStart {
            var i = lineEnd
            var found: Int?
            while i > lineStart {
                i -= 1
                if bytes[i] == UInt8(ascii: ">") {
                    found = i
                    break
                }
            }
            angleCache = (lineStart, found)
        }
        return angleCache.last
    }

    /// The value of `name = …;` at the top level of an object description.
    private func field(_ name: String, in body: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let key = Array(name.utf8)
        var i = body.startIndex
        var depth = 0
        var inQuote = false
        while i < body.endIndex {
            let c = bytes[i]
            if c == UInt8(ascii: "'") { inQuote.toggle() }
            if inQuote {
                i += 1
                continue
            }
            if c == UInt8(ascii: "<") || c == UInt8(ascii: "(") || c == UInt8(ascii: "{") { depth += 1 }
            if c == UInt8(ascii: ">") || c == UInt8(ascii: ")") || c == UInt8(ascii: "}") { depth -= 1 }
            if depth == 0, i + key.count <= body.endIndex, bytes[i..<(i + key.count)].elementsEqual(key),
                i == body.startIndex || !ConsoleValues.isWordByte(bytes[i - 1])
            {
                var j = i + key.count
                while j < body.endIndex, bytes[j] == UInt8(ascii: " ") { j += 1 }
                guard j < body.endIndex, bytes[j] == UInt8(ascii: "=") else {
                    i += 1
                    continue
                }
                j += 1
                let valueStart = j
                var d = 0
                while j < body.endIndex {
                    let v = bytes[j]
                    if v == UInt8(ascii: "(") || v == UInt8(ascii: "{") || v == UInt8(ascii: "<") { d += 1 }
                    if v == UInt8(ascii: ")") || v == UInt8(ascii: "}") || v == UInt8(ascii: ">") { d -= 1 }
                    if d == 0, v == UInt8(ascii: ";") { break }
                    j += 1
                }
                return bytes[valueStart..<j]
            }
            i += 1
        }
        return nil
    }

    /// `object = <UITextField: …>` names the view of the editing notification being read.
    private mutating func attachObject(_ view: ScannedView) {
        guard let index = pending.lastIndex(where: { if case .editingName = $0.word { true } else { false } }) else { return }
        var resolved = view
        if case .editingName(let editing) = pending[index].word, let kind = editing.kind { resolved.kind = kind }
        pending[index].view = resolved
    }

    // MARK: - Stray text

    private mutating func noteStray(_ start: Int, _ end: Int) {
        guard block != nil else { return }
        if let current = stray {
            stray = (current.start, end)
        } else {
            stray = (start, end)
        }
    }

    private mutating func flushStray() {
        guard let span = stray else { return }
        stray = nil
        var start = span.start
        var end = min(span.end, lineEnd)
        guard start < end else { return }
        while end > start, bytes[end - 1] == UInt8(ascii: ",") || bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: ";") {
            end -= 1
        }
        while start < end, bytes[start] == UInt8(ascii: " ") { start += 1 }
        guard start < end else { return }
        report(
            .strayText, line: line, column: column(of: start),
            "cannot read `\(text(start..<end))` between userInfo entries (the remains of an edited or garbled entry?); ignored")
    }

    // MARK: - Standalone frames

    /// A line that labels a keyboard frame: `keyboardSize (0.0, 768.0, 1024.0, 398.0)`,
    /// `keyboard frame: NSRect: {{0, 352}, {320, 216}}`, `keyboardWillShow {{0, 352}, {320, 216}}`.
    /// The label must mention the keyboard (`keyboard`, `kb`); the frame is the end frame unless the
    /// label says `begin`. The event is the one the label names, else the default event.
    private mutating func scanStandaloneFrame(from index: Int) -> Bool {
        guard labelMentionsKeyboard(from: index) else { return false }
        var i = index
        var words: [ArraySlice<UInt8>] = []
        while i < lineEnd, words.count <= 4 {
            while i < lineEnd, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") || bytes[i] == UInt8(ascii: "\"") { i += 1 }
            guard i < lineEnd, ConsoleValues.isLetter(bytes[i]) || bytes[i] == UInt8(ascii: "_") else { break }
            let start = i
            while i < lineEnd, ConsoleValues.isWordByte(bytes[i]) || bytes[i] == UInt8(ascii: ".") { i += 1 }
            words.append(bytes[start..<i])
            // `NSRect:` / `CGRect:` start the value, not the label.
            if i < lineEnd, bytes[i] == UInt8(ascii: ":"), i + 1 < lineEnd, bytes[i + 1] == UInt8(ascii: " ") {
                let lower = String(decoding: bytes[start..<i], as: UTF8.self).lowercased()
                if lower.hasSuffix("rect") {
                    words.removeLast()
                    i = start
                    break
                }
            }
        }
        guard !words.isEmpty, words.count <= 4 else { return false }
        var mentionsKeyboard = false
        var event: LogEvent.KeyboardEvent?
        var isBegin = false
        for word in words {
            let lower = String(decoding: word, as: UTF8.self).lowercased()
            if lower.contains("keyboard") || lower.contains("kb") { mentionsKeyboard = true }
            if lower.contains("begin") { isBegin = true }
            switch ConsoleWord.classify(word) {
            case .keyboardName(let e): event = e
            case .key, .editingName: return false
            case .grammar(.userInfo), .grammar(.name), .grammar(.object), .grammar(.anyHashable): return false
            default: break
            }
        }
        guard mentionsKeyboard else { return false }
        while i < lineEnd, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") || bytes[i] == UInt8(ascii: "\"") { i += 1 }
        if i < lineEnd, bytes[i] == UInt8(ascii: ":") || bytes[i] == UInt8(ascii: "=") || bytes[i] == UInt8(ascii: ",") { i += 1 }
        while i < lineEnd, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") || bytes[i] == UInt8(ascii: "\"") { i += 1 }
        guard i < lineEnd else { return false }
        let valueStart = i
        let first = bytes[i]
        if first != UInt8(ascii: "(") && first != UInt8(ascii: "{") {
            // `NSRect: {{…}}`, `CGRect(origin: …)`, `Optional((…))`.
            var j = i
            while j < lineEnd, ConsoleValues.isLetter(bytes[j]) { j += 1 }
            let lower = String(decoding: bytes[i..<j], as: UTF8.self).lowercased()
            guard lower.hasSuffix("rect") || lower == "optional" else { return false }
        }
        // The value runs to a trailing `//` comment or the end of the line.
        var end = valueStart
        var depth = 0
        while end < lineEnd {
            let c = bytes[end]
            if c == UInt8(ascii: "/"), end + 1 < lineEnd, bytes[end + 1] == UInt8(ascii: "/") { break }
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "(") || c == UInt8(ascii: "[") { depth += 1 }
            if c == UInt8(ascii: "}") || c == UInt8(ascii: ")") || c == UInt8(ascii: "]") { depth -= 1 }
            end += 1
        }
        var valueEnd = end
        while valueEnd > valueStart,
            [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "\"")].contains(
                bytes[valueEnd - 1])
        {
            valueEnd -= 1
        }
        let value = bytes[valueStart..<valueEnd]
        // Only numbers, brackets and the words of a rectangle: anything else is not a lone frame.
        guard Self.isRectShaped(value) else { return false }
        let shown = text(valueStart..<valueEnd)
        flushStray()
        endBlock(.prose)
        flushPending()
        openers.removeAll()
        let name = (event ?? defaultEvent).rawValue
        if depth > 0 {
            let atEnd = isLastLine
            report(
                atEnd ? .truncated : .unreadableValue, line: line, column: column(of: valueStart),
                atEnd
                    ? "the keyboard frame `\(shown)` is cut off at the end of the input; skipped \(name)"
                    : "the keyboard frame `\(shown)` does not close on its line; skipped \(name)")
            return true
        }
        guard let values = ConsoleValues.numbers(in: value), values.count == 4 else {
            report(
                .unreadableValue, line: line, column: column(of: valueStart),
                "cannot read the keyboard frame `\(shown)`: expected four numbers such as (0.0, 768.0, 1024.0, 398.0); skipped \(name)")
            return true
        }
        let rect = Rect(x: values[0], y: values[1], width: values[2], height: values[3])
        var info = KeyboardInfo()
        if rect.components.allSatisfy(\.isFinite) {
            if isBegin { info.begin = rect } else { info.end = rect }
        } else {
            report(
                .unrepresentableFrame, line: line, column: column(of: valueStart),
                "the keyboard frame `\(shown)` is not a finite rectangle; a log cannot hold it, so \(name) is imported without it")
        }
        notifications.append(ScannedNotification(kind: .keyboard(event ?? defaultEvent, info), timestamp: timestamp, line: line))
        return true
    }

    /// A cheap first look: whether the words that start the line mention `keyboard` or `kb`.
    /// (A userInfo key is never such a label.)
    private func labelMentionsKeyboard(from index: Int) -> Bool {
        var i = index
        let limit = min(lineEnd, index + 160)
        var mentions = false
        while i < limit {
            let byte = bytes[i]
            if !(ConsoleValues.isWordByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: " ")
                || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\t"))
            {
                break
            }
            let c = byte | 0x20
            if c == UInt8(ascii: "k"), i + 1 < limit {
                let next = bytes[i + 1] | 0x20
                if next == UInt8(ascii: "b") || (next == UInt8(ascii: "e") && lowercased("keyboard", at: i, limit: limit)) {
                    mentions = true
                }
            } else if c == UInt8(ascii: "u"), lowercased("userinfokey", at: i, limit: limit) {
                return false
            }
            i += 1
        }
        return mentions
    }

    /// Whether the bytes at `index`, lowercased, spell `literal`.
    private func lowercased(_ literal: StaticString, at index: Int, limit: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        guard index + count <= limit else { return false }
        for k in 0..<count where bytes[index + k] | 0x20 != start[k] { return false }
        return true
    }

    private static let rectWords: Set<[UInt8]> = Set(
        [
            "nsrect", "cgrect", "optional", "some", "origin", "size", "x", "y", "width", "height", "cgpoint", "cgsize",
            "nspoint", "nssize", "inf", "infinity", "nan", "e",
        ].map { Array($0.utf8) })

    /// Whether a value is made only of numbers, brackets, separators and the words of a rectangle,
    /// with at least one number.
    private static func isRectShaped(_ value: ArraySlice<UInt8>) -> Bool {
        var i = value.startIndex
        var sawNumber = false
        while i < value.endIndex {
            let c = value[i]
            if ConsoleValues.isLetter(c) || c == UInt8(ascii: "_") {
                let start = i
                while i < value.endIndex, ConsoleValues.isWordByte(value[i]) { i += 1 }
                let lower = value[start..<i].map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
                guard rectWords.contains(lower) else { return false }
                continue
            }
            if ConsoleValues.isDigit(c) {
                sawNumber = true
            } else if !" \t.,:;=-+{}()[]\"".utf8.contains(c) {
                return false
            }
            i += 1
        }
        return sawNumber
    }
}
