import ResponderBus

/// Writes JSON text the way the log format wants it; public for tools that print values as logs
/// hold them.
public enum JSONText {
    /// A number in its shortest round-tripping form, whole numbers without a fraction (`521`, not
    /// `521.0`); `null` for NaN and infinities, which JSON cannot hold.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return value == 0 ? "0" : String(Int64(value))
        }
        return value.description
    }

    /// A JSON string literal, with the escapes JSON requires.
    public static func string(_ value: String) -> String {
        // Fast path: nothing to escape (the usual ids, names and messages).
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + value + "\""
        }
        var out = "\""
        out.reserveCapacity(value.utf8.count + 8)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
        return out
    }

    /// `[x, y, width, height]`.
    static func rect(_ rect: Rect) -> String {
        "[\(number(rect.origin.x)),\(number(rect.origin.y)),\(number(rect.size.width)),\(number(rect.size.height))]"
    }

    /// An object whose members are written in sorted key order (keys are ASCII, compared by bytes).
    static func object(_ members: [(String, String)]) -> String {
        var sorted = members
        // Insertion sort: a record has a dozen members at most.
        for i in 1..<max(sorted.count, 1) {
            var j = i
            while j > 0, sorted[j].0.utf8.lexicographicallyPrecedes(sorted[j - 1].0.utf8) {
                sorted.swapAt(j, j - 1)
                j -= 1
            }
        }
        var length = 2
        for member in sorted { length += member.0.utf8.count + member.1.utf8.count + 4 }
        var out = "{"
        out.reserveCapacity(length)
        for (index, member) in sorted.enumerated() {
            if index > 0 { out += "," }
            out += "\""
            out += member.0
            out += "\":"
            out += member.1
        }
        out += "}"
        return out
    }
}


