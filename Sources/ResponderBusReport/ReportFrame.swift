import EventLog

/// The screen at one moment of a replay, as ``ReportRecorder/frame(at:)`` found it: the state after
/// the last record at or before that moment, and which record that was.
public struct ReportFrame: Sendable {
    /// The moment, in seconds of the log's clock.
    public let t: Double
    /// The index of the state among the distinct states the recorder kept: two frames of one
    /// recorder with the same index show the same screen. 0 is the state before any record.
    public let stateIndex: Int
    /// The index in ``ReportRecorder/records`` of the record the frame follows; `nil` before the
    /// first record.
    public let recordIndex: Int?
    /// The record the frame follows; `nil` before the first record.
    public let record: LogRecord?
    /// The screen at that moment.
    public let state: ScreenState

    /// The frame as an SVG document, exactly as `responder-bus render` writes it: the screen drawn to
    /// scale, titled with the log's name and the moment, and a caption that names the record it
    /// follows.
    ///
    /// - Parameter logName: The log's name as the title and the caption show it (`render` gives the
    ///   file's name, or `standard input`).
    public func svg(logName: String) -> String {
        ScreenDrawing.standalone(state, title: "\(logName) at \(moment)", caption: ["\(logName), \(moment)", "\(after)."])
    }

    /// `t = 1.009 s`.
    package var moment: String { "t = \(Markup.time(t)) s" }

    /// `after record #9 at 1.009 s, viewShift (KeyboardAvoidance)`, or `before the first record`.
    package var after: String {
        guard let recordIndex, let record else { return "before the first record" }
        return "after record #\(recordIndex + 1) at \(Markup.time(record.t)) s, \(record.event.name) (\(ReportText.origin(record.origin)))"
    }
}
