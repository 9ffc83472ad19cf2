import EventLog
import ResponderBus

extension ConsoleScanner {
    // MARK: - Names

    mutating func nameWord(_ word: ConsoleWord, start: Int, wasArmed: Bool, insideBracket: Bool) {
        let isField = wasArmed
        // A Swift `dump`'s child line (`- name : "UIKeyboardWillShowNotification"`) repeats the
        // notification its first line describes whole: no notification of its own.
        if isMirrorChildLine(before: start) {
            proseWord(start: start)
            return
        }
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

    /// Whether the current line is a child line of Swift's `dump` (it starts with `- ` or `▿ `,
    /// and its value is quoted: `- name : "…"`), up to `start`.
    func isMirrorChildLine(before start: Int) -> Bool {
        var i = lineStart
        while i < start, bytes[i] == UInt8(ascii: " ") || bytes[i] == 0x09 { i += 1 }
        let isDash = i + 1 < start && bytes[i] == UInt8(ascii: "-") && bytes[i + 1] == UInt8(ascii: " ")
        let isTriangle = i + 3 < start && bytes[i] == 0xE2 && bytes[i + 1] == 0x96 && bytes[i + 2] == 0xBF && bytes[i + 3] == UInt8(ascii: " ")
        return (isDash || isTriangle) && start > lineStart && bytes[start - 1] == UInt8(ascii: "\"")
    }

    /// Whether a `{` or `[` follows on the current line (before a `//` comment).
    func opensBlockLater(from index: Int) -> Bool {
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
    func nextWordAllowsName(from index: Int) -> Bool {
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

    mutating func proseWord(start: Int) {
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

    static let codeLabels: [[UInt8]] = ["forName", "selector", "case", "observer"].map { Array($0.utf8) }

    mutating func flushPending() {
        for name in takePending() { emit(name, info: nil) }
    }

    mutating func appendPending(_ name: PendingName) {
        pending.append(name)
        pendingHasField = pendingHasField || name.isField
        pendingMaxDepth = max(pendingMaxDepth, name.depth)
    }

    mutating func takePending() -> [PendingName] {
        let names = pending
        pending = []
        pendingHasField = false
        pendingMaxDepth = -1
        return names
    }

    mutating func emit(_ name: PendingName, info: KeyboardInfo?, endFrameAt: (line: Int, column: Int)? = nil) {
        switch name.word {
        case .keyboardName(let event):
            notifications.append(
                ScannedNotification(
                    kind: .keyboard(event, info ?? KeyboardInfo()), timestamp: name.timestamp, line: name.line, endFrameAt: endFrameAt))
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
    mutating func readObject(at start: Int) -> ScannedView? {
        var i = start + 1
        let limit = min(lineEnd, start + 2048)
        let classStart = i
        while i < limit, ConsoleValues.isClassNameByte(bytes[i]) { i += 1 }
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

    func matchingAngle(from start: Int, limit: Int, skipQuoted: Bool) -> (end: Int?, sawQuote: Bool) {
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
    mutating func lastCloseAngle() -> Int? {
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
    func field(_ name: String, in body: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
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
    mutating func attachObject(_ view: ScannedView) {
        guard let index = pending.lastIndex(where: { if case .editingName = $0.word { true } else { false } }) else { return }
        var resolved = view
        if case .editingName(let editing) = pending[index].word, let kind = editing.kind { resolved.kind = kind }
        pending[index].view = resolved
    }

    // MARK: - Stray text

    mutating func noteStray(_ start: Int, _ end: Int) {
        guard block != nil else { return }
        if let current = stray {
            stray = (current.start, end)
        } else {
            stray = (start, end)
        }
    }

    mutating func flushStray() {
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
    mutating func scanStandaloneFrame(from index: Int) -> Bool {
        guard labelMentionsKeyboard(from: index), let label = standaloneLabel(from: index),
            let (valueStart, valueEnd, depth) = standaloneValue(from: label.valueFrom)
        else { return false }
        let (event, isBegin) = (label.event, label.isBegin)
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
        notifications.append(
            ScannedNotification(
                kind: .keyboard(event ?? defaultEvent, info), timestamp: timestamp, line: line,
                endFrameAt: info.end == nil ? nil : (line, column(of: valueStart))))
        return true
    }

    /// The label of a standalone frame: at most four words, one mentioning the keyboard, none a
    /// userInfo key or another notification's word; the event it names, whether it says `begin`,
    /// and where its value may start. `nil` for anything else.
    private func standaloneLabel(from index: Int) -> (event: LogEvent.KeyboardEvent?, isBegin: Bool, valueFrom: Int)? {
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
        guard !words.isEmpty, words.count <= 4 else { return nil }
        var mentionsKeyboard = false
        var event: LogEvent.KeyboardEvent?
        var isBegin = false
        for word in words {
            let lower = String(decoding: word, as: UTF8.self).lowercased()
            if lower.contains("keyboard") || lower.contains("kb") { mentionsKeyboard = true }
            if lower.contains("begin") { isBegin = true }
            switch ConsoleWord.classify(word) {
            case .keyboardName(let e): event = e
            case .key, .editingName: return nil
            case .grammar(.userInfo), .grammar(.name), .grammar(.object), .grammar(.anyHashable): return nil
            default: break
            }
        }
        return mentionsKeyboard ? (event, isBegin, i) : nil
    }

    /// Where a standalone frame's value is, after its label's `:`, `=` or `,`: it starts with a
    /// bracket, a `…Rect` or `Optional`, and runs to where its brackets close (a note after it, such
    /// as `{{158, 0}, {162, 568}} (iOS 7)`, is not part of it), a trailing `//` comment or the
    /// line's end (blanks and separators trimmed); with the brackets left open at its end. `nil`
    /// when there is no value there.
    private func standaloneValue(from index: Int) -> (start: Int, end: Int, depth: Int)? {
        var i = index
        while i < lineEnd, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") || bytes[i] == UInt8(ascii: "\"") { i += 1 }
        if i < lineEnd, bytes[i] == UInt8(ascii: ":") || bytes[i] == UInt8(ascii: "=") || bytes[i] == UInt8(ascii: ",") { i += 1 }
        while i < lineEnd, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") || bytes[i] == UInt8(ascii: "\"") { i += 1 }
        guard i < lineEnd else { return nil }
        let valueStart = i
        let first = bytes[i]
        if first != UInt8(ascii: "(") && first != UInt8(ascii: "{") {
            // `NSRect: {{…}}`, `CGRect(origin: …)`, `Optional((…))`.
            var j = i
            while j < lineEnd, ConsoleValues.isLetter(bytes[j]) { j += 1 }
            let lower = String(decoding: bytes[i..<j], as: UTF8.self).lowercased()
            guard lower.hasSuffix("rect") || lower == "optional" else { return nil }
        }
        var end = valueStart
        var depth = 0
        while end < lineEnd {
            let c = bytes[end]
            if c == UInt8(ascii: "/"), end + 1 < lineEnd, bytes[end + 1] == UInt8(ascii: "/") { break }
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "(") || c == UInt8(ascii: "[") { depth += 1 }
            if c == UInt8(ascii: "}") || c == UInt8(ascii: ")") || c == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 {
                    end += 1
                    break
                }
            }
            end += 1
        }
        var valueEnd = end
        while valueEnd > valueStart,
            [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "\"")].contains(
                bytes[valueEnd - 1])
        {
            valueEnd -= 1
        }
        return (valueStart, valueEnd, depth)
    }

    /// A cheap first look: whether the words that start the line mention `keyboard` or `kb`.
    /// (A userInfo key is never such a label.)
    func labelMentionsKeyboard(from index: Int) -> Bool {
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
    func lowercased(_ literal: StaticString, at index: Int, limit: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        guard index + count <= limit else { return false }
        for k in 0..<count where bytes[index + k] | 0x20 != start[k] { return false }
        return true
    }

    static let rectWords: Set<[UInt8]> = Set(
        [
            "nsrect", "cgrect", "optional", "some", "origin", "size", "x", "y", "width", "height", "cgpoint", "cgsize",
            "nspoint", "nssize", "inf", "infinity", "nan", "e",
        ].map { Array($0.utf8) })

    /// Whether a value is made only of numbers, brackets, separators and the words of a rectangle,
    /// with at least one number.
    static func isRectShaped(_ value: ArraySlice<UInt8>) -> Bool {
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
