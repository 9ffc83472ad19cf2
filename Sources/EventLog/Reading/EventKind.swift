import ResponderBus

enum EventKind: UInt8, CaseIterable {
    case keyboardWillShow, keyboardDidShow, keyboardWillHide, keyboardDidHide, keyboardWillChangeFrame, keyboardDidChangeFrame
    case didBeginEditing, didEndEditing, returnKey, scene, setFrame, screen
    case viewShift, scroll, focusChange, action, resign, diagnostic

    /// The name as written in a log.
    var spelling: StaticString {
        switch self {
        case .keyboardWillShow: "keyboardWillShow"
        case .keyboardDidShow: "keyboardDidShow"
        case .keyboardWillHide: "keyboardWillHide"
        case .keyboardDidHide: "keyboardDidHide"
        case .keyboardWillChangeFrame: "keyboardWillChangeFrame"
        case .keyboardDidChangeFrame: "keyboardDidChangeFrame"
        case .didBeginEditing: "didBeginEditing"
        case .didEndEditing: "didEndEditing"
        case .returnKey: "returnKey"
        case .scene: "scene"
        case .setFrame: "setFrame"
        case .screen: "screen"
        case .viewShift: "viewShift"
        case .scroll: "scroll"
        case .focusChange: "focusChange"
        case .action: "action"
        case .resign: "resign"
        case .diagnostic: "diagnostic"
        }
    }

    /// The name as a String.
    var name: String { "\(spelling)" }

    /// The keyboard event, for the six keyboard kinds.
    var keyboardEvent: LogEvent.KeyboardEvent? { LogEvent.KeyboardEvent.byKind[Int(rawValue)] }

    /// The event whose name is spelled at `start` in `bytes` and closed by a quote right after it,
    /// with the offset of that quote; `nil` otherwise. No scan for the closing quote: a byte or two
    /// pick the only candidate, which a few word compares check.
    @inline(__always)
    static func known(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (kind: EventKind, end: Int)? {
        // The shortest name has 5 bytes (and a quote after it): the bytes looked at below exist when
        // a name fits.
        guard start + 5 < bytes.count else { return nil }
        let name: StaticString
        let kind: EventKind
        switch bytes[start] {
        case UInt8(ascii: "k"):
            // keyboard{Will,Did}{Show,Hide,ChangeFrame}, 15 bytes or more.
            guard start + 15 < bytes.count else { return nil }
            if bytes[start + 8] == UInt8(ascii: "W") {
                switch bytes[start + 12] {
                case UInt8(ascii: "S"): (name, kind) = ("keyboardWillShow", .keyboardWillShow)
                case UInt8(ascii: "H"): (name, kind) = ("keyboardWillHide", .keyboardWillHide)
                default: (name, kind) = ("keyboardWillChangeFrame", .keyboardWillChangeFrame)
                }
            } else {
                switch bytes[start + 11] {
                case UInt8(ascii: "S"): (name, kind) = ("keyboardDidShow", .keyboardDidShow)
                case UInt8(ascii: "H"): (name, kind) = ("keyboardDidHide", .keyboardDidHide)
                default: (name, kind) = ("keyboardDidChangeFrame", .keyboardDidChangeFrame)
                }
            }
        case UInt8(ascii: "d"):
            switch bytes[start + 3] {
            case UInt8(ascii: "B"): (name, kind) = ("didBeginEditing", .didBeginEditing)
            case UInt8(ascii: "E"): (name, kind) = ("didEndEditing", .didEndEditing)
            default: (name, kind) = ("diagnostic", .diagnostic)
            }
        case UInt8(ascii: "r"):
            if bytes[start + 2] == UInt8(ascii: "t") {
                (name, kind) = ("returnKey", .returnKey)
            } else {
                (name, kind) = ("resign", .resign)
            }
        case UInt8(ascii: "s"):
            if bytes[start + 1] == UInt8(ascii: "e") {
                (name, kind) = ("setFrame", .setFrame)
            } else if bytes[start + 2] == UInt8(ascii: "e") {
                (name, kind) = ("scene", .scene)
            } else if bytes[start + 3] == UInt8(ascii: "e") {
                (name, kind) = ("screen", .screen)
            } else {
                (name, kind) = ("scroll", .scroll)
            }
        case UInt8(ascii: "v"): (name, kind) = ("viewShift", .viewShift)
        case UInt8(ascii: "f"): (name, kind) = ("focusChange", .focusChange)
        case UInt8(ascii: "a"): (name, kind) = ("action", .action)
        default: return nil
        }
        return spelledEnd(name, in: bytes, at: start).map { (kind, $0) }
    }

    /// Recognises a name that had escapes or bytes beyond ASCII, comparing Strings as the format
    /// always has (Unicode canonical equivalence).
    init?(decoded name: String) {
        guard let kind = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = kind
    }
}

/// A view tree read from a line.
