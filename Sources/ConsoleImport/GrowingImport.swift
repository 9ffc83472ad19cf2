import EventLog
import ResponderBus

/// The import of a console that is still being written (`responder-bus import --follow`): give it
/// the text as it arrives, and take the log's header once the screen is known, then the events as
/// they are found, each once.
///
/// Each ``take(final:)`` imports the text received so far, up to its last newline, again (a
/// console is re-read whole, so that a later line never changes what an earlier one meant) and
/// returns the records past those already taken. A userInfo cut off at the current end of the text
/// is held back until it is whole. After ``restart()`` (the console was truncated or replaced) the
/// text starts again, and its records come after those taken, their times going on from the last.
///
/// ```swift
/// var growing = GrowingImport(options: .init(screen: Size(width: 375, height: 812)))
/// growing.append(bytesReadSoFar)
/// let (header, records) = growing.take()
/// ```
public struct GrowingImport: Sendable {
    /// The importer's options, the same for every take.
    public let options: ConsoleImporter.Options
    /// The options each take imports with: ``options``, and once a placed begin-editing (a
    /// guessed focus, or `--focus`) was handed out, that focus kept in place.
    private var importing: ConsoleImporter.Options
    private var text: [UInt8] = []
    private var taken = 0
    private var headerTaken = false
    private var timeOffset = 0.0
    private var lastT = 0.0
    /// What the last ``take(final:)`` could not import, or refused: the problems of its import of
    /// the text so far (a ``ImportProblem/Kind/focusNotFound`` one holds every record back).
    public private(set) var problems: [ImportProblem] = []

    /// An import with `options` and no text yet.
    public init(options: ConsoleImporter.Options = .init()) {
        self.options = options
        importing = options
    }

    /// How many bytes of the current text were received.
    public var byteCount: Int { text.count }

    /// Adds what the console's writer wrote next.
    public mutating func append(_ bytes: [UInt8]) {
        text += bytes
    }

    /// Starts the text again, as a truncated or replaced console does: what was taken stays taken,
    /// and the new text's records come after it, never earlier in time.
    public mutating func restart() {
        text.removeAll()
        taken = 0
        timeOffset = lastT
    }

    /// What is new since the last take: the header, the first time the screen is known (given, or
    /// inferred from a docked keyboard frame or a dumped window), and the records found since.
    /// Nothing is returned before the header can be.
    ///
    /// - Parameter final: the text is complete (the follow ends): its last line is read even
    ///   without a newline, and nothing is held back.
    public mutating func take(final: Bool = false) -> (header: LogHeader?, records: [LogRecord]) {
        let end = final ? text.count : (text.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0)
        guard end > 0 else { return (nil, []) }
        let result = ConsoleImporter(options: importing).importDump(Array(text[0..<end]))
        problems = result.problems
        var header: LogHeader?
        if !headerTaken {
            guard !result.records.isEmpty, result.header.screen.width > 0 else { return (nil, []) }
            header = result.header
            headerTaken = true
        }
        // The notification made of the whole keys of a userInfo cut at the current end waits for
        // the rest (one with no whole key yet makes no record).
        let stable = final ? result.records.count : result.records.count - result.recordsCutAtEnd
        guard stable > taken else { return (header, []) }
        keepPlacedFocus(of: result, handingOutTo: stable)
        var records: [LogRecord] = []
        for var record in result.records[taken..<stable] {
            record.t = max(record.t + timeOffset, lastT)
            lastT = record.t
            records.append(record)
        }
        taken = stable
        return (header, records)
    }

    /// When this take hands out the begin-editing the importer placed (a guessed focus, or
    /// `--focus`, for a console with no editing notification yet), every later take places the same
    /// one: an editing notification printed later would otherwise remove it, and the records
    /// after it would move back by one, the first of them never handed out.
    private mutating func keepPlacedFocus(of result: ImportResult, handingOutTo stable: Int) {
        guard !importing.keepsFocusAmidEditing, taken == 0 || stable > taken else { return }
        let placed =
            result.problems.contains { $0.kind == .focusGuessed }
            || (importing.focus != nil && result.problems.allSatisfy { $0.kind != .focusNotUsed })
        guard placed,
            let index = result.records.firstIndex(where: { if case .didBeginEditing = $0.event { true } else { false } }), index < stable,
            case .didBeginEditing(let info) = result.records[index].event
        else { return }
        importing.focus = info.view.rawValue
        importing.keepsFocusAmidEditing = true
    }
}
