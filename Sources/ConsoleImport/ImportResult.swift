import EventLog
import ResponderBus

/// What ``ConsoleImporter`` made of a console dump: a v1 log (header and records) and what it
/// could not read.
public struct ImportResult: Hashable, Sendable {
    /// The log's header. When ``isEmpty`` is `true` and no screen was given, its screen is `0×0` and
    /// its `screenSource` is `nil`: there is no log to write.
    public var header: LogHeader
    /// The imported events in dump order, with times; a `scene` record first when the dump has
    /// editing notifications (see ``ConsoleImporter``).
    public var records: [LogRecord]
    /// What could not be read, in order: the `--scene` text's first (``ImportProblem/source``),
    /// then the console's in dump order; problems about the whole dump (line 0) come last.
    public var problems: [ImportProblem]
    /// What was found, counted.
    public var summary: ImportSummary
    /// How many of the last ``records`` the rest of the text could still change: made of the
    /// whole keys of a userInfo cut off at its end, or of a dump at its end that is not a window
    /// and that no notification follows (a view printed next would be placed beside it, or a
    /// window printed next take it in). `GrowingImport` holds them back until the rest is written.
    var recordsCutAtEnd = 0

    /// Creates a result.
    public init(header: LogHeader, records: [LogRecord], problems: [ImportProblem], summary: ImportSummary = ImportSummary()) {
        self.header = header
        self.records = records
        self.problems = problems
        self.summary = summary
    }

    /// Whether nothing could be imported (the CLI exits 65, or 64 for a focus that names nothing):
    /// ``problems`` then says why, with an ``ImportProblem/Kind/nothingImportable``,
    /// ``ImportProblem/Kind/screenUnknown`` or ``ImportProblem/Kind/focusNotFound`` problem.
    public var isEmpty: Bool { records.isEmpty }

    /// The problem that refused ``ConsoleImporter/Options/focus`` (it names no text input of the
    /// first view-hierarchy dump), or `nil`: nothing is imported then, and the CLI exits 64.
    public var focusNotFound: ImportProblem? { problems.first { $0.kind == .focusNotFound } }
}

/// Something in a console dump the importer could not read, and where.
public struct ImportProblem: Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A notification's userInfo or a frame stops before its end (the dump is cut off there, or
        /// other text follows it) with nothing whole to import; the notifications it belonged to are
        /// skipped.
        case truncated
        /// A notification's userInfo stops before its end after some whole keys: the notification
        /// is imported under its name with the keys that are whole, and the cut key left out.
        case partlyImported
        /// A value the log needs (a frame, the duration, the curve, `isLocal`) cannot be read; the
        /// notification is skipped.
        case unreadableValue
        /// Text between userInfo entries that is not an entry (what is left of an edited or garbled
        /// line); it is ignored and the entries around it are kept.
        case strayText
        /// A frame that is not finite (`{{inf, inf}, {0, 0}}`, CGRectNull): the log format cannot
        /// hold it, so the notification is imported without that frame.
        case unrepresentableFrame
        /// A keyboard's end frame that cannot be the keyboard on the log's screen: wider than the
        /// screen (often a frame in the other orientation's coordinates) or entirely off it. The
        /// notification is imported as it is; the problem says where, so that a later `--check`
        /// finding is not a surprise. A landscape keyboard in portrait coordinates is not one of
        /// these: see ``sidewaysKeyboardFrames``.
        case implausibleKeyboardFrame
        /// Keyboard frames as tall as the (portrait) screen from its top, along one of its long
        /// edges or just past it: landscape keyboards in portrait coordinates, as iOS before 8 gave
        /// them (`{{0, 0}, {352, 1024}}` on a 768×1024 iPad). They are imported as they are, so
        /// the replay sees a vertical strip; said once, at the first such frame, with how many there
        /// are, the first one on the screen turned the other way and the `--screen` (the landscape
        /// size, ``ConsoleImporter/Options/screen``) that converts them all.
        case sidewaysKeyboardFrames
        /// The screen is landscape and keyboard frames are in its portrait coordinates (as tall as
        /// the screen is wide, along a long edge of the portrait screen: iOS before 8): they were
        /// converted to the landscape screen's coordinates, the keyboard docked at its bottom (see
        /// ``ConsoleImporter``, "Landscape keyboards in portrait coordinates"). Said once, at the
        /// first one, with how many and what the first became.
        case convertedKeyboardFrames
        /// A userInfo names a key again with nothing between (two userInfos printed together, a
        /// show then a hide): the entries from the repeat on are read as another notification, of
        /// the default name.
        case repeatedKey
        /// A later dump of the window in force shares fewer than half of its views with the screen
        /// in force: another screen shown in the window, imported as a new `scene` where it was
        /// printed (said, as the first responder and the earlier screen's views are gone with it).
        case anotherScreen
        /// The console has no keyboard notification, but a view-hierarchy dump or a UI test's element
        /// tree shows the keyboard on the screen: a `keyboardWillShow` and a `keyboardDidShow` with
        /// the keyboard's frame as their end frame are imported where the dump shows it (its root's
        /// line, or the `Keyboard` element's; at the start for the dump pasted apart) (said, as it was read from a picture of
        /// the screen, not from a notification).
        case keyboardFromDump
        /// An NSLog timestamp earlier than the one before it; the dump order is kept and the time
        /// is held at the previous one.
        case timeWentBack
        /// An NSLog timestamp more than `LogLimits.maximumSeconds` (EventLog) after the dump's first
        /// one (a garbled date, most likely): a log cannot replay it, so the time is held at the
        /// previous one.
        case timeTooLate
        /// Notifications were found but no `--screen` was given and no docked keyboard frame shows
        /// the screen; nothing is imported.
        case screenUnknown
        /// No keyboard notification, userInfo dump or editing notification was found.
        case nothingImportable
        /// An editing notification's object address is not a view of the scene in force (the
        /// view-hierarchy dump does not show it); the notification is skipped, never guessed.
        case unknownAddress
        /// A class that is not UIKit's and prints no `baseClass` was given a kind from its name
        /// (`MyApp.PaddedField` → `textField`); `--kind CLASS=KIND` settles it. Reported once per
        /// class.
        case guessedKind
        /// A later dump of the same screen adds or removes views: the log keeps the first dump's
        /// views (moved frames are carried over as `setFrame`).
        case viewsAddedOrRemoved
        /// ``ConsoleImporter/Options/focus`` (`--focus`) is not used: the console has editing
        /// notifications of its own, which say what was edited.
        case focusNotUsed
        /// ``ConsoleImporter/Options/focus`` (`--focus`) names no text field or text view of the
        /// first view-hierarchy dump (or the console has no dump): nothing is imported (the CLI
        /// exits 64), and the message lists the text inputs it could name.
        case focusNotFound
        /// Nothing in the console says which field was being edited (no editing notification and no
        /// ``ConsoleImporter/Options/focus``) while the keyboard shows, and the first
        /// view-hierarchy dump has exactly one text field or text view that is neither hidden nor
        /// disabled: it is taken as focused, its begin-editing placed where `--focus` would place
        /// it, and said (name another with `--focus`).
        case focusGuessed
        /// Views of one dump share an id (an address printed again, or an `accessibilityIdentifier`
        /// that several views print): the later ones are named `#2`, `#3`; said once per id.
        case renamedViews
        /// A class given a kind in ``ConsoleImporter/Options/kinds`` (`--kind CLASS=KIND`) is the
        /// class of no view of the dumps (a typo, or the module's name left out?).
        case kindNotUsed
        /// Views printed alone one after another (a list of matched elements, a `UIFieldEditor`
        /// printed after its field) that are not views of the screen in force were placed side by
        /// side on one screen, each at its place in the window where the dump prints one; said once
        /// for each such run, naming them.
        case loneViewsPlaced
        /// A later dump of the screen in force adds text fields or text views: it is read as the
        /// screen again with them, a new `scene` where it was printed (the field being edited, when
        /// it is still on the screen, is begun again right after it).
        case textInputsAdded
        /// The `Keyboard` element of a UI test's tree is its key plane: the keyboard's docked frame
        /// (with the input accessory and the bar below the keys, up to the screen's bottom) was
        /// taken from the keyboard's window, or the keyboard reaches no bottom and is not docked.
        case keyboardFrameFromTree
        /// A window that is not the app's (an alert's, the status bar's, the system's) printed
        /// with the app's window is left out, the scene being the app's window; or, when the text
        /// prints no other window, it is read as the screen, and said.
        case otherWindow
        /// Lone views printed at a docked keyboard's place, one of them a backdrop view, are the
        /// keyboard's background cut from its window's dump: where the keyboard is, not app views.
        case keyboardBackdrop
        /// Views of the screen from the start lie wholly outside the screen (not inside a scroll
        /// view, whose content may): said, naming them, as a dump whose frames are the window's
        /// rather than each superview's adds them up past the screen's edge.
        case viewsOffScreen
    }

    /// Which text a problem is in.
    public enum Source: String, Hashable, Sendable {
        /// The console dump: the text given to `ConsoleImporter.importDump`.
        case console
        /// The view-hierarchy dump pasted apart (``ConsoleImporter/Options/sceneText``, `--scene`):
        /// its ``ImportProblem/line`` and ``ImportProblem/column`` are that text's.
        case scene
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The 1-based line of the dump (every line counts, `#` annotations included); 0 when the
    /// problem is about the dump as a whole.
    public var line: Int
    /// The 1-based column in characters (Unicode scalars), when it makes sense.
    public var column: Int?
    /// What was wrong, quoting the text, and what was done about it.
    public var message: String
    /// The text the problem is in: the console, or the scene pasted apart (the CLI labels each
    /// with its file's name).
    public var source: Source

    /// Creates a problem.
    public init(kind: Kind, line: Int, column: Int? = nil, message: String, source: Source = .console) {
        self.kind = kind
        self.line = line
        self.column = column
        self.message = message
        self.source = source
    }

    /// `line L, column C: message`, `line L: message`, or the message alone for line 0.
    public var description: String {
        if line == 0 { return message }
        if let column { return "line \(line), column \(column): \(message)" }
        return "line \(line): \(message)"
    }
}

/// What an import found, counted, so that nothing is dropped silently: the CLI prints it on
/// standard error.
public struct ImportSummary: Hashable, Sendable, CustomStringConvertible {
    /// View-hierarchy dumps read (each became a scene, or the changes to one).
    public var dumps = 0
    /// Views in those dumps (the keyboard's own left out).
    public var views = 0
    /// Text fields and text views among them, each counted once however many dumps print it.
    public var textInputs = 0
    /// Their ids, in the order the dumps print them (what ``ConsoleImporter/Options/focus`` can
    /// name).
    public var textInputIDs: [ViewID] = []
    /// Keyboard notifications found.
    public var keyboardNotifications = 0
    /// Editing notifications found.
    public var editingNotifications = 0
    /// Editing notifications whose object address is a view of the scene.
    public var linkedAddresses = 0
    /// Editing notifications whose object address is not a view of the scene, or that print no
    /// object: they are skipped.
    public var unlinkedAddresses = 0
    /// Entries and notifications skipped (cut off, unreadable).
    public var skipped = 0

    /// Creates an empty summary.
    public init() {}

    /// `2 dumps (41 views, 3 text inputs: email, password, notes), 6 keyboard and 2 editing
    /// notifications, 2 linked and 0 unlinked addresses, 1 skipped` (at most ten inputs named,
    /// then how many more).
    public var description: String {
        "\(dumps) dump\(dumps == 1 ? "" : "s") (\(views) view\(views == 1 ? "" : "s"), \(textInputs) text input\(textInputs == 1 ? "" : "s")\(named)), "
            + "\(keyboardNotifications) keyboard and \(editingNotifications) editing notification\(editingNotifications == 1 ? "" : "s"), "
            + "\(linkedAddresses) linked and \(unlinkedAddresses) unlinked address\(unlinkedAddresses == 1 ? "" : "es"), \(skipped) skipped"
    }

    /// `: email, password, notes`, or nothing when there are none.
    private var named: String {
        guard !textInputIDs.isEmpty else { return "" }
        return ": " + Self.list(textInputIDs.map(\.rawValue))
    }

    /// At most ten names, comma-separated, then how many more.
    static func list(_ names: [String], atMost limit: Int = 10) -> String {
        let shown = names.prefix(limit).joined(separator: ", ")
        return names.count > limit ? shown + " and \(names.count - limit) more" : shown
    }
}
