import ResponderBus

enum FieldKey: UInt8, CaseIterable {
    // Records.
    case t, event, origin, by, view, begin, end, duration, curve, isLocal, frame, width, height, safeArea, root
    case lastFieldAction, originY, contentOffsetY, bottomInset, from, to, name, level, message, views, metadata
    case avoidsKeyboard, followsKeyboard
    // The header.
    case format, version, screen, screenSource, device
    // Views, pairs and insets.
    case id, kind, tag, hidden, enabled, keyboardDistance, secure, contentOffset, contentSize, children, className, x, y
    case top, left, bottom, right
    /// A key the format does not know: its value is skipped.
    case unknown

    /// The key as written in a log.
    var spelling: StaticString {
        switch self {
        case .t: "t"
        case .event: "event"
        case .origin: "origin"
        case .by: "by"
        case .view: "view"
        case .begin: "begin"
        case .end: "end"
        case .duration: "duration"
        case .curve: "curve"
        case .isLocal: "isLocal"
        case .frame: "frame"
        case .width: "width"
        case .height: "height"
        case .safeArea: "safeArea"
        case .root: "root"
        case .lastFieldAction: "lastFieldAction"
        case .originY: "originY"
        case .contentOffsetY: "contentOffsetY"
        case .bottomInset: "bottomInset"
        case .from: "from"
        case .to: "to"
        case .name: "name"
        case .level: "level"
        case .message: "message"
        case .views: "views"
        case .metadata: "metadata"
        case .avoidsKeyboard: "avoidsKeyboard"
        case .followsKeyboard: "followsKeyboard"
        case .format: "format"
        case .version: "version"
        case .screen: "screen"
        case .screenSource: "screenSource"
        case .device: "device"
        case .id: "id"
        case .kind: "kind"
        case .tag: "tag"
        case .hidden: "hidden"
        case .enabled: "enabled"
        case .keyboardDistance: "keyboardDistance"
        case .secure: "secure"
        case .className: "class"
        case .contentOffset: "contentOffset"
        case .contentSize: "contentSize"
        case .children: "children"
        case .x: "x"
        case .y: "y"
        case .top: "top"
        case .left: "left"
        case .bottom: "bottom"
        case .right: "right"
        case .unknown: ""
        }
    }

    /// The key as a String (for messages).
    var text: String { "\(spelling)" }

    /// The known key spelled at `start` in `bytes` and closed by a quote right after it, with the
    /// offset of that quote; `nil` otherwise. No scan for the closing quote: the first byte picks a
    /// few candidates, each checked with a word compare or two.
    static func known(in bytes: LineBytes, at start: Int) -> (key: FieldKey, end: Int)? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "a"):
            if let end = bytes.end(of: "avoidsKeyboard", at: start) { return (.avoidsKeyboard, end) }
        case UInt8(ascii: "b"):
            if let end = bytes.end(of: "begin", at: start) { return (.begin, end) }
            if let end = bytes.end(of: "by", at: start) { return (.by, end) }
            if let end = bytes.end(of: "bottomInset", at: start) { return (.bottomInset, end) }
            if let end = bytes.end(of: "bottom", at: start) { return (.bottom, end) }
        case UInt8(ascii: "c"):
            if let end = bytes.end(of: "curve", at: start) { return (.curve, end) }
            if let end = bytes.end(of: "children", at: start) { return (.children, end) }
            if let end = bytes.end(of: "class", at: start) { return (.className, end) }
            if let end = bytes.end(of: "contentOffsetY", at: start) { return (.contentOffsetY, end) }
            if let end = bytes.end(of: "contentOffset", at: start) { return (.contentOffset, end) }
            if let end = bytes.end(of: "contentSize", at: start) { return (.contentSize, end) }
        case UInt8(ascii: "d"):
            if let end = bytes.end(of: "duration", at: start) { return (.duration, end) }
            if let end = bytes.end(of: "device", at: start) { return (.device, end) }
        case UInt8(ascii: "e"):
            if let end = bytes.end(of: "event", at: start) { return (.event, end) }
            if let end = bytes.end(of: "end", at: start) { return (.end, end) }
            if let end = bytes.end(of: "enabled", at: start) { return (.enabled, end) }
        case UInt8(ascii: "f"):
            if let end = bytes.end(of: "frame", at: start) { return (.frame, end) }
            if let end = bytes.end(of: "from", at: start) { return (.from, end) }
            if let end = bytes.end(of: "format", at: start) { return (.format, end) }
            if let end = bytes.end(of: "followsKeyboard", at: start) { return (.followsKeyboard, end) }
        case UInt8(ascii: "h"):
            if let end = bytes.end(of: "height", at: start) { return (.height, end) }
            if let end = bytes.end(of: "hidden", at: start) { return (.hidden, end) }
        case UInt8(ascii: "i"):
            if let end = bytes.end(of: "isLocal", at: start) { return (.isLocal, end) }
            if let end = bytes.end(of: "id", at: start) { return (.id, end) }
        case UInt8(ascii: "k"):
            if let end = bytes.end(of: "kind", at: start) { return (.kind, end) }
            if let end = bytes.end(of: "keyboardDistance", at: start) { return (.keyboardDistance, end) }
        case UInt8(ascii: "l"):
            if let end = bytes.end(of: "lastFieldAction", at: start) { return (.lastFieldAction, end) }
            if let end = bytes.end(of: "level", at: start) { return (.level, end) }
            if let end = bytes.end(of: "left", at: start) { return (.left, end) }
        case UInt8(ascii: "m"):
            if let end = bytes.end(of: "message", at: start) { return (.message, end) }
            if let end = bytes.end(of: "metadata", at: start) { return (.metadata, end) }
        case UInt8(ascii: "n"):
            if let end = bytes.end(of: "name", at: start) { return (.name, end) }
        case UInt8(ascii: "o"):
            if let end = bytes.end(of: "origin", at: start) { return (.origin, end) }
            if let end = bytes.end(of: "originY", at: start) { return (.originY, end) }
        case UInt8(ascii: "r"):
            if let end = bytes.end(of: "root", at: start) { return (.root, end) }
            if let end = bytes.end(of: "right", at: start) { return (.right, end) }
        case UInt8(ascii: "s"):
            if let end = bytes.end(of: "safeArea", at: start) { return (.safeArea, end) }
            if let end = bytes.end(of: "screen", at: start) { return (.screen, end) }
            if let end = bytes.end(of: "screenSource", at: start) { return (.screenSource, end) }
            if let end = bytes.end(of: "secure", at: start) { return (.secure, end) }
        case UInt8(ascii: "t"):
            if let end = bytes.end(of: "t", at: start) { return (.t, end) }
            if let end = bytes.end(of: "to", at: start) { return (.to, end) }
            if let end = bytes.end(of: "tag", at: start) { return (.tag, end) }
            if let end = bytes.end(of: "top", at: start) { return (.top, end) }
        case UInt8(ascii: "v"):
            if let end = bytes.end(of: "view", at: start) { return (.view, end) }
            if let end = bytes.end(of: "version", at: start) { return (.version, end) }
            if let end = bytes.end(of: "views", at: start) { return (.views, end) }
        case UInt8(ascii: "w"):
            if let end = bytes.end(of: "width", at: start) { return (.width, end) }
        case UInt8(ascii: "x"):
            if let end = bytes.end(of: "x", at: start) { return (.x, end) }
        case UInt8(ascii: "y"):
            if let end = bytes.end(of: "y", at: start) { return (.y, end) }
        default: break
        }
        return nil
    }

    /// Recognises a key that had escapes or bytes beyond ASCII, comparing Strings as the format
    /// always has (Unicode canonical equivalence).
    init(decoded key: String) {
        self = Self.allCases.first { $0 != .unknown && $0.text == key } ?? .unknown
    }
}

/// The events of the format, recognised from the bytes of an `event` value.
