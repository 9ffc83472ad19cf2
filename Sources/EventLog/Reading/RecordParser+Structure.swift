import ResponderBus

extension RecordParser {
    /// Calls `member` for each key of an object, with the parser on its value.
    @inline(__always)
    mutating func parseObject(_ member: (inout RecordParser, FieldKey) throws(LogReadError) -> Void) throws(LogReadError) {
        guard peek() == UInt8(ascii: "{") else { throw error(.wrongType, "expected an object") }
        position += 1
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            let key = try parseKey()
            try expect(UInt8(ascii: ":"), "':' after a key")
            _ = peek()
            try member(&self, key)
            guard let next = peek() else { throw unexpectedEnd("',' or '}'") }
            position += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else {
                position -= 1
                throw unexpected("',' or '}'")
            }
        }
    }

    /// Reads an array of strings.
    mutating func parseStringArray() throws(LogReadError) -> [String] {
        guard peek() == UInt8(ascii: "[") else { throw error(.wrongType, "expected an array of strings") }
        position += 1
        var strings: [String] = []
        if peek() == UInt8(ascii: "]") {
            position += 1
            return strings
        }
        while true {
            strings.append(try parseString())
            guard let next = peek() else { throw unexpectedEnd("',' or ']'") }
            position += 1
            if next == UInt8(ascii: "]") { return strings }
            guard next == UInt8(ascii: ",") else {
                position -= 1
                throw unexpected("',' or ']'")
            }
        }
    }

    /// Reads an object whose values are all strings, keeping its keys as they are spelled.
    mutating func parseStringMap() throws(LogReadError) -> [String: String] {
        guard peek() == UInt8(ascii: "{") else { throw error(.wrongType, "expected an object of strings") }
        position += 1
        var map: [String: String] = [:]
        if peek() == UInt8(ascii: "}") {
            position += 1
            return map
        }
        while true {
            let key = try parseString()
            try expect(UInt8(ascii: ":"), "':' after a key")
            _ = peek()
            map[key] = try parseString()
            guard let next = peek() else { throw unexpectedEnd("',' or '}'") }
            position += 1
            if next == UInt8(ascii: "}") { return map }
            guard next == UInt8(ascii: ",") else {
                position -= 1
                throw unexpected("',' or '}'")
            }
        }
    }

    /// Skips any JSON value, without recursion (deep nesting cannot overflow the stack).
    mutating func skipValue() throws(LogReadError) {
        var depth = 0
        repeat {
            guard let byte = peek() else { throw unexpectedEnd("a value") }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                position += 1
                if let close = peek(), close == UInt8(ascii: "}") || close == UInt8(ascii: "]") {
                    depth -= 1
                    position += 1
                    break
                }
                if byte == UInt8(ascii: "{") {
                    try skipString()
                    try expect(UInt8(ascii: ":"), "':' after a key")
                }
                continue
            case UInt8(ascii: "\""): try skipString()
            case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try parseBool()
            case UInt8(ascii: "n"):
                guard parseNull() else { throw unexpected("a value") }
            default: _ = try parseNumber()
            }
            // After a value inside a container: ',' (then the next member) or a closing bracket.
            while depth > 0 {
                guard let next = peek() else { throw unexpectedEnd("',' or a closing bracket") }
                if next == UInt8(ascii: ",") {
                    position += 1
                    // Inside an object the next member starts with a key. We cannot tell objects from
                    // arrays without a stack; a key is a string followed by ':'.
                    let save = position
                    if peek() == UInt8(ascii: "\"") {
                        try skipString()
                        if peek() == UInt8(ascii: ":") { position += 1 } else { position = save }
                    }
                    break
                } else if next == UInt8(ascii: "}") || next == UInt8(ascii: "]") {
                    position += 1
                    depth -= 1
                } else {
                    throw unexpected("',' or a closing bracket")
                }
            }
        } while depth > 0
    }

    // MARK: Views

    mutating func parseView(depth: Int) throws(LogReadError) -> ViewSpec {
        guard depth < Self.maxDepth else {
            throw error(.invalidValue, "the view tree is nested more than \(Self.maxDepth) levels deep")
        }
        let start = position
        var id: String?
        var kind = ViewKind.view
        var unrecognizedKind: String?
        var frame: Rect?
        var tag: Int?
        var hidden = false
        var enabled = true
        var distance: Double?
        var secure = false
        var offset: Point?
        var size: Size?
        var children: [ViewSpec] = []
        var className: String?
        try parseObject { (parser: inout RecordParser, key: FieldKey) throws(LogReadError) in
            switch key {
            case .id: id = try parser.parseViewID()
            // A repeated key: the last one wins, whole.
            case .kind: (kind, unrecognizedKind) = try parser.parseViewKind()
            case .frame: frame = try parser.parseRect()
            case .tag: tag = parser.parseNull() ? nil : try parser.parseInt()
            case .hidden: hidden = try parser.parseBool()
            case .enabled: enabled = try parser.parseBool()
            case .keyboardDistance: distance = parser.parseNull() ? nil : try parser.parseNumber()
            case .secure: secure = try parser.parseBool()
            case .className: className = parser.parseNull() ? nil : try parser.parseString()
            case .contentOffset:
                let (x, y) = try parser.parsePair(.x, .y)
                offset = Point(x: x, y: y)
            case .contentSize:
                let (w, h) = try parser.parsePair(.width, .height)
                size = Size(width: w, height: h)
            case .children: children += try parser.parseChildren(depth: depth)
            default: try parser.skipValue()
            }
        }
        guard let id else { throw error(.missingField, at: start, "a view needs an \"id\"") }
        guard let frame else { throw error(.missingField, at: start, "view '\(id)' needs a \"frame\" [x, y, width, height]") }
        var spec = ViewSpec(
            id: ViewID(id), kind: kind, frame: frame, tag: tag, isHidden: hidden, isEnabled: enabled, keyboardDistance: distance,
            isSecure: secure, contentOffset: offset, contentSize: size, className: className, unrecognizedKind: unrecognizedKind, children: children)
        // `secure` is read (and checked) on any view, and kept where it means something: on a text
        // input, and on a kind this reader does not know (written back out with it).
        spec.isSecure = spec.keepsSecureInLog
        return spec
    }

    /// A view's id, unique in the scene.
    private mutating func parseViewID() throws(LogReadError) -> String {
        let at = position
        let value = try parseString()
        guard lineExtras().sceneViewIDs.insert(value).inserted else {
            throw error(.invalidValue, at: at, "view id '\(value)' appears twice in the scene; each view needs an id of its own")
        }
        return value
    }

    /// A view's kind; a newer writer's kind is a plain view that remembers it, with a warning.
    private mutating func parseViewKind() throws(LogReadError) -> (ViewKind, unrecognized: String?) {
        let at = position
        let text = try parseString()
        if let parsed = ViewKind(rawValue: text) { return (parsed, nil) }
        lineExtras().warnings.append(
            error(
                .unknownViewKind, at: at,
                "unknown view kind '\(text)'; the view is kept as a plain view (this reader knows \(ViewKind.spelledOut))"))
        return (.view, text)
    }

    /// A view's children: an array of views one level deeper.
    private mutating func parseChildren(depth: Int) throws(LogReadError) -> [ViewSpec] {
        guard peek() == UInt8(ascii: "[") else { throw error(.wrongType, "expected an array of views") }
        position += 1
        var children: [ViewSpec] = []
        if peek() == UInt8(ascii: "]") {
            position += 1
            return children
        }
        while true {
            children.append(try parseView(depth: depth + 1))
            guard let next = peek() else { throw unexpectedEnd("',' or ']'") }
            position += 1
            if next == UInt8(ascii: "]") { return children }
            guard next == UInt8(ascii: ",") else {
                position -= 1
                throw unexpected("',' or ']'")
            }
        }
    }

    // MARK: Lines

    /// Reads the top-level object of the line into `fields` (and ``root``). The loop over the
    /// members and the dispatch on the keys of every event are one function: this runs for every
    /// member of every line; the keys of the header, scenes, screens, diagnostics and view
    /// settings go to ``parseOccasionalField(_:into:)``.
    mutating func parseFields(into fields: inout RawFields) throws(LogReadError) {
        guard let first = peek() else { throw unexpectedEnd("a record") }
        guard first == UInt8(ascii: "{") else { throw unexpected("'{' (each line is one JSON object)") }
        position += 1
        if peek() == UInt8(ascii: "}") {
            position += 1
        } else {
            while true {
                let key = try parseKey()
                try expect(UInt8(ascii: ":"), "':' after a key")
                _ = peek()
                switch key {
                case .t:
                    fields.tColumn = position + 1
                    fields.t = try parseNumber()
                case .event:
                    // The name of an event the format knows is recognised where it stands (`EventSpellings`).
                    if peek() == UInt8(ascii: "\""), let (kind, end) = EventSpellings.table.known(in: bytes, at: position + 1) {
                        fields.event = StringRef(quote: position, end: end, isVerbatim: true)
                        fields.eventKind = kind
                        position = end + 1
                    } else {
                        fields.event = try parseStringRef()
                        fields.eventKind = nil
                    }
                case .origin: fields.origin = try nullableString()
                case .by: fields.by = try nullableString()
                case .view: fields.view = try parseStringRef()
                case .begin: fields.begin = parseNull() ? nil : try parseRect()
                case .end: fields.end = parseNull() ? nil : try parseRect()
                case .duration:
                    fields.durationColumn = position + 1
                    fields.duration = parseNull() ? nil : try parseNumber()
                case .curve: fields.curve = parseNull() ? nil : try parseInt()
                case .isLocal: fields.isLocal = parseNull() ? nil : try parseBool()
                case .frame: fields.frame = try parseRect()
                case .originY: fields.originY = try parseNumber()
                case .contentOffsetY: fields.contentOffsetY = try parseNumber()
                case .bottomInset: fields.bottomInset = try parseNumber()
                case .from: fields.from = try nullableString()
                case .to: fields.to = try nullableString()
                case .name: fields.name = try parseStringRef()
                case .id, .kind, .tag, .hidden, .enabled, .secure, .contentOffset, .contentSize, .children, .className, .x, .y,
                    .top, .left, .bottom, .right, .unknown:
                    try skipValue()
                default: try parseOccasionalField(key, into: &fields)
                }
                guard let next = peek() else { throw unexpectedEnd("',' or '}'") }
                position += 1
                if next == UInt8(ascii: "}") { break }
                guard next == UInt8(ascii: ",") else {
                    position -= 1
                    throw unexpected("',' or '}'")
                }
            }
        }
        guard atEnd() else { throw unexpected("the end of the line after the record") }
    }

    /// A key of the header, a scene, a screen change, a diagnostic or a view's settings.
    private mutating func parseOccasionalField(_ key: FieldKey, into fields: inout RawFields) throws(LogReadError) {
        switch key {
        case .width: fields.width = try parseNumber()
        case .height: fields.height = try parseNumber()
        case .safeArea: fields.safeArea = parseNull() ? nil : try parseInsets()
        case .root:
            extras?.sceneViewIDs.removeAll(keepingCapacity: true)
            let root = try parseView(depth: 0)
            lineExtras().root = root
        case .lastFieldAction: fields.lastFieldAction = try nullableString()
        case .level: fields.level = try parseStringRef()
        case .message: fields.message = try parseStringRef()
        case .keyboardDistance:
            fields.keyboardDistanceColumn = position + 1
            fields.keyboardDistance = parseNull() ? nil : try parseNumber()
        case .avoidsKeyboard: fields.avoidsKeyboard = try parseBool()
        case .followsKeyboard: fields.followsKeyboard = try parseBool()
        case .views:
            let views = try parseStringArray().map { ViewID($0) }
            lineExtras().views = views
        case .metadata:
            let metadata = try parseStringMap()
            lineExtras().metadata = metadata
        case .format: fields.format = try parseStringRef()
        case .version:
            fields.versionColumn = position + 1
            fields.version = try parseInt()
        case .screen:
            let (w, h) = try parsePair(.width, .height)
            fields.screen = Size(width: w, height: h)
        case .screenSource: fields.screenSource = try nullableString()
        case .device: fields.device = try nullableString()
        default: try skipValue()
        }
    }

    @inline(__always)
    private mutating func nullableString() throws(LogReadError) -> StringRef? {
        parseNull() ? nil : try parseStringRef()
    }
}
