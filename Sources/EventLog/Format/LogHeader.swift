import ResponderBus

/// Line 1 of a v1 log: the format, its version, and the screen the session ran on.
///
/// ```json
/// {"format":"responder-bus-log","safeArea":{"bottom":34,"left":0,"right":0,"top":44},"screen":{"height":812,"width":375},"version":1}
/// ```
public struct LogHeader: Hashable, Sendable {
    /// The value of the `format` field.
    public static let formatName = "responder-bus-log"
    /// The newest version this module reads and the one it writes.
    public static let currentVersion = 1

    /// The format version.
    public var version: Int
    /// The screen's size in points.
    public var screen: Size
    /// The screen's safe area, when known.
    public var safeArea: EdgeInsets?
    /// Where the screen size came from, for imported logs: `"given"` (`--screen`) or `"inferred"`
    /// (from docked keyboard frames). Written as `screenSource`; `nil` for recorded logs.
    public var screenSource: String?
    /// A free-form description of the device or the log's origin, written as `device` when present.
    public var device: String?

    /// Creates a header.
    public init(
        screen: Size, safeArea: EdgeInsets? = nil, version: Int = LogHeader.currentVersion, screenSource: String? = nil,
        device: String? = nil
    ) {
        self.version = version
        self.screen = screen
        self.safeArea = safeArea
        self.screenSource = screenSource
        self.device = device
    }
}
