/// What a keyboard notification carries: UIKit's `userInfo`, typed.
///
/// Every field is optional because real devices omit them: `Did` events on old iPads carry only the
/// begin frame, and some keyboards send no duration.
public struct KeyboardInfo: Hashable, Sendable, CustomStringConvertible {
    /// `UIKeyboardFrameBeginUserInfoKey`: the frame before the change, in screen coordinates.
    public var begin: Rect?
    /// `UIKeyboardFrameEndUserInfoKey`: the frame after the change, in screen coordinates.
    public var end: Rect?
    /// `UIKeyboardAnimationDurationUserInfoKey`, in seconds.
    public var duration: Double?
    /// `UIKeyboardAnimationCurveUserInfoKey`, the raw integer: 7 is what iOS sends.
    public var curve: Int?
    /// `UIKeyboardIsLocalUserInfoKey`: `false` when the keyboard belongs to another app.
    public var isLocal: Bool?

    /// Creates a payload; every field defaults to absent.
    public init(
        begin: Rect? = nil, end: Rect? = nil, duration: Double? = nil, curve: Int? = nil,
        isLocal: Bool? = nil
    ) {
        self.begin = begin
        self.end = end
        self.duration = duration
        self.curve = curve
        self.isLocal = isLocal
    }

    /// A short description listing the fields present.
    public var description: String {
        var parts: [String] = []
        if let begin { parts.append("begin \(begin)") }
        if let end { parts.append("end \(end)") }
        if let duration { parts.append("duration \(duration)") }
        if let curve { parts.append("curve \(curve)") }
        if let isLocal { parts.append("isLocal \(isLocal)") }
        return parts.isEmpty ? "(no userInfo)" : parts.joined(separator: ", ")
    }
}
