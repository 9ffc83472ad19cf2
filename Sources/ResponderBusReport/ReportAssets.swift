/// The report page's style, legend and script.
package enum ReportAssets {
    /// What the drawings' line styles and patterns mean.
    package static let legend = """
        Outlines: dashed, a plain view; solid, a text field; double, a text view; dash-dot, a scroll view. \
        The first responder has a thick ring and a bold label after “▶”. The keyboard is grey, the part of the screen it \
        covers hatched with diagonal lines. A covered field is cross-hatched, outlined with dashes and labelled \
        “⚠ COVERED”. Dots mark the margins outside the safe area; content moved off the screen is faded; an arrow \
        shows the root's shift.
        """

    package static let css = """
        :root{color-scheme:light;--ink:#1d1d24;--muted:#55586a;--line:#d5d7de;--bad:#a01208;--accent:#0b3bbf}
        *{box-sizing:border-box}
        body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);background:#fafafb}
        header,main,footer{padding:0 24px}
        h1{font-size:22px;margin:18px 0 8px}
        h2{font-size:18px;margin:26px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
        h3{font-size:15px;margin:0 0 8px}
        code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.92em}
        a{color:var(--accent)}
        .skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px;z-index:2}
        .facts{display:flex;flex-wrap:wrap;gap:6px 28px;margin:8px 0}
        .facts div{min-width:130px}
        .facts dt{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
        .facts dd{margin:0;font-weight:600}
        .facts .note{font-weight:400;color:var(--muted)}
        .bad{color:var(--bad)}
        .hint{color:var(--muted);max-width:75em;margin:4px 0 10px}
        .js-only{display:none}.js .js-only{display:inline}
        .chart-scroll{overflow-x:auto;background:#fff;border:1px solid var(--line);border-radius:6px}
        .timeline text{font-size:12px;fill:var(--ink)}
        .timeline .tl-tick{fill:var(--muted);font-size:11px}
        .tl-plot{fill:#fff;stroke:var(--line)}
        .tl-grid{stroke:#e9eaee;stroke-width:1}
        .tl-keyboard-area{fill:url(#tl-p-kb);fill-opacity:.75}
        .tl-series{fill:none;stroke-linejoin:round}
        .tl-root{stroke:#1d1d24;stroke-width:2.5}
        .tl-keyboard{stroke:#a9a9b8;stroke-width:8}
        .tl-field{stroke:#0b3bbf;stroke-width:2.5;stroke-dasharray:2 3}
        .tl-root-layout{fill:none;stroke:#1d1d24;stroke-width:1.2;stroke-dasharray:1 3}
        .tl-layout-mark{fill:#fff;stroke:#1d1d24;stroke-width:1.5}
        .tl-lane{fill:#f6f7f9;stroke:#eceef2}
        .timeline .tl-lane-label{fill:var(--muted)}
        .tl-violation-line{stroke:#c0180c;stroke-width:1.5;stroke-dasharray:3 3}
        .tl-cursor{stroke:var(--accent);stroke-width:1;stroke-dasharray:4 2}
        a.mark{cursor:pointer;outline:none}
        a.mark circle{fill:#24408e;stroke:#fff;stroke-width:1.5}
        a.mark.decision path{fill:#e08a00;stroke:#5a3700;stroke-width:1.2}
        a.mark.violation path{fill:#c0180c;stroke:#fff;stroke-width:1.5}
        a.mark:hover>*,a.mark:focus>*,a.mark.current>*{stroke:#000;stroke-width:3}
        .details{min-height:5.5em;margin:10px 0;padding:8px 12px;background:#fff;border:1px solid var(--line);border-left:4px solid var(--accent);border-radius:4px}
        .details p{margin:2px 0}
        .details .values{color:var(--muted)}
        .decision,.violation,.final{background:#fff;border:1px solid var(--line);border-radius:6px;padding:10px 12px;margin:10px 0}
        .violation{border-left:6px solid #c0180c}
        .decision.repeat{padding:6px 12px}
        .decision.repeat p{margin:0}
        .pair{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}
        figure{margin:0;width:min-content}
        figcaption{font-size:13px;color:var(--muted);min-width:14em}
        .shot{display:block;border:1px solid var(--line);background:#eceef2}
        table{border-collapse:collapse;width:100%;background:#fff;font-size:13px}
        caption{text-align:left;color:var(--muted);padding:4px 0}
        th,td{border-bottom:1px solid #eceef2;padding:3px 8px;text-align:left;vertical-align:top}
        thead th{position:sticky;top:0;background:#eef0f4}
        td:nth-child(1),td:nth-child(2){text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
        tr.dec td:nth-child(3),tr.dec td:nth-child(4){font-weight:600}
        tr.dec{background:#fff8ec}
        tr:target,tr.current{outline:2px solid var(--accent)}
        footer{color:var(--muted);font-size:13px;margin:24px 0}
        @media print{.chart-scroll{overflow:visible}}
        """

    package static let script = """
        (function () {
          "use strict";
          var root = document.documentElement;
          var chart = document.getElementById("timeline-chart");
          var details = document.getElementById("details");
          var cursor = document.getElementById("tl-cursor");
          var data = JSON.parse(document.getElementById("series-data").textContent);
          // A long session's data holds the listed records only: "i" gives their indexes.
          var at = null;
          if (data.i) { at = {}; data.i.forEach(function (record, k) { at[record] = k; }); }
          var marks = Array.prototype.slice.call(chart.querySelectorAll("a.mark"));
          var current = 0;
          function paragraph(text, className) {
            var p = document.createElement("p");
            p.textContent = text;
            if (className) { p.className = className; }
            return p;
          }
          function link(href, text) {
            var a = document.createElement("a");
            a.href = href;
            a.textContent = text;
            return a;
          }
          function value(v) { return v === null || v === undefined ? "none" : String(v); }
          // One tab stop in the chart: the current mark; the arrow keys move it.
          function setCurrent(index) {
            marks[current].setAttribute("tabindex", "-1");
            marks[current].classList.remove("current");
            current = index;
            marks[current].setAttribute("tabindex", "0");
            marks[current].classList.add("current");
          }
          function show(mark) {
            setCurrent(marks.indexOf(mark));
            details.textContent = "";
            details.appendChild(paragraph(mark.querySelector("title").textContent, "record"));
            var links = document.createElement("p");
            var i = mark.getAttribute("data-i");
            if (i !== null) {
              i = Number(i);
              var k = at ? at[i] : i;
              var row = document.getElementById("r" + (i + 1));
              if (row) { details.appendChild(paragraph(row.cells[4].textContent, "what")); }
              details.appendChild(paragraph("After it: root y " + value(data.root[k]) + " · keyboard top " +
                value(data.keyboardTop[k]) + " · focused field's bottom + gap " + value(data.fieldBottom[k]), "values"));
              links.appendChild(link("#r" + (i + 1), "Record #" + (i + 1) + " in the table"));
              if (mark.classList.contains("decision")) {
                links.appendChild(document.createTextNode(" · "));
                links.appendChild(link("#d" + (i + 1), "the screens before and after"));
              }
            } else {
              links.appendChild(link(mark.getAttribute("href"), "The screen at this violation"));
            }
            details.appendChild(links);
            var box = mark.lastElementChild.getBBox();
            var x = String(box.x + box.width / 2);
            cursor.setAttribute("x1", x);
            cursor.setAttribute("x2", x);
            cursor.setAttribute("visibility", "visible");
          }
          marks.forEach(function (mark, index) {
            mark.setAttribute("tabindex", index === 0 ? "0" : "-1");
            mark.addEventListener("focus", function () { show(mark); });
            mark.addEventListener("mouseenter", function () { show(mark); });
            mark.addEventListener("keydown", function (event) {
              var next = null;
              switch (event.key) {
                case "ArrowRight": case "ArrowDown": next = current + 1; break;
                case "ArrowLeft": case "ArrowUp": next = current - 1; break;
                case "PageDown": next = current + 10; break;
                case "PageUp": next = current - 10; break;
                case "Home": next = 0; break;
                case "End": next = marks.length - 1; break;
              }
              if (next !== null) {
                event.preventDefault();
                setCurrent(Math.max(0, Math.min(marks.length - 1, next)));
                marks[current].focus();
              }
            });
          });
          // Start with the first decision's details (or the first record's), without moving focus.
          var first = chart.querySelector("a.mark.decision") || marks[0];
          if (first) { show(first); }
          root.classList.add("js");
          root.setAttribute("data-report-script", "ran");
        })();
        """
}
