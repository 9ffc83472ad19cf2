/// A plugin's standard error, split into lines for diagnostics, in bounded memory however much the
/// plugin writes.
///
/// A line is kept up to ``longestLine`` bytes; the rest of it is counted and dropped, and the line
/// says so when it is handed out. Lines that come while ``lineBudget`` lines wait to be taken are
/// counted and dropped too. So a plugin that floods its standard error costs the host at most
/// ``lineBudget`` lines of ``longestLine`` bytes (a single 50 MB line, 64 KiB), and the bus one
/// diagnostic per line taken and one saying how many were dropped. The last few lines are kept
/// apart, dropped or not (``Taken/lastWords``): the end of a traceback is what explains a crash.
struct ErrorLines {
    /// The longest part of one line that is kept (64 KiB).
    static let longestLine = 1 << 16
    /// How many of the last lines ``lastWords`` holds, and how much of each.
    static let lastWordsCount = 12
    static let lastWordsLength = 300

    /// How many complete lines are kept until they are taken.
    let lineBudget: Int

    /// Lines complete and kept, waiting to be taken.
    private var lines: [String] = []
    /// The unfinished line's kept bytes.
    private var current: [UInt8] = []
    /// How long the unfinished line is, kept bytes and dropped ones together.
    private var currentLength = 0
    /// Complete lines dropped since the lines were last taken.
    private var dropped = 0
    /// The last lines completed since the lines were last taken, each cut short.
    private var lastWords: [String] = []

    /// Lines kept until taken: at most `lineBudget`.
    init(lineBudget: Int) {
        self.lineBudget = lineBudget
    }

    /// Splits what was read into lines.
    mutating func append(_ chunk: borrowing PipeBytes) {
        var start = 0
        while start < chunk.count {
            let found = chunk.firstIndex(of: 0x0A, from: start)
            let end = found ?? chunk.count
            let kept = min(end - start, max(0, Self.longestLine - current.count))
            if kept > 0 { chunk.append(start..<start + kept, to: &current) }
            currentLength += end - start
            guard found != nil else { return }
            finishLine()
            start = end + 1
        }
    }

    /// Ends the unfinished line: kept, or counted as dropped when the budget is spent.
    private mutating func finishLine() {
        var text = String(decoding: current, as: UTF8.self)
        if currentLength > current.count {
            text += "… (a line of \(currentLength) bytes, cut at \(Self.longestLine))"
        }
        if lastWords.count == Self.lastWordsCount { lastWords.removeFirst() }
        lastWords.append(text.utf8.count > Self.lastWordsLength ? String(text.prefix(Self.lastWordsLength)) + "…" : text)
        if lines.count < lineBudget {
            lines.append(text)
        } else {
            dropped += 1
        }
        current.removeAll(keepingCapacity: current.capacity <= 4096)
        currentLength = 0
    }

    /// What ``take(ended:)`` hands out.
    struct Taken {
        /// The lines kept, in order, at most ``ErrorLines/lineBudget``.
        var lines: [String] = []
        /// How many lines came after those and were dropped.
        var dropped = 0
        /// The last lines, dropped or not, each cut short.
        var lastWords: [String] = []
    }

    /// What came since the last call; `ended` (the stream has ended) finishes an unfinished last
    /// line too.
    mutating func take(ended: Bool) -> Taken {
        if ended && currentLength > 0 { finishLine() }
        defer {
            lines.removeAll()
            dropped = 0
            lastWords.removeAll()
        }
        return Taken(lines: lines, dropped: dropped, lastWords: lastWords)
    }
}

extension String {
    /// Without the spaces and tabs at either end (a traceback's indentation).
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
