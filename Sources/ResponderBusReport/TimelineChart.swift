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
    private let plotTop = 40.0
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
        let end = max(series.t.last ?? 0, recorder.violations.last?.t ?? 0)
        duration = end > 0 ? end : 1
        plotWidth = min(max(duration * 80, 760), 16_000)
        var low = min(0, initial.rootOriginY)
        var high = max(initial.size.height, initial.keyboardTop)
        for state in recorder.states { high = max(high, state.size.height) }
        for value in series.root + series.keyboardTop + series.fieldBottom.compactMap({ $0 }) where value.isFinite {
            low = min(low, value)
            high = max(high, value)
        }
        let pad = max((high - low) * 0.04, 1)
        yMin = low - pad
        yMax = high + pad
    }

    private var plotRight: Double { plotLeft + plotWidth }
    private var plotBottom: Double { plotTop + plotHeight }
    private var lanesTop: Double { plotBottom + 30 }
    package var width: Double { plotRight + 170 }
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
        out += stepPath(initial: initial.rootOriginY, values: series.root.map { $0 }, className: "tl-series tl-root", name: "root")
        out += stepPath(initial: initial.keyboardTop, values: series.keyboardTop.map { $0 }, className: "tl-series tl-keyboard", name: "keyboardTop")
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

    private func legend() -> String {
        let entries: [(String, String)] = [
            ("tl-root", "root view's origin (y)"), ("tl-keyboard", "keyboard's top edge"),
            ("tl-field", "focused field's bottom + gap"),
        ]
        var out = "<g class=\"tl-legend\" aria-hidden=\"true\">"
        var left = plotLeft
        for (className, label) in entries {
            out += "<line class=\"tl-series \(className)\" x1=\"\(Markup.number(left))\" x2=\"\(Markup.number(left + 34))\" y1=\"14\" y2=\"14\"/>"
            out += "<text x=\"\(Markup.number(left + 40))\" y=\"18\">\(label)</text>"
            left += 60 + Double(label.count) * 6.6
        }
        out +=
            "<rect x=\"\(Markup.number(left))\" y=\"7\" width=\"22\" height=\"14\" fill=\"url(#tl-p-kb)\" stroke=\"#9a9aa8\"/><text x=\"\(Markup.number(left + 28))\" y=\"18\">under the keyboard</text>"
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
        for (index, t) in series.t.enumerated() where series.keyboardTop[index] != top {
            top = series.keyboardTop[index]
            // A long session's changes within one column of a point are one change.
            if thinning.isThinned, x(t).rounded(.down) == column, index + 1 < series.t.count, x(series.t[index + 1]).rounded(.down) == column {
                continue
            }
            column = x(t).rounded(.down)
            d += "H\(n(x(t)))V\(n(y(top)))"
        }
        var bottom = series.screenHeight.last ?? initial.size.height
        d += "H\(n(plotRight))V\(n(y(bottom)))"
        column = Double.infinity
        for index in series.t.indices.reversed() {
            let before = index > 0 ? series.screenHeight[index - 1] : initial.size.height
            guard before != bottom else { continue }
            if thinning.isThinned, x(series.t[index]).rounded(.down) == column, index > 0, x(series.t[index - 1]).rounded(.down) == column {
                continue
            }
            column = x(series.t[index]).rounded(.down)
            bottom = before
            d += "H\(n(x(series.t[index])))V\(n(y(before)))"
        }
        d += "H\(n(plotLeft))Z"
        return "<path class=\"tl-keyboard-area\" d=\"\(d)\" aria-hidden=\"true\"/>"
    }

    /// A step line: each value holds until the next record changes it. Missing values break it.
    private func stepPath(initial: Double?, values: [Double?], className: String, name: String) -> String {
        let n = Markup.number
        var d = ""
        var previous = initial
        var points = 0
        if let initial { d = "M\(n(plotLeft)) \(n(y(initial)))" }
        // A long session's changes within one column of a point: its lowest, highest and last.
        var column = (x: -Double.infinity, low: 0.0, high: 0.0, pending: false)
        for (index, value) in values.enumerated() {
            let xi = x(series.t[index])
            if thinning.isThinned, xi.rounded(.down) == column.x, let p = previous, let v = value {
                if p != v { column = (column.x, min(column.low, v), max(column.high, v), true) }
                points += 1
                previous = value
                let next = index + 1 < values.count ? x(series.t[index + 1]).rounded(.down) : Double.infinity
                if column.pending, next != column.x {
                    d += "V\(n(y(column.low)))V\(n(y(column.high)))V\(n(y(v)))"
                    column.pending = false
                }
                continue
            }
            column = value.map { (xi.rounded(.down), $0, $0, false) } ?? (-Double.infinity, 0, 0, false)
            switch (previous, value) {
            case (.some(let p), .some(let v)): if p != v { d += "H\(n(xi))V\(n(y(v)))" }
            case (.none, .some(let v)): d += "M\(n(xi)) \(n(y(v)))"
            case (.some, .none): d += "H\(n(xi))"
            case (.none, .none): break
            }
            if value != nil { points += 1 }
            previous = value
        }
        if previous != nil { d += "H\(n(plotRight))" }
        if d.isEmpty { d = "M0 0" }
        return "<path class=\"\(className)\" data-series=\"\(name)\" data-points=\"\(points)\" d=\"\(d)\"/>"
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
        var out = "<g class=\"tl-end-labels\" aria-hidden=\"true\">"
        var lastY = -Double.infinity
        for (labelY, text) in labels {
            let placed = max(labelY + 4, lastY + 13)
            out += "<text x=\"\(n(plotRight + 6))\" y=\"\(n(placed))\">\(Markup.escape(text))</text>"
            lastY = placed
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
            out += "<text class=\"tl-lane-label\" x=\"\(n(plotRight + 6))\" y=\"\(n(top + laneHeight / 2 + 2))\">\(Markup.escape(name))</text>"
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
        parts.append("Root origin: " + changes(initial.rootOriginY, series.root.map { $0 }) + ".")
        parts.append("Keyboard top: " + changes(initial.keyboardTop, series.keyboardTop.map { $0 }) + ".")
        parts.append("Focused field's bottom plus gap: " + changes(initial.fieldBottomWithGap, series.fieldBottom) + ".")
        return parts.joined(separator: " ")
    }

    private func changes(_ initial: Double?, _ values: [Double?]) -> String {
        func text(_ value: Double?) -> String { value.map(Markup.points) ?? "none" }
        var out = text(initial)
        var previous = initial
        var shown = 0
        var more = 0
        for (index, value) in values.enumerated() where value != previous {
            previous = value
            if shown < 24 {
                out += ", \(text(value)) at \(Markup.time(series.t[index])) s"
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
