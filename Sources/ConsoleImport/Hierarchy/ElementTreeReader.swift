import ResponderBus

/// Finds the element trees XCUITest prints (an element's `debugDescription`, a failed query's
/// message, Appium's errors) and reads each into a scene, as ``HierarchyReader`` does for UIKit's
/// dumps.
///
/// An element line is a type, an optional address (`, 0x6000036d64c0` since Xcode 9,
/// ` 0x608000168b80: traits: 8589934592` before it), the frame in screen coordinates and
/// attributes:
///
/// ```text
/// Attributes: Application, pid: 40442, label: 'UIKitCatalog'
/// Element subtree:
///  →Application, 0x6000036dd500, pid: 40442, label: 'UIKitCatalog'
///     Window (Main), 0x6000036e5f80, {{0.0, 0.0}, {414.0, 896.0}}
///       Other, 0x6000036d64c0, {{0.0, 0.0}, {414.0, 896.0}}
///         TextField, 0x6000036d7d40, {{20.0, 120.0}, {374.0, 34.0}}, identifier: 'email', placeholderValue: 'Email'
///     Window, 0x6000036e6060, {{0.0, 0.0}, {414.0, 896.0}}
///       Keyboard, 0x6000036d6680, {{0.0, 595.0}, {414.0, 301.0}}
/// ```
///
/// - Nesting is by indentation. The scene is the app's window: the one marked `(Main)`, else the
///   first window that holds an element besides the keyboard's. A tree that holds no window (a
///   piece of one) is read as UIKit's dumps are: each element at its first element's depth or
///   shallower starts a dump of its own.
/// - A `Keyboard` element is where the keyboard is (the first one with an area that starts above
///   the window's bottom); it and its keys are not the app's views.
/// - Types map to the model's kinds: `TextField`, `SearchField` and `SecureTextField` (secure) →
///   `textField`, `TextView` → `textView`, `ScrollView`, `Table` and `CollectionView` →
///   `scrollView`, `Button`, `Switch`, `SegmentedControl` and `Stepper` → `button`, `StaticText`
///   → `label`, the rest → `view`.
/// - Ids: the `identifier` when printed, else `Type@0xADDR`, or `Type@LINE:COLUMN` for an
///   element printed without an address.
/// - `Disabled`, an attribute of its own (not a word inside a label), marks a view disabled.
/// - A list of elements all at one indentation (as Appium prints a set of them, one per line) is
///   read as the first window (or, with none, the first element) with the other elements in it.
/// - `Path to element:` and `Query chain:` sections (to the next blank line or header), and a
///   query's `Output: { … }`, repeat elements shown elsewhere: they are skipped; but a path is
///   read (from the `(Main)` window down towards the element) when no other tree gives the app's
///   window (a failure that prints the element, its path and nothing else).
/// - An element after words on its line (`Attributes: TextField, 0x…, {{…}}`, `Event dispatch
///   snapshot: TextField, {{…}}`) is read as an element of its own; a frame printed with spaces
///   inside its braces (`{ {151.0, 284.0}, {254.0, 40.0} }`) is read.
/// - A text stored with its line breaks escaped (`\n` in a JSON or Swift string) is read as lines;
///   quotes escaped as `\'` or `\u0027` are quotes.
/// - A frame too large to be placed in its parent's coordinates leaves its element out, with the
///   elements inside it, and is said.
///
/// Linear in the input.
struct ElementTreeReader {
    /// One element line.
    struct Element {
        var type: String
        var isMain = false
        var address: String?
        var frame: Rect?
        var identifier: String?
        /// Where its `label` value is in the text (read only to tell the keyboard's buttons).
        var label: Range<Int>?
        var isDisabled = false
        /// A frame was printed but cannot be read: the element is left out, with the ones inside it.
        var unreadableFrame = false
        var indent: Int
        var line: Int
        var column: Int
        /// Its bytes, blanked for the notification scanner when its block gives a scene or a keyboard.
        var range: Range<Int>
    }

    /// What reading a text found.
    typealias Found = HierarchyReader.Found

    /// Reads every element tree in `bytes` into `builder`'s scenes.
    ///
    /// Two passes over each block of element lines: the first keeps 8 bytes an element (its
    /// indentation and what kind of element it is), enough to find the app's window and the
    /// block's shape; the second reads the elements again, one at a time, into the scene. A tree
    /// of half a million elements is never held as elements.
    static func read(_ bytes: [UInt8], building builder: inout SceneBuilder) -> Found {
        var scan = BlockScan(bytes: bytes)
        // In a `Path to element:` or `Query chain:` section, or in a query's `Output: { … }`.
        var inSection = false
        var isPath = false
        var inOutput = false
        var pieces = Pieces(bytes, from: Piece(range: 0..<0, line: 1, lineStart: 0))
        while let piece = pieces.next() {
            guard let text = piece.trimmed(in: bytes) else {
                // A blank line ends a section (not a block: trees are printed with blank lines between windows).
                inSection = false
                scan.flushRepeat()
                continue
            }
            if inOutput {
                if bytes[text.lowerBound] == UInt8(ascii: "}") {
                    inOutput = false
                } else if let element = element(in: bytes, piece.content(in: bytes)), element.frame != nil, element.type != "Application",
                    element.type != "Window", !isKeyboards(element, bytes)
                {
                    scan.outputs.append((element, piece.content(in: bytes)))
                }
                continue
            }
            // Most lines of a console are rejected by their first byte that is not blank: every
            // header and every element type starts with a capital letter or an arrow.
            let first = bytes[text.lowerBound]
            guard (first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z")) || first == 0xE2 else {
                // A failure's line (`<unknown>:0: error: … Event dispatch snapshot: TextField, {{…}}`)
                // may end in an element: only a line with a frame's `{{` is looked into.
                // (Not an annotation, nor a UIKit dump's line, marked by its `|`.)
                let looked = first != UInt8(ascii: "#") && first != UInt8(ascii: "|") && hasFrameBraces(bytes, text)
                scan.readAlone(looked ? labelledElement(in: bytes, piece.content(in: bytes)) : nil, piece, &builder)
                // A path's elements are contiguous: a line that is none ends them.
                scan.flushRepeat()
                continue
            }
            if startsWith(bytes, text, Self.pathHeader) || startsWith(bytes, text, Self.queryHeader) {
                scan.flush(&builder)
                scan.flushRepeat()
                inSection = true
                isPath = startsWith(bytes, text, Self.pathHeader)
            } else if startsWith(bytes, text, Self.subtreeHeader) || startsWith(bytes, text, Self.attributesHeader) {
                scan.flushRepeat()
                inSection = false
                // `Attributes: TextField, 0x…, {{…}}`: the element described, printed on its own.
                scan.readAlone(labelledElement(in: bytes, piece.content(in: bytes)).flatMap { $0.type == "Application" ? nil : $0 }, piece, &builder)
            } else if startsWith(bytes, text, Self.outputHeader) {
                scan.flush(&builder)
                scan.flushRepeat()
                inOutput = true
            } else if inSection {
                scan.flush(&builder)
                if isPath, let element = element(in: bytes, piece.content(in: bytes)) {
                    scan.repeated.add(element, piece: piece)
                } else {
                    scan.flushRepeat()
                }
            } else if let element = element(in: bytes, piece.content(in: bytes)) {
                if element.type == "Application", !scan.block.marks.isEmpty { scan.flush(&builder) }
                scan.block.add(element, piece: piece)
            } else {
                // An element after a failure's words on its line (`Event dispatch snapshot: TextField, {{…}}`).
                scan.readAlone(labelledElement(in: bytes, piece.content(in: bytes)), piece, &builder)
            }
        }
        return scan.finish(&builder)
    }

    /// The blocks of a text as ``read(_:building:)`` finds them, and what they gave.
    private struct BlockScan {
        let bytes: [UInt8]
        var found = Found(scenes: [], problems: [], entryRanges: [])
        var block = Block()
        /// The elements of `Path to element:` sections: read only when no other block gives the
        /// app's window (they repeat elements printed elsewhere, unless the path is all the text
        /// prints of the window).
        var repeats: [Block] = []
        var repeated = Block()
        /// The elements of queries' outputs (`Output: { … }`), but the keyboard's own: each read
        /// alone when nothing else in the text gives a scene or a keyboard (`po app.buttons`).
        var outputs: [(element: Element, piece: Piece)] = []

        /// Reads the block of element lines so far.
        mutating func flush(_ builder: inout SceneBuilder) {
            if !block.marks.isEmpty, ElementTreeReader.read(block, in: bytes, into: &found, builder: &builder) {
                ElementTreeReader.blank(block, in: bytes, into: &found)
            }
            block = Block()
        }

        /// Keeps the path's block so far.
        mutating func flushRepeat() {
            if !repeated.marks.isEmpty { repeats.append(repeated) }
            repeated = Block()
        }

        /// An element printed after words on its line: a block of its own.
        mutating func readAlone(_ element: Element?, _ piece: Piece, _ builder: inout SceneBuilder) {
            flush(&builder)
            guard let element else { return }
            block.add(element, piece: piece)
            flush(&builder)
        }

        /// What the text gave, the paths read when nothing else gave the app's window.
        mutating func finish(_ builder: inout SceneBuilder) -> Found {
            flush(&builder)
            flushRepeat()
            if !repeats.isEmpty, !found.scenes.contains(where: \.scene.isWindow) {
                for path in repeats where ElementTreeReader.read(path, in: bytes, into: &found, builder: &builder) {
                    ElementTreeReader.blank(path, in: bytes, into: &found)
                }
            }
            if found.scenes.isEmpty, found.keyboards.isEmpty {
                for output in outputs { readAlone(output.element, output.piece, &builder) }
                flush(&builder)
            }
            return found
        }
    }

    /// Whether an element is the keyboard's own: a key, the keyboard, or a button its label or
    /// identifier names (`shift`, `Return`, `Emoji`, `Next keyboard`).
    private static func isKeyboards(_ element: Element, _ bytes: [UInt8]) -> Bool {
        element.type == "Key" || element.type == "Keyboard" || element.identifier.map(keyboardNames.contains) == true
            || element.label.map { keyboardNames.contains(String(decoding: bytes[$0], as: UTF8.self)) } == true
    }

    /// Whether a line holds `{{`, looked for at every other byte (one of its two braces is at an
    /// odd distance from the line's start): the first test of every line of a console that does
    /// not start with an element type.
    private static func hasFrameBraces(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        var i = range.lowerBound + 1
        while i < range.upperBound {
            if bytes[i] == UInt8(ascii: "{"), bytes[i - 1] == UInt8(ascii: "{") || i + 1 < range.upperBound && bytes[i + 1] == UInt8(ascii: "{") {
                return true
            }
            i += 2
        }
        return false
    }

    /// The bytes of a block's elements, blanked for the notification scanner.
    fileprivate static func blank(_ block: Block, in bytes: [UInt8], into found: inout Found) {
        var elements = Pieces(bytes, from: block.start)
        while let piece = elements.nextElementPiece(before: block.end) { found.entryRanges.appendMerging(piece.range, gapIn: bytes) }
    }

    /// An element printed after other words on its line, after `: ` or a space (`Attributes:
    /// SecureTextField, {{…}}`, `Event dispatch snapshot: TextField, {{…}}`, `Failed to fetch hit
    /// point for Other 0x…: traits: …, {{…}}`), read as an element of its own; `nil` when there is
    /// none.
    static func labelledElement(in bytes: [UInt8], _ text: Piece) -> Element? {
        var i = text.range.lowerBound
        while i + 1 < text.range.upperBound {
            // A type starts a word after a space: `: TextField,`, `for Other 0x…`.
            if bytes[i] == UInt8(ascii: " "), bytes[i + 1] >= UInt8(ascii: "A"), bytes[i + 1] <= UInt8(ascii: "Z") {
                var piece = text
                piece.range = (i + 1)..<text.range.upperBound
                if var element = element(in: bytes, piece), element.frame != nil || element.unreadableFrame {
                    element.indent = 0
                    return element
                }
            }
            i += 1
        }
        return nil
    }

    // MARK: Pieces

    /// A piece of the text: a line, or a part of one between escaped breaks (`\n`).
    struct Piece {
        var range: Range<Int>
        /// The 1-based line it is on, and where that line starts.
        var line: Int
        var lineStart: Int

        /// The piece without its trailing blanks (and CR) and leading indentation; `nil` when
        /// blank.
        func trimmed(in bytes: [UInt8]) -> Range<Int>? {
            var upper = range.upperBound
            while upper > range.lowerBound, [0x0D, 0x09, UInt8(ascii: " ")].contains(bytes[upper - 1]) { upper -= 1 }
            var first = range.lowerBound
            while first < upper, bytes[first] == UInt8(ascii: " ") || bytes[first] == 0x09 { first += 1 }
            return first == upper ? nil : first..<upper
        }

        /// The piece without its trailing blanks: what an element line is read from.
        func content(in bytes: [UInt8]) -> Piece {
            var piece = self
            var upper = range.upperBound
            while upper > range.lowerBound, [0x0D, 0x09, UInt8(ascii: " ")].contains(bytes[upper - 1]) { upper -= 1 }
            piece.range = range.lowerBound..<upper
            return piece
        }
    }

    /// The pieces of a text in order, from a piece's start: one pass over the bytes, a piece
    /// ending at a line's end or at an escaped break (`\n`).
    struct Pieces {
        let bytes: [UInt8]
        private var index: Int
        private var line: Int
        private var lineStart: Int
        private var done = false

        init(_ bytes: [UInt8], from start: Piece) {
            self.bytes = bytes
            (index, line, lineStart) = (start.range.lowerBound, start.line, start.lineStart)
        }

        mutating func next() -> Piece? {
            guard !done else { return nil }
            let start = index
            var previous: UInt8 = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x0A {
                    let piece = Piece(range: start..<index, line: line, lineStart: lineStart)
                    line += 1
                    index += 1
                    lineStart = index
                    return piece
                } else if byte == UInt8(ascii: "n"), previous == UInt8(ascii: "\\") {
                    let piece = Piece(range: start..<(index - 1), line: line, lineStart: lineStart)
                    index += 1
                    return piece
                }
                previous = byte
                index += 1
            }
            done = true
            return Piece(range: start..<bytes.count, line: line, lineStart: lineStart)
        }

        /// The next piece that is not blank (in a block, an element's), starting before `end`.
        mutating func nextElementPiece(before end: Int) -> Piece? {
            while let piece = next(), piece.range.lowerBound < end {
                if piece.trimmed(in: bytes) != nil { return piece.content(in: bytes) }
            }
            return nil
        }
    }

    // MARK: Blocks

    /// What the first pass keeps of a block of element lines.
    struct Block {
        /// What the first pass keeps of an element.
        struct Mark {
            enum Kind: UInt8 { case application, window, keyboard, key, other, view }
            var indent: Int32
            var kind: Kind
            var isMain: Bool

            var isKeyboardPart: Bool { kind == .keyboard || kind == .key }
        }

        var marks: [Mark] = []
        /// The first element's piece, and where the last one ends.
        var start = Piece(range: 0..<0, line: 0, lineStart: 0)
        var end = 0
        /// The frames of the windows, and the keyboards that print a frame with an area, by index.
        var windowFrames: [Int: Rect] = [:]
        var keyboards: [(index: Int, line: Int, frame: Rect)] = []

        mutating func add(_ element: Element, piece: Piece) {
            if marks.isEmpty { start = piece }
            end = piece.range.upperBound
            let kind: Mark.Kind =
                switch element.type {
                case "Application": .application
                case "Window": .window
                case "Keyboard": .keyboard
                case "Key": .key
                case "Other": .other
                default: .view
                }
            if kind == .window, let frame = element.frame { windowFrames[marks.count] = frame }
            if kind == .keyboard, let frame = element.frame, frame.size.width > 0, frame.size.height > 0 {
                keyboards.append((marks.count, element.line, frame))
            }
            marks.append(Mark(indent: Int32(clamping: element.indent), kind: kind, isMain: element.isMain))
        }
    }

    /// The second pass: a block's elements read again, in order.
    struct BlockElements {
        private var pieces: Pieces
        private let end: Int
        private var next = 0

        var bytes: [UInt8] { pieces.bytes }

        init(_ bytes: [UInt8], _ block: Block) {
            pieces = Pieces(bytes, from: block.start)
            end = block.end
        }

        /// The element at `index`, at or after the last one asked for.
        mutating func element(_ index: Int) -> Element {
            while let piece = pieces.nextElementPiece(before: end) {
                next += 1
                guard next - 1 == index else { continue }
                // The first pass read the same piece as an element (on its own, or after words).
                guard let element = ElementTreeReader.element(in: pieces.bytes, piece) ?? ElementTreeReader.labelledElement(in: pieces.bytes, piece)
                else {
                    preconditionFailure("piece \(piece) is no element now")
                }
                return element
            }
            preconditionFailure("the block has no element \(index)")
        }
    }

    /// One block of element lines: a tree, or a flat list. Returns whether it gave a scene or a
    /// keyboard.
    private static func read(_ block: Block, in bytes: [UInt8], into found: inout Found, builder: inout SceneBuilder) -> Bool {
        // The application (no frame) holds the windows. A window line over another window, deeper,
        // is a header (`Window (Main), {{…}}` printed above its tree).
        var from = block.marks.first?.kind == .application ? 1 : 0
        while from + 1 < block.marks.count, block.marks[from].kind == .window, block.marks[from + 1].kind == .window,
            block.marks[from + 1].indent > block.marks[from].indent
        {
            from += 1
        }
        guard from < block.marks.count else { return false }
        let marks = block.marks[from...]
        var gave = false
        // A window printed alone without an address (`Window (Main), {{…}}` over a tree, as a
        // header) is no view.
        if marks.count == 1, marks[from].kind == .window {
            var reader = BlockElements(bytes, block)
            if reader.element(from).address == nil { return false }
        }
        // Where the keyboard is: above the bottom of the app's window.
        let window = marks.indices.first { marks[$0].kind == .window && marks[$0].isMain } ?? marks.indices.first { marks[$0].kind == .window }
        let windowFrame = window.flatMap { block.windowFrames[$0] }
        let bottom = windowFrame.map { $0.origin.y + $0.size.height }
        let flat = marks.count > 1 && marks.allSatisfy { $0.indent == marks[from].indent }
        var keyboard: KeyboardPlace?
        if let key = block.keyboards.first(where: { keyboard in keyboard.index >= from && (bottom.map { keyboard.frame.origin.y < $0 } ?? true) }) {
            let place = keyboardPlace(key, in: block, marks: marks, flat: flat, window: windowFrame, bytes: bytes)
            found.keyboards.append((key.line, place.frame))
            if let problem = place.problem { found.problems.append(problem) }
            keyboard = place
            gave = true
        }
        var elements = BlockElements(bytes, block)
        let gaveScene =
            flat
            ? readList(marks, block: block, keyboard: keyboard, elements: &elements, into: &found, builder: &builder)
            : readTree(marks, keyboard: keyboard, elements: &elements, into: &found, builder: &builder)
        return gave || gaveScene
    }

    /// A list of elements all at one indentation: the first window (or the first element) holds the
    /// others. Returns whether it gave a scene.
    private static func readList(
        _ marks: ArraySlice<Block.Mark>, block: Block, keyboard: KeyboardPlace?, elements: inout BlockElements, into found: inout Found,
        builder: inout SceneBuilder
    ) -> Bool {
        let parts = keyboard?.parts ?? []
        let root = marks.indices.first { marks[$0].kind == .window } ?? marks.startIndex
        // The root first: read on its own, then the list again from its start.
        var rootReader = BlockElements(elements.bytes, block)
        let rootElement = rootReader.element(root)
        var building = SceneBuilder.SceneInProgress(expectedViews: marks.count)
        guard let rootEntry = entry(rootElement, depth: 0, parentOrigin: .zero) else {
            found.problems.append(tooLarge(rootElement))
            return false
        }
        builder.add(rootEntry, to: &building)
        let origin = rootElement.frame?.origin ?? .zero
        for index in marks.indices where index != root && !marks[index].isKeyboardPart && marks[index].kind != .window && !parts.contains(index) {
            let element = elements.element(index)
            if let child = entry(element, depth: 1, parentOrigin: origin) {
                builder.add(child, to: &building)
            } else {
                found.problems.append(tooLarge(element))
            }
        }
        if let scene = builder.finish(&building) {
            found.scenes.append(PlacedScene(line: rootElement.line, scene: scene))
            return true
        }
        return false
    }

    /// A tree by indentation: from the app's window, or from each root of a piece of a tree.
    /// Returns whether it gave a scene.
    private static func readTree(
        _ marks: ArraySlice<Block.Mark>, keyboard: KeyboardPlace?, elements: inout BlockElements, into found: inout Found,
        builder: inout SceneBuilder
    ) -> Bool {
        let parts = keyboard?.parts ?? []
        var gave = false
        var index = appWindow(in: marks) ?? marks.startIndex
        while index < marks.endIndex {
            let rootMark = marks[index]
            var next = index + 1
            func skipInside() { while next < marks.endIndex, marks[next].indent > rootMark.indent { next += 1 } }
            if rootMark.isKeyboardPart || parts.contains(index) {
                skipInside()
                index = next
                continue
            }
            let root = elements.element(index)
            // A piece of the keyboard's window: containers alone, inside the keyboard's frame.
            if rootMark.kind != .window, let keyboard, let frame = root.frame, keyboard.frame.contains(frame, within: 0.5),
                marks[index..<Swift.max(next, Self.end(of: index, in: marks))].allSatisfy({ $0.kind == .other || $0.isKeyboardPart })
            {
                skipInside()
                index = next
                continue
            }
            guard let rootEntry = entry(root, depth: 0, parentOrigin: .zero) else {
                found.problems.append(tooLarge(root))
                skipInside()
                index = next
                continue
            }
            var building = SceneBuilder.SceneInProgress()
            builder.add(rootEntry, to: &building)
            next = readInside(root, marks, from: next, parts: parts, elements: &elements, into: &found, builder: &builder, building: &building)
            if let scene = builder.finish(&building) {
                found.scenes.append(PlacedScene(line: root.line, scene: scene))
                gave = true
            }
            // The app's window is the scene; the windows after it are the keyboard's, or left out
            // (said when they hold elements).
            if rootMark.kind == .window {
                if let said = otherWindows(in: marks[next...], after: root) { found.problems.append(said) }
                break
            }
            index = next
        }
        return gave
    }

    /// What is said of the windows of a tree after the app's: how many elements they hold, left
    /// out; `nil` when they hold none, or hold the keyboard.
    private static func otherWindows(in marks: ArraySlice<Block.Mark>, after app: Element) -> ImportProblem? {
        var (windows, elements) = (0, 0)
        var keyboardWindow = false
        for mark in marks {
            if mark.kind == .window {
                windows += 1
            } else if mark.isKeyboardPart {
                keyboardWindow = true
            } else {
                elements += 1
            }
        }
        guard windows > 0, elements > 0, !keyboardWindow else { return nil }
        let message =
            "the tree's \(windows == 1 ? "window" : "\(windows) windows") after the app's (the \(app.isMain ? "(Main)" : "first") window, line \(app.line)) \(windows == 1 ? "holds" : "hold") \(elements) element\(elements == 1 ? "" : "s"), left out: the scene is the app's window"
        return ImportProblem(kind: .otherWindow, line: app.line, column: app.column, message: message)
    }

    /// Adds the elements inside `root` (those after it that are indented deeper) to its scene;
    /// returns the index after them.
    private static func readInside(
        _ root: Element, _ marks: ArraySlice<Block.Mark>, from start: Int, parts: Set<Int>, elements: inout BlockElements,
        into found: inout Found, builder: inout SceneBuilder, building: inout SceneBuilder.SceneInProgress
    ) -> Int {
        var next = start
        var indents = [root.indent]
        var origins = [root.frame?.origin ?? .zero]
        // Inside an element left out (the keyboard's, or one too large): deeper ones go with it.
        var leftOutBelow: Int?
        while next < marks.endIndex, Int(marks[next].indent) > root.indent {
            let mark = marks[next]
            let index = next
            next += 1
            let indent = Int(mark.indent)
            if let below = leftOutBelow {
                if indent > below { continue }
                leftOutBelow = nil
            }
            while let last = indents.last, last >= indent {
                indents.removeLast()
                origins.removeLast()
            }
            if mark.isKeyboardPart || parts.contains(index) {
                leftOutBelow = indent
                continue
            }
            let element = elements.element(index)
            let parentOrigin = origins.last ?? .zero
            guard let child = entry(element, depth: indents.count, parentOrigin: parentOrigin) else {
                found.problems.append(tooLarge(element))
                leftOutBelow = indent
                continue
            }
            builder.add(child, to: &building)
            indents.append(indent)
            origins.append(element.frame?.origin ?? parentOrigin)
        }
        return next
    }

    /// The index after the elements inside the one at `index` (indented deeper).
    private static func end(of index: Int, in marks: ArraySlice<Block.Mark>) -> Int {
        var next = index + 1
        while next < marks.endIndex, marks[next].indent > marks[index].indent { next += 1 }
        return next
    }

    /// The app's window: the one marked `(Main)`, else the first that holds an element besides the
    /// keyboard's; `nil` when the tree holds no window.
    private static func appWindow(in marks: ArraySlice<Block.Mark>) -> Int? {
        if let main = marks.indices.first(where: { marks[$0].kind == .window && marks[$0].isMain }) { return main }
        var firstWindow: Int?
        for index in marks.indices where marks[index].kind == .window {
            let window = marks[index]
            if firstWindow == nil { firstWindow = index }
            var next = index + 1
            var keyboardBelow: Int32?
            while next < marks.endIndex, marks[next].indent > window.indent {
                let inside = marks[next]
                next += 1
                if let below = keyboardBelow, inside.indent > below { continue }
                keyboardBelow = nil
                if inside.isKeyboardPart {
                    keyboardBelow = inside.indent
                } else if inside.kind != .other
                    || next < marks.endIndex && marks[next].indent > inside.indent && !marks[next].isKeyboardPart
                {
                    // A view of the app's, or a container holding more than the keyboard.
                    return index
                }
            }
        }
        return firstWindow
    }

    /// The problem of an element whose frame cannot be read, or cannot be placed in its parent's
    /// coordinates.
    private static func tooLarge(_ element: Element) -> ImportProblem {
        ImportProblem(
            kind: .unreadableValue, line: element.line, column: element.column,
            message: element.unreadableFrame
                ? "the \(element.type) element's frame cannot be read (a number that is not finite, or the line is cut); it is left out of the scene with the elements inside it"
                : "the \(element.type) element's frame cannot be placed in its parent's (the numbers are too large); it is left out of the scene with the elements inside it"
        )
    }

    /// The entry a scene builder takes: its frame in its parent's coordinates; `nil` when that
    /// frame is not finite.
    private static func entry(_ element: Element, depth: Int, parentOrigin: Point) -> HierarchyEntry? {
        var entry = HierarchyEntry(
            className: element.type, baseClass: uikitClass[element.type] ?? "UIView",
            address: element.address ?? "\(element.line):\(element.column)", depth: depth, line: element.line, column: element.column)
        if element.unreadableFrame { return nil }
        if let frame = element.frame {
            let relative = Rect(
                x: frame.origin.x - parentOrigin.x, y: frame.origin.y - parentOrigin.y, width: frame.size.width, height: frame.size.height)
            guard relative.origin.x.isFinite, relative.origin.y.isFinite else { return nil }
            entry.frame = relative
            entry.windowFrame = frame
        }
        entry.accessibilityIdentifier = element.identifier
        entry.isDisabled = element.isDisabled
        if element.type == "SecureTextField" { entry.isSecureTextEntry = true }
        return entry
    }

    /// The UIKit class whose kind an element type has.
    private static let uikitClass: [String: String] = [
        "Window": "UIWindow", "TextField": "UITextField", "SecureTextField": "UITextField", "SearchField": "UITextField",
        "TextView": "UITextView", "ScrollView": "UIScrollView", "Table": "UITableView", "CollectionView": "UICollectionView",
        "Button": "UIButton", "StaticText": "UILabel", "Switch": "UISwitch", "SegmentedControl": "UISegmentedControl",
        "Stepper": "UIStepper",
    ]

    /// XCUIElement's types, as `debugDescription` prints them.
    private static let types: Set<String> = [
        "Any", "Other", "Application", "Group", "Window", "Sheet", "Drawer", "Alert", "Dialog", "Button", "RadioButton",
        "RadioGroup", "CheckBox", "DisclosureTriangle", "PopUpButton", "ComboBox", "MenuButton", "ToolbarButton", "Popover",
        "Keyboard", "Key", "NavigationBar", "TabBar", "TabGroup", "Toolbar", "StatusBar", "Table", "TableRow", "TableColumn",
        "Outline", "OutlineRow", "Browser", "CollectionView", "Slider", "PageIndicator", "ProgressIndicator",
        "ActivityIndicator", "SegmentedControl", "Picker", "PickerWheel", "Switch", "Toggle", "Link", "Image", "Icon",
        "SearchField", "ScrollView", "ScrollBar", "StaticText", "TextField", "SecureTextField", "DatePicker", "TextView",
        "Menu", "MenuItem", "MenuBar", "MenuBarItem", "Map", "WebView", "IncrementArrow", "DecrementArrow", "Timeline",
        "RatingIndicator", "ValueIndicator", "SplitGroup", "Splitter", "RelevanceIndicator", "ColorWell", "HelpTag", "Matte",
        "DockItem", "Ruler", "RulerMarker", "Grid", "LevelIndicator", "Cell", "LayoutArea", "LayoutItem", "Handle",
        "Stepper", "Tab", "TouchBar", "StatusItem",
    ]

    // MARK: Lines

    private static let pathHeader = Array("Path to element:".utf8)
    private static let queryHeader = Array("Query chain:".utf8)
    private static let subtreeHeader = Array("Element subtree:".utf8)
    private static let attributesHeader = Array("Attributes:".utf8)
    private static let outputHeader = Array("Output: {".utf8)
    private static let mainWindow = Array(" (Main)".utf8)
    private static let frameOpen = Array("{{".utf8)
    private static let frameClose = Array("}}".utf8)
    private static let spacedFrameOpen = Array("{ {".utf8)
    private static let spacedFrameClose = Array("} }".utf8)
    private static let quotes = [Array("'".utf8), Array("\\'".utf8), Array("\\u0027".utf8)]

    /// The element a line shows, or `nil`.
    private static func element(in bytes: [UInt8], _ text: Piece) -> Element? {
        let (piece, line, lineStart) = (text.range, text.line, text.lineStart)
        var i = piece.lowerBound
        var indent = 0
        while i < piece.upperBound, bytes[i] == UInt8(ascii: " ") || bytes[i] == 0x09 {
            indent += bytes[i] == 0x09 ? 4 : 1
            i += 1
        }
        // `→` (E2 86 92) marks the element described, `↳` (E2 86 B3) a step of its path.
        if i + 2 < piece.upperBound, bytes[i] == 0xE2, bytes[i + 1] == 0x86, bytes[i + 2] == 0x92 || bytes[i + 2] == 0xB3 {
            i += 3
            indent += 1
        }
        let typeStart = i
        // Every type starts with a capital letter.
        guard i < piece.upperBound, bytes[i] >= UInt8(ascii: "A"), bytes[i] <= UInt8(ascii: "Z") else { return nil }
        while i < piece.upperBound, ConsoleValues.isLetter(bytes[i]) { i += 1 }
        // What follows a type: `,`, ` (Main)`, ` 0x…` or the line's end.
        guard i == piece.upperBound || bytes[i] == UInt8(ascii: ",") || bytes[i] == UInt8(ascii: " ") else { return nil }
        let type = String(decoding: bytes[typeStart..<i], as: UTF8.self)
        guard types.contains(type) else { return nil }
        var element = Element(type: type, indent: indent, line: line, column: typeStart - lineStart + 1, range: piece)
        if piece.upperBound - i >= mainWindow.count, bytes[i..<(i + mainWindow.count)].elementsEqual(mainWindow) {
            element.isMain = true
            i += mainWindow.count
        }
        // `, 0x…` or ` 0x…: traits: N`.
        var j = i
        while j < piece.upperBound, bytes[j] == UInt8(ascii: ",") || bytes[j] == UInt8(ascii: " ") { j += 1 }
        if j + 1 < piece.upperBound, bytes[j] == UInt8(ascii: "0"), bytes[j + 1] == UInt8(ascii: "x") {
            var k = j + 2
            while k < piece.upperBound, ConsoleValues.isWordByte(bytes[k]) { k += 1 }
            element.address = String(decoding: bytes[j..<k], as: UTF8.self)
            i = k
        }
        // What follows must be attributes: a type name in other text (`Other apps`) is not one.
        guard i == piece.upperBound || bytes[i] == UInt8(ascii: ",") || bytes[i] == UInt8(ascii: ":") else { return nil }
        // The frame: the first `{{…}, {…}}` (or `{ {…}, {…} }`).
        let spaced = HierarchyReader.find(frameOpen, in: bytes[i..<piece.upperBound]) == nil
        if let open = HierarchyReader.find(spaced ? spacedFrameOpen : frameOpen, in: bytes[i..<piece.upperBound]) {
            let closeMark = spaced ? spacedFrameClose : frameClose
            if let close = HierarchyReader.find(closeMark, in: bytes[open..<piece.upperBound]) {
                element.frame = HierarchyReader.rect(in: bytes[open..<(close + closeMark.count)])
                i = close + closeMark.count
            }
            // A frame printed but not readable (`{{nan, 560}, …}`, numbers past a Double, a line cut
            // inside it): the element is one, left out with what is inside it, and said; the block
            // goes on, so its siblings keep their places.
            if element.frame == nil && type != "Application" {
                element.unreadableFrame = true
                return element
            }
        }
        guard element.frame != nil || type == "Application" else { return nil }
        readAttributes(bytes, i..<piece.upperBound, into: &element)
        return element
    }

    /// The attributes after the frame: `, key: value` pairs (a value quoted with `'`, `\'` or
    /// `\u0027` may hold commas) and bare flags (`Disabled`, `Selected`).
    private static func readAttributes(_ bytes: [UInt8], _ range: Range<Int>, into element: inout Element) {
        let quotes = Self.quotes
        var i = range.lowerBound
        while i < range.upperBound {
            while i < range.upperBound, bytes[i] == UInt8(ascii: ",") || bytes[i] == UInt8(ascii: " ") { i += 1 }
            let keyStart = i
            while i < range.upperBound, bytes[i] != UInt8(ascii: ":"), bytes[i] != UInt8(ascii: ",") { i += 1 }
            let key = bytes[keyStart..<i]
            guard i < range.upperBound, bytes[i] == UInt8(ascii: ":") else {
                // A flag of its own.
                if key.elementsEqual("Disabled".utf8) { element.isDisabled = true }
                continue
            }
            i += 1
            while i < range.upperBound, bytes[i] == UInt8(ascii: " ") { i += 1 }
            var value = i..<i
            if let quote = quotes.first(where: { range.upperBound - i >= $0.count && bytes[i..<(i + $0.count)].elementsEqual($0) }) {
                // A quoted value ends at its quote followed by a comma or the line's end.
                let start = i + quote.count
                var end = start
                var close: Int?
                while end + quote.count <= range.upperBound {
                    if bytes[end..<(end + quote.count)].elementsEqual(quote),
                        end + quote.count == range.upperBound || bytes[end + quote.count] == UInt8(ascii: ",")
                    {
                        close = end
                        break
                    }
                    end += 1
                }
                guard let close else { return }
                value = start..<close
                i = close + quote.count
            } else {
                while i < range.upperBound, bytes[i] != UInt8(ascii: ",") { i += 1 }
                value = value.lowerBound..<i
            }
            if key.elementsEqual("identifier".utf8), !value.isEmpty { element.identifier = String(decoding: bytes[value], as: UTF8.self) }
            if key.elementsEqual("label".utf8) { element.label = value }
        }
    }

    private static func startsWith(_ bytes: [UInt8], _ range: Range<Int>, _ word: [UInt8]) -> Bool {
        range.count >= word.count && bytes[range.lowerBound] == word[0]
            && bytes[range.lowerBound..<(range.lowerBound + word.count)].elementsEqual(word)
    }
}
