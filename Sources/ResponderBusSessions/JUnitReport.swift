import EventLog
import ResponderBusReport

/// The JUnit XML `responder-bus test --junit FILE` writes: one test case per session, the failure's
/// kind, message and place; unreadable sessions are errors, the rest failures.
enum JUnitReport {
    static func xml(_ results: [SessionResult], seconds: Double) -> String {
        let failures = results.count { $0.status == .failed || $0.status == .unexpectedPass }
        let errors = results.count { $0.status == .unreadable }
        let skipped = results.count { $0.status == .expectedFailure }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let counts =
            "tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(time(seconds))\""
        text += "<testsuites name=\"responder-bus test\" \(counts)>\n"
        text += "  <testsuite name=\"responder-bus\" \(counts)>\n"
        for result in results {
            let name = result.input.name
            let slash = name.lastIndex(of: "/")
            let folder = slash.map { String(name[..<$0]) } ?? ""
            let file = slash.map { String(name[name.index(after: $0)...]) } ?? name
            let dotted = String(folder.drop { $0 == "/" }.map { $0 == "/" ? "." : $0 })
            let classname = dotted.isEmpty ? "sessions" : dotted
            // The file and line CI annotates: the cited record's (in the snapshot, when the
            // recorded decisions came from one), else the session's.
            let cited = result.failures.first { $0.line != nil }
            let line = cited?.line.map { " line=\"\($0)\"" } ?? ""
            text +=
                "    <testcase classname=\"\(Markup.escape(classname))\" name=\"\(Markup.escape(file))\" file=\"\(Markup.escape(cited?.file ?? result.input.path))\"\(line) time=\"\(time(result.seconds))\""
            let conflicts = result.otherConflicts.map { "conflict at t \(JSONText.number($0.t)): \($0.message)" }
            if result.status == .expectedFailure {
                let message = "expected to fail (\(result.expectedFailure ?? "")), and it did: \(result.failure?.message ?? "")"
                text += ">\n      <skipped message=\"\(Markup.escape(message))\"/>\n    </testcase>\n"
                continue
            }
            guard let failure = result.failure, !result.status.passes else {
                let out = ([result.note].compactMap { $0 } + conflicts).joined(separator: "\n")
                if !out.isEmpty {
                    text += ">\n      <system-out>\(Markup.escape(out))</system-out>\n    </testcase>\n"
                } else {
                    text += "/>\n"
                }
                continue
            }
            let element = result.status == .unreadable ? "error" : "failure"
            text += ">\n      <\(element) type=\"\(failure.kind.rawValue)\" message=\"\(Markup.escape(failure.message))\">"
            let each = result.failures.map { details($0, path: result.input.path) }
            text += Markup.escape((each + conflicts).joined(separator: "\n\n"))
            text += "</\(element)>\n    </testcase>\n"
        }
        text += "  </testsuite>\n</testsuites>\n"
        return text
    }

    /// The failure's place and, for a difference, both sides on lines of their own.
    static func details(_ failure: SessionResult.Failure, path: String) -> String {
        var lines: [String] = ["\(failure.kind.rawValue):"]
        var place = failure.file ?? path
        if let line = failure.line { place += ":\(line)" }
        if let t = failure.t { place += " (t \(JSONText.number(t)))" }
        lines.append(place)
        if let difference = failure.difference {
            lines.append("derived event #\(difference.number)")
            lines.append("expected: \(difference.expected ?? "nothing more")")
            lines.append("got: \(difference.got ?? "nothing more")")
        } else {
            lines.append(failure.message)
        }
        return lines.joined(separator: "\n")
    }

    private static func time(_ seconds: Double) -> String {
        String(Double(Int((seconds * 1000).rounded())) / 1000)
    }

}

/// `--report-dir DIR`'s `index.html`: the failing sessions, each linked to its report.
enum ReportIndex {
    static func html(_ failing: [(result: SessionResult, report: String?)], total: Int) -> String {
        var rows = ""
        for (result, report) in failing {
            let name = Markup.escape(result.input.name)
            let link = report.map { "<a href=\"\(Markup.escape(percentEncoded($0)))\">\(name)</a>" } ?? name
            let kind = result.failure?.kind.rawValue ?? result.status.rawValue
            let message = Markup.escape(result.failure?.message ?? "")
            rows += "<tr><td>\(link)</td><td>\(kind)</td><td>\(message)</td></tr>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>responder-bus test: \(failing.count) of \(total) failed</title>
            <style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}td:last-child{font-family:ui-monospace,monospace;font-size:12px}</style>
            </head><body>
            <h1>\(failing.count) of \(total) session\(total == 1 ? "" : "s") failed</h1>
            <table><tr><th>session</th><th>kind</th><th>first problem</th></tr>
            \(rows)</table>
            </body></html>

            """
    }

    /// A relative path as a URL path: every byte but unreserved ones and `/` percent-encoded.
    static func percentEncoded(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
