import ResponderBus

/// The fields of an entry: the ones a view needs, read from its body or after it.
extension HierarchyReader {
    /// The fields at the top level of an entry's body (`0x…; frame = (…); tag = 3; …`).
    func readFields(of entry: inout HierarchyEntry, body: ArraySlice<UInt8>) {
        var depth = 0
        var quote = false
        var pieceStart = body.startIndex
        var i = body.startIndex
        func finish(_ end: Int) {
            if pieceStart < end { readField(bytes[pieceStart..<end], into: &entry) }
        }
        while i < body.endIndex {
            let c = bytes[i]
            if quote {
                if c == UInt8(ascii: "'"), i + 1 >= body.endIndex || bytes[i + 1] == UInt8(ascii: ";") { quote = false }
            } else if c == UInt8(ascii: "'"), i >= 1,
                bytes[i - 1] == UInt8(ascii: "=") || (i >= 2 && bytes[i - 1] == UInt8(ascii: " ") && bytes[i - 2] == UInt8(ascii: "="))
            {
                // A quoted text value: UIKit's `text = '…'`, EarlGrey's `AX.label='…'`.
                quote = true
            } else if c == UInt8(ascii: "(") || c == UInt8(ascii: "{") || c == UInt8(ascii: "<") || c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: ")") || c == UInt8(ascii: "}") || c == UInt8(ascii: ">") || c == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            } else if c == UInt8(ascii: ";"), depth == 0 {
                finish(i)
                pieceStart = i + 1
            }
            i += 1
        }
        finish(body.endIndex)
    }

    /// One `key = value` or `key: value` piece.
    private func readField(_ piece: ArraySlice<UInt8>, into entry: inout HierarchyEntry) {
        var i = piece.startIndex
        // Markdown's emphasis around a field (`**contentOffset: {0, 120}**`) is no part of it.
        while i < piece.endIndex, bytes[i] == UInt8(ascii: " ") || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == UInt8(ascii: "*") { i += 1 }
        let keyStart = i
        while i < piece.endIndex, ConsoleValues.isWordByte(bytes[i]) { i += 1 }
        // EarlGrey's accessibility fields: `AX.id`, `AX.frame`.
        if i - keyStart == 2, bytes[keyStart] == UInt8(ascii: "A"), bytes[keyStart + 1] == UInt8(ascii: "X"), i < piece.endIndex,
            bytes[i] == UInt8(ascii: ".")
        {
            i += 1
            while i < piece.endIndex, ConsoleValues.isWordByte(bytes[i]) { i += 1 }
        }
        // The key is matched as bytes: an entry has a dozen fields and most are not wanted.
        guard let key = Self.fieldKey(bytes[keyStart..<i]) else { return }
        // A page or a book may wrap an entry anywhere, even between a key and its `=` or after it
        // (`frame\n= (0 0; 320 568)`, `userInteractionEnabled =\nNO`).
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        while i < piece.endIndex, isBlank(bytes[i]) { i += 1 }
        // EarlGrey prints a hidden view's flag alone: `…; opaque; hidden; alpha=0>`.
        if key == .hidden, i == piece.endIndex {
            entry.isHidden = true
            return
        }
        guard i < piece.endIndex, bytes[i] == UInt8(ascii: "=") || bytes[i] == UInt8(ascii: ":") else { return }
        i += 1
        while i < piece.endIndex, isBlank(bytes[i]) { i += 1 }
        var valueEnd = piece.endIndex
        while valueEnd > i, isBlank(bytes[valueEnd - 1]) || bytes[valueEnd - 1] == UInt8(ascii: "*") { valueEnd -= 1 }
        let value = bytes[i..<valueEnd]
        switch key {
        case .frame:
            // `(x y; w h)`: the `;` is inside the parentheses. EarlGrey's `{{x, y}, {w, h}}` too.
            entry.frame = Self.rect(in: value) ?? entry.frame
        case .windowFrame:
            entry.windowFrame = Self.rect(in: value) ?? entry.windowFrame
        case .baseClass:
            entry.baseClass = String(decoding: value, as: UTF8.self)
        case .tag:
            if let number = ConsoleValues.single(in: value), number == number.rounded(), abs(number) < 1e15 { entry.tag = Int(number) }
        case .hidden:
            entry.isHidden = ConsoleValues.bool(in: value) ?? false
        case .alpha:
            entry.alpha = ConsoleValues.single(in: value)
        case .enabled:
            if ConsoleValues.bool(in: value) == false { entry.isDisabled = true }
        case .contentOffset:
            if let numbers = ConsoleValues.numbers(in: value), numbers.count == 2, numbers.allSatisfy(\.isFinite) {
                entry.contentOffset = Point(x: numbers[0], y: numbers[1])
            }
        case .contentSize:
            if let numbers = ConsoleValues.numbers(in: value), numbers.count == 2, numbers.allSatisfy(\.isFinite) {
                entry.contentSize = Size(width: numbers[0], height: numbers[1])
            }
        case .identifier:
            var text = String(decoding: value, as: UTF8.self)
            if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") { text = String(text.dropFirst().dropLast()) }
            if !text.isEmpty, text != "(null)" { entry.accessibilityIdentifier = text }
        case .traits:
            // EarlGrey's `AX.traits='UIAccessibilityTraitStaticText'`: what the view says it is.
            if Self.find(Array("TraitStaticText".utf8), in: value) != nil {
                entry.traitKind = .label
            } else if Self.find(Array("TraitButton".utf8), in: value) != nil {
                entry.traitKind = .button
            }
        case .secureTextEntry:
            // A value that is not a boolean says nothing; one that is decides (the last one printed).
            if let secure = ConsoleValues.bool(in: value) { entry.isSecureTextEntry = secure }
        }
    }

    /// The fields an entry's view needs.
    private enum FieldKey {
        case frame, windowFrame, baseClass, tag, hidden, alpha, enabled, contentOffset, contentSize, identifier, secureTextEntry, traits
    }

    private static let fieldKeys: [(name: [UInt8], key: FieldKey)] = {
        let names: [(String, FieldKey)] = [
            ("frame", .frame), ("baseClass", .baseClass), ("tag", .tag), ("hidden", .hidden), ("alpha", .alpha),
            ("userInteractionEnabled", .enabled), ("enabled", .enabled), ("contentOffset", .contentOffset),
            ("contentSize", .contentSize), ("accessibilityIdentifier", .identifier), ("identifier", .identifier),
            ("secureTextEntry", .secureTextEntry), ("isSecureTextEntry", .secureTextEntry),
            ("frameInWindow", .windowFrame), ("AX.frame", .windowFrame), ("AX.id", .identifier), ("AX.traits", .traits),
        ]
        return names.map { (Array($0.0.utf8), $0.1) }
    }()

    private static func fieldKey(_ word: ArraySlice<UInt8>) -> FieldKey? {
        for (name, key) in fieldKeys where name.count == word.count && name.elementsEqual(word) { return key }
        return nil
    }

    /// Four finite numbers, as a frame: `(x y; w h)` or `{{x, y}, {w, h}}`.
    static func rect(in value: ArraySlice<UInt8>) -> Rect? {
        guard let numbers = ConsoleValues.numbers(in: value), numbers.count == 4, numbers.allSatisfy(\.isFinite) else { return nil }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// `Frame: (0.000000, 64.000000, 320.000000, 504.000000)\ttag:0` after the entry, from an app
    /// that replaced `-description`.
    func readSwizzledFrame(of entry: inout HierarchyEntry, trailer: ArraySlice<UInt8>) {
        guard let open = Self.find(Array("Frame: (".utf8), in: trailer) else { return }
        let parenthesis = open + "Frame: ".utf8.count
        guard let close = trailer[parenthesis...].firstIndex(of: UInt8(ascii: ")")) else { return }
        if let numbers = ConsoleValues.numbers(in: trailer[parenthesis...close]), numbers.count == 4, numbers.allSatisfy(\.isFinite) {
            entry.frame = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
        if let tag = Self.find(Array("tag:".utf8), in: trailer[close...]) {
            var end = tag + 4
            if end < trailer.endIndex, trailer[end] == UInt8(ascii: "-") { end += 1 }
            while end < trailer.endIndex, ConsoleValues.isDigit(trailer[end]), end - tag < 20 { end += 1 }
            entry.tag = Int(String(decoding: trailer[(tag + 4)..<end], as: UTF8.self))
        }
    }

    /// Where `needle` first occurs in `haystack`.
    static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = haystack.startIndex
        while i <= haystack.endIndex - needle.count {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
