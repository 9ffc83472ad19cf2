import EventLog
import ResponderBus

/// Whether a keyboard's end frame can be the keyboard on the log's screen (issue 33: say so at
/// import, with line and column, and keep the event).
enum KeyboardFramePlausibility {
    /// Half a point: what frames printed with rounding may be off by.
    static let slack = 0.5

    /// Why `end` cannot be the keyboard on `screen`, or `nil` when it can: wider than the screen,
    /// or a keyboard with an area that lies entirely off it. The hidden keyboard's usual place, just
    /// below the screen, and frames without an area (which cover nothing) are plausible.
    static func problem(with end: Rect, on screen: Size) -> String? {
        guard let why = fault(of: end, on: screen) else { return nil }
        // Rotated screen coordinates (before iOS 8, or a rotation the console does not show).
        let rotated = Size(width: screen.height, height: screen.width)
        if screen.width != screen.height, fault(of: end, on: rotated) == nil {
            return why + "; it fits the \(text(rotated)) screen: a frame in the other orientation's coordinates?"
        }
        return why
    }

    /// What is wrong with `end` on `screen`, or `nil`.
    private static func fault(of end: Rect, on screen: Size) -> String? {
        guard screen.width > 0, screen.height > 0 else { return nil }
        if end.width > screen.width + slack {
            return "is wider (\(formatted(end.width))) than the \(text(screen)) screen"
        }
        guard end.width > 0, end.height > 0 else { return nil }
        let side: String
        if end.maxX <= slack {
            side = "to its left"
        } else if end.minX >= screen.width - slack {
            side = "to its right"
        } else if end.maxY <= slack {
            side = "above it"
        } else if end.minY > screen.height + slack {
            side = "below it, past the hidden keyboard's place"
        } else {
            return nil
        }
        return "lies entirely off the \(text(screen)) screen, \(side)"
    }

    static func text(_ size: Size) -> String { "\(formatted(size.width))×\(formatted(size.height))" }

    /// The problems of every keyboard notification in `found` whose end frame is implausible on
    /// `screen` (`given` or `inferred`, as `source` says), after the landscape keyboards in portrait
    /// coordinates are dealt with (see ``SidewaysKeyboardFrames``): converted when `screen` is
    /// landscape, said with the conversion on offer when it is portrait.
    static func problems(in found: inout [ScannedNotification], screen: Size, source: String) -> [ImportProblem] {
        var problems = SidewaysKeyboardFrames.resolve(&found, screen: screen, source: source)
        let sideways = screen.width < screen.height ? screen : nil
        for notification in found {
            guard case .keyboard(let event, let info) = notification.kind, let end = info.end else { continue }
            // A sideways frame on a portrait screen was said above, with what to do about it.
            if let sideways, SidewaysKeyboardFrames.edge(of: end, portrait: sideways) != nil { continue }
            guard let why = problem(with: end, on: screen) else { continue }
            let place = notification.endFrameAt
            problems.append(
                ImportProblem(
                    kind: .implausibleKeyboardFrame, line: place?.line ?? notification.line, column: place?.column,
                    message:
                        "the end frame \(end) of \(event.rawValue) \(why) (the screen is \(source)); the notification is imported as it is"
                ))
        }
        return problems
    }

    static func formatted(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}

/// Landscape keyboards in portrait coordinates: before iOS 8, a keyboard's frames were in the
/// screen's unrotated, portrait coordinates whatever the interface's orientation, so a landscape
/// keyboard is a strip as tall as the portrait screen along one of its long edges
/// (`{{0, 0}, {352, 1024}}` on an iPad, `{{158, 0}, {162, 568}}` on an iPhone 5), and the hidden
/// one lies just past that edge (`{{-352, 0}, {352, 1024}}`).
///
/// - On a landscape screen (wider than tall) such a frame is converted to the screen's
///   coordinates: the edge it lies along is the bottom of the landscape screen. Along the left edge
///   (x = 0: the device turned with its home button to the right, `LandscapeRight`),
///   `[x, y, w, h]` becomes `[y, W − (x + w), h, w]`; along the right edge (x = W − w: home button to
///   the left, `LandscapeLeft`), `[H − (y + h), x, h, w]`, where W × H is the portrait screen. Both
///   give the docked keyboard `[0, W − w, H, w]` and the hidden one `[0, W, H, w]`.
/// - On a portrait screen the frame is kept, and said once with the conversion on offer (the
///   screen turned the other way, and the frame on it): the screen was inferred from such frames,
///   or given as portrait.
enum SidewaysKeyboardFrames {
    /// The long edge of the portrait screen a sideways keyboard lies along.
    enum Edge: Equatable {
        /// x = 0: the landscape screen's bottom when the device's home button is to the right.
        case left
        /// x = the portrait width: the landscape screen's bottom when the home button is to the left.
        case right
    }

    /// The edge of `portrait` along which `frame` lies as a landscape keyboard: as tall as the
    /// portrait screen from its top, narrower than it, and on that edge or just past it (hidden).
    /// `nil` for any other frame, and when `portrait` is not taller than wide.
    static func edge(of frame: Rect, portrait: Size) -> Edge? {
        let slack = KeyboardFramePlausibility.slack
        guard portrait.width < portrait.height, frame.components.allSatisfy(\.isFinite), abs(frame.minY) <= slack,
            abs(frame.height - portrait.height) <= slack, frame.width > slack, frame.width < portrait.width - slack
        else { return nil }
        if frame.minX <= slack, frame.maxX >= -slack { return .left }
        if frame.maxX >= portrait.width - slack, frame.minX <= portrait.width + slack { return .right }
        return nil
    }

    /// `frame`, lying along `edge` of `portrait`, in the coordinates of the screen turned to
    /// landscape (`portrait.height × portrait.width`), the keyboard at its bottom.
    static func landscape(_ frame: Rect, along edge: Edge, portrait: Size) -> Rect {
        switch edge {
        case .left: Rect(x: frame.minY, y: portrait.width - frame.maxX, width: frame.height, height: frame.width)
        case .right: Rect(x: portrait.height - frame.maxY, y: frame.minX, width: frame.height, height: frame.width)
        }
    }

    /// Converts the sideways frames of `found` when `screen` is landscape, or finds them when it is
    /// portrait; returns the one problem that says which (or none).
    static func resolve(_ found: inout [ScannedNotification], screen: Size, source: String) -> [ImportProblem] {
        guard screen.width != screen.height, screen.width > 0, screen.height > 0 else { return [] }
        let converts = screen.width > screen.height
        let portrait = converts ? Size(width: screen.height, height: screen.width) : screen
        // The first sideways frame (the end frame when it is one), its notification, how many.
        var first: (frame: Rect, landscape: Rect, edge: Edge, event: LogEvent.KeyboardEvent, line: Int, column: Int?, isEnd: Bool)?
        var (frames, notifications) = (0, 0)
        for index in found.indices {
            guard case .keyboard(let event, var info) = found[index].kind else { continue }
            var seen = 0
            for isEnd in [true, false] {
                guard let frame = isEnd ? info.end : info.begin, let edge = edge(of: frame, portrait: portrait) else { continue }
                let turned = landscape(frame, along: edge, portrait: portrait)
                seen += 1
                if first == nil {
                    let at = isEnd ? found[index].endFrameAt : nil
                    first = (frame, turned, edge, event, at?.line ?? found[index].line, at?.column, isEnd)
                }
                guard converts else { continue }
                if isEnd { info.end = turned } else { info.begin = turned }
            }
            guard seen > 0 else { continue }
            frames += seen
            notifications += 1
            if converts { found[index].kind = .keyboard(event, info) }
        }
        guard let first else { return [] }
        let which = "the \(first.isEnd ? "end" : "begin") frame \(first.frame) of \(first.event.rawValue)"
        let others =
            notifications == 1
            ? (frames == 2 ? " (and its \(first.isEnd ? "begin" : "end") frame)" : "")
            : " (and \(frames - 1) more keyboard frame\(frames == 2 ? "" : "s") of \(notifications - 1) more notification\(notifications == 2 ? "" : "s"))"
        let tall = "as tall as the \(KeyboardFramePlausibility.text(portrait)) screen, along its \(first.edge == .left ? "left" : "right") edge"
        let landscapeSize = Size(width: portrait.height, height: portrait.width)
        let message: String
        let kind: ImportProblem.Kind
        if converts {
            kind = .convertedKeyboardFrames
            message =
                "\(which)\(others) is \(tall): a landscape keyboard in portrait coordinates, as iOS before 8 gave them; converted to the \(KeyboardFramePlausibility.text(screen)) screen (\(source)), where it is \(first.landscape)"
        } else {
            kind = .sidewaysKeyboardFrames
            let flag = "\(KeyboardFramePlausibility.formatted(landscapeSize.width))x\(KeyboardFramePlausibility.formatted(landscapeSize.height))"
            message =
                "\(which)\(others) is \(tall): a landscape keyboard in portrait coordinates, as iOS before 8 gave them? It fits the screen turned the other way: on the \(KeyboardFramePlausibility.text(landscapeSize)) screen it is \(first.landscape); import with --screen \(flag) to convert the frames (the screen is \(source)); imported as they are"
        }
        return [ImportProblem(kind: kind, line: first.line, column: first.column, message: message)]
    }
}
