import ResponderBus

/// Writes the log format: one JSON object per line, keys sorted, numbers in their shortest
/// round-tripping form (whole numbers without a fraction), so that logs diff cleanly.
///
/// Absent optional fields are left out. Derived records carry `"origin":"derived"` and `"by"`.
///
/// Records are written as UTF-8 bytes straight into a buffer, each object's members in sorted key
/// order by construction (no strings per member, no sorting per record): a replay writes every
/// derived record, so this is on its hot path. ``append(_:to:)-(LogRecord,_)`` is the fast form;
/// ``line(for:)-(LogRecord)`` returns the same text as a `String`.
public enum LogWriter {
    /// The header line (without a newline).
    public static func line(for header: LogHeader) -> String {
        var bytes: [UInt8] = []
        append(header, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A record line (without a newline).
    public static func line(for record: LogRecord) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160)
        append(record, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The whole log as text: the header, then one line per record, each ending in a newline.
    public static func text(header: LogHeader, records: [LogRecord]) -> String {
        var bytes: [UInt8] = []
        append(header, to: &bytes)
        bytes.append(0x0A)
        for record in records {
            append(record, to: &bytes)
            bytes.append(0x0A)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the header line (without a newline) to `bytes`.
    public static func append(_ header: LogHeader, to bytes: inout [UInt8]) {
        ByteCursor.append(to: &bytes) { write(header, to: &$0) }
    }

    private static func write(_ header: LogHeader, to cursor: inout ByteCursor) {
        var object = JSONObjectWriter(into: &cursor)
        if let device = header.device { object.string("device", device) }
        object.string("format", LogHeader.formatName)
        if let safeArea = header.safeArea { object.object("safeArea") { insets(safeArea, &$0) } }
        object.object("screen") { screen in
            screen.number("height", header.screen.height)
            screen.number("width", header.screen.width)
        }
        if let source = header.screenSource { object.string("screenSource", source) }
        object.integer("version", header.version)
        object.finish(into: &cursor)
    }

    /// Appends a record line (without a newline) to `bytes`.
    public static func append(_ record: LogRecord, to bytes: inout [UInt8]) {
        ByteCursor.append(to: &bytes) { write(record, to: &$0) }
    }

    private static func write(_ record: LogRecord, to cursor: inout ByteCursor) {
        var object = JSONObjectWriter(into: &cursor)
        // Every case writes its keys in sorted (byte) order, interleaving the common ones: "by",
        // "event", "origin", "t".
        let keys = CommonKeys(record)
        switch record.event {
        case .keyboard(_, let info): keyboard(info, keys, &object)
        case .didBeginEditing(let info), .didEndEditing(let info): viewRecord(info.view, keys, &object)
        case .returnKey(let info): viewRecord(info.view, keys, &object)
        case .resign(let resign): viewRecord(resign.view, keys, &object)
        case .scene(let info):
            keys.byAndEvent(&object)
            if let action = info.lastFieldAction { object.string("lastFieldAction", action) }
            keys.origin(&object)
            object.object("root") { view(info.root, &$0) }
            keys.time(&object)
        case .setFrame(let change):
            keys.byAndEvent(&object)
            object.rect("frame", change.frame)
            keys.originAndTime(&object)
            object.string("view", change.view.rawValue)
        case .screen(let change): screen(change, keys, &object)
        case .viewShift(let shift):
            keys.by(&object)
            object.integer("curve", shift.curve)
            object.number("duration", shift.duration)
            keys.event(&object)
            keys.origin(&object)
            object.number("originY", shift.originY)
            keys.time(&object)
        case .scroll(let scroll):
            object.number("bottomInset", scroll.bottomInset)
            keys.by(&object)
            object.number("contentOffsetY", scroll.contentOffsetY)
            keys.event(&object)
            keys.originAndTime(&object)
            object.string("view", scroll.view.rawValue)
        case .focusChange(let change):
            keys.byAndEvent(&object)
            object.optionalString("from", change.from?.rawValue)
            keys.originAndTime(&object)
            object.optionalString("to", change.to?.rawValue)
        case .action(let action):
            keys.byAndEvent(&object)
            object.string("name", action.name)
            keys.originAndTime(&object)
        case .viewSettings(let settings): viewSettings(settings, keys, &object)
        case .diagnostic(let diagnostic): self.diagnostic(diagnostic, keys, &object)
        }
        object.finish(into: &cursor)
    }

    /// The keys every record may have: "by" and "origin" for a decision, "event", "t".
    private struct CommonKeys {
        let by: String?
        let event: LogEvent
        let t: Double

        init(_ record: LogRecord) {
            if case .derived(let plugin) = record.origin { by = plugin } else { by = nil }
            event = record.event
            t = record.t
        }

        func by(_ object: inout JSONObjectWriter) {
            if let by { object.string("by", by) }
        }

        func event(_ object: inout JSONObjectWriter) {
            // The vocabulary's names need no escaping; a keyboard name made outside it is a string.
            guard let builtin = event.builtin else { return object.string("event", event.name) }
            object.key("event")
            object.out.byte(UInt8(ascii: "\""))
            EventSpellings.table.write(builtin, to: &object.out)
            object.out.byte(UInt8(ascii: "\""))
        }

        func origin(_ object: inout JSONObjectWriter) {
            if by != nil {
                object.key("origin")
                object.out.ascii("\"derived\"")
            }
        }

        func time(_ object: inout JSONObjectWriter) { object.number("t", t) }

        func byAndEvent(_ object: inout JSONObjectWriter) {
            by(&object)
            event(&object)
        }

        func originAndTime(_ object: inout JSONObjectWriter) {
            origin(&object)
            time(&object)
        }
    }

    private static func keyboard(_ info: KeyboardInfo, _ keys: CommonKeys, _ object: inout JSONObjectWriter) {
        if let begin = info.begin { object.rect("begin", begin) }
        keys.by(&object)
        if let curve = info.curve { object.integer("curve", curve) }
        if let duration = info.duration { object.number("duration", duration) }
        if let end = info.end { object.rect("end", end) }
        keys.event(&object)
        if let isLocal = info.isLocal { object.bool("isLocal", isLocal) }
        keys.originAndTime(&object)
    }

    /// A record whose payload is only a view id: by, event, origin, t, view.
    private static func viewRecord(_ id: ViewID, _ keys: CommonKeys, _ object: inout JSONObjectWriter) {
        keys.byAndEvent(&object)
        keys.originAndTime(&object)
        object.string("view", id.rawValue)
    }

    private static func screen(_ change: ScreenChange, _ keys: CommonKeys, _ object: inout JSONObjectWriter) {
        keys.byAndEvent(&object)
        object.number("height", change.size.height)
        keys.origin(&object)
        if let safeArea = change.safeArea { object.object("safeArea") { insets(safeArea, &$0) } }
        keys.time(&object)
        object.number("width", change.size.width)
    }

    private static func viewSettings(_ settings: ViewSettings, _ keys: CommonKeys, _ object: inout JSONObjectWriter) {
        object.bool("avoidsKeyboard", settings.avoidsKeyboard)
        keys.byAndEvent(&object)
        if let distance = settings.keyboardDistance { object.number("keyboardDistance", distance) }
        keys.originAndTime(&object)
        object.string("view", settings.view.rawValue)
    }

    private static func diagnostic(_ diagnostic: Diagnostic, _ keys: CommonKeys, _ object: inout JSONObjectWriter) {
        keys.byAndEvent(&object)
        object.string("level", diagnostic.level.rawValue)
        object.string("message", diagnostic.message)
        if !diagnostic.metadata.isEmpty { object.stringMap("metadata", diagnostic.metadata) }
        keys.originAndTime(&object)
        if !diagnostic.views.isEmpty { object.strings("views", diagnostic.views.map(\.rawValue)) }
    }

    private static func insets(_ insets: EdgeInsets, _ object: inout JSONObjectWriter) {
        object.number("bottom", insets.bottom)
        object.number("left", insets.left)
        object.number("right", insets.right)
        object.number("top", insets.top)
    }

    private static func view(_ spec: ViewSpec, _ object: inout JSONObjectWriter) {
        if !spec.children.isEmpty { object.objects("children", spec.children) { view($1, &$0) } }
        if let className = spec.className { object.string("class", className) }
        if let offset = spec.contentOffset { object.pair("contentOffset", offset.x, offset.y) }
        if let size = spec.contentSize { object.pair("contentSize", size.width, size.height) }
        if !spec.isEnabled { object.bool("enabled", false) }
        object.rect("frame", spec.frame)
        if spec.isHidden { object.bool("hidden", true) }
        object.string("id", spec.id.rawValue)
        if let distance = spec.keyboardDistance { object.number("keyboardDistance", distance) }
        object.string("kind", spec.kind == .view ? spec.unrecognizedKind ?? "view" : spec.kind.rawValue)
        // Only when true, and only where a reader keeps it (a text input): logs without secure
        // fields read and write exactly as before.
        if spec.keepsSecureInLog { object.bool("secure", true) }
        if let tag = spec.tag { object.integer("tag", tag) }
    }
}
