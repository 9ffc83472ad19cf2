import ResponderBus

/// Writes the log format: one JSON object per line, keys sorted, numbers in their shortest
/// round-tripping form (whole numbers without a fraction), so that logs diff cleanly.
///
/// Absent optional fields are left out. Derived records carry `"origin":"derived"` and `"by"`.
public enum LogWriter {
    /// The header line (without a newline).
    public static func line(for header: LogHeader) -> String {
        var members: [(String, String)] = [
            ("format", JSONText.string(LogHeader.formatName)),
            ("version", String(header.version)),
            ("screen", JSONText.object([("width", JSONText.number(header.screen.width)), ("height", JSONText.number(header.screen.height))])),
        ]
        if let safeArea = header.safeArea { members.append(("safeArea", insets(safeArea))) }
        if let source = header.screenSource { members.append(("screenSource", JSONText.string(source))) }
        if let device = header.device { members.append(("device", JSONText.string(device))) }
        return JSONText.object(members)
    }

    /// A record line (without a newline).
    public static func line(for record: LogRecord) -> String {
        var members: [(String, String)] = [("t", JSONText.number(record.t)), ("event", JSONText.string(record.event.name))]
        if case .derived(let by) = record.origin {
            members.append(("origin", JSONText.string("derived")))
            members.append(("by", JSONText.string(by)))
        }
        appendPayload(of: record.event, to: &members)
        return JSONText.object(members)
    }

    /// The whole log as text: the header, then one line per record, each ending in a newline.
    public static func text(header: LogHeader, records: [LogRecord]) -> String {
        var out = line(for: header) + "\n"
        for record in records { out += line(for: record) + "\n" }
        return out
    }

    static func insets(_ insets: EdgeInsets) -> String {
        JSONText.object([
            ("top", JSONText.number(insets.top)), ("left", JSONText.number(insets.left)),
            ("bottom", JSONText.number(insets.bottom)), ("right", JSONText.number(insets.right)),
        ])
    }

    static func view(_ spec: ViewSpec) -> String {
        var members: [(String, String)] = [
            ("id", JSONText.string(spec.id.rawValue)), ("kind", JSONText.string(spec.kind.rawValue)),
            ("frame", JSONText.rect(spec.frame)),
        ]
        if let tag = spec.tag { members.append(("tag", String(tag))) }
        if spec.isHidden { members.append(("hidden", "true")) }
        if !spec.isEnabled { members.append(("enabled", "false")) }
        if let distance = spec.keyboardDistance { members.append(("keyboardDistance", JSONText.number(distance))) }
        if let offset = spec.contentOffset { members.append(("contentOffset", "[\(JSONText.number(offset.x)),\(JSONText.number(offset.y))]")) }
        if let size = spec.contentSize { members.append(("contentSize", "[\(JSONText.number(size.width)),\(JSONText.number(size.height))]")) }
        if !spec.children.isEmpty { members.append(("children", "[" + spec.children.map(view).joined(separator: ",") + "]")) }
        return JSONText.object(members)
    }

    private static func appendPayload(of event: LogEvent, to members: inout [(String, String)]) {
        switch event {
        case .keyboard(_, let info):
            if let begin = info.begin { members.append(("begin", JSONText.rect(begin))) }
            if let end = info.end { members.append(("end", JSONText.rect(end))) }
            if let duration = info.duration { members.append(("duration", JSONText.number(duration))) }
            if let curve = info.curve { members.append(("curve", String(curve))) }
            if let isLocal = info.isLocal { members.append(("isLocal", isLocal ? "true" : "false")) }
        case .didBeginEditing(let info), .didEndEditing(let info):
            members.append(("view", JSONText.string(info.view.rawValue)))
        case .returnKey(let info):
            members.append(("view", JSONText.string(info.view.rawValue)))
        case .scene(let info):
            members.append(("root", view(info.root)))
            if let action = info.lastFieldAction { members.append(("lastFieldAction", JSONText.string(action))) }
        case .setFrame(let change):
            members.append(("view", JSONText.string(change.view.rawValue)))
            members.append(("frame", JSONText.rect(change.frame)))
        case .screen(let change):
            members.append(("width", JSONText.number(change.size.width)))
            members.append(("height", JSONText.number(change.size.height)))
            if let safeArea = change.safeArea { members.append(("safeArea", insets(safeArea))) }
        case .viewShift(let shift):
            members.append(("originY", JSONText.number(shift.originY)))
            members.append(("duration", JSONText.number(shift.duration)))
            members.append(("curve", String(shift.curve)))
        case .scroll(let scroll):
            members.append(("view", JSONText.string(scroll.view.rawValue)))
            members.append(("contentOffsetY", JSONText.number(scroll.contentOffsetY)))
            members.append(("bottomInset", JSONText.number(scroll.bottomInset)))
        case .focusChange(let change):
            members.append(("from", change.from.map { JSONText.string($0.rawValue) } ?? "null"))
            members.append(("to", change.to.map { JSONText.string($0.rawValue) } ?? "null"))
        case .action(let action):
            members.append(("name", JSONText.string(action.name)))
        case .resign(let resign):
            members.append(("view", JSONText.string(resign.view.rawValue)))
        case .diagnostic(let diagnostic):
            members.append(("level", JSONText.string(diagnostic.level.rawValue)))
            members.append(("message", JSONText.string(diagnostic.message)))
        }
    }
}
