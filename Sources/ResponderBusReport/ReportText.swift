import EventLog
import ResponderBus

/// The words the report uses for records.
package enum ReportText {
    /// What a record says, in full: every field but its time, name and origin.
    package static func describe(_ event: LogEvent) -> String {
        guard case .keyboard(_, let info) = event else { return Timeline.describe(event) }
        var parts: [String] = []
        switch (info.begin, info.end) {
        case (let begin?, let end?): parts.append("\(begin) → \(end)")
        case (nil, let end?): parts.append("end \(end)")
        case (let begin?, nil): parts.append("begin \(begin), no end frame")
        case (nil, nil): parts.append("no frames")
        }
        if let duration = info.duration { parts.append("\(Markup.points(duration)) s") }
        if let curve = info.curve { parts.append("curve \(curve)") }
        if let isLocal = info.isLocal { parts.append(isLocal ? "this app's keyboard" : "another app's keyboard") }
        return parts.joined(separator: " · ")
    }

    /// Who produced a record: `external`, or the deriving plugin's name.
    package static func origin(_ origin: EventOrigin) -> String {
        origin.derivingPlugin ?? "external"
    }
}
