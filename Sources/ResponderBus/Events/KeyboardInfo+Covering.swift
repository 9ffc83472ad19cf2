extension KeyboardInfo {
    /// The part of the screen this keyboard covers, or `nil` when it covers nothing.
    ///
    /// The rules every plugin shares:
    /// - The end frame is intersected with the screen, so a hardware keyboard whose frame reaches
    ///   below the screen covers only its visible strip.
    /// - Nothing is covered when the end frame is missing, null, infinite, NaN or of zero height,
    ///   when the intersection is empty, or when the frame does not reach the bottom edge of the
    ///   screen (an iPad keyboard that is floating, undocked or split).
    /// - Hide events (`keyboardWillHide`, `keyboardDidHide`) cover nothing, whatever frame they carry
    ///   (with Reduce Motion, iOS sends hides with a non-zero frame).
    ///
    /// - Parameters:
    ///   - screen: the screen's size; keyboard frames are in screen coordinates.
    ///   - isHide: whether the event is a hide.
    @inlinable
    public func coveredPart(ofScreen screen: Size, isHide: Bool = false) -> Rect? {
        guard !isHide, let end else { return nil }
        // The usual keyboard, docked inside the screen: the general case's answer, computed as
        // `intersection` computes it, without its checks (read on every settled turn).
        let x = end.origin.x
        let y = end.origin.y
        let x1 = x + end.size.width
        let y1 = y + end.size.height
        if x >= 0, y >= 0, x < x1, y < y1, x1 <= screen.width, y1 <= screen.height, y1 >= screen.height - 0.5,
            screen.width < .greatestFiniteMagnitude / 2, screen.height < .greatestFiniteMagnitude / 2
        {
            return Rect(x: x, y: y, width: x1 - x, height: y1 - y)
        }
        guard !end.isNull, !end.isInfinite, !end.isEmpty else { return nil }
        let bounds = Rect(origin: .zero, size: screen)
        let part = end.intersection(bounds)
        guard !part.isNull, !part.isEmpty else { return nil }
        // Docked keyboards end at (or below) the bottom edge; allow half a point of rounding.
        guard end.maxY >= screen.height - 0.5 else { return nil }
        return part
    }

    /// The animation duration to use: the event's, or 0.25 s when it is missing or zero (what
    /// IQKeyboardManager does, since iOS sends 0 for some keyboards).
    public var effectiveDuration: Double {
        guard let duration, duration.isFinite, duration > 0 else { return 0.25 }
        return duration
    }

    /// The raw animation curve to use: the event's, or 7 (the keyboard's own curve) when missing.
    public var effectiveCurve: Int { curve ?? 7 }
}
