import ResponderBus

extension ElementTreeReader {
    /// Where the keyboard of an element tree is, and which elements are its own.
    ///
    /// XCUITest's `Keyboard` element is the key plane alone: the input accessory above it and, on
    /// a phone without a Home button, the bar below the keys (the emoji and dictation buttons) are
    /// outside it, though UIKit's notifications count both in the keyboard's frame. The keyboard's
    /// frame is its window's host: the outermost element around the `Keyboard` that is not the
    /// whole window (in a flat list, the largest element around it as wide as it), taken to the
    /// bottom of the app's window when it reaches it, or when the only gap is the bar below the
    /// keys (a keyboard as wide as the window that stops less than ``bottomBarLimit`` short of its
    /// bottom). A keyboard that reaches no bottom (a floating, undocked or split iPad keyboard) is
    /// imported as printed, and said not to be docked.
    struct KeyboardPlace {
        /// The keyboard's frame on the screen.
        var frame: Rect
        /// What was said about it: its frame taken from its window, or not docked.
        var problem: ImportProblem?
        /// The elements that are the keyboard's, by index in the block: in a tree, the host (and
        /// so everything inside it); in a flat list, each one.
        var parts: Set<Int> = []
    }

    /// The most a key plane as wide as its window may stop short of the window's bottom and still
    /// be docked: the bar below the keys is 34 to 75 points on the phones that have one.
    static let bottomBarLimit = 120.0

    /// The keyboard's place and parts, for the `Keyboard` element at `keyboard.index`.
    static func keyboardPlace(
        _ keyboard: (index: Int, line: Int, frame: Rect), in block: Block, marks: ArraySlice<Block.Mark>, flat: Bool, window: Rect?,
        bytes: [UInt8]
    ) -> KeyboardPlace {
        var parts: Set<Int> = []
        let host: Rect
        if flat {
            let list = flatElements(marks, block: block, bytes: bytes)
            let found = hostInList(keyboard, list, window: window)
            host = found.frame
            parts = keyboardParts(of: list, host: found, keyboard: keyboard.frame, bytes: bytes)
        } else {
            let found = hostInTree(keyboard.index, in: block, marks: marks, window: window, bytes: bytes)
            host = found?.frame ?? keyboard.frame
            parts = [found?.index ?? keyboard.index]
        }
        var place = docked(host, keyboard: keyboard, window: window)
        place.parts = parts
        return place
    }

    /// The host's frame taken to the window's bottom when it is docked, and what is said.
    private static func docked(_ host: Rect, keyboard: (index: Int, line: Int, frame: Rect), window: Rect?) -> KeyboardPlace {
        let key = keyboard.frame
        guard let window else {
            guard host != key else { return KeyboardPlace(frame: key) }
            return KeyboardPlace(frame: host, problem: said(key, as: host, line: keyboard.line, why: "the input accessory around it"))
        }
        let bottom = window.origin.y + window.size.height
        let spansWidth = abs(host.origin.x - window.origin.x) < 0.5 && abs(host.size.width - window.size.width) < 0.5
        let gap = bottom - (host.origin.y + host.size.height)
        guard spansWidth, gap > -0.5, gap <= bottomBarLimit else {
            let message =
                "the Keyboard element \(describe(key)) reaches no bottom edge of the window \(describe(window))\(spansWidth ? "" : " and is not as wide as it"): a floating, undocked or split keyboard, not docked; imported as printed"
            return KeyboardPlace(frame: host, problem: ImportProblem(kind: .keyboardFrameFromTree, line: keyboard.line, message: message))
        }
        let frame = Rect(x: host.origin.x, y: host.origin.y, width: host.size.width, height: bottom - host.origin.y)
        guard frame != key else { return KeyboardPlace(frame: key) }
        var why: [String] = []
        if host.origin.y < key.origin.y - 0.5 { why.append("the input accessory above it") }
        if frame.origin.y + frame.size.height > key.origin.y + key.size.height + 0.5 { why.append("the bar below the keys") }
        return KeyboardPlace(frame: frame, problem: said(key, as: frame, line: keyboard.line, why: why.joined(separator: " and ")))
    }

    private static func said(_ key: Rect, as frame: Rect, line: Int, why: String) -> ImportProblem {
        let message =
            "the Keyboard element \(describe(key)) is its key plane alone; the keyboard's frame is taken from its window: \(describe(frame)), with \(why.isEmpty ? "its host view" : why), as UIKit's notifications give it"
        return ImportProblem(kind: .keyboardFrameFromTree, line: line, message: message)
    }

    static func describe(_ r: Rect) -> String {
        func n(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
        return "{{\(n(r.origin.x)), \(n(r.origin.y))}, {\(n(r.size.width)), \(n(r.size.height))}}"
    }

    // MARK: Trees

    /// The outermost element around the `Keyboard` at `index` that is not a window nor the whole
    /// window, with its frame; `nil` when there is none.
    private static func hostInTree(
        _ index: Int, in block: Block, marks: ArraySlice<Block.Mark>, window: Rect?, bytes: [UInt8]
    ) -> (index: Int, frame: Rect)? {
        var ancestors: [Int] = []
        var indent = marks[index].indent
        var i = index - 1
        while i >= marks.startIndex, indent > 0 {
            if marks[i].indent < indent {
                if marks[i].kind == .window || marks[i].kind == .application { break }
                ancestors.append(i)
                indent = marks[i].indent
            }
            i -= 1
        }
        guard !ancestors.isEmpty else { return nil }
        var reader = BlockElements(bytes, block)
        let keyFrame = block.keyboards.first { $0.index == index }?.frame
        for ancestor in ancestors.reversed() {
            guard let frame = reader.element(ancestor).frame, frame.size.width > 0, frame.size.height > 0 else { continue }
            if let window, abs(frame.origin.y - window.origin.y) < 0.5, abs(frame.size.height - window.size.height) < 0.5 { continue }
            if let keyFrame, !frame.contains(keyFrame, within: 0.5) { continue }
            return (ancestor, frame)
        }
        return nil
    }

    // MARK: Flat lists

    /// What a flat list's classification needs of each element.
    struct ListElement {
        var index: Int
        var kind: Block.Mark.Kind
        var type: String
        var frame: Rect
        var isKeyboardLabelled: Bool
    }

    private static func flatElements(_ marks: ArraySlice<Block.Mark>, block: Block, bytes: [UInt8]) -> [ListElement] {
        var reader = BlockElements(bytes, block)
        var list: [ListElement] = []
        for index in marks.indices {
            let element = reader.element(index)
            guard let frame = element.frame, marks[index].kind != .window, marks[index].kind != .application else { continue }
            let labelled =
                element.identifier.map(keyboardNames.contains) == true
                || element.label.map { keyboardNames.contains(String(decoding: bytes[$0], as: UTF8.self)) } == true
            list.append(ListElement(index: index, kind: marks[index].kind, type: element.type, frame: frame, isKeyboardLabelled: labelled))
        }
        return list
    }

    /// The labels and identifiers of the keyboard's own buttons (its keys print `Key`).
    static let keyboardNames: Set<String> = [
        "shift", "delete", "Delete", "more", "numbers", "letters", "symbols", "space", "Return", "return", "Emoji", "emoji",
        "Dictate", "dictation", "Next keyboard", "next keyboard", "Globe", "Keyboard", "Typing Predictions",
    ]

    /// The largest element around the keyboard, as wide as it, that is not the whole window.
    private static func hostInList(
        _ keyboard: (index: Int, line: Int, frame: Rect), _ list: [ListElement], window: Rect?
    ) -> (index: Int, frame: Rect) {
        let key = keyboard.frame
        var best = (index: keyboard.index, frame: key)
        for element in list where element.kind == .other || element.kind == .keyboard {
            let frame = element.frame
            guard frame.contains(key, within: 0.5), abs(frame.origin.x - key.origin.x) < 0.5, abs(frame.size.width - key.size.width) < 0.5
            else { continue }
            if let window, abs(frame.origin.y - window.origin.y) < 0.5 { continue }
            if frame.size.height > best.frame.size.height { best = (element.index, frame) }
        }
        return best
    }

    /// The elements of a flat list that are the keyboard's: those inside its host whose smallest
    /// container is the keyboard's, and that are containers, its accessory's, or its own buttons.
    private static func keyboardParts(of list: [ListElement], host: (index: Int, frame: Rect), keyboard: Rect, bytes: [UInt8]) -> Set<Int> {
        var parts: Set<Int> = [host.index]
        let inside = list.filter { $0.index != host.index && host.frame.contains($0.frame, within: 0.5) }
        // Bounded: a list of thousands of elements inside the keyboard is not a keyboard's.
        guard inside.count <= 4096, inside.count * list.count <= 50_000_000 else {
            return parts.union(inside.filter { $0.kind == .key || $0.kind == .keyboard }.map(\.index))
        }
        func area(_ r: Rect) -> Double { r.size.width * r.size.height }
        // Larger first, so that a container is decided before what it holds.
        let ordered = inside.sorted { (area($1.frame), $0.index) < (area($0.frame), $1.index) }
        let accessoryBottom = keyboard.origin.y + 0.5
        for element in ordered {
            if element.kind == .key || element.kind == .keyboard {
                parts.insert(element.index)
                continue
            }
            // Its smallest container printed in the list (among equal frames, the one printed first).
            var container: (index: Int, area: Double)?
            // Controls do not nest: only a text or an image sits inside a button.
            let mayBeInButton = element.type == "StaticText" || element.type == "Image"
            for other in list where other.index != element.index && other.frame.contains(element.frame, within: 0.5) {
                if other.type == "Button" && !mayBeInButton || other.kind == .key { continue }
                let otherArea = area(other.frame)
                if otherArea == area(element.frame), other.index > element.index { continue }
                if container.map({ otherArea < $0.area }) ?? true { container = (other.index, otherArea) }
            }
            guard let container, parts.contains(container.index) else { continue }
            let inAccessory = element.frame.origin.y + element.frame.size.height <= accessoryBottom
            let isEmptyText = element.type == "StaticText" && (element.frame.size.width == 0 || element.frame.size.height == 0)
            if element.kind == .other || element.type == "Toolbar" || inAccessory || element.isKeyboardLabelled || isEmptyText {
                parts.insert(element.index)
            }
        }
        return parts
    }
}

extension Rect {
    /// Whether `other` lies inside this rect, give or take `tolerance` points on each edge.
    func contains(_ other: Rect, within tolerance: Double) -> Bool {
        other.origin.x >= origin.x - tolerance && other.origin.y >= origin.y - tolerance
            && other.origin.x + other.size.width <= origin.x + size.width + tolerance
            && other.origin.y + other.size.height <= origin.y + size.height + tolerance
    }
}
