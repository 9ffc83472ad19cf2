import EventLog
import ResponderBus

/// The self-contained HTML report of one replay: a header with the counts, the timeline, the screen
/// before and after each decision, the violations, and every record in a table.
///
/// No external resources: the drawings are inline SVG, the style and the one small script are in
/// the page. Every state of the screen that is shown is drawn once (as a `<g>` in a hidden `<svg>`)
/// and shown with `<use>`; a decision whose before and after screens were already shown links to the
/// first one instead of repeating them.
///
/// Make one from a replay you ran with a ``ReportRecorder`` watching its bus, with
/// ``init(logName:header:recorder:summary:plugins:disabled:)``, then ``html()``. (The replay
/// pipeline, `ResponderBusReplay`'s `ReplaySession` with its report sink, makes one for you.)
public struct ReportDocument {
    package var logName: String
    package var header: LogHeader
    /// The snapshots the page draws: ask it for a ``ReportRecorder/frame(at:)`` too.
    public let recorder: ReportRecorder
    /// What the replay counted.
    public let summary: Replayer.Summary
    /// The plugins that ran, in pipeline order.
    package var plugins: [String]
    /// The built-in plugins that were turned off.
    package var disabled: [String]
    /// The verdicts of a failed test the page opens with (``ReportFailure``); none by default.
    public var failures: [ReportFailure] = []

    /// The report of a finished replay.
    ///
    /// - Parameters:
    ///   - logName: The log's name, as the title shows it.
    ///   - header: The log's header: the device and the screen the page names.
    ///   - recorder: The snapshots taken during the replay, stopped.
    ///   - summary: What `Replayer/replay(_:on:strict:readAhead:)` returned: the page counts the
    ///     lines it skipped.
    ///   - plugins: The names of the plugins that ran, in pipeline order.
    ///   - disabled: The names of plugins that were turned off, if the page should say so.
    public init(
        logName: String, header: LogHeader, recorder: ReportRecorder, summary: Replayer.Summary, plugins: [String], disabled: [String] = []
    ) {
        self.logName = logName
        self.header = header
        self.recorder = recorder
        self.summary = summary
        self.plugins = plugins
        self.disabled = disabled
    }

    /// A decision shown with its own pair of screens, or one that repeats an earlier pair.
    private struct Decision {
        var item: Int
        var repeatOf: Int?
        /// Its pair of screens is beyond ``ReportThinning/maxDrawnPairs``: not drawn.
        var isUndrawn = false
    }

    /// The page, from `<!DOCTYPE html>` to `</html>` and a newline.
    public func html() -> String {
        let layout = Layout(recorder)
        var out = head()
        out += summary(layout)
        out += failureSection()
        out += timelineSection(layout)
        out += layout.definitions()
        out += violationsSection(layout)
        out += screensSection(layout)
        out += eventsSection(layout)
        out += foot()
        return out
    }

    /// What the page shows of the states: the decisions (each with its own pair of screens or
    /// pointing at an earlier one), the states drawn (once each), and the scale they are drawn at.
    private struct Layout {
        let recorder: ReportRecorder
        var decisions: [Decision] = []
        var drawn: [Int] = []
        var finalState = 0
        var scale = 1.0
        var fontSize = 10.5
        var drawings: [Int: ScreenDrawing] = [:]
        /// What a long session's report leaves out.
        var thinning = ReportThinning(recordCount: 0, mustList: [])
        /// Decisions whose pair of screens is not drawn (beyond ``ReportThinning/maxDrawnPairs``).
        var undrawn = 0
        /// Whether the screen changed size during the session (a rotation): captions name it.
        var hasSeveralSizes = false

        init(_ recorder: ReportRecorder) {
            self.recorder = recorder
            let items = recorder.items
            var firstWithPair: [Pair: Int] = [:]
            var isDrawn = Set<Int>()
            var drawn: [Int] = []
            func draw(_ state: Int) {
                if isDrawn.insert(state).inserted { drawn.append(state) }
            }
            for (index, item) in items.enumerated() where item.record.origin != .external {
                let pair = Pair(before: item.before, after: item.after)
                if let first = firstWithPair[pair] {
                    decisions.append(Decision(item: index, repeatOf: first))
                } else if firstWithPair.count < ReportThinning.maxDrawnPairs {
                    firstWithPair[pair] = index
                    decisions.append(Decision(item: index, repeatOf: nil))
                    draw(item.before)
                    draw(item.after)
                } else {
                    decisions.append(Decision(item: index, repeatOf: nil, isUndrawn: true))
                    undrawn += 1
                }
            }
            for violation in recorder.violations.prefix(ReportThinning.maxShownViolations) { draw(violation.state) }
            thinning = ReportThinning(recordCount: items.count, mustList: Array(firstWithPair.values))
            finalState = items.last?.after ?? 0
            draw(finalState)
            self.drawn = drawn
            hasSeveralSizes = recorder.states.contains { $0.size != recorder.states[0].size }

            scale = Self.scale(drawing: drawn.map { recorder.states[$0] })
            fontSize = Self.labelPixels / scale
            for state in drawn { drawings[state] = ScreenDrawing(recorder.states[state], fontSize: fontSize) }
        }

        /// The labels' size on the page, in pixels, whatever the scale.
        static let labelPixels = 12.0
        /// The most pixels a screen is drawn wide: two side by side (before and after) fit a page
        /// of 1,400 pixels.
        static let screenPixelsWide = 600.0
        /// The most pixels a screen is drawn high: a portrait phone fills about a laptop's screen.
        static let screenPixelsHigh = 720.0
        /// The most pixels a point is drawn with: a small screen is not blown up past it.
        static let largestScale = 2.0
        /// The most pixels a drawing's canvas (the screen and what lies off it) takes, either way.
        static let canvasPixels = 1_100.0

        /// Pixels per point for every drawing of the page (one scale, so that they compare): the
        /// widest and the tallest screen fit `screenPixelsWide` by `screenPixelsHigh`, no point
        /// takes more than `largestScale` pixels, and content far off the screen does not make a
        /// canvas larger than `canvasPixels`.
        static func scale(drawing states: [ScreenState]) -> Double {
            let widest = states.map(\.size.width).max() ?? 375
            let tallest = states.map(\.size.height).max() ?? 812
            let screens = min(largestScale, screenPixelsWide / max(widest, 1), screenPixelsHigh / max(tallest, 1))
            // The canvases at that scale; a larger one brings the scale down (not below half).
            let canvases = states.map { ScreenDrawing($0, fontSize: labelPixels / screens).canvas }
            let largest = canvases.map { max($0.width, $0.height) }.max() ?? 1
            return max(screens / 2, min(screens, canvasPixels / max(largest, 1)))
        }

        /// A drawn state, on `area` (its own canvas by default; a pair shares one, so that before
        /// and after line up).
        func shot(_ state: Int, _ label: String, on area: Rect? = nil) -> String {
            let box = area ?? drawings[state]!.canvas
            let n = Markup.number
            return
                "<svg class=\"shot\" viewBox=\"\(n(box.minX)) \(n(box.minY)) \(n(box.width)) \(n(box.height))\" width=\"\(n(box.width * scale))\" height=\"\(n(box.height * scale))\" role=\"img\" aria-label=\"\(Markup.escape(label + ": " + recorder.states[state].summary))\"><use href=\"#s\(state)\"/></svg>"
        }

        /// The drawings, once each, in a hidden `<svg>` the shots `<use>`.
        func definitions() -> String {
            var out =
                "<svg class=\"defs\" width=\"0\" height=\"0\" aria-hidden=\"true\" focusable=\"false\"><defs>\(ScreenDrawing.patterns(fontSize: fontSize))"
            for state in drawn { out += drawings[state]!.group(id: "s\(state)") }
            out += "</defs></svg>\n"
            return out
        }
    }

    /// Adds one to `name`'s count in `counts`, in the order names first come.
    private static func count(_ name: String, in counts: inout [(String, Int)]) {
        if let index = counts.firstIndex(where: { $0.0 == name }) { counts[index].1 += 1 } else { counts.append((name, 1)) }
    }

    private var externalCount: Int { recorder.items.filter { $0.record.origin == .external }.count }

    /// From the doctype to the opening of the summary's facts.
    private func head() -> String {
        """
        <!DOCTYPE html>
        <html lang="en" data-report-script="not run">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="responder-bus">
        <title>Replay report: \(Markup.escape(logName))</title>
        <style>
        \(ReportAssets.css)
        \(ScreenDrawing.css)
        </style>
        </head>
        <body>
        <a class="skip" href="#events">Skip to the events table</a>
        <header id="summary">
        <h1>Replay report: <code>\(Markup.escape(logName))</code></h1>
        <dl class="facts">

        """
    }

    /// The facts of the header (device, screen, counts, plugins, the end state) and the navigation.
    private func summary(_ layout: Layout) -> String {
        let items = recorder.items
        let external = externalCount
        // Decisions and diagnostics counted apart, each by the plugin that derived it.
        var byPlugin: [(String, Int)] = []
        var diagnosticsByPlugin: [(String, Int)] = []
        for item in items {
            guard let by = item.record.origin.derivingPlugin else { continue }
            if case .diagnostic = item.record.event { Self.count(by, in: &diagnosticsByPlugin) } else { Self.count(by, in: &byPlugin) }
        }
        let decisionCount = byPlugin.reduce(0) { $0 + $1.1 }
        let diagnosticCount = diagnosticsByPlugin.reduce(0) { $0 + $1.1 }
        let final = recorder.states[layout.finalState]
        var out = ""
        func fact(_ name: String, _ value: String, count: (String, Int)? = nil) {
            let data = count.map { " data-count=\"\($0.0)\" data-value=\"\($0.1)\"" } ?? ""
            out += "<div><dt>\(name)</dt><dd\(data)>\(value)</dd></div>\n"
        }
        if let first = failures.first {
            fact(
                "Verdict",
                "<strong class=\"bad\">✘ failed: \(Markup.escape(failures.map(\.kind).joined(separator: ", ")))</strong> (<a href=\"#failure\">\(Markup.escape(first.place ?? "see why"))</a>)"
            )
        }
        fact("Device", Markup.escape(header.device ?? "not given in the log"))
        let screens = screenChanges()
        fact(screens.count > 1 ? "Screens" : "Screen", Markup.escape(screenText(screens)), count: ("screens-sizes", screens.count))
        fact("Duration", durationText())
        fact("Events", "\(external)", count: ("events", external))
        func counted(_ total: Int, _ counts: [(String, Int)]) -> String {
            "\(total)" + (counts.isEmpty ? "" : " (\(Markup.escape(counts.map { "\($0.0) \($0.1)" }.joined(separator: ", "))))")
        }
        fact("Decisions", counted(decisionCount, byPlugin), count: ("decisions", decisionCount))
        fact("Diagnostics", counted(diagnosticCount, diagnosticsByPlugin), count: ("diagnostics", diagnosticCount))
        let violations = recorder.violations.count
        fact(
            "Violations",
            violations == 0
                ? "0: the focused field was never left covered"
                : "<strong class=\"bad\">⚠ \(violations): the focused field was left covered</strong> (<a href=\"#violations\">see them</a>)",
            count: ("violations", violations))
        fact(
            "Screens drawn", "\(layout.drawn.count) distinct, for \(Markup.count(layout.decisions.count, "derived event"))",
            count: ("screens", layout.drawn.count))
        fact(
            "Plugins that ran",
            plugins.isEmpty
                ? "none"
                : Markup.escape(plugins.joined(separator: " → "))
                    + (disabled.isEmpty ? "" : " (turned off: \(Markup.escape(disabled.joined(separator: ", "))))"))
        if let thinned = thinnedText(layout) { fact("Thinned", Markup.escape(thinned)) }
        if summary.rejectedLines > 0 {
            fact("Lines skipped", "\(summary.rejectedLines) (named on standard error)", count: ("skipped", summary.rejectedLines))
        }
        fact(
            "At the end",
            "<a href=\"#end\">"
                + Markup.escape(
                    "root at y \(Markup.points(final.rootOriginY)); first responder \(final.firstResponder.map { "'\($0.id)'" } ?? "none")") + "</a>")
        out += """
            </dl>
            <nav aria-label="Sections"><a href="#timeline">Timeline</a> · <a href="#screens">Screens at each decision</a>\(violations > 0 ? " · <a href=\"#violations\">Violations</a>" : "") · <a href="#events">Events table</a></nav>
            </header>
            <main>

            """
        return out
    }

    /// The screen's size and safe area before any record, then at each record that changed them:
    /// a rotation, a window resized.
    private func screenChanges() -> [(t: Double?, size: Size, safeArea: EdgeInsets)] {
        let first = recorder.states[0]
        var changes: [(t: Double?, size: Size, safeArea: EdgeInsets)] = [(nil, first.size, first.safeArea)]
        for item in recorder.items {
            let state = recorder.states[item.after]
            guard let last = changes.last, state.size != last.size || state.safeArea != last.safeArea else { continue }
            changes.append((item.record.t, state.size, state.safeArea))
        }
        return changes
    }

    /// The header's screen: the log's, then each change with its time (the first few).
    private func screenText(_ changes: [(t: Double?, size: Size, safeArea: EdgeInsets)]) -> String {
        var text = "\(header.screen) pt"
        if let source = header.screenSource { text += " (\(source))" }
        if let safe = header.safeArea { text += ", safe area \(ScreenState.insets(safe))" }
        let shown = 4
        for change in changes.dropFirst().prefix(shown) {
            text += "; then \(change.size) pt from \(Markup.time(change.t ?? 0)) s, safe area \(ScreenState.insets(change.safeArea))"
        }
        if changes.count - 1 > shown { text += "; and \(Markup.count(changes.count - 1 - shown, "more change"))" }
        return text
    }

    /// The header's duration: from 0 to the last record, or to the last violation when the check
    /// found one after it (it looks once the keyboard has settled), and which it is.
    private func durationText() -> String {
        let lastRecord = recorder.items.last?.record.t ?? 0
        let end = recorder.sessionEnd
        guard end > lastRecord else { return "\(Markup.time(end)) s <span class=\"note\">(to the last record)</span>" }
        return
            "\(Markup.time(end)) s <span class=\"note\">(to the last violation the check found; the last record is at \(Markup.time(lastRecord)) s)</span>"
    }

    /// The timeline chart, its details panel and its data.
    private func timelineSection(_ layout: Layout) -> String {
        let timeline = TimelineChart(recorder: recorder, plugins: plugins, thinning: layout.thinning)
        return """
            <section id="timeline" aria-labelledby="timeline-h">
            <h2 id="timeline-h">Timeline</h2>
            <p class="hint">Lines, in screen points (down the chart is down the screen): the root view's origin (a □ where the app set the root's frame, as a rotation does: a layout, not a move by a plugin), the keyboard's top edge (a wide grey band, hatched below it: under the keyboard) and the focused field's bottom edge plus its gap (dotted, over the band when the field is clear by its gap exactly). A field line inside the hatched area is a covered field. Each line shows the value at the end of each moment. Marks: ● events, ◆ decisions (one lane per plugin), ▲ violations. <span class="js-only">Focus the chart's marks with Tab, move with ← →, Home and End; Enter goes to the record.</span> Hover or focus a mark to see its record.</p>
            <div class="chart-scroll">\(timeline.svg())</div>
            <div id="details" class="details" aria-live="polite"><p>Hover or focus a mark in the timeline to see its record here.</p></div>
            <script type="application/json" id="series-data">\(timeline.seriesJSON())</script>
            </section>

            """
    }

    /// Each violation with the screen when the check found it; nothing when there is none.
    private func violationsSection(_ layout: Layout) -> String {
        guard !recorder.violations.isEmpty else { return "" }
        var out =
            "<section id=\"violations\" aria-labelledby=\"violations-h\"><h2 id=\"violations-h\">⚠ Violations: the focused field left covered</h2>\n"
        for (index, violation) in recorder.violations.prefix(ReportThinning.maxShownViolations).enumerated() {
            out +=
                "<article class=\"violation\" id=\"v\(index + 1)\"><h3>⚠ Violation \(index + 1): \(Markup.escape(violation.violation.description))</h3>"
            out +=
                "<figure>\(layout.shot(violation.state, "Screen at violation \(index + 1)"))<figcaption>The screen when the check found it, at \(Markup.time(violation.t)) s (the keyboard had settled). \(Markup.escape(caption(recorder.states[violation.state], layout)))</figcaption></figure></article>\n"
        }
        if recorder.violations.count > ReportThinning.maxShownViolations {
            out +=
                "<p class=\"thinned\">The first \(ReportThinning.maxShownViolations) violations are shown; \(recorder.violations.count - ReportThinning.maxShownViolations) more are not (run <code>replay --check</code> for every one).</p>\n"
        }
        out += "</section>\n"
        return out
    }

    /// What the page leaves out of a long session, in words; `nil` when nothing is.
    private func thinnedText(_ layout: Layout) -> String? {
        var parts: [String] = []
        let items = recorder.items.count
        if layout.thinning.isThinned {
            parts.append(
                "\(layout.thinning.listed.count) of \(items) records are listed in the table, on the timeline and in its data (the first \(ReportThinning.headRecords), the last \(ReportThinning.tailRecords) and the decisions whose screens are drawn), and the timeline's lines are drawn at its resolution"
            )
        }
        if layout.undrawn > 0 {
            parts.append(
                "the screens of \(Markup.count(layout.undrawn, "decision")) are not drawn (only the first \(ReportThinning.maxDrawnPairs) distinct pairs of screens are)"
            )
        }
        if recorder.violations.count > ReportThinning.maxShownViolations {
            parts.append(
                "\(recorder.violations.count - ReportThinning.maxShownViolations) violations after the first \(ReportThinning.maxShownViolations) are not shown"
            )
        }
        guard !parts.isEmpty else { return nil }
        return "a long session: " + parts.joined(separator: "; ") + ". replay --format jsonl shows every record."
    }

    /// Each decision with the screens before and after it, and the screen at the end.
    private func screensSection(_ layout: Layout) -> String {
        let items = recorder.items
        var out = "<section id=\"screens\" aria-labelledby=\"screens-h\"><h2 id=\"screens-h\">Screens at each decision</h2>\n"
        out += "<p class=\"hint\">Drawn to scale from the model. \(ReportAssets.legend)</p>\n"
        if layout.decisions.isEmpty { out += "<p>No plugin decided anything in this session.</p>" }
        if let thinned = thinnedText(layout) { out += "<p class=\"thinned\">\(Markup.escape(thinned))</p>\n" }
        for (number, decision) in layout.decisions.enumerated() where layout.thinning.isListed(decision.item) {
            let item = items[decision.item]
            let record = item.record
            let heading =
                "\(Markup.time(record.t)) s · \(ReportText.origin(record.origin)) · \(record.event.name): \(ReportText.describe(record.event))"
            let id = "d\(decision.item + 1)"
            if let first = decision.repeatOf {
                out += "<article class=\"decision repeat\" id=\"\(id)\"><h3>\(number + 1). \(Markup.escape(heading))</h3>"
                out +=
                    "<p>Same screens before and after as <a href=\"#d\(first + 1)\">the decision at \(Markup.time(items[first].record.t)) s</a>. <a href=\"#r\(decision.item + 1)\">Record #\(decision.item + 1)</a>.</p></article>\n"
                continue
            }
            if decision.isUndrawn {
                out += "<article class=\"decision undrawn\" id=\"\(id)\"><h3>\(number + 1). \(Markup.escape(heading))</h3>"
                out +=
                    "<p>Screens not drawn: the report draws the first \(ReportThinning.maxDrawnPairs) distinct pairs. <a href=\"#r\(decision.item + 1)\">Record #\(decision.item + 1)</a>.</p></article>\n"
                continue
            }
            out += "<article class=\"decision\" id=\"\(id)\"><h3>\(number + 1). \(Markup.escape(heading))</h3><div class=\"pair\">"
            if item.before == item.after {
                out +=
                    "<figure>\(layout.shot(item.after, "Before and after"))<figcaption>Before and after: the screen did not change.</figcaption></figure>"
            } else {
                let area = layout.drawings[item.before]!.canvas.union(layout.drawings[item.after]!.canvas)
                out +=
                    "<figure>\(layout.shot(item.before, "Before", on: area))<figcaption>Before. \(Markup.escape(caption(recorder.states[item.before], layout)))</figcaption></figure>"
                out +=
                    "<figure>\(layout.shot(item.after, "After", on: area))<figcaption>After. \(Markup.escape(caption(recorder.states[item.after], layout)))</figcaption></figure>"
            }
            out += "</div><p><a href=\"#r\(decision.item + 1)\">Record #\(decision.item + 1)</a></p></article>\n"
        }
        let end = items.isEmpty ? "before any record" : "after record #\(items.count) at \(Markup.time(items[items.count - 1].record.t)) s"
        out +=
            "<article class=\"final\" id=\"end\"><h3>At the end, \(end)</h3><figure>\(layout.shot(layout.finalState, "At the end"))<figcaption>\(Markup.escape(caption(recorder.states[layout.finalState], layout)))</figcaption></figure></article>\n"
        out += "</section>\n"
        return out
    }

    /// Every record in a table.
    private func eventsSection(_ layout: Layout) -> String {
        let items = recorder.items
        let external = externalCount
        var out = """
            <section id="events" aria-labelledby="events-h">
            <h2 id="events-h">Events</h2>
            <table id="events-table">
            <caption>Every record of the replay, in the order the bus carried them: \(Markup.count(external, "external event")) and \(Markup.count(items.count - external, "decision")) (→ and the plugin's name).</caption>
            <thead><tr><th scope="col">#</th><th scope="col">t (s)</th><th scope="col">event</th><th scope="col">by</th><th scope="col">what</th><th scope="col">screens</th></tr></thead>
            <tbody>

            """
        var previous = -1
        for index in layout.thinning.listed {
            if index > previous + 1 {
                out +=
                    "<tr class=\"gap\"><td colspan=\"6\">Records #\(previous + 2)–#\(index) (\(index - previous - 1)) are not listed: a long session's report lists \(layout.thinning.listed.count) of \(items.count).</td></tr>\n"
            }
            previous = index
            let item = items[index]
            let record = item.record
            let derived = record.origin.derivingPlugin
            out +=
                "<tr id=\"r\(index + 1)\" class=\"\(derived == nil ? "ext" : "dec")\"><td>\(index + 1)</td><td>\(Markup.time(record.t))</td><td>\(record.event.name)</td><td>\(derived.map { "→ " + Markup.escape($0) } ?? "external")</td><td>\(Markup.escape(ReportText.describe(record.event)))</td><td>"
            if derived != nil { out += "<a href=\"#d\(index + 1)\">before/after</a>" }
            out += "</td></tr>\n"
        }
        out += """
            </tbody>
            </table>
            </section>
            </main>

            """
        return out
    }

    /// The footer, the script and the end of the page.
    private func foot() -> String {
        """
        <footer><p>Made by <code>responder-bus replay --report</code>. The page needs no network; its script only adds the details panel and arrow-key navigation of the timeline.</p></footer>
        <script>
        \(ReportAssets.script)
        </script>
        </body>
        </html>

        """
    }

    /// What a drawing shows, in words; the screen's size first when the session has more than one.
    private func caption(_ state: ScreenState, _ layout: Layout) -> String {
        var parts: [String] = []
        if layout.hasSeveralSizes { parts.append("\(state.size) screen") }
        parts.append("root y \(Markup.points(state.rootOriginY))")
        parts.append(state.firstResponder.map { "focused '\($0.id)'" } ?? "no focus")
        if state.keyboardFrame != nil {
            parts.append(state.covering == nil ? "keyboard not docked" : "keyboard top \(Markup.points(state.keyboardTop))")
        } else {
            parts.append("no keyboard")
        }
        if let covered = state.coveredHeight { parts.append("COVERED by \(Markup.points((covered * 10).rounded() / 10)) pt") }
        let sentence = parts.joined(separator: ", ") + "."
        return sentence.prefix(1).uppercased() + sentence.dropFirst()
    }

    private struct Pair: Hashable {
        var before: Int
        var after: Int
    }
}
