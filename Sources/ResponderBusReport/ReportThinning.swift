/// What the report of a long session leaves out, so that its size and the memory it takes to
/// write stay bounded whatever the session's length, and says so on the page.
///
/// A session of up to ``maxListedRecords`` records is shown whole. A longer one lists the first
/// ``headRecords`` and the last ``tailRecords`` records (in the table, as timeline marks and in the
/// series data) and those whose decisions have their screens drawn; the timeline's lines are drawn
/// at the chart's resolution (per column of a point: the lowest, the highest and the last value).
/// Whatever the length, the screens of at most ``maxDrawnPairs`` distinct before/after pairs and of
/// at most ``maxShownViolations`` violations are drawn.
package struct ReportThinning {
    /// The most records a report lists whole.
    package static let maxListedRecords = 10_000
    /// The records listed from the start of a longer session.
    package static let headRecords = 7_000
    /// The records listed from its end.
    package static let tailRecords = 2_000
    /// The most distinct before/after pairs of screens drawn.
    package static let maxDrawnPairs = 500
    /// The most violations shown with their screens.
    package static let maxShownViolations = 200

    /// Whether records are left out of the table, the marks and the series data.
    package let isThinned: Bool
    /// The records listed, in order.
    package let listed: [Int]
    private let isListedFlags: [Bool]

    /// The records of a session of `recordCount` records to list; `mustList` are listed whatever
    /// the bound (the decisions whose screens are drawn: at most ``maxDrawnPairs``).
    package init(recordCount: Int, mustList: [Int]) {
        isThinned = recordCount > Self.maxListedRecords
        guard isThinned else {
            listed = Array(0..<recordCount)
            isListedFlags = []
            return
        }
        var flags = [Bool](repeating: false, count: recordCount)
        for index in 0..<Self.headRecords { flags[index] = true }
        for index in (recordCount - Self.tailRecords)..<recordCount { flags[index] = true }
        for index in mustList where index < recordCount { flags[index] = true }
        isListedFlags = flags
        listed = flags.indices.filter { flags[$0] }
    }

    /// Whether record `index` is listed.
    package func isListed(_ index: Int) -> Bool {
        !isThinned || isListedFlags[index]
    }
}
