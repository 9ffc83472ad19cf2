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

    private static func text(_ size: Size) -> String { "\(formatted(size.width))×\(formatted(size.height))" }

    /// The problems of every keyboard notification in `found` whose end frame is implausible on
    /// `screen` (`given` or `inferred`, as `source` says).
    static func problems(in found: [ScannedNotification], screen: Size, source: String) -> [ImportProblem] {
        var problems: [ImportProblem] = []
        for notification in found {
            guard case .keyboard(let event, let info) = notification.kind, let end = info.end, let why = problem(with: end, on: screen) else {
                continue
            }
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

    private static func formatted(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
