import ResponderBus

/// Draws a ``ScreenState`` as SVG, to scale: one SVG unit is one point.
///
/// What it shows: the screen (white) on a grey canvas large enough for content moved off it; the
/// safe area's insets, dotted; every view's outline with its id, kind, class and tag (the line style says
/// the kind), a password field's with "•••• secure"; the first responder with a thick outline, bold and "▶"; the keyboard's frame with the
/// part that covers hatched; a covered field cross-hatched and labelled "COVERED"; content off the
/// screen faded; and an arrow from the root's resting origin to its shifted one. Colour is never the
/// only cue: every mark has a pattern, a line style or a label as well.
package struct ScreenDrawing {
    package let state: ScreenState
    /// The font size of labels, in points.
    package let fontSize: Double
    /// The area drawn, in screen coordinates.
    package let canvas: Rect

    package init(_ state: ScreenState, fontSize: Double) {
        self.state = state
        self.fontSize = fontSize
        let screen = Rect(origin: .zero, size: state.size)
        var area = screen
        for view in state.views where Self.isDrawable(view.frame) { area = area.union(view.frame) }
        if let keyboard = state.keyboardFrame, Self.isDrawable(keyboard) { area = area.union(keyboard) }
        // Absurd frames must not make the screen a speck: keep within a few screens of it.
        let reach = max(state.size.width, state.size.height, 1) * 3
        let minX = max(area.minX, -reach)
        let maxX = min(area.maxX, state.size.width + reach)
        let minY = max(area.minY, -reach)
        let maxY = min(area.maxY, state.size.height + reach)
        let margin = fontSize * 0.75
        // Room on the left for the root's shift arrow, and above for its label.
        let shifted = state.hasRoot && state.rootOriginY != state.restingRootOriginY
        let left = shifted ? fontSize * 2 : margin
        let top = shifted ? fontSize * 1.6 : margin
        canvas = Rect(x: minX - left, y: minY - top, width: maxX - minX + left + margin, height: maxY - minY + top + margin)
    }

    package static func isDrawable(_ rect: Rect) -> Bool {
        !rect.isNull && rect.components.allSatisfy(\.isFinite)
    }

    /// The drawing's elements in one group, with `id` when given (for `<use>`).
    package func group(id: String?) -> String {
        var out = "<g class=\"rb-state\"\(id.map { " id=\"\($0)\"" } ?? "") font-size=\"\(Markup.number(fontSize))\">"
        out += rect(canvas, "rb-canvas")
        let screen = Rect(origin: .zero, size: state.size)
        out += rect(screen, "rb-screen")
        // The safe area: the insets outside it, dotted.
        let safe = screen.inset(by: state.safeArea)
        if state.safeArea != .zero, !safe.isNull, safe.width > 0, safe.height > 0 {
            out += "<path class=\"rb-unsafe\" fill-rule=\"evenodd\" d=\"\(path(screen))\(path(safe))\"/>"
            out += rect(safe, "rb-safe-edge")
        }
        // The labels that say what matters (the focused field's, "COVERED", the keyboard's, the
        // shift's) are placed first; a view's label goes where it overlaps none of them, nor its
        // parent's or earlier siblings'.
        let marks = placedMarks()
        var labels = marks.boxes
        for view in state.views { out += draw(view, labels: &labels) }
        if let keyboard = state.keyboardFrame {
            out += "<g class=\"rb-keyboard\">" + rect(clamped(keyboard), "rb-kb-frame")
            if let covering = state.covering { out += rect(covering, "rb-kb-covering") }
            out += marks.text(.keyboard) + "</g>"
        }
        // The focused field again, over the keyboard: a covered one stays visible.
        let focused = state.firstResponder.flatMap { Self.isDrawable($0.frame) ? $0 : nil }
        if let focused { out += rect(clamped(focused.frame), "rb-focus-ring") }
        if let covered = state.coveredPart, let field = state.firstResponder {
            out += "<g class=\"rb-covered\">" + rect(covered, "rb-covered-part") + rect(clamped(field.frame), "rb-covered-field")
            out += marks.text(.covered) + "</g>"
        }
        if focused != nil { out += "<g class=\"rb-focused\">" + marks.text(.focused) + "</g>" }
        // The views a diagnostic names, outlined over everything (a covered button, say).
        for (index, id) in state.named.enumerated() {
            guard let view = state.views.first(where: { $0.id == id }), Self.isDrawable(view.frame) else { continue }
            out += "<g class=\"rb-named\">" + rect(clamped(view.frame), "rb-named-ring") + marks.text(.named(index)) + "</g>"
        }
        // Content outside the screen is faded; the screen's edge on top.
        out += "<path class=\"rb-offscreen\" fill-rule=\"evenodd\" d=\"\(path(canvas))\(path(screen))\"/>"
        out += rect(screen, "rb-screen-edge")
        if state.hasRoot, state.rootOriginY != state.restingRootOriginY {
            out += shiftArrow(label: marks.text(.shift))
        }
        if !state.hasRoot {
            out += text("no scene", x: fontSize * 0.5, y: fontSize * 1.5, "rb-note")
        }
        return out + "</g>"
    }

    // MARK: The labels that matter, placed first

    /// A label placed before the views' labels.
    private enum Mark: Hashable {
        case focused, covered, keyboard, shift
        case named(Int)
    }

    /// The marks' labels, where they go, and the boxes they take.
    private struct PlacedMarks {
        var texts: [Mark: String] = [:]
        var boxes: [Rect] = []

        func text(_ mark: Mark) -> String { texts[mark] ?? "" }
    }

    /// The width of a bold label's character, as a share of the font size (the marks' labels).
    static let boldCharacterWidth = 0.62

    /// The box a label takes: its text from `x`, between the baseline `y` less a font size and a
    /// fifth of one under it.
    private func labelBox(_ content: String, x: Double, y: Double, bold: Bool) -> Rect {
        let width = Double(content.count) * fontSize * (bold ? Self.boldCharacterWidth : Self.characterWidth)
        return Rect(x: x, y: y - fontSize, width: width, height: fontSize * 1.2)
    }

    /// Places the marks' labels in order of importance, each at the first of its places (a
    /// baseline) where it overlaps no label placed before it; at its first place when none is free.
    private func placedMarks() -> PlacedMarks {
        var placed = PlacedMarks()
        // The focused field's outline, which the keyboard's label keeps off too.
        let focusedFrame = state.firstResponder.flatMap { Self.isDrawable($0.frame) ? clamped($0.frame) : nil }
        func place(
            _ mark: Mark, _ content: String, _ className: String, bold: Bool = true, at places: [(x: Double, y: Double)],
            clearOf obstacles: [Rect] = []
        ) {
            guard let first = places.first else { return }
            let spot =
                places.first { spot in
                    let box = labelBox(content, x: spot.x, y: spot.y, bold: bold)
                    return !(placed.boxes + obstacles).contains { Self.overlap($0, box) }
                } ?? first
            placed.boxes.append(labelBox(content, x: spot.x, y: spot.y, bold: bold))
            placed.texts[mark] = text(content, x: spot.x, y: spot.y, className)
        }
        let line = fontSize * 1.2
        if let field = state.firstResponder, Self.isDrawable(field.frame) {
            let frame = clamped(field.frame)
            let y = frame.minY + min(fontSize * 1.15, max(frame.height - 2, fontSize * 0.8))
            place(.focused, labelText(field), "rb-label", at: [(frame.minX + fontSize * 0.35, y)])
        }
        if let covered = state.coveredPart, let height = state.coveredHeight, let field = state.firstResponder {
            // In the covered part, below the field's own label, when there is room; otherwise
            // under it, on the keyboard, a line lower for each label in the way.
            let inside = max(covered.midY + fontSize * 0.4, field.frame.minY + fontSize * 2.5)
            let below = covered.maxY + fontSize * 1.1
            let starts = (inside <= covered.maxY - fontSize * 0.25 ? [inside] : []) + (0..<6).map { below + Double($0) * line }
            place(
                .covered, "⚠ COVERED \(Markup.points((height * 10).rounded() / 10)) pt", "rb-covered-label",
                at: starts.map { (covered.minX + fontSize * 0.4, $0) })
        }
        for (index, id) in state.named.enumerated() {
            guard let view = state.views.first(where: { $0.id == id }), Self.isDrawable(view.frame) else { continue }
            // The focused field's own label names it already: its ring says it is named.
            if view.isFirstResponder, placed.texts[.focused] != nil { continue }
            let frame = clamped(view.frame)
            let lines = max(1, Int(((frame.height - fontSize * 0.35) / line).rounded(.down)))
            // Inside its frame from the bottom up, then just above it, then just below it.
            let inside = (0..<lines).map { (frame.minX + fontSize * 0.35, frame.maxY - fontSize * 0.35 - Double($0) * line) }
            place(
                .named(index), "⚑ \(id)", "rb-named-label",
                at: inside + [
                    (frame.minX + fontSize * 0.35, frame.minY - fontSize * 0.3), (frame.minX + fontSize * 0.35, frame.maxY + fontSize * 1.1),
                ])
        }
        if let keyboard = state.keyboardFrame {
            let content = state.covering == nil ? "keyboard \(keyboard): not docked, covers nothing" : "keyboard \(keyboard)"
            // At the keyboard's bottom edge (its top is where fields and "COVERED" are), a line
            // higher for each label in the way.
            let anchor = clamped(keyboard)
            let lines = max(1, Int(((anchor.height - fontSize * 0.5) / line).rounded(.down)))
            place(
                .keyboard, content, "rb-kb-label",
                at: (0..<lines).map { (anchor.minX + fontSize * 0.4, anchor.maxY - fontSize * 0.5 - Double($0) * line) },
                clearOf: focusedFrame.map { [$0] } ?? [])
        }
        if state.hasRoot, state.rootOriginY != state.restingRootOriginY {
            let shift = state.rootOriginY - state.restingRootOriginY
            place(
                .shift, "root \(shift < 0 ? "↑" : "↓") \(Markup.points(abs(shift))) pt", "rb-shift-label", bold: false,
                at: [(canvas.minX + fontSize * 0.3, canvas.minY + fontSize * 1.1)])
        }
        return placed
    }

    private func draw(_ view: ScreenState.View, labels: inout [Rect]) -> String {
        guard Self.isDrawable(view.frame) else { return "" }
        // `rb-label` is the class of the labels' text: a label view is `rb-text-label`.
        var classes = "rb-view rb-\(view.kind == .label ? "text-label" : view.kind.rawValue)"
        if view.isHidden { classes += " rb-hidden" }
        if view.isFirstResponder { classes += " rb-focused" }
        if view.isSecure { classes += " rb-secure" }
        let frame = clamped(view.frame)
        var out = "<g class=\"\(classes)\"><title>\(Markup.escape("\(view.id): \(ScreenState.kindText(view)), \(view.frame)"))</title>"
        out += rect(frame, nil)
        if view.kind == .textView {
            // A text view's second, inner line: told apart from a text field without colour.
            let inset = fontSize * 0.25
            if frame.width > 2 * inset, frame.height > 2 * inset {
                out += rect(
                    Rect(x: frame.minX + inset, y: frame.minY + inset, width: frame.width - 2 * inset, height: frame.height - 2 * inset), "rb-inner")
            }
        }
        // The focused field's label is drawn last, over the keyboard.
        if !view.isFirstResponder { out += label(view, avoiding: &labels) }
        return out + "</g>"
    }

    /// A view's label inside its frame, cut to the frame's width (with "…"), on the first line
    /// from its top that overlaps no label in `placed` (a parent's, a sibling's, the marks'); just
    /// above the frame when no line inside is free (a bar filled by its focused field); left out
    /// when that is taken too, or the frame has no room for a few characters (the view's `<title>`
    /// still names it).
    private func label(_ view: ScreenState.View, avoiding placed: inout [Rect]) -> String {
        let frame = clamped(view.frame)
        let characterWidth = fontSize * Self.characterWidth
        let room = frame.width - fontSize * 0.7
        var content = labelText(view)
        let fitting = Int((room / characterWidth).rounded(.down))
        if content.count > fitting {
            guard fitting >= 4 else { return "" }
            content = String(content.prefix(fitting - 1)) + "…"
        }
        let lineHeight = fontSize * 1.2
        let width = Double(content.count) * characterWidth
        var baseline = frame.minY + min(fontSize * 1.15, max(frame.height - 2, fontSize * 0.8))
        while true {
            // On each line, at the frame's left, else just after the labels it would overlap.
            var box = Rect(x: frame.minX + fontSize * 0.35, y: baseline - fontSize, width: width, height: lineHeight)
            for _ in 0..<4 {
                let overlapped = placed.filter { Self.overlap($0, box) }
                if overlapped.isEmpty {
                    placed.append(box)
                    return text(content, x: box.minX, y: baseline, "rb-label")
                }
                box.origin.x = (overlapped.map(\.maxX).max() ?? box.minX) + fontSize * 0.5
                if box.maxX > frame.maxX { break }
            }
            baseline += lineHeight
            guard baseline <= frame.maxY - fontSize * 0.2 else { break }
        }
        let above = Rect(x: frame.minX + fontSize * 0.35, y: frame.minY - fontSize * 1.3, width: width, height: lineHeight)
        guard above.minY >= canvas.minY, !placed.contains(where: { Self.overlap($0, above) }) else { return "" }
        placed.append(above)
        return text(content, x: above.minX, y: above.minY + fontSize, "rb-label")
    }

    /// Whether two label boxes share an area (touching is not overlapping).
    static func overlap(_ a: Rect, _ b: Rect) -> Bool {
        a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
    }

    /// The width of a label's character, as a share of the font size: a generous average for the
    /// sans-serif labels, so that an estimate errs towards room.
    static let characterWidth = 0.55

    /// A view's label: id, kind, tag, and what else applies.
    private func labelText(_ view: ScreenState.View) -> String {
        var label = view.id + " · " + view.kind.rawValue
        // A view imported from a hierarchy dump shows its class, unless its id already does.
        if let className = view.className, !view.id.hasPrefix(className + "@") { label += " · " + className }
        if let tag = view.tag { label += " · tag \(tag)" }
        // A password field: bullets, as the field shows what is typed, and the word.
        if view.isSecure { label += " · •••• secure" }
        // Taken out of keyboard avoidance by a plugin's `viewSettings`.
        if !view.avoidsKeyboard { label += " · not avoided" }
        // Kept on the keyboard's top (a chat input bar): moved by keyboard avoidance's `viewMove`.
        if view.followsKeyboard { label += " · follows the keyboard" }
        if view.isFirstResponder { label = "▶ " + label }
        if view.isHidden { label += " (hidden)" }
        if !view.isEnabled { label += " (disabled)" }
        return label
    }

    /// The arrow from the root's resting origin to its shifted one, with its placed `label`.
    private func shiftArrow(label: String) -> String {
        let x = canvas.minX + fontSize * 1.1
        let from = state.restingRootOriginY
        let to = state.rootOriginY
        let shift = to - from
        let head = fontSize * 0.45 * (shift < 0 ? 1 : -1)
        var out = "<g class=\"rb-shift\"><title>root moved \(Markup.points(abs(shift))) pt \(shift < 0 ? "up" : "down")</title>"
        out +=
            "<path d=\"M\(Markup.number(x)) \(Markup.number(from))V\(Markup.number(to))M\(Markup.number(x - fontSize * 0.4)) \(Markup.number(to + head))L\(Markup.number(x)) \(Markup.number(to))L\(Markup.number(x + fontSize * 0.4)) \(Markup.number(to + head))\"/>"
        out += "<path class=\"rb-rest\" d=\"M\(Markup.number(x - fontSize * 0.6)) \(Markup.number(from))H\(Markup.number(x + fontSize * 0.6))\"/>"
        return out + label + "</g>"
    }

    // MARK: Elements

    private func clamped(_ rect: Rect) -> Rect {
        let intersection = rect.intersection(canvas)
        return intersection.isNull ? rect : intersection
    }

    private func rect(_ rect: Rect, _ className: String?) -> String {
        "<rect\(className.map { " class=\"\($0)\"" } ?? "") x=\"\(Markup.number(rect.minX))\" y=\"\(Markup.number(rect.minY))\" width=\"\(Markup.number(rect.width))\" height=\"\(Markup.number(rect.height))\"/>"
    }

    private func path(_ rect: Rect) -> String {
        "M\(Markup.number(rect.minX)) \(Markup.number(rect.minY))H\(Markup.number(rect.maxX))V\(Markup.number(rect.maxY))H\(Markup.number(rect.minX))Z"
    }

    private func text(_ content: String, x: Double, y: Double, _ className: String) -> String {
        "<text class=\"\(className)\" x=\"\(Markup.number(x))\" y=\"\(Markup.number(y))\">\(Markup.escape(content))</text>"
    }

    // MARK: Shared pieces

    /// The patterns the drawings use, for a `<defs>`; sized for labels of `fontSize` points.
    package static func patterns(fontSize: Double) -> String {
        let step = Markup.number(fontSize * 0.55)
        let dot = Markup.number(fontSize * 0.08)
        return """
            <pattern id="rb-p-kb" patternUnits="userSpaceOnUse" width="\(step)" height="\(step)" patternTransform="rotate(45)"><rect width="\(step)" height="\(step)" fill="#d4d4da"/><line x1="0" y1="0" x2="0" y2="\(step)" stroke="#6b6b78" stroke-width="\(Markup.number(fontSize * 0.12))"/></pattern>\
            <pattern id="rb-p-covered" patternUnits="userSpaceOnUse" width="\(step)" height="\(step)" patternTransform="rotate(45)"><rect width="\(step)" height="\(step)" fill="#ffd6d1"/><path d="M0 0V\(step)M0 0H\(step)" stroke="#c0180c" stroke-width="\(Markup.number(fontSize * 0.16))"/></pattern>\
            <pattern id="rb-p-safe" patternUnits="userSpaceOnUse" width="\(step)" height="\(step)"><circle cx="\(dot)" cy="\(dot)" r="\(dot)" fill="#8a8aa0"/></pattern>
            """
    }

    /// The style of the drawings (stroke widths in pixels, whatever the scale).
    package static let css = """
        .rb-state *{vector-effect:non-scaling-stroke}
        .rb-state text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}
        .rb-canvas{fill:#eceef2}
        .rb-screen{fill:#fff}
        .rb-screen-edge{fill:none;stroke:#1d1d24;stroke-width:2px}
        .rb-offscreen{fill:#eceef2;fill-opacity:.72}
        .rb-unsafe{fill:url(#rb-p-safe)}
        .rb-safe-edge{fill:none;stroke:#8a8aa0;stroke-width:1px;stroke-dasharray:2 3}
        .rb-view rect{fill:none;stroke:#55586a;stroke-width:1px;stroke-dasharray:5 3}
        .rb-textField>rect{fill:#f5f8ff;stroke:#24408e;stroke-width:1.5px;stroke-dasharray:none}
        .rb-textView>rect{fill:#f7fbf4;stroke:#2c6b1f;stroke-width:1.5px;stroke-dasharray:none}
        .rb-textView>rect.rb-inner{fill:none;stroke-width:1px}
        .rb-scrollView>rect{stroke:#7a4a00;stroke-dasharray:8 3 2 3}
        .rb-button>rect{fill:#fff6ea;stroke:#8a4b00;stroke-width:1.5px;stroke-dasharray:none}
        .rb-text-label>rect{stroke-opacity:.5;stroke-dasharray:1 2}
        .rb-named-ring{fill:none;stroke:#d35400;stroke-width:3px;stroke-dasharray:3 2}
        .rb-named-label{fill:#a04000;font-weight:700}
        .rb-hidden>rect{stroke-opacity:.45;stroke-dasharray:1 3}
        .rb-hidden text{fill-opacity:.55}
        .rb-label{fill:#1d1d24}
        .rb-focused .rb-label{font-weight:700;fill:#0b3bbf}
        .rb-focus-ring{fill:none;stroke:#0b3bbf;stroke-width:3.5px}
        .rb-kb-frame{fill:#8c8c99;fill-opacity:.28;stroke:#3c3c48;stroke-width:1.5px}
        .rb-kb-covering{fill:url(#rb-p-kb);fill-opacity:.8;stroke:#3c3c48;stroke-width:1px}
        .rb-kb-label{fill:#1d1d24;font-weight:600}
        .rb-covered-part{fill:url(#rb-p-covered);stroke:#c0180c;stroke-width:1px}
        .rb-covered-field{fill:none;stroke:#c0180c;stroke-width:3px;stroke-dasharray:6 3}
        .rb-covered-label{fill:#a01208;font-weight:800}
        .rb-shift path{fill:none;stroke:#1d1d24;stroke-width:2px}
        .rb-shift .rb-rest{stroke-dasharray:2 2}
        .rb-shift-label{fill:#1d1d24}
        .rb-note{fill:#55586a;font-style:italic}
        """

    /// A whole SVG document: the drawing at `scale` pixels per point, with a title and a caption.
    package static func standalone(_ state: ScreenState, title: String, caption: [String]) -> String {
        let scale = min(1, 700 / max(state.size.width, state.size.height, 1))
        let fontSize = 12 / scale
        let drawing = ScreenDrawing(state, fontSize: fontSize)
        let captionHeight = fontSize * (0.9 + 1.4 * Double(caption.count))
        let canvas = drawing.canvas
        let captionWidth = Double(caption.map(\.count).max() ?? 0) * fontSize * 0.6 + fontSize
        let total = Rect(x: canvas.minX, y: canvas.minY, width: max(canvas.width, captionWidth), height: canvas.height + captionHeight)
        let box = "\(Markup.number(total.minX)) \(Markup.number(total.minY)) \(Markup.number(total.width)) \(Markup.number(total.height))"
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="\(box)" width="\(Markup.number(total.width * scale))" height="\(Markup.number(total.height * scale))" role="img" aria-labelledby="rb-title rb-desc" font-size="\(Markup.number(fontSize))">
            <title id="rb-title">\(Markup.escape(title))</title>
            <desc id="rb-desc">\(Markup.escape(state.summary))</desc>
            <style>\(css)
            .rb-caption{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;fill:#1d1d24}</style>
            <defs>\(patterns(fontSize: fontSize))</defs>
            <rect x="\(Markup.number(total.minX))" y="\(Markup.number(total.minY))" width="\(Markup.number(total.width))" height="\(Markup.number(total.height))" fill="#fff"/>
            \(drawing.group(id: nil))
            \(caption.enumerated().map { "<text class=\"rb-caption\" x=\"\(Markup.number(canvas.minX + fontSize * 0.5))\" y=\"\(Markup.number(canvas.maxY + fontSize * (1.5 + 1.4 * Double($0.offset))))\">\(Markup.escape($0.element))</text>" }.joined())
            </svg>

            """
    }
}
