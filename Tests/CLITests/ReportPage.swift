import Foundation
import Testing

/// A report written by `replay --report`, read back for its structure: the header's counts, the
/// table's rows, the timeline's marks and series, and the drawn screens.
struct ReportPage {
    struct Row {
        var number: Int
        var isDerived: Bool
        var t: String
        var event: String
        /// `external`, or the deriving plugin's name.
        var by: String
    }

    struct Series: Decodable {
        var t: [Double]
        var root: [Double]
        var keyboardTop: [Double]
        var fieldBottom: [Double?]
    }

    let html: String

    init(path: String) throws {
        html = try String(contentsOfFile: path, encoding: .utf8)
    }

    /// How often `needle` occurs.
    func count(_ needle: String) -> Int {
        html.components(separatedBy: needle).count - 1
    }

    /// The captures of every match of `pattern`.
    func captures(_ pattern: String, in text: String? = nil) throws -> [[String]] {
        let regex = try Regex(pattern)
        return (text ?? html).matches(of: regex).map { match in
            (1..<match.output.count).map { match.output[$0].substring.map(String.init) ?? "" }
        }
    }

    /// The header's counts (`data-count="events" data-value="43"`).
    func headerCount(_ name: String) throws -> Int? {
        try captures(#"data-count="\#(name)" data-value="(\d+)""#).first.flatMap { Int($0[0]) }
    }

    var rows: [Row] {
        get throws {
            try captures(#"<tr id="r(\d+)" class="(ext|dec)"><td>\d+</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td>"#).map {
                Row(number: Int($0[0]) ?? -1, isDerived: $0[1] == "dec", t: $0[2], event: $0[3], by: $0[4].replacingOccurrences(of: "→ ", with: ""))
            }
        }
    }

    var series: Series {
        get throws {
            let json = try #require(try captures(#"<script type="application/json" id="series-data">([^<]*)</script>"#).first?[0])
            return try JSONDecoder().decode(Series.self, from: Data(json.utf8))
        }
    }

    /// The drawn states by id (`s3`), with their SVG.
    var states: [String: String] {
        get throws {
            let defs = try #require(
                html.range(of: "<svg class=\"defs\"").flatMap { start in
                    html.range(of: "</defs></svg>", range: start.upperBound..<html.endIndex).map { html[start.upperBound..<$0.lowerBound] }
                })
            var result: [String: String] = [:]
            for piece in defs.components(separatedBy: "<g class=\"rb-state\" id=\"").dropFirst() {
                let id = String(piece.prefix { $0 != "\"" })
                result[id] = piece
            }
            return result
        }
    }

    /// The states shown with `<use>`.
    var usedStates: [String] {
        get throws { try captures(##"<use href="#(s\d+)"/>"##).map { $0[0] } }
    }

    /// The `<article>` elements of a class, as text.
    func articles(_ className: String) -> [String] {
        html.components(separatedBy: "<article class=\"\(className)\"").dropFirst().map { $0.components(separatedBy: "</article>")[0] }
    }
}

/// What `replay --format jsonl` printed: the derived records and the closing summary.
struct ReplayOutput {
    var derived: [[String: Any]] = []
    var summary: [String: Any] = [:]

    init(_ stdout: String) throws {
        for line in stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if object["event"] as? String == "summary" { summary = object } else { derived.append(object) }
        }
    }

    var events: Int { summary["events"] as? Int ?? -1 }
    var derivedCount: Int { summary["derived"] as? Int ?? -1 }
}

extension ReportPage {
    /// Checks the report against the replay's own output: every record is a row, a mark and a point
    /// of each series; the decisions are those the replay printed, in order; every drawn screen is
    /// used and drawn once; every link inside the page lands.
    func expectConsistent(with output: ReplayOutput, violations: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let events = output.events
        let derived = output.derivedCount
        let records = events + derived
        #expect(try headerCount("events") == events, sourceLocation: sourceLocation)
        // The decisions and the diagnostics, counted apart, are what the replay derived.
        let decisionCount = try headerCount("decisions")
        let diagnosticCount = try headerCount("diagnostics")
        #expect(decisionCount.flatMap { d in diagnosticCount.map { d + $0 } } == derived, sourceLocation: sourceLocation)
        let diagnostics = output.derived.count { $0["event"] as? String == "diagnostic" }
        #expect(diagnosticCount == diagnostics, sourceLocation: sourceLocation)
        #expect(try headerCount("violations") == violations, sourceLocation: sourceLocation)

        // The table: one row per record, the decisions in the replay's order, by the same plugins.
        let rows = try rows
        #expect(rows.count == records, sourceLocation: sourceLocation)
        #expect(rows.map(\.number) == Array(1..<(records + 1)), sourceLocation: sourceLocation)
        #expect(rows.filter { !$0.isDerived }.count == events, sourceLocation: sourceLocation)
        let decisions = rows.filter(\.isDerived)
        #expect(decisions.map(\.event) == output.derived.map { $0["event"] as? String ?? "?" }, sourceLocation: sourceLocation)
        #expect(decisions.map(\.by) == output.derived.map { $0["by"] as? String ?? "?" }, sourceLocation: sourceLocation)
        for (row, record) in zip(decisions, output.derived) {
            let t = try #require((record["t"] as? NSNumber)?.doubleValue)
            #expect(Double(row.t).map { abs($0 - t) < 0.0006 } == true, "row \(row.number): \(row.t) vs \(t)", sourceLocation: sourceLocation)
        }

        // The timeline: a mark per record and per violation; each series has a value per record.
        #expect(count("<a class=\"mark event\"") == events, sourceLocation: sourceLocation)
        #expect(count("<a class=\"mark decision\"") == derived, sourceLocation: sourceLocation)
        #expect(count("<a class=\"mark violation\"") == violations, sourceLocation: sourceLocation)
        let series = try series
        #expect(series.t.count == records, sourceLocation: sourceLocation)
        #expect(
            series.root.count == records && series.keyboardTop.count == records && series.fieldBottom.count == records, sourceLocation: sourceLocation
        )
        #expect(try captures(#"data-series="root" data-points="(\d+)""#).first?[0] == String(records), sourceLocation: sourceLocation)
        for (index, row) in rows.enumerated() {
            #expect(Double(row.t).map { abs($0 - series.t[index]) < 0.0006 } == true, sourceLocation: sourceLocation)
        }
        // Each viewShift's originY is the root series' value after it.
        var shiftIndex = 0
        for (index, row) in rows.enumerated() where row.isDerived {
            defer { shiftIndex += 1 }
            let record = output.derived[shiftIndex]
            guard row.event == "viewShift", let originY = (record["originY"] as? NSNumber)?.doubleValue else { continue }
            #expect(series.root[index] == originY, "row \(row.number)", sourceLocation: sourceLocation)
        }
        if let originY = (output.summary["originY"] as? NSNumber)?.doubleValue, let last = series.root.last {
            #expect(last == originY, sourceLocation: sourceLocation)
        }

        // The screens: each decision has an entry; each drawn state is used, and drawn once.
        #expect(articles("decision").count + articles("decision repeat").count == derived, sourceLocation: sourceLocation)
        #expect(articles("violation").count == violations, sourceLocation: sourceLocation)
        let states = try states
        let used = Set(try usedStates)
        #expect(Set(states.keys) == used, sourceLocation: sourceLocation)
        #expect(try headerCount("screens") == states.count, sourceLocation: sourceLocation)
        #expect(Set(states.values.map { $0.drop { $0 != ">" } }).count == states.count, "a state is drawn twice", sourceLocation: sourceLocation)
        for article in articles("decision") {
            let shots = article.components(separatedBy: "<use href=").count - 1
            #expect(shots == 1 || shots == 2, sourceLocation: sourceLocation)
        }

        // Self-contained, and every link inside the page lands.
        #expect(!html.contains("http://") && !html.contains("https://"), sourceLocation: sourceLocation)
        for external in ["<script src", "<img", "<link", "<iframe", "@import", "url(http"] {
            #expect(!html.contains(external), "\(external)", sourceLocation: sourceLocation)
        }
        let ids = Set(try captures(#" id="([^"]+)""#).map { $0[0] })
        let targets = Set(try captures(##"href="#([^"]+)""##).map { $0[0] })
        #expect(targets.subtracting(ids).isEmpty, "links to nothing: \(targets.subtracting(ids).sorted())", sourceLocation: sourceLocation)
    }
}
