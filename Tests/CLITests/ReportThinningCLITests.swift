import Foundation
import Testing

/// Issue 30, item 19: the report of a long session is bounded, in size and in what it lists, and
/// says what it left out.
@Suite("replay --report: a long session's report is thinned, and says so", .serialized)
struct ReportThinningCLITests {
    /// Replays `cycles` cycles of the bundled session with a report; the page and its size.
    static func report(cycles: Int) throws -> (page: ReportPage, size: Int, records: Int) {
        let folder = try reportFolder()
        let path = folder + "/long.jsonl"
        let log = try longSessionLog(cycles: cycles)
        try (log.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let report = folder + "/long.html"
        let run = try CLI.run(["replay", path, "--format", "jsonl", "--report", report])
        #expect(run.status == 0, "\(run.stderr)")
        let output = try ReplayOutput(run.stdout)
        let size = try FileManager.default.attributesOfItem(atPath: report)[.size] as? Int ?? .max
        return (try ReportPage(path: report), size, output.events + output.derivedCount)
    }

    @Test("over 10,000 records, the table, the marks and the series list the first 7,000, the last 2,000 and the drawn decisions")
    func longSessionIsThinned() throws {
        let (page, size, records) = try Self.report(cycles: 250)
        #expect(records > 13_000)
        let rows = try page.rows
        #expect(rows.count == 9_000, "\(rows.count) rows for \(records) records")
        #expect(rows.first?.number == 1 && rows.last?.number == records)
        #expect(rows[6_999].number == 7_000 && rows[7_000].number == records - 1_999)
        #expect(page.count("<tr class=\"gap\">") == 1)
        #expect(page.html.contains("Records #7001–#\(records - 2_000) (\(records - 9_000)) are not listed"))
        #expect(page.count("<a class=\"mark ") == rows.count)
        let series = try page.series
        #expect(series.t.count == rows.count && series.root.count == rows.count)
        #expect(page.html.contains("<dt>Thinned</dt><dd>a long session: 9000 of \(records) records are listed"))
        // Every link inside the page still lands.
        let ids = Set(try page.captures(#" id="([^"]+)""#).map { $0[0] })
        let targets = Set(try page.captures(##"href="#([^"]+)""##).map { $0[0] })
        #expect(targets.subtracting(ids).isEmpty, "\(targets.subtracting(ids).prefix(5))")
        #expect(size < 4 << 20, "\(size) bytes for \(records) records")

        // Twice as long, about as large.
        let (_, doubleSize, doubleRecords) = try Self.report(cycles: 500)
        #expect(doubleRecords > 2 * records - 100)
        #expect(Double(doubleSize) < Double(size) * 1.15, "\(doubleSize) bytes for \(doubleRecords) records, \(size) for \(records)")
    }
}
