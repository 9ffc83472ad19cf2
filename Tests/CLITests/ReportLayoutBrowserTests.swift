import Foundation
import Testing

/// What the measuring script found in a report page, laid out by the browser.
struct MeasuredReport: Decodable {
    /// Pairs of texts (and marks) whose boxes on the page overlap, named.
    var overlaps: [String]
    /// How many texts were measured in the drawings, the timeline and the header.
    var drawingTexts: Int
    var timelineTexts: Int
    var facts: Int
    /// The drawn screens' widths on the page, in pixels.
    var shots: [Double]
    /// The computed stroke widths of the timeline's lines, in pixels.
    var keyboardStroke: Double
    var fieldStroke: Double
    /// The root's layout marks (□) in the timeline.
    var layoutMarks: Int
    /// The page's width and the widest thing on it.
    var pageWidth: Double
    var scrollWidth: Double

    /// Measures every box the browser drew: each drawing's texts (the drawings are defined once, in
    /// a hidden `<svg>`: each is cloned into a visible one to be measured, in points), the timeline's
    /// texts and violation and layout marks, and the header's facts; any two that overlap (by more
    /// than half a unit either way) are named.
    static let script = #"""
        (function () {
          "use strict";
          var out = { overlaps: [], drawingTexts: 0, timelineTexts: 0, facts: 0, shots: [], layoutMarks: 0 };
          function overlapping(group, items) {
            for (var i = 0; i < items.length; i++) {
              for (var j = i + 1; j < items.length; j++) {
                var a = items[i].r, b = items[j].r;
                if (a.left + 0.5 < b.right && b.left + 0.5 < a.right && a.top + 0.5 < b.bottom && b.top + 0.5 < a.bottom) {
                  out.overlaps.push(group + ": '" + items[i].name + "' over '" + items[j].name + "'");
                }
              }
            }
          }
          function measured(elements, name) {
            return Array.prototype.map.call(elements, function (e) {
              return { name: name ? name(e) : e.textContent, r: e.getBoundingClientRect() };
            }).filter(function (item) { return item.r.width > 0 && item.r.height > 0; });
          }
          var ns = "http://www.w3.org/2000/svg";
          var holder = document.createElementNS(ns, "svg");
          holder.setAttribute("width", "4000");
          holder.setAttribute("height", "4000");
          document.body.appendChild(holder);
          document.querySelectorAll("svg.defs g.rb-state").forEach(function (g) {
            var clone = g.cloneNode(true);
            clone.removeAttribute("id");
            // Far from the canvas's negative corner: all of it on the page.
            var wrapper = document.createElementNS(ns, "g");
            wrapper.setAttribute("transform", "translate(2000 2000)");
            wrapper.appendChild(clone);
            holder.appendChild(wrapper);
            var texts = measured(clone.querySelectorAll("text"));
            out.drawingTexts += texts.length;
            overlapping("screen " + g.id, texts);
            holder.removeChild(wrapper);
          });
          document.body.removeChild(holder);
          var chart = document.getElementById("timeline-chart");
          var texts = measured(chart.querySelectorAll("text"));
          out.timelineTexts = texts.length;
          var marks = measured(chart.querySelectorAll("a.mark.violation path, rect.tl-layout-mark"), function (e) {
            return e.closest("a") ? "violation mark" : "layout mark";
          });
          out.layoutMarks = chart.querySelectorAll(".tl-layout-marks rect.tl-layout-mark").length;
          overlapping("timeline", texts.concat(marks.filter(function (m) { return m.name === "violation mark"; })));
          var facts = measured(document.querySelectorAll(".facts > div"), function (e) { return e.querySelector("dt").textContent; });
          out.facts = facts.length;
          overlapping("header", facts);
          out.shots = Array.prototype.map.call(document.querySelectorAll("svg.shot"), function (s) { return s.getBoundingClientRect().width; });
          out.keyboardStroke = parseFloat(getComputedStyle(chart.querySelector("path.tl-keyboard")).strokeWidth);
          out.fieldStroke = parseFloat(getComputedStyle(chart.querySelector("path.tl-field")).strokeWidth);
          out.pageWidth = document.documentElement.clientWidth;
          out.scrollWidth = document.documentElement.scrollWidth;
          var pre = document.createElement("pre");
          pre.id = "measured";
          pre.textContent = JSON.stringify(out);
          document.body.appendChild(pre);
        })();
        """#

    /// Loads `report` in headless Chromium `width` pixels wide with the script added, and reads
    /// what it measured.
    static func measure(_ report: String, width: Int, chromium: String) throws -> MeasuredReport {
        let page = try String(contentsOfFile: report, encoding: .utf8)
        let measuring = report.replacingOccurrences(of: ".html", with: "-measured.html")
        try page.replacingOccurrences(of: "</body>", with: "<script>\n\(script)\n</script>\n</body>")
            .write(toFile: measuring, atomically: true, encoding: .utf8)
        let dump = try #require(
            try Chromium.run(chromium, ["--window-size=\(width),1600", "--dump-dom", URL(fileURLWithPath: measuring).absoluteString]),
            "chromium --dump-dom did not finish")
        #expect(dump.status == 0, "\(dump.stderr.suffix(2000))")
        let json = try #require(dump.stdout.firstMatch(of: #/<pre id="measured">([^<]*)</pre>/#)?.1, "the measuring script did not run")
        let text = String(json).replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(MeasuredReport.self, from: Data(text.utf8))
    }
}

// Issue 51, item 9, as the browser lays it out: the rotation's report (a 320×568 iPhone SE turned to
// 568×320, the password field left covered by 40 pt) and the bundled session's.
@Suite(
    "The report's layout in a real browser: no label over another, lines readable, screens using the page", .serialized,
    .enabled(if: Chromium.shouldRun, Chromium.skipNote))
struct ReportLayoutBrowserTests {
    static let rotation = CLI.repository.appendingPathComponent("Tests/Fixtures/logs/se-rotate-password.jsonl").path

    @Test(
        "on a 1,400 px page: no text over another in the drawings, the timeline or the header; the keyboard's band wider than the field's line; screens over 330 px wide",
        arguments: [
            (rotation, [String]()), (CLI.example, ["--disable", "KeyboardAvoidance"]), (CLI.example, []),
        ])
    func layout(log: String, options: [String]) throws {
        guard let chromium = Chromium.executable else {
            Issue.record(Comment(rawValue: Chromium.missing))
            return
        }
        let report = try reportFolder() + "/report.html"
        let replay = try CLI.run(["replay", log, "--report", report] + options)
        #expect(replay.status == 0 || replay.status == 1, "\(replay.stderr)")
        let measured = try MeasuredReport.measure(report, width: 1400, chromium: chromium)
        #expect(measured.overlaps.isEmpty, "\(measured.overlaps.joined(separator: "\n"))")
        #expect(measured.drawingTexts > 20 && measured.timelineTexts > 20 && measured.facts >= 9, "\(measured)")
        // Where the field is clear by its gap exactly, its line lies on the keyboard's: the band
        // shows on both sides of it.
        #expect(measured.keyboardStroke >= measured.fieldStroke + 4, "\(measured.keyboardStroke) and \(measured.fieldStroke)")
        // The screens use the page, and the page needs no sideways scrolling.
        #expect(measured.shots.min() ?? 0 > 270, "\(measured.shots)")
        #expect(measured.shots.max() ?? .infinity <= 660, "\(measured.shots)")
        #expect(measured.scrollWidth <= measured.pageWidth + 1, "\(measured.scrollWidth) px wide on a \(measured.pageWidth) px page")
        if log == Self.rotation {
            #expect(measured.shots.min() ?? 0 > 330, "a 320-pt-wide phone: \(measured.shots)")
            #expect(measured.layoutMarks == 1, "the root's setFrame at 3 s")
        }
    }

    @Test("the rotation's report in a screenshot: the keyboard's band and the field's dotted line both painted, and the violation's red")
    func screenshot() throws {
        guard let chromium = Chromium.executable else {
            Issue.record(Comment(rawValue: Chromium.missing))
            return
        }
        let folder = try reportFolder()
        let report = folder + "/rotation.html"
        let replay = try CLI.run(["replay", Self.rotation, "--report", report])
        #expect(replay.status == 0, "\(replay.stderr)")
        let png = folder + "/rotation.png"
        let shot = try #require(
            try Chromium.run(
                chromium, ["--hide-scrollbars", "--window-size=1400,1000", "--screenshot=\(png)", URL(fileURLWithPath: report).absoluteString]))
        #expect(shot.status == 0, "\(shot.stderr.suffix(2000))")
        let summary = try #require(try PNGSummary.read(png, counting: ["a9a9b8", "0b3bbf", "c0180c"]))
        // The band: 8 px along about 3.6 s of the chart (80 px a second), less what is drawn over it.
        #expect(summary.counts["a9a9b8", default: 0] > 1_000, "the keyboard's band: \(summary.counts)")
        #expect(summary.counts["0b3bbf", default: 0] > 150, "the field's line: \(summary.counts)")
        #expect(summary.counts["c0180c", default: 0] > 20, "the violation: \(summary.counts)")
    }
}
