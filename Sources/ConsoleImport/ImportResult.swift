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
    /// How many of the last ``records`` were made of the whole keys of a userInfo cut off at the
    /// end of the text: `GrowingImport` holds them back until the rest is written.
    var recordsCutAtEnd = 0

    /// Creates a result.
    public init(header: LogHeader, records: [LogRecord], problems: [ImportProblem], summary: ImportSummary = ImportSummary()) {
        self.header = header
        self.records = records
        self.problems = problems
        self.summary = summary
    }

    /// Whether nothing could be imported (the CLI exits 65): ``problems`` then says why, with an
    /// ``ImportProblem/Kind/nothingImportable`` or ``ImportProblem/Kind/screenUnknown`` problem.
    public var isEmpty: Bool { records.isEmpty }
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
        /// finding is not a surprise.
        case implausibleKeyboardFrame
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
        /// `--focus` names a view that no scene has, or the log already has editing notifications.
        case focusNotUsed
        /// Views of one dump share an id (an address printed again, or an `accessibilityIdentifier`
        /// that several views print): the later ones are named `#2`, `#3`; said once per id.
        case renamedViews
        /// A class given a kind in ``ConsoleImporter/Options/kinds`` (`--kind CLASS=KIND`) is the
        /// class of no view of the dumps (a typo, or the module's name left out?).
        case kindNotUsed
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
    /// Text fields and text views among them.
    public var textInputs = 0
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

    /// `2 dumps (41 views, 3 text inputs), 6 keyboard and 2 editing notifications, 2 linked and 0 unlinked addresses, 1 skipped`.
    public var description: String {
        "\(dumps) dump\(dumps == 1 ? "" : "s") (\(views) view\(views == 1 ? "" : "s"), \(textInputs) text input\(textInputs == 1 ? "" : "s")), "
            + "\(keyboardNotifications) keyboard and \(editingNotifications) editing notification\(editingNotifications == 1 ? "" : "s"), "
            + "\(linkedAddresses) linked and \(unlinkedAddresses) unlinked address\(unlinkedAddresses == 1 ? "" : "es"), \(skipped) skipped"
    }
}
