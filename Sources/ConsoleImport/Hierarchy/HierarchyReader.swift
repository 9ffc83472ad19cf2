import ResponderBus

/// One view entry of a UIKit `recursiveDescription` dump, as printed:
/// `<UITextField: 0x7f9…; frame = (20 410; 335 30); text = ''; tag = 3; layer = <CALayer: 0x…>>`.
struct HierarchyEntry {
    /// The class name as printed (`UITextField`, `MyApp.PaddedField`).
    var className: String
    /// `baseClass = …` when printed (UIKit prints it for subclasses of its own classes).
    var baseClass: String?
    /// The address as printed (`0x7f9…`).
    var address: String
    /// The nesting depth within its dump (the root is 0).
    var depth: Int
    /// The 1-based line and column of the entry's `<`.
    var line: Int
    var column: Int
    /// `frame = (x y; w h)` in the parent's coordinates (or `Frame: (x, y, w, h)` after the entry,
    /// or EarlGrey's `frame={{x, y}, {w, h}}`).
    var frame: Rect?
    /// The frame in the window's coordinates, when the entry prints it: EarlGrey's
    /// `AX.frame={{x, y}, {w, h}}`, Texture's `frameInWindow = (x y; w h)`.
    var windowFrame: Rect?
    /// `tag = N` (or `tag:N` after the entry).
    var tag: Int?
    /// `hidden = YES` (or a bare `hidden`, as EarlGrey prints it).
    var isHidden = false
    /// `alpha = …`.
    var alpha: Double?
    /// `userInteractionEnabled = NO` or `enabled = NO`.
    var isDisabled = false
    /// A scroll view's `contentOffset: {x, y}`.
    var contentOffset: Point?
    /// A scroll view's `contentSize: {w, h}`.
    var contentSize: Size?
    /// `accessibilityIdentifier = '…'` (or `identifier`) when printed.
    var accessibilityIdentifier: String?
    /// `secureTextEntry = YES` (or `isSecureTextEntry`, with `:` or `=`, `YES`/`NO`/`true`/`false`)
    /// when printed; `nil` when not. UIKit's own `-description` never prints it: an app's
    /// description, or a text-input traits description put in the line, does.
    var isSecureTextEntry: Bool?
    /// The kind EarlGrey's `AX.traits` says (`UIAccessibilityTraitStaticText` → label,
    /// `UIAccessibilityTraitButton` → button), when printed.
    var traitKind: ViewKind?
}

/// One dump: its entries in pre-order, each with its depth below the dump's root.
struct HierarchyDump {
    var entries: [HierarchyEntry] = []
    /// The 1-based line of the root entry.
    var line: Int { entries.first?.line ?? 0 }
}

/// Finds the `recursiveDescription` dumps in a console's text, in whatever the text wraps them:
/// `|` depth markers (also collapsed to `| |`, or several entries on one line, as web pages print
/// them), indentation alone (iPhone OS 3), NSLog timestamps, lldb `(id) $2 = 0x… ` and view
/// controller `'Controller:0x…'` prefixes, Cycript backticks, `XX (<…>)` markers on invisible
/// views, comment markers, Markdown fences, text values over several lines, ` - (null)` and
/// ` collection view layout: …` after an entry, and `(layer)` lines (sublayers, not views).
///
/// An entry that is a value of something else (a notification's `object = <UITextField: 0x…>`,
/// `Optional(<…>)`, a description nested inside another entry) is not a view. An entry whose
/// closing `>` never comes (the dump was cut off) is left out and reported. An entry whose frame
/// cannot be read is left out with every entry printed inside it (their frames are in its
/// coordinates; kept, they would nest in its siblings), and reported with how many left with it.
///
/// Linear in the input: every byte is looked at a bounded number of times.
struct HierarchyReader {
    /// Entries longer than this many lines are taken as cut off (a text value may span lines, but
    /// not pages).
    static let maxEntryLines = 64

    let bytes: [UInt8]
    private(set) var dumps: [HierarchyDump] = []
    private(set) var problems: [ImportProblem] = []
    /// The bytes of every view entry and sublayer line, with the depth markers before it: the
    /// notification scanner is not to read them as userInfo text.
    private(set) var entryRanges: [Range<Int>] = []

    /// When set, each dump's entries go to it as they are read and ``scenes`` holds what it built
    /// (``dumps`` stays empty): a dump's entries are never all held at once.
    var sceneBuilder: SceneBuilder?
    /// The scenes ``sceneBuilder`` built, with the line of each dump's root.
    private(set) var scenes: [PlacedScene] = []
    /// Where the keyboard was in the dumps that show it (a keyboard window's host view, or
    /// EarlGrey's keyboard views with their `AX.frame`), with the line of each dump's root.
    private(set) var keyboards: [(line: Int, frame: Rect)] = []

    // The dump being read (its entries kept apart, so that appending never copies them), or its
    // scene being built.
    private var currentEntries: [HierarchyEntry] = []
    private var building = SceneBuilder.SceneInProgress()
    private var hasCurrent = false
    private var previousDepth = 0
    private var rootLine = 0
    /// How the current dump shows depth: by `|` markers, or by indentation alone.
    private var indentStack: [Int] = []
    private var usesPipes = false
    private var rootRawDepth = 0
    /// The view entry left out last because its frame cannot be read: how deep it was printed (by
    /// `|` markers, or by indentation), the problem that names it and how many views inside it
    /// were left out with it.
    private var skipped: (usesPipes: Bool, pipes: Int, indent: Int, problem: Int, inside: Int)?

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// What reading a text found: the scene of each dump, the problems, and the bytes of the
    /// entries.
    struct Found {
        var scenes: [PlacedScene]
        var problems: [ImportProblem]
        var entryRanges: [Range<Int>]
        /// Where the dumps show the keyboard, with the line of each dump's root.
        var keyboards: [(line: Int, frame: Rect)] = []
    }

    /// Reads every dump in `bytes` into `builder`'s scenes, UIKit's and EarlGrey's
    /// (`recursiveDescription` and its kin) and XCUITest's element trees
    /// (``ElementTreeReader``), in the order printed, keeping no reference to the bytes once it
    /// returns.
    static func readAll(_ bytes: [UInt8], building builder: inout SceneBuilder) -> Found {
        var found = read(bytes, building: &builder)
        let trees = ElementTreeReader.read(bytes, building: &builder)
        guard !trees.scenes.isEmpty || !trees.keyboards.isEmpty else { return found }
        found.scenes = (found.scenes + trees.scenes).enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
            .map(\.element)
        found.keyboards = (found.keyboards + trees.keyboards).enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
            .map(\.element)
        found.problems += trees.problems
        found.entryRanges += trees.entryRanges
        return found
    }

    /// Reads every UIKit dump in `bytes` into `builder`'s scenes, keeping no reference to the
    /// bytes once it returns.
    static func read(_ bytes: [UInt8], building builder: inout SceneBuilder) -> Found {
        var reader = HierarchyReader(bytes: bytes)
        reader.sceneBuilder = builder
        reader.run()
        builder = reader.sceneBuilder ?? builder
        return Found(scenes: reader.scenes, problems: reader.problems, entryRanges: reader.entryRanges, keyboards: reader.keyboards)
    }

    /// Reads every dump in the text.
    mutating func run() {
        var lineStart = 0
        var line = 1
        // Set when an entry ran past its line: scanning resumes after it.
        var resume: (position: Int, line: Int, lineStart: Int)?
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            var position = lineStart
            if let r = resume, r.line == line {
                position = r.position
            }
            resume = nil
            if !isAnnotation(lineStart, lineEnd) {
                if let next = scanLine(from: position, lineStart: lineStart, lineEnd: lineEnd, line: line) {
                    // An entry ran onto later lines: continue after its end.
                    resume = next
                    line = next.line
                    lineStart = next.lineStart
                    continue
                }
            }
            line += 1
            lineStart = lineEnd + 1
        }
        finishSkipped()
        closeDump()
    }

    /// Whether an entry printed this deep is inside the view left out last (and so left out with
    /// it, and counted); an entry that is not ends that view's subtree.
    private mutating func isInsideSkipped(pipes: Int, indent: Int) -> Bool {
        guard let outer = skipped else { return false }
        let inside = outer.usesPipes || pipes > 0 ? pipes > outer.pipes : indent > outer.indent
        guard inside else {
            finishSkipped()
            return false
        }
        skipped?.inside += 1
        return true
    }

    /// Says how many views left with the view left out last.
    private mutating func finishSkipped() {
        guard let outer = skipped else { return }
        skipped = nil
        guard outer.inside > 0 else { return }
        problems[outer.problem].message += " with the \(outer.inside) view\(outer.inside == 1 ? "" : "s") inside it"
    }

    /// Lines that start with `#` are annotations of the dump's collector, never dump text.
    private func isAnnotation(_ start: Int, _ end: Int) -> Bool {
        start < end && bytes[start] == UInt8(ascii: "#")
    }

    /// Reads the entries that begin on one line. Returns where to go on when the last one ended on
    /// a later line.
    private mutating func scanLine(from start: Int, lineStart: Int, lineEnd: Int, line: Int) -> (position: Int, line: Int, lineStart: Int)? {
        var cursor = start
        var i = start
        while i < lineEnd {
            guard bytes[i] == UInt8(ascii: "<"), let (className, addressStart, hasAddress) = entryHead(at: i, limit: lineEnd) else {
                // The text ends inside an entry's head, before its address: the dump's last view, cut.
                if bytes[i] == UInt8(ascii: "<"), hasCurrent, reportCutHead(at: i, line: line, lineStart: lineStart) { return nil }
                i += 1
                continue
            }
            let prefix = bytes[cursor..<i]
            let isValue = Self.isValuePrefix(prefix)
            guard let end = matchingClose(from: i, line: line, lineStart: lineStart, lineEnd: lineEnd) else {
                // Cut off: what came before is kept; the dump goes on with the next entry.
                problems.append(
                    ImportProblem(
                        kind: .truncated, line: line, column: i - lineStart + 1,
                        message: "the view entry <\(className): …> is cut off before its closing '>'; it is left out of the scene"))
                i = addressStart
                cursor = i
                continue
            }
            if isValue {
                i = end.position + 1
                cursor = i
                if end.line != line { return (i, end.line, end.lineStart) }
                continue
            }
            let after = end.position + 1
            let endOfEntryLine = end.line == line ? lineEnd : lineEndOf(end.position)
            let trailer = bytes[after..<endOfEntryLine]
            if Self.isSublayer(trailer) {
                entryRanges.appendMerging(markerStart(in: prefix)..<endOfEntryLine, gapIn: bytes)
                i = after
                cursor = i
                if end.line != line { return (i, end.line, end.lineStart) }
                continue
            }
            var entry = HierarchyEntry(
                className: className,
                // EarlGrey's `<UITableViewCell; AX=N; …>` prints no address: the entry's place names it.
                address: hasAddress
                    ? String(decoding: bytes[addressStart..<addressEnd(addressStart)], as: UTF8.self) : "\(line):\(i - lineStart + 1)",
                depth: 0, line: line, column: i - lineStart + 1)
            readFields(of: &entry, body: bytes[(addressStart)..<end.position])
            if entry.frame == nil { readSwizzledFrame(of: &entry, trailer: trailer) }
            // Every view prints its frame; `<AppDelegate: 0x…>`, a view controller or another
            // object printed on its own is not a view.
            // A hand-made print marks a child with dashes alone (`    -----<UIView: 0x…>`): one level.
            let pipes = prefix.count { $0 == UInt8(ascii: "|") } + (Self.endsWithDashes(prefix) && !prefix.contains(UInt8(ascii: "|")) ? 1 : 0)
            let indent = indentation(lineStart, i, prefix: prefix)
            guard entry.frame != nil else {
                // A view, unreadable: the views inside it leave with it (their frames are in its
                // coordinates, and they must not become its siblings' children). Inside a view left
                // out already, it is one of those.
                // UIKit prints `frame = (…)`, EarlGrey `frame={{…}}`: either, unreadable, is said.
                let body = bytes[addressStart..<end.position]
                let printsFrame = Self.find(Self.spacedFrameKey, in: body) != nil || Self.printsBareFrame(body)
                if printsFrame, !isInsideSkipped(pipes: pipes, indent: indent) {
                    problems.append(
                        ImportProblem(
                            kind: .unreadableValue, line: line, column: i - lineStart + 1,
                            message: "the view entry <\(className): …> has a frame that cannot be read; it is left out of the scene"))
                    skipped = (
                        usesPipes: (hasCurrent && usesPipes) || pipes > 0, pipes: pipes, indent: indent, problem: problems.count - 1, inside: 0
                    )
                }
                i = after
                cursor = i
                if end.line != line { return (i, end.line, end.lineStart) }
                continue
            }
            entryRanges.appendMerging(markerStart(in: prefix)..<after, gapIn: bytes)
            if !isInsideSkipped(pipes: pipes, indent: indent) { place(entry, pipes: pipes, indent: indent) }
            i = after
            cursor = i
            if end.line != line { return (i, end.line, end.lineStart) }
        }
        return nil
    }

    private static let spacedFrameKey = Array("frame = ".utf8)
    private static let frameKey = Array("frame=".utf8)

    /// Whether `body` has EarlGrey's `frame=` key (a view's own frame; not `AX.frame=`, which an
    /// accessibility element prints without being a view).
    private static func printsBareFrame(_ body: ArraySlice<UInt8>) -> Bool {
        var rest = body
        while let at = find(frameKey, in: rest) {
            if at == body.startIndex || body[at - 1] != UInt8(ascii: ".") { return true }
            rest = body[(at + frameKey.count)...]
        }
        return false
    }

    // MARK: Entries

    /// Where the depth markers before an entry begin: after the last byte of the prefix that is
    /// not a `|`, a space or a tab (an NSLog prefix, say, stays for the notification scanner).
    private func markerStart(in prefix: ArraySlice<UInt8>) -> Int {
        var j = prefix.endIndex
        let dashes = Self.endsWithDashes(prefix)
        while j > prefix.startIndex,
            [UInt8(ascii: "|"), UInt8(ascii: " "), UInt8(ascii: "\t")].contains(prefix[j - 1]) || dashes && prefix[j - 1] == UInt8(ascii: "-")
        {
            j -= 1
        }
        return j
    }

    /// Whether the text before an entry ends in two dashes or more (`|--`, `-----`), after
    /// blanks before them.
    static func endsWithDashes(_ prefix: ArraySlice<UInt8>) -> Bool {
        var j = prefix.endIndex
        var dashes = 0
        while j > prefix.startIndex, prefix[j - 1] == UInt8(ascii: "-") {
            dashes += 1
            j -= 1
        }
        return dashes >= 2
            && (j == prefix.startIndex || [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "|"), UInt8(ascii: "/")].contains(prefix[j - 1]))
    }

    /// `<Name: 0x` (or `<Name:0x`) at `i`: the class name and where the address starts; or
    /// EarlGrey's `<Name; AX=`, which prints no address (where the fields start, and `false`).
    /// Markdown's bold markers around the name (`<**UIWindow**: 0x…>`) are not part of it.
    private func entryHead(at i: Int, limit: Int) -> (String, Int, Bool)? {
        var j = i + 1
        if j + 1 < limit, bytes[j] == UInt8(ascii: "*"), bytes[j + 1] == UInt8(ascii: "*") { j += 2 }
        let nameStart = j
        while j < limit {
            if ConsoleValues.isClassNameByte(bytes[j]) {
                j += 1
            } else if bytes[j] == 0x1B, j + 1 < limit, bytes[j + 1] == UInt8(ascii: "[") {
                // A terminal's colour code inside the name (`My\e[31mField`): kept as printed,
                // rather than the entry lost.
                j += 2
                while j < limit, (0x20...0x3F).contains(bytes[j]) { j += 1 }
                if j < limit, (0x40...0x7E).contains(bytes[j]) { j += 1 }
            } else if bytes[j] < 0x20 && bytes[j] != 0x09 && bytes[j] != 0x0A && bytes[j] != 0x0D || bytes[j] == 0x7F {
                // Another control character: kept too.
                j += 1
            } else {
                break
            }
        }
        let nameEnd = j
        if nameStart > i + 1, j + 1 < limit, bytes[j] == UInt8(ascii: "*"), bytes[j + 1] == UInt8(ascii: "*") { j += 2 }
        // A class name starts with a letter (any script's) or an underscore.
        guard j > nameStart, j + 2 < limit else { return nil }
        let first = bytes[nameStart]
        guard ConsoleValues.isLetter(first) || first == UInt8(ascii: "_") || first >= 0x80 else { return nil }
        if bytes[j] == UInt8(ascii: ";"), j + 4 < limit, bytes[j + 1] == UInt8(ascii: " "), bytes[j + 2] == UInt8(ascii: "A"),
            bytes[j + 3] == UInt8(ascii: "X"), bytes[j + 4] == UInt8(ascii: "=")
        {
            return (String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self), j, false)
        }
        // `<UIView: 0x…` as UIKit prints it, `<UIView:0x…` as EarlGrey does.
        guard bytes[j] == UInt8(ascii: ":") else { return nil }
        let address = bytes[j + 1] == UInt8(ascii: " ") ? j + 2 : j + 1
        guard address + 1 < limit, bytes[address] == UInt8(ascii: "0"), bytes[address + 1] == UInt8(ascii: "x") else { return nil }
        return (String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self), address, true)
    }

    /// Says that the text ends inside the head of an entry at `i` (the dump's last view, cut
    /// before its address); `false` when it does not.
    private mutating func reportCutHead(at i: Int, line: Int, lineStart: Int) -> Bool {
        guard let name = cutHead(at: i) else { return false }
        problems.append(
            ImportProblem(
                kind: .truncated, line: line, column: i - lineStart + 1,
                message: "the view entry <\(name)… is cut off where the text ends, before its address; it is left out of the scene"))
        return true
    }

    /// The class name of an entry's head the text ends in (`<UITextFie`, `<UITextField: 0`, then
    /// only blank lines), or `nil` when what follows `<` to the end is not one.
    private func cutHead(at i: Int) -> String? {
        var j = i + 1
        while j < bytes.count, ConsoleValues.isClassNameByte(bytes[j]) { j += 1 }
        guard j > i + 1, ConsoleValues.isLetter(bytes[i + 1]) || bytes[i + 1] == UInt8(ascii: "_") else { return nil }
        let name = String(decoding: bytes[(i + 1)..<j], as: UTF8.self)
        // After the name, only what a head holds before its address: `:`, a space, `0`, `x`.
        let rest = bytes[j...]
        let headBytes: [UInt8] = [UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "0"), UInt8(ascii: "x"), 0x0D, 0x0A, 0x09]
        guard rest.allSatisfy({ headBytes.contains($0) }) else { return nil }
        return name
    }

    private func addressEnd(_ start: Int) -> Int {
        var k = start + 2
        while k < bytes.count, ConsoleValues.isWordByte(bytes[k]) { k += 1 }
        return k
    }

    /// The words before a `:` that introduce a dump rather than a value.
    private static let dumpLabels = ["Hierarchy", "test failure"].map { Array($0.utf8) }

    /// Whether the text before an entry makes it a value: `object = <…>`, `Optional(<…>)`.
    private static func isValuePrefix(_ prefix: ArraySlice<UInt8>) -> Bool {
        var j = prefix.endIndex
        while j > prefix.startIndex, prefix[j - 1] == UInt8(ascii: " ") { j -= 1 }
        guard j > prefix.startIndex else { return false }
        let last = prefix[j - 1]
        // Detox and EarlGrey introduce a dump with a label: `UI Hierarchy on test failure: <UIWindow…`,
        // `Hierarchy: <UIWindow…`.
        if last == UInt8(ascii: ":"),
            dumpLabels.contains(where: { label in
                j - 1 - label.count >= prefix.startIndex && prefix[(j - 1 - label.count)..<(j - 1)].elementsEqual(label)
            })
        {
            return false
        }
        // A sentence before the `:` (`View is not tappable: <UITextField: 0x…>`, `Test Failed: <…>`)
        // introduces the view a failure is about; a single word (`object: <…>`) names a value.
        if last == UInt8(ascii: ":") { return !endsWithSentence(prefix[..<(j - 1)]) }
        if last == UInt8(ascii: "=") || last == UInt8(ascii: ",") { return true }
        if last == UInt8(ascii: "(") {
            // `Optional(<…>)` is a value; `XX (<…>)` marks an invisible view.
            let word = Array("Optional".utf8)
            let start = j - 1 - word.count
            return start >= prefix.startIndex && Array(prefix[start..<(j - 1)]) == word
        }
        return false
    }

    /// Whether `text` ends in two words or more separated by spaces, the last a word of letters
    /// (`View is not tappable`, `Test Failed`), rather than in one word after a prefix
    /// (`… App[12:34] object`, `textField`).
    private static func endsWithSentence(_ text: ArraySlice<UInt8>) -> Bool {
        var j = text.endIndex
        while j > text.startIndex, text[j - 1] == UInt8(ascii: " ") { j -= 1 }
        let wordEnd = j
        while j > text.startIndex, ConsoleValues.isLetter(text[j - 1]) { j -= 1 }
        // A notification's `object:` is a value, whatever comes before it.
        guard j < wordEnd, j > text.startIndex, text[j - 1] == UInt8(ascii: " "), !text[j..<wordEnd].elementsEqual("object".utf8) else {
            return false
        }
        var k = j - 1
        while k > text.startIndex, text[k - 1] == UInt8(ascii: " ") { k -= 1 }
        return k > text.startIndex && ConsoleValues.isLetter(text[k - 1])
    }

    /// The `>` that closes the entry opened at `start`, across lines if a text value spans them.
    /// `nil` when the entry is cut off: the text ends, a fence or a new entry's line comes first,
    /// or it runs past ``maxEntryLines``.
    private func matchingClose(from start: Int, line: Int, lineStart: Int, lineEnd: Int) -> (position: Int, line: Int, lineStart: Int)? {
        var depth = 0
        var i = start
        var currentLine = line
        var currentLineStart = lineStart
        var quote = false
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x0A {
                currentLine += 1
                currentLineStart = i + 1
                if currentLine - line >= Self.maxEntryLines { return nil }
                // A line that ends in `key =` was wrapped before its value, which may itself be a
                // description (`gestureRecognizers =\n<NSArray: 0x…>`): that is no new entry.
                if !endsWithEquals(before: i, from: start), startsNewEntryOrFence(at: i + 1) { return nil }
            } else if quote {
                // A quoted text value ends at a quote followed by `;`, `>` or the line's end.
                if c == UInt8(ascii: "'") {
                    let next = i + 1 < bytes.count ? bytes[i + 1] : 0x0A
                    if next == UInt8(ascii: ";") || next == UInt8(ascii: ">") || next == 0x0A { quote = false }
                }
            } else if c == UInt8(ascii: "'"), i >= 1,
                bytes[i - 1] == UInt8(ascii: "=") || (i >= 2 && bytes[i - 1] == UInt8(ascii: " ") && bytes[i - 2] == UInt8(ascii: "="))
            {
                // A quoted text value: UIKit's `text = '…'`, EarlGrey's `AX.label='…'`.
                quote = true
            } else if c == UInt8(ascii: "<") {
                depth += 1
            } else if c == UInt8(ascii: ">") {
                depth -= 1
                if depth == 0 { return (i, currentLine, currentLineStart) }
            }
            i += 1
        }
        return nil
    }

    /// Whether the last byte before `newline` that is not blank (after `start`) is an `=`.
    private func endsWithEquals(before newline: Int, from start: Int) -> Bool {
        var j = newline - 1
        while j > start, bytes[j] == UInt8(ascii: " ") || bytes[j] == 0x0D || bytes[j] == 0x09 { j -= 1 }
        return j > start && bytes[j] == UInt8(ascii: "=")
    }

    /// Whether the line at `start` begins, after markers, with a new entry or a Markdown fence.
    private func startsNewEntryOrFence(at start: Int) -> Bool {
        var i = start
        while i < bytes.count, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "|"), UInt8(ascii: "/"), UInt8(ascii: "*")].contains(bytes[i]) {
            i += 1
        }
        guard i < bytes.count else { return true }
        if bytes[i] == UInt8(ascii: "`"), i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "`"), bytes[i + 2] == UInt8(ascii: "`") { return true }
        var end = i
        while end < bytes.count, bytes[end] != 0x0A, end - i < 256 { end += 1 }
        return bytes[i] == UInt8(ascii: "<") && entryHead(at: i, limit: end) != nil
    }

    private func lineEndOf(_ position: Int) -> Int {
        var end = position
        while end < bytes.count, bytes[end] != 0x0A { end += 1 }
        return end
    }

    /// ` (layer)` after an entry: a sublayer, not a view.
    private static func isSublayer(_ trailer: ArraySlice<UInt8>) -> Bool {
        let text = Array("(layer)".utf8)
        var j = trailer.startIndex
        while j < trailer.endIndex, trailer[j] == UInt8(ascii: " ") { j += 1 }
        return trailer.endIndex - j >= text.count && Array(trailer[j..<(j + text.count)]) == text
    }

    /// The indentation before the entry, in columns, not counting comment markers and prefixes.
    private func indentation(_ lineStart: Int, _ entryStart: Int, prefix: ArraySlice<UInt8>) -> Int {
        var width = 0
        var i = lineStart
        while i < entryStart, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") {
            width += bytes[i] == UInt8(ascii: "\t") ? 4 : 1
            i += 1
        }
        return width
    }

    // MARK: Dumps

    /// Puts an entry in its dump: a new dump starts at an entry no deeper than the current root.
    private mutating func place(_ entry: HierarchyEntry, pipes: Int, indent: Int) {
        guard hasCurrent else { return startDump(with: entry, pipes: pipes, indent: indent) }
        var entry = entry
        if usesPipes || pipes > 0 {
            // Depth by `|` markers; a jump of more than one level (lines left out) counts as one.
            guard pipes > rootRawDepth else {
                closeDump()
                return startDump(with: entry, pipes: pipes, indent: indent)
            }
            usesPipes = true
            entry.depth = min(pipes - rootRawDepth, previousDepth + 1)
        } else {
            // Indentation alone shows the depth.
            guard let rootIndent = indentStack.first, indent > rootIndent else {
                closeDump()
                return startDump(with: entry, pipes: pipes, indent: indent)
            }
            while let last = indentStack.last, last > indent { indentStack.removeLast() }
            if let last = indentStack.last, last < indent { indentStack.append(indent) }
            entry.depth = min(indentStack.count - 1, previousDepth + 1)
        }
        keep(entry)
    }

    /// Adds a placed entry to its dump, or to its scene.
    private mutating func keep(_ entry: HierarchyEntry) {
        previousDepth = entry.depth
        if sceneBuilder != nil {
            sceneBuilder?.add(entry, to: &building)
        } else {
            currentEntries.append(entry)
        }
    }

    private mutating func startDump(with entry: HierarchyEntry, pipes: Int, indent: Int) {
        var root = entry
        root.depth = 0
        currentEntries = []
        building = SceneBuilder.SceneInProgress()
        hasCurrent = true
        rootLine = entry.line
        keep(root)
        rootRawDepth = pipes
        usesPipes = pipes > 0
        indentStack = [indent]
    }

    private mutating func closeDump() {
        if hasCurrent, sceneBuilder != nil {
            if let frame = building.keyboardFrame { keyboards.append((rootLine, frame)) }
            if let scene = sceneBuilder?.finish(&building) { scenes.append(PlacedScene(line: rootLine, scene: scene)) }
            building = SceneBuilder.SceneInProgress()
        } else if hasCurrent {
            dumps.append(HierarchyDump(entries: currentEntries))
        }
        currentEntries = []
        hasCurrent = false
    }
}

extension [Range<Int>] {
    /// Appends the range of an entry to be blanked, merged with the last one when only spaces and
    /// line breaks lie between them, escaped ones (`\n`) too (blanking keeps a line break, a space
    /// stays a space, and an escaped break between two blanked entries breaks no text the scanner
    /// reads): a dump of a million entries is one range, not a million.
    mutating func appendMerging(_ range: Range<Int>, gapIn bytes: [UInt8]) {
        if let last = self.last, last.upperBound <= range.lowerBound, range.lowerBound - last.upperBound <= 256,
            Self.isBreaksAndSpaces(bytes[last.upperBound..<range.lowerBound])
        {
            self[count - 1] = last.lowerBound..<Swift.max(last.upperBound, range.upperBound)
        } else {
            append(range)
        }
    }

    private static func isBreaksAndSpaces(_ gap: ArraySlice<UInt8>) -> Bool {
        var i = gap.startIndex
        while i < gap.endIndex {
            if gap[i] == 0x0A || gap[i] == UInt8(ascii: " ") {
                i += 1
            } else if gap[i] == UInt8(ascii: "\\"), i + 1 < gap.endIndex, gap[i + 1] == UInt8(ascii: "n") {
                i += 2
            } else {
                return false
            }
        }
        return true
    }
}
