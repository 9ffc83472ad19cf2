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
/// - Nesting is by indentation. The first window with views is the scene (the app's window); a
///   tree that starts at a window or another element is a scene of its own.
/// - A `Keyboard` element is where the keyboard is; it and its keys are not the app's views.
/// - Types map to the model's kinds: `TextField`, `SearchField` and `SecureTextField` (secure) →
///   `textField`, `TextView` → `textView`, `ScrollView`, `Table` and `CollectionView` →
///   `scrollView`, `Button` → `button`, `StaticText` → `label`, the rest → `view`.
/// - Ids: the `identifier` when printed, else `Type@0xADDR`, or `Type@LINE:COLUMN` for an
///   element printed without an address.
/// - `Disabled` marks a view disabled.
/// - A list of elements all at one indentation (as Appium prints a set of them, one per line) is
///   read as the first window with the other elements in it.
/// - `Path to element:` and `Query chain:` sections repeat elements already shown: they are skipped.
/// - A text stored with its line breaks escaped (`\n` inside a JSON string) is read as lines.
///
/// Linear in the input.
struct ElementTreeReader {
    /// One element line.
    struct Element {
        var type: String
        var address: String?
        var frame: Rect?
        var identifier: String?
        var isDisabled = false
        var indent: Int
        var line: Int
        var column: Int
    }

    /// What reading a text found.
    typealias Found = HierarchyReader.Found

    /// Reads every element tree in `bytes` into `builder`'s scenes.
    static func read(_ bytes: [UInt8], building builder: inout SceneBuilder) -> Found {
        var found = Found(scenes: [], problems: [], entryRanges: [])
        var block: [Element] = []
        var skipping = false
        func flush() {
            if !block.isEmpty { read(block, into: &found, builder: &builder) }
            block = []
        }
        var lineStart = 0
        var line = 1
        // One piece of a line: a line, or a part of it between escaped breaks.
        func take(_ piece: Range<Int>) {
            // Most lines of a console are rejected by their first byte that is not blank: every
            // header and every element type starts with a capital letter or an arrow.
            var first = piece.lowerBound
            while first < piece.upperBound, bytes[first] == UInt8(ascii: " ") || bytes[first] == 0x09 || bytes[first] == 0x0D { first += 1 }
            if first == piece.upperBound {
                // Blank.
            } else if !(bytes[first] >= UInt8(ascii: "A") && bytes[first] <= UInt8(ascii: "Z")) && bytes[first] != 0xE2 {
                flush()
            } else if startsWith(bytes, piece, Self.pathHeader) || startsWith(bytes, piece, Self.queryHeader) {
                flush()
                skipping = true
            } else if startsWith(bytes, piece, Self.subtreeHeader) || startsWith(bytes, piece, Self.attributesHeader) {
                flush()
                skipping = false
            } else if !skipping, let element = element(in: bytes, piece, line: line, lineStart: lineStart) {
                if element.type == "Application", !block.isEmpty { flush() }
                block.append(element)
                found.entryRanges.append(piece)
            } else {
                flush()
            }
        }
        // One pass over the bytes: a piece ends at a line's end or at an escaped break (`\n`).
        var pieceStart = 0
        var previous: UInt8 = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                take(pieceStart..<index)
                line += 1
                lineStart = index + 1
                pieceStart = index + 1
                previous = 0
            } else if byte == UInt8(ascii: "n"), previous == UInt8(ascii: "\\") {
                take(pieceStart..<(index - 1))
                pieceStart = index + 1
                previous = 0
            } else {
                previous = byte
            }
        }
        take(pieceStart..<bytes.count)
        flush()
        return found
    }

    // MARK: Blocks

    /// One block of element lines: a tree, or a flat list.
    private static func read(_ block: [Element], into found: inout Found, builder: inout SceneBuilder) {
        var elements = block
        // The application (no frame) holds the windows.
        if elements.first?.type == "Application" { elements.removeFirst() }
        guard let first = elements.first else { return }
        let flat = elements.count > 1 && elements.allSatisfy { $0.indent == first.indent }
        // Where the keyboard is.
        for element in elements where element.type == "Keyboard" {
            if let frame = element.frame, frame.size.width > 0, frame.size.height > 0 {
                found.keyboards.append((element.line, frame))
                break
            }
        }
        var building = SceneBuilder.SceneInProgress(expectedViews: elements.count)
        var origins: [Point] = []
        var hasScene = false
        if flat {
            // A set of elements: the first window (or the first element) holds the others.
            guard let root = elements.firstIndex(where: { $0.type == "Window" }) ?? elements.indices.first else { return }
            builder.add(entry(elements[root], depth: 0, parentOrigin: .zero), to: &building)
            let origin = elements[root].frame?.origin ?? .zero
            for (index, element) in elements.enumerated() where index != root && !isKeyboardPart(element.type) && element.type != "Window" {
                builder.add(entry(element, depth: 1, parentOrigin: origin), to: &building)
            }
            hasScene = true
        } else {
            // A tree by indentation. The app's window is the first that holds views.
            var indents: [Int] = []
            var keyboardBelow: Int?
            var rootIndent: Int?
            var done = false
            for (index, element) in elements.enumerated() {
                if let below = keyboardBelow {
                    if element.indent > below { continue }
                    keyboardBelow = nil
                }
                if let root = rootIndent, element.indent <= root {
                    // The scene's window is done; later windows show only the keyboard.
                    done = true
                }
                if isKeyboardPart(element.type) {
                    keyboardBelow = element.indent
                    continue
                }
                if done { continue }
                if rootIndent == nil {
                    // The first window that holds views (or the first element of a tree that is not
                    // an application's).
                    let holdsViews = index + 1 < elements.count && elements[index + 1].indent > element.indent
                    guard element.type != "Window" || holdsViews || first.type != "Window" else { continue }
                    rootIndent = element.indent
                    indents = [element.indent]
                    origins = [element.frame?.origin ?? .zero]
                    builder.add(entry(element, depth: 0, parentOrigin: .zero), to: &building)
                    hasScene = true
                    continue
                }
                while let last = indents.last, last >= element.indent {
                    indents.removeLast()
                    origins.removeLast()
                }
                let parentOrigin = origins.last ?? .zero
                let depth = indents.count
                builder.add(entry(element, depth: depth, parentOrigin: parentOrigin), to: &building)
                indents.append(element.indent)
                origins.append(element.frame?.origin ?? parentOrigin)
            }
        }
        if hasScene, let scene = builder.finish(&building) {
            found.scenes.append(PlacedScene(line: first.line, scene: scene))
        }
    }

    private static func isKeyboardPart(_ type: String) -> Bool { type == "Keyboard" || type == "Key" }

    /// The entry a scene builder takes: its frame in its parent's coordinates.
    private static func entry(_ element: Element, depth: Int, parentOrigin: Point) -> HierarchyEntry {
        var entry = HierarchyEntry(
            className: element.type, baseClass: uikitClass[element.type] ?? "UIView",
            address: element.address ?? "\(element.line):\(element.column)", depth: depth, line: element.line, column: element.column)
        if let frame = element.frame {
            entry.frame = Rect(
                x: frame.origin.x - parentOrigin.x, y: frame.origin.y - parentOrigin.y, width: frame.size.width, height: frame.size.height)
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

    /// The element a line shows, or `nil`.
    private static func element(in bytes: [UInt8], _ piece: Range<Int>, line: Int, lineStart: Int) -> Element? {
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
        // Every type starts with a capital letter: most lines of a console are rejected here.
        guard i < piece.upperBound, bytes[i] >= UInt8(ascii: "A"), bytes[i] <= UInt8(ascii: "Z") else { return nil }
        while i < piece.upperBound, ConsoleValues.isLetter(bytes[i]) { i += 1 }
        // What follows a type: `,`, ` (Main)`, ` 0x…` or the line's end.
        guard i == piece.upperBound || bytes[i] == UInt8(ascii: ",") || bytes[i] == UInt8(ascii: " ") else { return nil }
        let type = String(decoding: bytes[typeStart..<i], as: UTF8.self)
        guard types.contains(type) else { return nil }
        // ` (Main)` after the main window.
        let main = Self.mainWindow
        if piece.upperBound - i >= main.count, bytes[i..<(i + main.count)].elementsEqual(main) { i += main.count }
        var element = Element(type: type, indent: indent, line: line, column: typeStart - lineStart + 1)
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
        // The frame: the first `{{…}, {…}}`.
        if let open = firstIndex(of: "{{", in: bytes, i..<piece.upperBound), let close = firstIndex(of: "}}", in: bytes, open..<piece.upperBound) {
            element.frame = HierarchyReader.rect(in: bytes[open..<(close + 2)])
            i = close + 2
        }
        guard element.frame != nil || type == "Application" else { return nil }
        element.identifier = quoted(after: "identifier: ", in: bytes, i..<piece.upperBound)
        element.isDisabled = firstIndex(of: ", Disabled", in: bytes, i..<piece.upperBound) != nil
        return element
    }

    /// The text in quotes after `key` (up to the quote before a `,` or the line's end); quotes
    /// escaped as in a JSON or Swift string (`\'city\'`) too.
    private static func quoted(after key: String, in bytes: [UInt8], _ range: Range<Int>) -> String? {
        guard let at = firstIndex(of: key, in: bytes, range) else { return nil }
        var start = at + key.utf8.count
        let escaped = start < range.upperBound && bytes[start] == UInt8(ascii: "\\")
        if escaped { start += 1 }
        guard start < range.upperBound, bytes[start] == UInt8(ascii: "'") else { return nil }
        start += 1
        var end = start
        var close: Int?
        while end < range.upperBound {
            if bytes[end] == UInt8(ascii: "'"), end + 1 == range.upperBound || bytes[end + 1] == UInt8(ascii: ",") {
                close = escaped && end > start && bytes[end - 1] == UInt8(ascii: "\\") ? end - 1 : end
                break
            }
            end += 1
        }
        guard let close, close > start else { return nil }
        return String(decoding: bytes[start..<close], as: UTF8.self)
    }

    private static func firstIndex(of text: String, in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        HierarchyReader.find(Array(text.utf8), in: bytes[range])
    }

    private static let pathHeader = Array("Path to element:".utf8)
    private static let queryHeader = Array("Query chain:".utf8)
    private static let subtreeHeader = Array("Element subtree:".utf8)
    private static let attributesHeader = Array("Attributes:".utf8)
    private static let mainWindow = Array(" (Main)".utf8)

    private static func startsWith(_ bytes: [UInt8], _ range: Range<Int>, _ word: [UInt8]) -> Bool {
        var i = range.lowerBound
        while i < range.upperBound, bytes[i] == UInt8(ascii: " ") || bytes[i] == 0x09 { i += 1 }
        return range.upperBound - i >= word.count && bytes[i] == word[0] && bytes[i..<(i + word.count)].elementsEqual(word)
    }
}
