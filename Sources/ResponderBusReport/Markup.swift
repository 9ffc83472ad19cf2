import EventLog
import ResponderBus

/// Text for HTML and SVG: escaping, and numbers as short as they can be.
package enum Markup {
    /// Escapes text for an element's content or a quoted attribute value, in HTML, SVG or XML:
    /// markup escaped, and the control characters XML 1.0 cannot hold (all below U+0020 but tab
    /// and newline, which stay, and carriage return, which is written `&#13;`; and U+FFFE, U+FFFF)
    /// replaced with U+FFFD.
    package static func escape(_ text: String) -> String {
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || $0 == 0xEF }) {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            case "\r": out += "&#13;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A coordinate for SVG, rounded to a hundredth: `12`, `-3.5`, `0.25`.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 100).rounded() / 100
        if rounded == 0 { return "0" }
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }

    /// Seconds with milliseconds, as the timeline prints them: `1.009`, `11.350`.
    package static func time(_ t: Double) -> String {
        var text = Timeline.time(t)
        while text.hasPrefix(" ") { text.removeFirst() }
        return text
    }

    /// Points as the log writes them: `291`, `20.5`.
    package static func points(_ value: Double) -> String { JSONText.number(value) }

    /// `1 violation`, `3 violations`.
    package static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
    }
}
