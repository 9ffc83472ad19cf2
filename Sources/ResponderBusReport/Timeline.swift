import EventLog
import ResponderBus

/// The readable timeline `replay` prints by default.
package enum Timeline {
    package static func time(_ t: Double) -> String {
        let millis = Int((t * 1000).rounded())
        let text = "\(millis / 1000).\(String(repeating: "0", count: 3 - String(millis % 1000).count))\(millis % 1000)"
        return String(repeating: " ", count: max(0, 9 - text.count)) + text
    }

    package static func point(_ value: Double) -> String { JSONText.number(value) }

    /// One external event; control characters from the log are shown escaped.
    package static func external(_ record: LogRecord) -> String {
        let name = record.event.name.padding(to: 24)
        return TerminalText.escaped("\(time(record.t))  \(name)\(describe(record.event))")
    }

    /// One decision; control characters from the log are shown escaped.
    package static func derived(_ record: LogRecord) -> String {
        let by = record.origin.derivingPlugin ?? "?"
        return TerminalText.escaped("\(time(record.t))    → \(by): \(record.event.name) \(describe(record.event))")
    }

    package static func describe(_ event: LogEvent) -> String {
        switch event {
        case .keyboard(_, let info):
            var parts: [String] = []
            if let end = info.end { parts.append("end \(end)") } else if let begin = info.begin { parts.append("begin \(begin)") }
            if let duration = info.duration { parts.append("\(point(duration)) s") }
            if let curve = info.curve { parts.append("curve \(curve)") }
            if info.isLocal == false { parts.append("another app's keyboard") }
            return parts.joined(separator: "  ")
        case .didBeginEditing(let info), .didEndEditing(let info): return "'\(info.view)'"
        case .returnKey(let info): return "in '\(info.view)'"
        case .scene(let info):
            var count = 0
            var secure: [ViewID] = []
            var stack = [info.root]
            while let view = stack.popLast() {
                count += 1
                // The model's rule: only a text input is a password field.
                if view.isSecure, view.kind.isTextInput { secure.append(view.id) }
                stack.append(contentsOf: view.children.reversed())
            }
            let passwords = secure.isEmpty ? "" : ", secure " + secure.map { "'\($0)'" }.joined(separator: ", ")
            return "\(count) views" + passwords + (info.lastFieldAction.map { ", last field performs '\($0)'" } ?? "")
        case .setFrame(let change): return "'\(change.view)' to \(change.frame)"
        case .screen(let change): return "\(change.size)" + (change.safeArea.map { ", safe area \($0)" } ?? "")
        case .viewShift(let shift): return "root to y \(point(shift.originY)) (\(point(shift.duration)) s, curve \(shift.curve))"
        case .scroll(let scroll): return "'\(scroll.view)' to offset \(point(scroll.contentOffsetY)), bottom inset \(point(scroll.bottomInset))"
        case .focusChange(let change): return "'\(change.from?.rawValue ?? "none")' → '\(change.to?.rawValue ?? "none")'"
        case .action(let action): return "'\(action.name)'"
        case .resign(let resign): return "'\(resign.view)'"
        case .viewSettings(let settings):
            let gap = settings.keyboardDistance.map { "gap \(point($0))" } ?? "default gap"
            return "'\(settings.view)' \(gap)" + (settings.avoidsKeyboard ? "" : ", not avoided")
                + (settings.followsKeyboard ? ", follows the keyboard" : "")
        case .viewMove(let move):
            return "'\(move.view)' to \(move.frame) (\(point(move.duration)) s, curve \(move.curve))"
        case .diagnostic(let diagnostic):
            var text = "\(diagnostic.level.rawValue): \(diagnostic.message)"
            if !diagnostic.views.isEmpty { text += " [views: " + diagnostic.views.map { "'\($0)'" }.joined(separator: ", ") + "]" }
            if !diagnostic.metadata.isEmpty {
                text += " {" + diagnostic.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + "}"
            }
            return text
        }
    }
}

extension String {
    package func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
