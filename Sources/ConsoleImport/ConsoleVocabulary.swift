import EventLog
import ResponderBus

/// The words the console importer knows: notification names in all their spellings, the
/// `userInfo` keys, and the words that belong to a notification's printed description.
///
/// Words are compared case-insensitively on their last dotted component, so
/// `UIKeyboardWillShowNotification`, `UIKeyboardWillShow` (`Notification.Name.UIKeyboardWillShow`),
/// `UIResponder.keyboardWillShowNotification` and `keyboardWillShow` all name the same event.
enum ConsoleWord: Hashable, Sendable {
    /// One of the six keyboard notifications.
    case keyboardName(LogEvent.KeyboardEvent)
    /// A text field's or text view's begin/end editing notification (or delegate method).
    case editingName(EditingName)
    /// A `UIKeyboard…` userInfo key.
    case key(UserInfoKey)
    /// A word of a notification's printed description (`userInfo`, `object`, `Optional`, …).
    case grammar(Grammar)
    /// Anything else: prose, code, a label.
    case other

    /// A begin/end editing notification name.
    struct EditingName: Hashable, Sendable {
        /// `true` for `DidBeginEditing`, `false` for `DidEndEditing`.
        var isBegin: Bool
        /// `.textField`, `.textView`, or `nil` when the name does not say (`textDidBeginEditingNotification`).
        var kind: ViewKind?
    }

    /// The userInfo keys; only the first five are imported.
    enum UserInfoKey: Hashable, Sendable {
        case frameBegin, frameEnd, duration, curve, isLocal
        /// `Bounds`, `CenterBegin`/`CenterEnd`, `FrameChangedByUserInteraction` and any other
        /// `UIKeyboard…Key` (`_UIKeyboardLayoutAlignmentKey`): read past, never imported.
        case ignored

        /// The name printed in problems.
        var displayName: String {
            switch self {
            case .frameBegin: "UIKeyboardFrameBeginUserInfoKey"
            case .frameEnd: "UIKeyboardFrameEndUserInfoKey"
            case .duration: "UIKeyboardAnimationDurationUserInfoKey"
            case .curve: "UIKeyboardAnimationCurveUserInfoKey"
            case .isLocal: "UIKeyboardIsLocalUserInfoKey"
            case .ignored: "an ignored key"
            }
        }
    }

    /// Words of the notification grammar that are neither names nor keys.
    enum Grammar: Hashable, Sendable {
        /// `name`: `name = X` introduces a notification's name.
        case name
        /// `rawValue` / `_rawValue`: `Name(_rawValue: X)`.
        case rawValue
        /// `userInfo`.
        case userInfo
        /// `object`: `object = <UITextField: 0x…>`.
        case object
        /// `AnyHashable`: wraps a Swift dictionary key.
        case anyHashable
        /// Anything else that belongs to a description: `Optional`, `nil`, `NSConcreteNotification`, …
        case filler
    }

    /// Classifies a word (ASCII letters, digits, `_`, `$` and inner dots). Allocation-free: words
    /// are looked up by a case-insensitive hash and confirmed byte by byte.
    static func classify(_ word: ArraySlice<UInt8>) -> ConsoleWord {
        // Every known word is at most ~60 bytes; longer words are prose or garbage.
        guard word.count <= 96, !word.isEmpty else { return .other }
        if let whole = lookup(word, in: wholeWords) { return whole }
        // The last dotted component, and the qualifier before it (`UITextField.textDid…`).
        var last = word
        var qualifier: ArraySlice<UInt8> = []
        if let dot = word.lastIndex(of: UInt8(ascii: ".")) {
            last = word[(dot + 1)...]
            let head = word[..<dot]
            qualifier = head.lastIndex(of: UInt8(ascii: ".")).map { head[($0 + 1)...] } ?? head
        }
        // Leading underscores (`_UIKeyboard…` private keys) and a `UI` prefix do not matter.
        while last.first == UInt8(ascii: "_") { last = last.dropFirst() }
        if last.count > 2, lower(last[last.startIndex]) == UInt8(ascii: "u"), lower(last[last.startIndex + 1]) == UInt8(ascii: "i") {
            last = last.dropFirst(2)
        }
        guard let found = lookup(last, in: components) else {
            // Private and newer keys (`_UIKeyboardLayoutAlignmentKey`): read past, never imported.
            if hasPrefix(last, "keyboard"), hasSuffix(last, "key") { return .key(.ignored) }
            return .other
        }
        if case .editingName(var editing) = found, editing.kind == nil {
            if equal(qualifier, "uitextfield") { editing.kind = .textField }
            if equal(qualifier, "uitextview") { editing.kind = .textView }
            return .editingName(editing)
        }
        return found
    }

    private struct Known: Sendable {
        var bytes: [UInt8]
        var value: ConsoleWord
    }

    private static func lower(_ c: UInt8) -> UInt8 { c >= 65 && c <= 90 ? c + 32 : c }

    /// FNV-1a over the lowercased bytes.
    private static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in bytes { h = (h ^ UInt64(lower(c))) &* 0x100_0000_01b3 }
        return h
    }

    private static func lookup(_ word: ArraySlice<UInt8>, in table: [UInt64: [Known]]) -> ConsoleWord? {
        guard let candidates = table[hash(word)] else { return nil }
        for candidate in candidates where matches(word, candidate.bytes) { return candidate.value }
        return nil
    }

    /// Whether `word`, lowercased, equals `lowercase`.
    private static func matches(_ word: ArraySlice<UInt8>, _ lowercase: [UInt8]) -> Bool {
        guard word.count == lowercase.count else { return false }
        var i = word.startIndex
        var k = 0
        while k < lowercase.count {
            if lower(word[i]) != lowercase[k] { return false }
            i += 1
            k += 1
        }
        return true
    }

    /// Whether `word`, lowercased, has `lowercase` at `offset` (negative: from the end).
    private static func contains(_ word: ArraySlice<UInt8>, _ lowercase: StaticString, atEnd: Bool) -> Bool {
        lowercase.withUTF8Buffer { buffer in
            guard buffer.count <= word.count else { return false }
            var i = atEnd ? word.endIndex - buffer.count : word.startIndex
            for k in 0..<buffer.count {
                if lower(word[i]) != buffer[k] { return false }
                i += 1
            }
            return true
        }
    }

    private static func equal(_ word: ArraySlice<UInt8>, _ lowercase: StaticString) -> Bool {
        word.count == lowercase.utf8CodeUnitCount && contains(word, lowercase, atEnd: false)
    }

    private static func hasPrefix(_ word: ArraySlice<UInt8>, _ lowercase: StaticString) -> Bool {
        contains(word, lowercase, atEnd: false)
    }

    private static func hasSuffix(_ word: ArraySlice<UInt8>, _ lowercase: StaticString) -> Bool {
        contains(word, lowercase, atEnd: true)
    }

    private static func table(_ entries: [(String, ConsoleWord)]) -> [UInt64: [Known]] {
        var table: [UInt64: [Known]] = [:]
        for (word, value) in entries {
            let bytes = Array(word.utf8)
            table[hash(bytes[...]), default: []].append(Known(bytes: bytes, value: value))
        }
        return table
    }

    /// Whole words (lowercased) of the grammar.
    private static let wholeWords: [UInt64: [Known]] = {
        var entries: [(String, ConsoleWord)] = []
        func add(_ word: String, _ value: ConsoleWord) { entries.append((word, value)) }
        add("name", .grammar(.name))
        add("rawvalue", .grammar(.rawValue))
        add("_rawvalue", .grammar(.rawValue))
        add("userinfo", .grammar(.userInfo))
        add("object", .grammar(.object))
        add("anyhashable", .grammar(.anyHashable))
        for filler in [
            "optional", "nil", "null", "some", "nsconcretenotification", "nsnotification", "notification",
            "nsnotification.name", "notification.name", "nsconcretevalue", "nsvalue",
        ] {
            add(filler, .grammar(.filler))
        }
        return table(entries)
    }()

    /// Last components (lowercased, without a `UI` prefix) of names and keys.
    private static let components: [UInt64: [Known]] = {
        var entries: [(String, ConsoleWord)] = []
        func add(_ word: String, _ value: ConsoleWord) { entries.append((word, value)) }
        for event in EventName<KeyboardInfo>.allKeyboardEvents {
            let base = event.rawValue.lowercased()  // keyboardwillshow
            add(base, .keyboardName(event))
            add(base + "notification", .keyboardName(event))
        }
        for (isBegin, verb) in [(true, "begin"), (false, "end")] {
            for (kind, noun) in [(ViewKind.textField, "textfield"), (ViewKind.textView, "textview")] {
                let editing = ConsoleWord.editingName(EditingName(isBegin: isBegin, kind: kind))
                add("\(noun)textdid\(verb)editingnotification", editing)
                add("\(noun)textdid\(verb)editing", editing)
                add("\(noun)did\(verb)editing", editing)  // delegate methods, printed with #function
            }
            add("textdid\(verb)editingnotification", .editingName(EditingName(isBegin: isBegin, kind: nil)))
        }
        add("keyboardframebeginuserinfokey", .key(.frameBegin))
        add("keyboardframeenduserinfokey", .key(.frameEnd))
        add("keyboardanimationdurationuserinfokey", .key(.duration))
        add("keyboardanimationcurveuserinfokey", .key(.curve))
        add("keyboardislocaluserinfokey", .key(.isLocal))
        add("keyboardframechangedbyuserinteraction", .key(.ignored))
        return table(entries)
    }()
}
