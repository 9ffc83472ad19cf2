import EventLog
import ResponderBus

/// The report's timeline: over the session's time, to scale, the root view's origin, the keyboard's
/// top edge and the focused field's bottom edge plus its gap (all in screen points, down the page as
/// down the screen), and a mark for every event, every decision and every `--check` violation.
///
/// Marks are links to their rows in the events table, in time order; each has a `<title>` (its
/// tooltip and accessible name). The page's script adds arrow-key navigation and a details panel.
package struct TimelineChart {
    package let recorder: ReportRecorder
    /// The plugins with a lane of their own, in pipeline order.
    package let lanes: [String]

    private let plotLeft = 78.0
    /// Under the legend's rows.
    private let plotTop: Double
    private let plotHeight = 250.0
    private let laneHeight = 44.0
    private let plotWidth: Double
    private let duration: Double
    private let yMin: Double
    private let yMax: Double

    /// One value of each series after every record, and before the first.
    package struct Series {
        var t: [Double] = []
        var root: [Double] = []
        var keyboardTop: [Double] = []
        var fieldBottom: [Double?] = []
        var screenHeight: [Double] = []
    }

    package let series: Series
    private let initial: ScreenState
    /// The last record of each moment (records with one time), in order: the lines are drawn at
    /// these alone, since what the records of one moment set in between is never on the screen
    /// for any time (a rotation's `setFrame` of the root, undone by the shift that follows).
    private let momentEnds: [Int]
    /// The moments (their last records) whose change of the root's origin is the app setting the
    /// root's frame (a `setFrame` of the root: a layout, which undoes any shift), not a move by a
    /// plugin.
    private let rootLayouts: Set<Int>
    /// The records with marks and series data (all but a long session's middle).
    package let thinning: ReportThinning

    package init(recorder: ReportRecorder, plugins: [String], thinning: ReportThinning? = nil) {
        self.recorder = recorder
        self.thinning = thinning ?? ReportThinning(recordCount: recorder.items.count, mustList: [])
        var lanes = plugins
        for item in recorder.items {
            if let by = item.record.origin.derivingPlugin, !lanes.contains(by) { lanes.append(by) }
        }
        self.lanes = lanes
        initial = recorder.states[0]
        var series = Series()
        for item in recorder.items {
            let state = recorder.states[item.after]
            series.t.append(item.record.t)
            series.root.append(state.rootOriginY)
            series.keyboardTop.append(state.keyboardTop)
            series.fieldBottom.append(state.fieldBottomWithGap)
            series.screenHeight.append(state.size.height)
        }
        self.series = series
        let momentEnds = series.t.indices.filter { $0 + 1 == series.t.count || series.t[$0 + 1] != series.t[$0] }
        self.momentEnds = momentEnds
        rootLayouts = Self.rootLayouts(recorder: recorder, series: series, momentEnds: momentEnds)
        let end = recorder.sessionEnd
        duration = end > 0 ? end : 1
        plotWidth = min(max(duration * 80, 760), 16_000)
        let legendRows =
            (Self.legendPlaces(Self.legendEntries(hasLayouts: !rootLayouts.isEmpty), from: plotLeft, within: plotLeft + plotWidth + 12 + 164 - 8)
                .last?.row ?? 0) + 1
        plotTop = 40 + Double(legendRows - 1) * Self.legendRow
        var low = min(0, initial.rootOriginY)
        var high = max(initial.size.height, initial.keyboardTop)
        for state in recorder.states { high = max(high, state.size.height) }
        for index in momentEnds {
            for value in [series.root[index], series.keyboardTop[index], series.fieldBottom[index]].compactMap({ $0 }) where value.isFinite {
                low = min(low, value)
                high = max(high, value)
            }
        }
        let pad = max((high - low) * 0.04, 1)
        yMin = low - pad
        yMax = high + pad
    }

    /// The moments whose last change of the root's origin was a `setFrame` of the root.
    private static func rootLayouts(recorder: ReportRecorder, series: Series, momentEnds: [Int]) -> Set<Int> {
        var layouts = Set<Int>()
        var start = 0
        for end in momentEnds {
            defer { start = end + 1 }
            // The moment's last record that moved the root.
            guard
                let mover = (start...end).last(where: { series.root[$0] != ($0 > 0 ? series.root[$0 - 1] : recorder.states[0].rootOriginY) }),
                case .setFrame(let change) = recorder.items[mover].record.event,
                recorder.states[recorder.items[mover].before].views.first?.id == change.view.rawValue
            else { continue }
            layouts.insert(end)
        }
        return layouts
    }

    private var plotRight: Double { plotLeft + plotWidth }
    /// Where the labels right of the plot start: clear of a mark at the session's end.
    private var labelsLeft: Double { plotRight + 12 }
    private var plotBottom: Double { plotTop + plotHeight }
    private var lanesTop: Double { plotBottom + 30 }
    package var width: Double { labelsLeft + 164 }
    package var height: Double { lanesTop + Double(lanes.count + 2) * laneHeight + 8 }

    private func x(_ t: Double) -> Double { plotLeft + max(0, t) / duration * plotWidth }
    private func y(_ value: Double) -> Double {
        let clampedValue = min(max(value, yMin), yMax)
        return plotTop + (clampedValue - yMin) / (yMax - yMin) * plotHeight
    }

    // MARK: The drawing

    package func svg() -> String {
        let n = Markup.number
        var out =
            "<svg id=\"timeline-chart\" class=\"timeline\" role=\"group\" aria-labelledby=\"tl-title\" aria-describedby=\"tl-desc\" viewBox=\"0 0 \(n(width)) \(n(height))\" width=\"\(n(width))\" height=\"\(n(height))\">"
        out += "<title id=\"tl-title\">Timeline of \(Markup.count(recorder.items.count, "record")) over \(Markup.time(duration)) s</title>"
        out += "<desc id=\"tl-desc\">\(Markup.escape(description()))</desc>"
        out +=
            "<defs><pattern id=\"tl-p-kb\" patternUnits=\"userSpaceOnUse\" width=\"7\" height=\"7\" patternTransform=\"rotate(45)\"><rect width=\"7\" height=\"7\" fill=\"#e2e2e8\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"7\" stroke=\"#9a9aa8\" stroke-width=\"1.5\"/></pattern></defs>"
        out += legend()
        out += axes()
        out += keyboardArea()
        out += laneFrames()
        for violation in recorder.violations {
            out +=
                "<line class=\"tl-violation-line\" x1=\"\(n(x(violation.t)))\" x2=\"\(n(x(violation.t)))\" y1=\"\(n(plotTop))\" y2=\"\(n(lanesTop + Double(lanes.count + 2) * laneHeight))\"/>"
        }
        // The keyboard's top edge first, a wide band: the lines drawn over it stay readable on it
        // (a field clear of the keyboard by its gap exactly has its line on the keyboard's).
        out += stepPath(initial: initial.keyboardTop, values: series.keyboardTop.map { $0 }, className: "tl-series tl-keyboard", name: "keyboardTop")
        out += stepPath(
            initial: initial.rootOriginY, values: series.root.map { $0 }, className: "tl-series tl-root", name: "root", breaks: rootLayouts)
        out += rootLayoutMarks()
        out += stepPath(initial: initial.fieldBottomWithGap, values: series.fieldBottom, className: "tl-series tl-field", name: "fieldBottom")
        out += endLabels()
        out += "<line id=\"tl-cursor\" class=\"tl-cursor\" x1=\"0\" x2=\"0\" y1=\"\(n(plotTop))\" y2=\"\(n(height - 8))\" visibility=\"hidden\"/>"
        out += marks()
        return out + "</svg>"
    }

    /// The data behind the series, for the page's script (the values it shows for a mark) and for
    /// tools: `t`, `root`, `keyboardTop`, `fieldBottom` (null with no focused field), one entry per
    /// record, and the values before the first record.
    package func seriesJSON() -> String {
        // A long session's data holds the listed records only, their indexes in `i`.
        let listed = thinning.isThinned ? thinning.listed : nil
        func list(_ values: [Double?]) -> String {
            let kept = listed.map { $0.map { values[$0] } } ?? values
            return "[" + kept.map { $0.map(JSONText.number) ?? "null" }.joined(separator: ",") + "]"
        }
        let start =
            "{\"root\":\(JSONText.number(initial.rootOriginY)),\"keyboardTop\":\(JSONText.number(initial.keyboardTop)),\"fieldBottom\":\(initial.fieldBottomWithGap.map(JSONText.number) ?? "null")}"
        let indexes = listed.map { ",\"i\":[" + $0.map(String.init).joined(separator: ",") + "]" } ?? ""
        return
            "{\"t\":\(list(series.t))\(indexes),\"root\":\(list(series.root)),\"keyboardTop\":\(list(series.keyboardTop)),\"fieldBottom\":\(list(series.fieldBottom)),\"initial\":\(start)}"
    }

    /// What the legend shows before each of its labels.
    private enum LegendSymbol {
        case line(String)
        case layoutMark
        case keyboardArea
    }

    /// The legend's entries: the three lines, the root's layout mark when there is one, the area
    /// under the keyboard.
    private static func legendEntries(hasLayouts: Bool) -> [(symbol: LegendSymbol, label: String)] {
        var entries: [(symbol: LegendSymbol, label: String)] = [
            (.line("tl-root"), "root view's origin (y)"), (.line("tl-keyboard"), "keyboard's top edge"),
            (.line("tl-field"), "focused field's bottom + gap"),
        ]
        if hasLayouts { entries.append((.layoutMark, "root's frame set by the app (setFrame)")) }
        entries.append((.keyboardArea, "under the keyboard"))
        return entries
    }

    /// Where each legend entry starts and on which row: in order from `left`, a new row when the
    /// next would run past `right` (its text estimated at 6.6 pixels a character).
    private static func legendPlaces(_ entries: [(symbol: LegendSymbol, label: String)], from left: Double, within right: Double) -> [(
        x: Double, row: Int
    )] {
        var places: [(x: Double, row: Int)] = []
        var x = left
        var row = 0
        for entry in entries {
            let width = symbolWidth(entry.symbol) + 6 + Double(entry.label.count) * 6.6
            if x > left, x + width > right {
                x = left
                row += 1
            }
            places.append((x, row))
            x += width + 22
        }
        return places
    }

    private static func symbolWidth(_ symbol: LegendSymbol) -> Double {
        switch symbol {
        case .line: 34
        case .layoutMark: 8
        case .keyboardArea: 22
        }
    }

    /// The height of a row of the legend.
    private static let legendRow = 20.0

    private func legend() -> String {
        let n = Markup.number
        let entries = Self.legendEntries(hasLayouts: !rootLayouts.isEmpty)
        var out = "<g class=\"tl-legend\" aria-hidden=\"true\">"
        for (entry, place) in zip(entries, Self.legendPlaces(entries, from: plotLeft, within: width - 8)) {
            let middle = 14 + Double(place.row) * Self.legendRow
            let x = place.x
            switch entry.symbol {
            case .line(let className):
                out += "<line class=\"tl-series \(className)\" x1=\"\(n(x))\" x2=\"\(n(x + 34))\" y1=\"\(n(middle))\" y2=\"\(n(middle))\"/>"
            case .layoutMark:
                out += "<rect class=\"tl-layout-mark\" x=\"\(n(x))\" y=\"\(n(middle - 4))\" width=\"8\" height=\"8\"/>"
            case .keyboardArea:
                out += "<rect x=\"\(n(x))\" y=\"\(n(middle - 7))\" width=\"22\" height=\"14\" fill=\"url(#tl-p-kb)\" stroke=\"#9a9aa8\"/>"
            }
            out += "<text x=\"\(n(x + Self.symbolWidth(entry.symbol) + 6))\" y=\"\(n(middle + 4))\">\(Markup.escape(entry.label))</text>"
        }
        return out + "</g>"
    }

    private func axes() -> String {
        let n = Markup.number
        var out = "<g class=\"tl-axes\" aria-hidden=\"true\">"
        out += "<rect class=\"tl-plot\" x=\"\(n(plotLeft))\" y=\"\(n(plotTop))\" width=\"\(n(plotWidth))\" height=\"\(n(plotHeight))\"/>"
        let yStep = Self.niceStep(span: yMax - yMin, count: 6, candidates: [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000])
        var value = (yMin / yStep).rounded(.up) * yStep
        while value <= yMax {
            out += "<line class=\"tl-grid\" x1=\"\(n(plotLeft))\" x2=\"\(n(plotRight))\" y1=\"\(n(y(value)))\" y2=\"\(n(y(value)))\"/>"
            out += "<text class=\"tl-tick\" x=\"\(n(plotLeft - 6))\" y=\"\(n(y(value) + 4))\" text-anchor=\"end\">\(Markup.points(value))</text>"
            value += yStep
        }
        let tStep = Self.niceStep(
            span: duration, count: max(2, Int(plotWidth / 80)),
            candidates: [0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600])
        var t = 0.0
        while t <= duration + tStep * 0.001 {
            out += "<line class=\"tl-grid\" x1=\"\(n(x(t)))\" x2=\"\(n(x(t)))\" y1=\"\(n(plotTop))\" y2=\"\(n(plotBottom + 4))\"/>"
            out +=
                "<text class=\"tl-tick\" x=\"\(n(x(t)))\" y=\"\(n(plotBottom + 17))\" text-anchor=\"middle\">\(JSONText.number((t * 1000).rounded() / 1000)) s</text>"
            t += tStep
        }
        out +=
            "<text class=\"tl-axis-label\" transform=\"translate(14 \(n(plotTop + plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\">y on screen (pt), down = lower</text>"
        return out + "</g>"
    }

    package static func niceStep(span: Double, count: Int, candidates: [Double]) -> Double {
        let wanted = span / Double(max(count, 1))
        return candidates.first { $0 >= wanted } ?? max(wanted.rounded(.up), 1)
    }

    /// The part of the plot between the keyboard's top edge and the screen's bottom edge, hatched.
    private func keyboardArea() -> String {
        let n = Markup.number
        // Along the keyboard's top edge, then back along the screen's bottom edge.
        var d = "M\(n(plotLeft)) \(n(y(initial.keyboardTop)))"
        var top = initial.keyboardTop
        var column = -Double.infinity
        for (k, index) in momentEnds.enumerated() where series.keyboardTop[index] != top {
            top = series.keyboardTop[index]
            let t = series.t[index]
            // A long session's changes within one column of a point are one change.
            if thinning.isThinned, x(t).rounded(.down) == column, k + 1 < momentEnds.count, x(series.t[momentEnds[k + 1]]).rounded(.down) == column {
                continue
            }
            column = x(t).rounded(.down)
            d += "H\(n(x(t)))V\(n(y(top)))"
        }
        var bottom = series.screenHeight.last ?? initial.size.height
        d += "H\(n(plotRight))V\(n(y(bottom)))"
        column = Double.infinity
        for k in momentEnds.indices.reversed() {
            let index = momentEnds[k]
            let before = k > 0 ? series.screenHeight[momentEnds[k - 1]] : initial.size.height
            guard before != bottom else { continue }
            let t = series.t[index]
            if thinning.isThinned, x(t).rounded(.down) == column, k > 0, x(series.t[momentEnds[k - 1]]).rounded(.down) == column {
                continue
            }
            column = x(t).rounded(.down)
            bottom = before
            d += "H\(n(x(t)))V\(n(y(before)))"
        }
        d += "H\(n(plotLeft))Z"
        return "<path class=\"tl-keyboard-area\" d=\"\(d)\" aria-hidden=\"true\"/>"
    }

    /// A step line: each value holds until the next moment changes it (the value of a moment is
    /// its last record's). Missing values break it, and so does a change at a moment in `breaks`
    /// (drawn apart: `rootLayoutMarks()`).
    private func stepPath(initial: Double?, values: [Double?], className: String, name: String, breaks: Set<Int> = []) -> String {
        let n = Markup.number
        var d = ""
        var previous = initial
        if let initial { d = "M\(n(plotLeft)) \(n(y(initial)))" }
        // A long session's changes within one column of a point: its lowest, highest and last.
        var column = (x: -Double.infinity, low: 0.0, high: 0.0, pending: false)
        for (k, index) in momentEnds.enumerated() {
            let value = values[index]
            let xi = x(series.t[index])
            if thinning.isThinned, xi.rounded(.down) == column.x, let p = previous, let v = value {
                if p != v { column = (column.x, min(column.low, v), max(column.high, v), true) }
                previous = value
                let next = k + 1 < momentEnds.count ? x(series.t[momentEnds[k + 1]]).rounded(.down) : Double.infinity
                if column.pending, next != column.x {
                    d += "V\(n(y(column.low)))V\(n(y(column.high)))V\(n(y(v)))"
                    column.pending = false
                }
                continue
            }
            column = value.map { (xi.rounded(.down), $0, $0, false) } ?? (-Double.infinity, 0, 0, false)
            switch (previous, value) {
            case (.some(let p), .some(let v)) where p != v && breaks.contains(index): d += "H\(n(xi))M\(n(xi)) \(n(y(v)))"
            case (.some(let p), .some(let v)): if p != v { d += "H\(n(xi))V\(n(y(v)))" }
            case (.none, .some(let v)): d += "M\(n(xi)) \(n(y(v)))"
            case (.some, .none): d += "H\(n(xi))"
            case (.none, .none): break
            }
            previous = value
        }
        if previous != nil { d += "H\(n(plotRight))" }
        if d.isEmpty { d = "M0 0" }
        // The records it has a value after (those of one moment drawn as one).
        let points = values.count { $0 != nil }
        return "<path class=\"\(className)\" data-series=\"\(name)\" data-points=\"\(points)\" d=\"\(d)\"/>"
    }

    /// The root's changes that are the app setting its frame (`rootLayouts`), drawn as what they
    /// are: a thin dotted jump (the root line breaks there) and a □ on the line where the frame put
    /// it, titled with the record; nothing when there is none.
    private func rootLayoutMarks() -> String {
        guard !rootLayouts.isEmpty else { return "" }
        let n = Markup.number
        var jumps = ""
        var marks = ""
        var previous = initial.rootOriginY
        for index in momentEnds {
            defer { previous = series.root[index] }
            guard rootLayouts.contains(index), thinning.isListed(index) else { continue }
            let xi = n(x(series.t[index]))
            let value = series.root[index]
            jumps += "M\(xi) \(n(y(previous)))V\(n(y(value)))"
            let title =
                "\(Markup.time(series.t[index])) s: the app set the root's frame (setFrame), root y \(Markup.points(previous)) → \(Markup.points(value)): a layout, which undoes any shift, not a move by a plugin"
            marks +=
                "<rect class=\"tl-layout-mark\" x=\"\(n(x(series.t[index]) - 4))\" y=\"\(n(y(value) - 4))\" width=\"8\" height=\"8\"><title>\(Markup.escape(title))</title></rect>"
        }
        return "<path class=\"tl-root-layout\" d=\"\(jumps)\"/><g class=\"tl-layout-marks\">\(marks)</g>"
    }

    /// Each series named at its end, so the lines are told apart without colour or the legend.
    private func endLabels() -> String {
        let n = Markup.number
        var labels: [(Double, String)] = []
        let root = series.root.last ?? initial.rootOriginY
        labels.append((y(root), "root y \(Markup.points(root))"))
        let keyboardTop = series.keyboardTop.last ?? initial.keyboardTop
        labels.append((y(keyboardTop), "keyboard top \(Markup.points(keyboardTop))"))
        if let field = series.fieldBottom.isEmpty ? initial.fieldBottomWithGap : series.fieldBottom.last ?? nil {
            labels.append((y(field), "field + gap \(Markup.points(field))"))
        }
        labels.sort { $0.0 < $1.0 }
        // Each at its line, a line's height apart at least, and none below the plot (the lanes'
        // labels are there): pushed down past a neighbour, then up from the plot's bottom.
        let gap = 15.0
        var baselines: [Double] = []
        for (labelY, _) in labels { baselines.append(max(labelY + 4, (baselines.last ?? -Double.infinity) + gap)) }
        var limit = plotBottom + 4
        for index in baselines.indices.reversed() {
            baselines[index] = min(baselines[index], limit)
            limit = baselines[index] - gap
        }
        var out = "<g class=\"tl-end-labels\" aria-hidden=\"true\">"
        for (index, label) in labels.enumerated() {
            out += "<text x=\"\(n(labelsLeft))\" y=\"\(n(baselines[index]))\">\(Markup.escape(label.1))</text>"
        }
        return out + "</g>"
    }

    private func laneFrames() -> String {
        let n = Markup.number
        let names = ["events"] + lanes.map { "→ \($0)" } + ["⚠ check: covered"]
        var out = "<g class=\"tl-lanes\" aria-hidden=\"true\">"
        for (index, name) in names.enumerated() {
            let top = lanesTop + Double(index) * laneHeight
            out += "<rect class=\"tl-lane\" x=\"\(n(plotLeft))\" y=\"\(n(top))\" width=\"\(n(plotWidth))\" height=\"\(n(laneHeight - 4))\"/>"
            out += "<text class=\"tl-lane-label\" x=\"\(n(labelsLeft))\" y=\"\(n(top + laneHeight / 2 + 2))\">\(Markup.escape(name))</text>"
        }
        return out + "</g>"
    }

    /// The marks, in time order (violations after the records at their time).
    private func marks() -> String {
        let n = Markup.number
        var out = "<g class=\"tl-marks\">"
        var lastX: [Int: Double] = [:]
        var level: [Int: Int] = [:]
        func position(lane: Int, t: Double) -> (Double, Double) {
            let xi = x(t)
            if let previous = lastX[lane], abs(previous - xi) < 5 {
                level[lane] = ((level[lane] ?? 0) + 1) % 5
            } else {
                level[lane] = 0
            }
            lastX[lane] = xi
            let bottom = lanesTop + Double(lane + 1) * laneHeight - 4
            return (xi, bottom - 8 - Double(level[lane] ?? 0) * 6.5)
        }
        var violationIndex = 0
        func emitViolations(upTo t: Double?) {
            let shown = min(recorder.violations.count, ReportThinning.maxShownViolations)
            while violationIndex < shown, t == nil || recorder.violations[violationIndex].t < t! {
                let violation = recorder.violations[violationIndex]
                let (xi, yi) = position(lane: lanes.count + 1, t: violation.t)
                let label = "Violation \(violationIndex + 1) at \(Markup.time(violation.t)) s: \(violation.violation)"
                out +=
                    "<a class=\"mark violation\" href=\"#v\(violationIndex + 1)\" data-v=\"\(violationIndex)\"><title>\(Markup.escape(label))</title>"
                out += "<path d=\"M\(n(xi)) \(n(yi - 7))L\(n(xi + 7)) \(n(yi + 5))H\(n(xi - 7))Z\"/></a>"
                violationIndex += 1
            }
        }
        for index in thinning.listed {
            let item = recorder.items[index]
            emitViolations(upTo: item.record.t)
            let record = item.record
            let title = "#\(index + 1) at \(Markup.time(record.t)) s: \(record.event.name)" + (record.origin.derivingPlugin.map { " by \($0)" } ?? "")
            if let by = record.origin.derivingPlugin {
                let lane = (lanes.firstIndex(of: by) ?? 0) + 1
                let (xi, yi) = position(lane: lane, t: record.t)
                out += "<a class=\"mark decision\" href=\"#r\(index + 1)\" data-i=\"\(index)\"><title>\(Markup.escape(title))</title>"
                out += "<path d=\"M\(n(xi)) \(n(yi - 6))L\(n(xi + 6)) \(n(yi))L\(n(xi)) \(n(yi + 6))L\(n(xi - 6)) \(n(yi))Z\"/></a>"
            } else {
                let (xi, yi) = position(lane: 0, t: record.t)
                out += "<a class=\"mark event\" href=\"#r\(index + 1)\" data-i=\"\(index)\"><title>\(Markup.escape(title))</title>"
                out += "<circle cx=\"\(n(xi))\" cy=\"\(n(yi))\" r=\"4.5\"/></a>"
            }
        }
        emitViolations(upTo: nil)
        return out + "</g>"
    }

    /// A text alternative: how each series changed, in words.
    private func description() -> String {
        var parts: [String] = []
        parts.append(
            "From 0 to \(Markup.time(duration)) s: \(Markup.count(recorder.items.filter { $0.record.origin == .external }.count, "event")), \(Markup.count(recorder.items.filter { $0.record.origin != .external }.count, "decision")), \(Markup.count(recorder.violations.count, "violation"))."
        )
        parts.append("Root origin: " + changes(initial.rootOriginY, series.root.map { $0 }, marking: rootLayouts) + ".")
        parts.append("Keyboard top: " + changes(initial.keyboardTop, series.keyboardTop.map { $0 }) + ".")
        parts.append("Focused field's bottom plus gap: " + changes(initial.fieldBottomWithGap, series.fieldBottom) + ".")
        return parts.joined(separator: " ")
    }

    /// How a series changed, moment by moment; a moment in `marking` says "(the app set the root's
    /// frame)".
    private func changes(_ initial: Double?, _ values: [Double?], marking: Set<Int> = []) -> String {
        func text(_ value: Double?) -> String { value.map(Markup.points) ?? "none" }
        var out = text(initial)
        var previous = initial
        var shown = 0
        var more = 0
        for index in momentEnds where values[index] != previous {
            let value = values[index]
            previous = value
            if shown < 24 {
                out += ", \(text(value)) at \(Markup.time(series.t[index])) s" + (marking.contains(index) ? " (the app set the root's frame)" : "")
                shown += 1
            } else {
                more += 1
            }
        }
        if shown == 0 { out += " throughout" }
        if more > 0 { out += ", and \(more) more changes" }
        return out
    }
}
