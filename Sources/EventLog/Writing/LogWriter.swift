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
        let by: String?
        if case .derived(let plugin) = record.origin { by = plugin } else { by = nil }
        let event = record.event
        func common(_ object: inout JSONObjectWriter) {
            if let by { object.string("by", by) }
        }
        func eventName(_ object: inout JSONObjectWriter) {
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
        func time(_ object: inout JSONObjectWriter) {
            object.number("t", record.t)
        }
        switch event {
        case .keyboard(_, let info):
            if let begin = info.begin { object.rect("begin", begin) }
            common(&object)
            if let curve = info.curve { object.integer("curve", curve) }
            if let duration = info.duration { object.number("duration", duration) }
            if let end = info.end { object.rect("end", end) }
            eventName(&object)
            if let isLocal = info.isLocal { object.bool("isLocal", isLocal) }
            origin(&object)
            time(&object)
        case .didBeginEditing(let info), .didEndEditing(let info):
            viewRecord(info.view, &object, common, eventName, origin, time)
        case .returnKey(let info):
            viewRecord(info.view, &object, common, eventName, origin, time)
        case .resign(let resign):
            viewRecord(resign.view, &object, common, eventName, origin, time)
        case .setFrame(let change):
            common(&object)
            eventName(&object)
            object.rect("frame", change.frame)
            origin(&object)
            time(&object)
            object.string("view", change.view.rawValue)
        case .viewShift(let shift):
            common(&object)
            object.integer("curve", shift.curve)
            object.number("duration", shift.duration)
            eventName(&object)
            origin(&object)
            object.number("originY", shift.originY)
            time(&object)
        case .scroll(let scroll):
            object.number("bottomInset", scroll.bottomInset)
            common(&object)
            object.number("contentOffsetY", scroll.contentOffsetY)
            eventName(&object)
            origin(&object)
            time(&object)
            object.string("view", scroll.view.rawValue)
        case .focusChange(let change):
            common(&object)
            eventName(&object)
            object.optionalString("from", change.from?.rawValue)
            origin(&object)
            time(&object)
            object.optionalString("to", change.to?.rawValue)
        case .scene, .screen, .action, .viewSettings, .viewMove, .diagnostic:
            // The rarer records, in a function of their own with the same common keys.
            writeRarer(event, &object, common, eventName, origin, time)
        }
        object.finish(into: &cursor)
    }

    /// The records of the rarer events — `scene`, `screen`, `action`, `viewSettings`, `viewMove`,
    /// `diagnostic` — with the common keys `write` hands over (the same passing as `viewRecord`'s).
    private static func writeRarer(
        _ event: LogEvent, _ object: inout JSONObjectWriter, _ common: (inout JSONObjectWriter) -> Void,
        _ eventName: (inout JSONObjectWriter) -> Void, _ origin: (inout JSONObjectWriter) -> Void,
        _ time: (inout JSONObjectWriter) -> Void
    ) {
        switch event {
        case .scene(let info):
            common(&object)
            eventName(&object)
            if let action = info.lastFieldAction { object.string("lastFieldAction", action) }
            origin(&object)
            object.object("root") { view(info.root, &$0) }
            time(&object)
        case .screen(let change):
            common(&object)
            eventName(&object)
            object.number("height", change.size.height)
            origin(&object)
            if let safeArea = change.safeArea { object.object("safeArea") { insets(safeArea, &$0) } }
            time(&object)
            object.number("width", change.size.width)
        case .action(let action):
            common(&object)
            eventName(&object)
            object.string("name", action.name)
            origin(&object)
            time(&object)
        case .viewSettings(let settings):
            object.bool("avoidsKeyboard", settings.avoidsKeyboard)
            common(&object)
            eventName(&object)
            // Written only when on, so that a record of the first two settings reads as before.
            if settings.followsKeyboard { object.bool("followsKeyboard", true) }
            if let distance = settings.keyboardDistance { object.number("keyboardDistance", distance) }
            origin(&object)
            time(&object)
            object.string("view", settings.view.rawValue)
        case .viewMove(let move):
            common(&object)
            object.integer("curve", move.curve)
            object.number("duration", move.duration)
            eventName(&object)
            object.rect("frame", move.frame)
            origin(&object)
            time(&object)
            object.string("view", move.view.rawValue)
        case .diagnostic(let diagnostic):
            common(&object)
            eventName(&object)
            object.string("level", diagnostic.level.rawValue)
            object.string("message", diagnostic.message)
            if !diagnostic.metadata.isEmpty { object.stringMap("metadata", diagnostic.metadata) }
            origin(&object)
            time(&object)
            if !diagnostic.views.isEmpty { object.strings("views", diagnostic.views.map(\.rawValue)) }
        default:
            preconditionFailure("\(event.name) is written by write itself")
        }
    }

    /// A record whose payload is only a view id: by, event, origin, t, view.
    private static func viewRecord(
        _ id: ViewID, _ object: inout JSONObjectWriter, _ common: (inout JSONObjectWriter) -> Void,
        _ eventName: (inout JSONObjectWriter) -> Void, _ origin: (inout JSONObjectWriter) -> Void,
        _ time: (inout JSONObjectWriter) -> Void
    ) {
        common(&object)
        eventName(&object)
        origin(&object)
        time(&object)
        object.string("view", id.rawValue)
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
