import EventLog
import ResponderBus

extension ConsoleScanner {
    // MARK: - Keys and values

    mutating func keyWord(_ key: ConsoleWord.UserInfoKey, start: Int, end: Int) {
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

    mutating func readUnknownEntry(start: Int) {
        guard let after = readSeparator(from: pos) else { return }
        pos = after
        readEntry(key: .ignored, keyStart: start)
    }

    /// Reads the value after a key's separator and files the entry.
    mutating func readEntry(key: ConsoleWord.UserInfoKey, keyStart: Int) {
        flushStray()
        let keyLine = line
        let keyColumn = column(of: keyStart)
        // The block this entry belongs to.
        if block == nil {
            startBlock(line: keyLine, column: keyColumn)
        } else if key != .ignored, block?.keys.contains(key) == true {
            endBlock(.repeatedKey)
            startBlock(line: keyLine, column: keyColumn, inheritContainer: false)
            report(
                .repeatedKey, line: keyLine, column: keyColumn,
                "\(key.displayName) again, with no notification name before it: the entries from here on are read as another notification (\(defaultEvent.rawValue), the default); two userInfos printed together, such as a show and then a hide? Put each notification's name before its userInfo, or pass --event"
            )
        }
        block?.keys.insert(key)
        lineHasEntry = true

        // The value: on this line, or (when the line ends after the separator) on the next one.
        while pos < lineEnd, bytes[pos] == UInt8(ascii: " ") || bytes[pos] == UInt8(ascii: "\t") || bytes[pos] == UInt8(ascii: "\r") { pos += 1 }
        if pos >= lineEnd, lineEnd < bytes.count { moveToValueOnNextLine() }
        let valueStart = pos
        let (i, depth, inQuote) = valueExtent(from: pos)
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

    /// A key whose line ends after its separator: its value is the next line, unless that line is
    /// blank, a comment or another key.
    private mutating func moveToValueOnNextLine() {
        let next = lineEnd + 1
        var end = next
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        var i = next
        while i < end, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") || bytes[i] == UInt8(ascii: "\r") { i += 1 }
        guard i < end, bytes[i] != UInt8(ascii: "#"), !startsWithKey(at: i, end: end) else { return }
        line += 1
        lineStart = next
        lineEnd = end
        lineDisqualified = false
        lastLeadingNameEnd = nil
        pos = i
    }

    /// Where a value starting at `start` ends: at a `;` or `,`, a closing bracket, or a comment
    /// outside brackets and quotes, or at the line's end; with the brackets and quote left open.
    private func valueExtent(from start: Int) -> (end: Int, depth: Int, inQuote: Bool) {
        var depth = 0
        var inQuote = false
        var i = start
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
                // A comment's closer, after one `*` or several (`**/`).
                var end = i + 1
                while end < lineEnd, bytes[end] == UInt8(ascii: "*") { end += 1 }
                if depth == 0, end < lineEnd, bytes[end] == UInt8(ascii: "/") { break scan }
            case UInt8(ascii: "/"):
                if depth == 0, i + 1 < lineEnd, bytes[i + 1] == UInt8(ascii: "/") { break scan }
            default:
                break
            }
            i += 1
        }
        return (i, depth, inQuote)
    }

    /// Whether a line's text starts with a userInfo key (so a key with an empty value does not
    /// swallow the next line).
    func startsWithKey(at index: Int, end: Int) -> Bool {
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

    mutating func startBlock(line: Int, column: Int, inheritContainer: Bool = true) {
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

    mutating func endBlock(_ reason: BlockEnd) {
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
        let before = notifications.count
        defer { if reason == .endOfInput, cutOff || lastEntryCut { notificationsCutAtEnd = notifications.count - before } }
        if finished.names.isEmpty {
            notifications.append(
                ScannedNotification(
                    kind: .keyboard(defaultEvent, info), timestamp: finished.timestamp, line: finished.line, endFrameAt: lastEndFrameAt))
        } else {
            for name in finished.names { emit(name, info: info, endFrameAt: lastEndFrameAt) }
        }
    }

    func closing(for opener: UInt8) -> UInt8 {
        switch opener {
        case UInt8(ascii: "{"): UInt8(ascii: "}")
        case UInt8(ascii: "["): UInt8(ascii: "]")
        default: UInt8(ascii: ")")
        }
    }

    /// The typed userInfo, or `nil` (with problems reported) when a value the log needs is unreadable.
    mutating func keyboardInfo(of block: Block, what: String) -> KeyboardInfo? {
        var info = KeyboardInfo()
        var readable = true
        lastEndFrameAt = nil
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
                if entry.key == .frameBegin {
                    info.begin = rect
                } else {
                    info.end = rect
                    lastEndFrameAt = (entry.line, entry.column)
                }
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

    mutating func openBracket(_ byte: UInt8) {
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

    mutating func closeBracket(_ byte: UInt8) {
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
}
