import EventLog
import ResponderBus

/// A verdict a report opens with: why the session failed a test (`responder-bus test
/// --report-dir`), with the record it cites and, for a difference in the decisions, what was
/// expected and what the replay derived, drawn side by side.
public struct ReportFailure: Hashable, Sendable {
    /// The verdict's kind: `verify`, `check`, `conflict`, `unrecorded` and so on.
    public var kind: String
    /// The verdict, in a sentence.
    public var message: String
    /// The record it cites, as `FILE:LINE` (the file that holds the line: the log, or the snapshot
    /// its recorded decisions came from), when it cites one.
    public var place: String?
    /// The log time it is about, when known.
    public var t: Double?
    /// The recorded decision, as a log line; `nil` when the log has nothing more (or for a verdict
    /// that is not a difference).
    public var expected: String?
    /// The decision the replay derived instead, as a log line; `nil` when it derived nothing more.
    public var got: String?
    /// The screen as the recorded decisions left it, with the expected one applied: drawn beside
    /// the replay's own screen after the decision it derived instead.
    public var recorded: ScreenState?

    /// Creates a verdict to show.
    public init(
        kind: String, message: String, place: String? = nil, t: Double? = nil, expected: String? = nil, got: String? = nil,
        recorded: ScreenState? = nil
    ) {
        self.kind = kind
        self.message = message
        self.place = place
        self.t = t
        self.expected = expected
        self.got = got
        self.recorded = recorded
    }
}

extension ReportDocument {
    /// The section the page opens with when the session failed: each verdict, the record it
    /// cites, expected and got, and the two screens.
    func failureSection() -> String {
        guard !failures.isEmpty else { return "" }
        var out = "<section id=\"failure\" class=\"failure\" aria-labelledby=\"failure-h\"><h2 id=\"failure-h\" class=\"bad\">"
        out += failures.count == 1 ? "✘ The session failed" : "✘ The session failed \(failures.count) ways"
        out += "</h2>\n"
        for failure in failures {
            out += "<article class=\"verdict\" data-kind=\"\(Markup.escape(failure.kind))\"><h3>\(Markup.escape(failure.kind))"
            if let t = failure.t { out += " at \(Markup.time(t)) s" }
            out += "</h3>\n<p>\(Markup.escape(failure.message))</p>\n"
            if let place = failure.place { out += "<p>The record it cites: <code class=\"place\">\(Markup.escape(place))</code></p>\n" }
            guard failure.expected != nil || failure.got != nil else {
                out += "</article>\n"
                continue
            }
            out += "<dl class=\"expected-got\">"
            out += "<dt>expected (recorded)</dt><dd><code class=\"expected\">\(Markup.escape(failure.expected ?? "nothing more"))</code></dd>"
            out += "<dt>got (replayed)</dt><dd><code class=\"got\">\(Markup.escape(failure.got ?? "nothing more"))</code></dd></dl>\n"
            out += "<div class=\"side-by-side\" style=\"display:flex;flex-wrap:wrap;gap:2em;align-items:flex-start\">"
            if let recorded = failure.recorded {
                out +=
                    "<figure class=\"recorded\">\(recorded.svg(title: "Recorded", caption: ["as the recorded decisions left it"]))<figcaption>Expected: the screen as the recorded decisions left it.</figcaption></figure>"
            }
            let replayed = replayedState(got: failure.got, t: failure.t)
            out +=
                "<figure class=\"replayed\">\(replayed.svg(title: "Replayed", caption: ["after the decision the replay derived"]))<figcaption>Got: the screen after the replay's decision.</figcaption></figure>"
            out += "</div></article>\n"
        }
        return out + "</section>\n"
    }

    /// The replay's screen just after the decision `got` (the log line of a derived record), or
    /// the last state at or before `t` when no record matches, or the final state.
    private func replayedState(got: String?, t: Double?) -> ScreenState {
        let items = recorder.items
        if let got, let item = items.first(where: { $0.record.origin != .external && LogWriter.line(for: $0.record) == got }) {
            return recorder.states[item.after]
        }
        if let t, let item = items.last(where: { $0.record.t <= t }) { return recorder.states[item.after] }
        return recorder.states[items.last?.after ?? 0]
    }
}
