import EventLog
import ResponderBus

/// Turns what an iOS app printed to its console into a v1 log: `responder-bus import DUMP`.
///
/// It finds the keyboard notifications (`UIKeyboardWillShow…` and the five others) and the text
/// fields' and text views' `DidBeginEditing`/`DidEndEditing` notifications inside whatever
/// surrounds them:
///
/// - Objective-C `NSConcreteNotification 0x… {name = …; userInfo = {…}}` and
///   `{name = …; object = <UITextField: 0x…; …>}`, with or without an NSLog prefix
///   (`2019-04-30 21:44:27.627646+0800 test[7689:297428] `);
/// - bare `userInfo = {…}` / NSDictionary dumps, values quoted (`"NSRect: {{0, 352}, {320, 216}}"`)
///   or not, keys in any order, with or without their braces;
/// - Swift `name = …, object = nil, userInfo = Optional([AnyHashable("…"): …])` and Swift
///   dictionaries with `AnyHashable("…")`, `AnyHashable(\"…\")`, unwrapped `("…")` or plain string keys;
/// - a line that labels a keyboard frame (`keyboardSize (0.0, 768.0, 1024.0, 398.0)`), taken as
///   the end frame (the begin frame when the label says `begin`);
/// - a list of notification names, one per line (each is an event with no userInfo, unless a
///   userInfo follows the list directly: then every name of the run carries it; a name whose own
///   userInfo opens on its line, `keyboardWillHide: {`, takes it alone).
///
/// Names are recognised as `UIKeyboardWillShowNotification`, `UIKeyboardWillShow`,
/// `UIResponder.keyboardWillShowNotification`, `keyboardWillShowNotification`, `keyboardWillShow`,
/// when they are a description's `name = …` or lead their line; a name mentioned in prose or code
/// (`addObserver(…, name: …)`) is not an event. A userInfo printed without its name is
/// ``Options/defaultEvent`` (`keyboardWillChangeFrame`: every keyboard change posts it).
///
/// Around the dump, comment markers (`//`, `/* */`, Javadoc `*`), Markdown fences and quotes,
/// notes and indentation are skipped; lines starting with `#` are annotations and never read.
/// Imported keys: `UIKeyboardFrameBeginUserInfoKey`/`FrameEnd` (→ `begin`/`end`),
/// `AnimationDuration`, `AnimationCurve`, `IsLocal`. `Bounds`, `CenterBegin`/`CenterEnd`,
/// `FrameChangedByUserInteraction` and unknown keys are read past.
///
/// ## Times
/// When the dump has timestamps (NSLog's `2012-01-19 13:05:48.782`, the unified log's
/// `2024-05-01 12:00:00.123456+0200`, syslog's and idevicesyslog's `May  1 12:00:04`, which has no
/// year), an event's `t` is its line's timestamp (or the last one
/// before it) minus the first event's, to the microsecond; otherwise events are 0.1 s apart, in
/// dump order, from 0. Times never go backwards (see ``ImportProblem/Kind/timeWentBack``).
///
/// ## Screen
/// ``Options/screen`` when given (`screenSource: "given"`); otherwise inferred from the console's
/// keyboard frames, or else from the window of a view-hierarchy dump (`screenSource: "inferred"`;
/// a dump's picture of the keyboard never decides it when a dump shows a window). A docked keyboard spans the screen's width from x = 0 and
/// touches its bottom edge: its width is the screen's width, and the screen's height is its maxY
/// when it is on screen (the end frame of a show) or its minY when it is just below the screen
/// (the begin frame of a show, the end frame of a hide). Each frame at x = 0 votes for
/// (width, minY) and (width, maxY); the pair with the most votes wins, ties going to a real iOS
/// screen size and then to the pair seen first. Before iOS 8, a landscape keyboard's frame is
/// sideways in the unrotated portrait screen (`{{0, 0}, {352, 1024}}`): its height is the screen's
/// height, and the width comes from the only portrait screen of that era with that height
/// (320×480, 320×568, 768×1024). Frames that are not at x = 0 or that reach the top of the screen
/// (floating, split, undocked) do not vote. With no such frame, a dumped window's size is the
/// screen, or else the size of a dumped view that fills a screen of an iOS device from its corner
/// (`(0 0; 428 926)`). When nothing votes and no screen is given, nothing is imported
/// (``ImportProblem/Kind/screenUnknown``): pass `--screen WxH`.
///
/// ## Landscape keyboards in portrait coordinates
/// Before iOS 8 a keyboard's frames were in the screen's unrotated, portrait coordinates: a
/// landscape keyboard is a strip as tall as the portrait screen along one of its long edges
/// (`{{0, 0}, {352, 1024}}` or `{{416, 0}, {352, 1024}}` on a 768×1024 iPad; hidden, just past that
/// edge: `{{-352, 0}, {352, 1024}}`, `{{768, 0}, {352, 1024}}`). Such a frame is as tall as the
/// screen from its top, narrower than it, and on or just past its left or right edge.
///
/// - When the log's screen is landscape (``Options/screen`` `1024×768`), every such frame (begin
///   and end) is converted to it, the edge it lies along becoming the screen's bottom: along the
///   left edge `[x, y, w, h]` → `[y, W − (x + w), h, w]`, along the right edge
///   `[H − (y + h), x, h, w]` (W × H the portrait screen), so both give the docked keyboard
///   `[0, 416, 1024, 352]` and the hidden one `[0, 768, 1024, 352]`; said once
///   (``ImportProblem/Kind/convertedKeyboardFrames``).
/// - When it is portrait (inferred from such frames, or given), they are imported as they are and
///   said once (``ImportProblem/Kind/sidewaysKeyboardFrames``), with the first one on the screen
///   turned the other way and the `--screen` that converts them.
///
/// ## Focus
/// When the console has no editing notification, ``Options/focus`` names the field being edited;
/// one that names no text field or text view of the first view-hierarchy dump refuses the import
/// (``ImportProblem/Kind/focusNotFound``, listing the ones it could name; no records). Without it,
/// when the keyboard shows and that dump has exactly one text input that is neither hidden nor
/// disabled, that one is taken as focused (``ImportProblem/Kind/focusGuessed``). The begin-editing
/// goes where UIKit sends it: before the keyboard's first notification for a text field, right
/// after it for a text view. ``ImportResult/summary`` names the dumps' text inputs.
///
/// ## Editing notifications
/// The view is named after the printed object: its class and address (`UITextField-0x189f10`),
/// or its class and tag when there is no address (`UITextField-tag3`), or its class alone
/// (`UITextField`, `UITextView`) when the notification prints no object. Because replay needs every
/// view it is told about, such a log starts with a `scene` record at t = 0: a root view the size of
/// the screen whose children are those fields, with the frame printed in their description (in
/// their superview's coordinates, taken as the root's) or an empty frame when none was printed.
///
/// Importing never throws and never traps, whatever the bytes: what cannot be read is reported in
/// ``ImportResult/problems`` with its line and column.
public struct ConsoleImporter: Sendable {
    /// How to import.
    public struct Options: Hashable, Sendable {
        /// The screen size in points (`--screen WxH`); inferred from the keyboard frames when `nil`.
        public var screen: Size?
        /// The event a userInfo printed without its notification's name becomes (`--event NAME`).
        public var defaultEvent: LogEvent.KeyboardEvent
        /// The kind of each class named here (`--kind CLASS=KIND`), over what its name says.
        public var kinds: [String: ViewKind]
        /// A view-hierarchy dump pasted apart from the console (`--scene FILE`): its first dump is
        /// the session's screen from the start. Its problems are at its own lines
        /// (``ImportProblem/source`` is `.scene`); when it holds no dump of an app's views, nothing
        /// is imported (a ``ImportProblem/Kind/nothingImportable`` problem of the scene).
        public var sceneText: [UInt8]?
        /// The field being edited when the console shows no editing notification (`--focus`): a
        /// view id or a printed address.
        public var focus: String?
        /// Whether ``focus`` is placed even when the console has editing notifications of its own:
        /// set by a growing import once it has handed out the begin-editing it placed, so that a
        /// notification printed later cannot move the records already taken.
        var keepsFocusAmidEditing = false

        /// Creates options.
        public init(
            screen: Size? = nil, defaultEvent: LogEvent.KeyboardEvent = .keyboardWillChangeFrame, kinds: [String: ViewKind] = [:],
            sceneText: [UInt8]? = nil, focus: String? = nil
        ) {
            self.screen = screen
            self.defaultEvent = defaultEvent
            self.kinds = kinds
            self.sceneText = sceneText
            self.focus = focus
        }
    }

    /// The options in use.
    public var options: Options

    /// Creates an importer.
    public init(options: Options = .init()) {
        self.options = options
    }

    /// The keyboard event a notification name stands for, in any spelling the importer recognises
    /// (`keyboardWillShow`, `UIKeyboardWillShowNotification`, `UIKeyboardWillShow`,
    /// `UIResponder.keyboardWillShowNotification`, any case): for `--event NAME`.
    public static func keyboardEvent(named name: String) -> LogEvent.KeyboardEvent? {
        let bytes = Array(name.utf8)
        guard case .keyboardName(let event) = ConsoleWord.classify(bytes[...]) else { return nil }
        return event
    }

    /// Imports a dump given as text.
    public func importDump(_ text: String) -> ImportResult {
        importDump(Array(text.utf8))
    }

    /// Imports a dump given as bytes (invalid UTF-8 is tolerated; it is never part of a notification).
    ///
    /// The bytes are taken: passed with `consume` (or as a last use), they are blanked in place
    /// rather than copied, which matters for a dump of a hundred megabytes.
    public func importDump(_ bytes: consuming [UInt8]) -> ImportResult {
        // View-hierarchy dumps first: the notification scanner reads the text with their entries
        // blanked out (newlines kept), so that a dump never reads as userInfo text. The reader is
        // done with the bytes before they are blanked, so that they are blanked in place.
        var builder = SceneBuilder(kinds: options.kinds)
        // The view-hierarchy dumps pasted apart (`--scene`) first, then the console's own.
        var (scenes, sceneKeyboards, sceneProblems): ([PlacedScene], [(line: Int, frame: Rect)], [ImportProblem]) = ([], [], [])
        if let sceneText = options.sceneText {
            switch readScene(sceneText, building: &builder) {
            case .success(let read): (scenes, sceneKeyboards, sceneProblems) = read
            case .failure(let refused): return refused.result
            }
        }
        let (builtProblems, sceneGuesses) = (builder.problems.count, builder.guessed.count)
        var hierarchy = HierarchyReader.readAll(bytes, building: &builder)
        scenes += hierarchy.scenes
        hierarchy.scenes = []
        SceneGrouping.tidy(&scenes, into: &hierarchy)
        var notificationText = consume bytes
        for range in hierarchy.entryRanges {
            for index in range where notificationText[index] != 0x0A { notificationText[index] = UInt8(ascii: " ") }
        }
        hierarchy.entryRanges = []
        // The scanner and the text go once the notifications are found.
        let scanned = { (text: [UInt8]) in
            var scanner = ConsoleScanner(bytes: text, defaultEvent: options.defaultEvent)
            scanner.run()
            return (scanner.notifications, scanner.problems, scanner.droppedProblems, scanner.keyMentions.first, scanner.notificationsCutAtEnd)
        }(consume notificationText)
        var (found, droppedProblems, keyMention) = (scanned.0, scanned.2, scanned.3)
        var problems = scanned.1
        // The screen is inferred from the console's own keyboard frames, not from a dump's picture
        // of the keyboard (its window says the screen better).
        let inferredScreen = options.screen == nil ? ScreenInference.infer(from: found) : nil
        let keyboardsShown = Self.keyboardsShown(by: sceneKeyboards + hierarchy.keyboards, in: &found)
        hierarchy.keyboards = []
        var summary = ImportSummary()
        problems = sceneProblems + problems + hierarchy.problems + builder.problems.dropFirst(builtProblems) + keyboardsShown
        problems += Self.notes(of: builder, sceneGuesses: sceneGuesses, settling: options.kinds, hasScenes: !scenes.isEmpty)
        summary.count(scenes, found)

        func finish(_ header: LogHeader, _ records: [LogRecord], _ whole: [ImportProblem], held: Int = 0) -> ImportResult {
            Self.result(header, records, problems: problems, dropped: droppedProblems, whole: whole, summary: summary, cutAtEnd: max(scanned.4, held))
        }

        let placeholder = LogHeader(screen: options.screen ?? .zero, screenSource: options.screen == nil ? nil : "given")
        if found.isEmpty && scenes.isEmpty { return finish(placeholder, [], [Self.nothingImportable(mentioning: keyMention)]) }

        // The screen.
        guard let (screen, source) = Self.screen(given: options.screen, inferred: inferredScreen, found: found, scenes: scenes) else {
            return finish(placeholder, [], [Self.unknownScreen(found: found, scenes: scenes)])
        }

        problems += KeyboardFramePlausibility.problems(in: &found, screen: screen, source: source)
        let times = Self.times(of: found, problems: &problems)
        let header = LogHeader(screen: screen, screenSource: source)
        if !scenes.isEmpty {
            var session = SessionAssembler(scenes: scenes, screen: screen, focus: options.focus, keepsFocusAmidEditing: options.keepsFocusAmidEditing)
            session.assemble(found, times: times)
            problems += session.problems
            summary.linkedAddresses = session.linked
            summary.unlinkedAddresses = session.unlinked
            if let refused = session.focusRefused { return finish(placeholder, [], [refused]) }
            // The records a dump printed next could change wait, as a cut userInfo's do.
            return finish(header, session.records, [], held: session.unsettledAtEnd)
        }
        if let focus = options.focus {
            // Without a dump, editing notifications are all a focus could be; with them, none is needed.
            guard found.contains(where: { if case .editing = $0.kind { true } else { false } }) else {
                let message =
                    "--focus \(focus) names nothing: the console has no view-hierarchy dump to find it in (add one, or pass it with --scene FILE); nothing is imported"
                return finish(placeholder, [], [ImportProblem(kind: .focusNotFound, line: 0, message: message)])
            }
            problems.append(
                ImportProblem(kind: .focusNotUsed, line: 0, message: "--focus \(focus) is not used: the console has editing notifications of its own")
            )
        }
        return finish(header, Self.records(of: found, times: times, screen: screen), [])
    }

    /// The result: the problems sorted (the scene's first, as it is the screen from the start,
    /// then each text's in line order), those not listed counted, then `whole`'s (about the
    /// import as a whole); the skipped counted; the records cut at the end of the console.
    private static func result(
        _ header: LogHeader, _ records: [LogRecord], problems: [ImportProblem], dropped: Int, whole: [ImportProblem],
        summary: ImportSummary, cutAtEnd: Int
    ) -> ImportResult {
        var sorted = problems.enumerated().sorted { a, b in
            let (aScene, bScene) = (a.element.source == .scene ? 0 : 1, b.element.source == .scene ? 0 : 1)
            return (aScene, a.element.line, a.element.column ?? 0, a.offset) < (bScene, b.element.line, b.element.column ?? 0, b.offset)
        }.map(\.element)
        if dropped > 0 {
            sorted.append(ImportProblem(kind: .strayText, line: 0, message: "\(dropped) more problems were not listed"))
        }
        var counted = summary
        counted.skipped = sorted.count { $0.kind == .truncated || $0.kind == .unreadableValue }
        var result = ImportResult(header: header, records: records, problems: sorted + whole, summary: counted)
        // The notifications cut at the end are the console's last, and so the last records.
        result.recordsCutAtEnd = records.isEmpty ? 0 : min(cutAtEnd, records.count)
        return result
    }

    /// The problem of a console with nothing to import, naming a key it mentions without a value.
    private static func nothingImportable(mentioning mention: (line: Int, column: Int, word: String)?) -> ImportProblem {
        var message = "nothing to import: no keyboard notification, userInfo dump, editing notification or view-hierarchy dump was found"
        if let mention {
            message += "; line \(mention.line), column \(mention.column) names \(mention.word) but gives it no `=` or `:` value"
        }
        return ImportProblem(kind: .nothingImportable, line: 0, message: message)
    }

    /// A refused `--scene` text: the result that says so.
    private struct RefusedScene: Error {
        var result: ImportResult
    }

    /// The view-hierarchy dumps pasted apart (`--scene`): their scenes (there from the start, at
    /// line 0), keyboards and problems (labelled as the scene's); refused when it holds no dump.
    private func readScene(
        _ text: [UInt8], building builder: inout SceneBuilder
    ) -> Result<([PlacedScene], [(line: Int, frame: Rect)], [ImportProblem]), RefusedScene> {
        let found = HierarchyReader.readAll(text, building: &builder)
        let scenes = found.scenes.map { PlacedScene(line: 0, scene: $0.scene) }
        var problems: [ImportProblem] = []
        for var problem in found.problems + builder.problems {
            problem.source = .scene
            problems.append(problem)
        }
        guard !scenes.isEmpty else {
            problems.append(
                ImportProblem(
                    kind: .nothingImportable, line: 0,
                    message:
                        "no view-hierarchy dump was found (an app's view printed by recursiveDescription, such as <UIWindow: 0x…; frame = (0 0; 375 667); …>); nothing is imported",
                    source: .scene))
            let header = LogHeader(screen: options.screen ?? .zero, screenSource: options.screen == nil ? nil : "given")
            return .failure(RefusedScene(result: ImportResult(header: header, records: [], problems: problems)))
        }
        return .success((scenes, found.keyboards.map { (0, $0.frame) }, problems))
    }

    /// What the scene builder guessed (an app's class taken by its name) and what `--kind` settled
    /// for no view, as problems; the first `sceneGuesses` guesses are the `--scene` text's.
    private static func notes(
        of builder: SceneBuilder, sceneGuesses: Int, settling kinds: [String: ViewKind], hasScenes: Bool
    ) -> [ImportProblem] {
        var problems: [ImportProblem] = []
        for (index, guess) in builder.guessed.enumerated() {
            problems.append(
                ImportProblem(
                    kind: .guessedKind, line: guess.line,
                    message:
                        "\(guess.className) is not a UIKit class and prints no baseClass; taken as a \(guess.kind.rawValue) from its name (say otherwise with --kind \(guess.className)=KIND)",
                    source: index < sceneGuesses ? .scene : .console))
        }
        for (className, kind) in kinds.sorted(by: { $0.key < $1.key }) where !builder.settledClasses.contains(className) {
            problems.append(
                ImportProblem(
                    kind: .kindNotUsed, line: 0,
                    message:
                        "--kind \(className)=\(kind.rawValue) is not used: no view of the view-hierarchy dumps has that class\(hasScenes ? "" : " (there is none)")"
                ))
        }
        return problems
    }

    /// The screen and where it came from: given, inferred from the console's docked keyboard
    /// frames, or a dumped window's size; `nil` when none of them says it.
    private static func screen(
        given: Size?, inferred: Size?, found: [ScannedNotification], scenes: [PlacedScene]
    ) -> (Size, String)? {
        if let given { return (given, "given") }
        if let inferred = inferred ?? (scenes.contains(where: \.scene.isWindow) ? nil : ScreenInference.infer(from: found)) {
            return (inferred, "inferred")
        }
        if let window = scenes.first(where: { $0.scene.isWindow && $0.scene.root.frame.size.width > 0 && $0.scene.root.frame.size.height > 0 }) {
            return (window.scene.root.frame.size, "inferred")
        }
        // A view that fills a screen of an iOS device from its corner (a controller's view, a
        // full-screen scroll view) says it too.
        if let full = scenes.first(where: { $0.scene.root.frame.origin == .zero && ScreenInference.knownScreens.contains($0.scene.root.frame.size) })
        {
            return (full.scene.root.frame.size, "inferred")
        }
        return nil
    }

    /// The problem that asks for `--screen`, saying what was found.
    private static func unknownScreen(found: [ScannedNotification], scenes: [PlacedScene]) -> ImportProblem {
        let keyboard = found.filter { if case .keyboard = $0.kind { true } else { false } }.count
        let editing = found.count - keyboard
        var parts: [String] = []
        if keyboard > 0 { parts.append("\(keyboard) keyboard notification\(keyboard == 1 ? "" : "s")") }
        if editing > 0 { parts.append("\(editing) editing notification\(editing == 1 ? "" : "s")") }
        if !scenes.isEmpty { parts.append("\(scenes.count) view-hierarchy dump\(scenes.count == 1 ? "" : "s") without a window") }
        var example = "e.g. --screen 375x667"
        // Views as wide as an iOS device's screen from its left edge, or with the same margin on
        // both sides of one, say its width.
        let frames = scenes.map(\.scene.root.frame)
        let widths = Set(frames.map { $0.origin.x * 2 + $0.size.width })
        let portrait = ScreenInference.knownScreens.filter { $0.height > $0.width }
        var fitting = portrait.filter { widths.contains($0.width) }.sorted { $0.height < $1.height }
        // Else the narrowest screens the views fit in.
        let right = frames.map { $0.origin.x + $0.size.width }.max() ?? 0
        if fitting.isEmpty, right > 375, let narrowest = portrait.filter({ $0.width >= right }).map(\.width).min() {
            fitting = portrait.filter { $0.width == narrowest }.sorted { $0.height < $1.height }
        }
        if let width = fitting.first?.width {
            let sizes = fitting.map { "--screen \(Int(width))x\(Int($0.height))" }
            example =
                "the views fit a screen \(Int(width)) points wide: \(sizes.count == 1 ? sizes[0] : sizes.dropLast().joined(separator: ", ") + " or " + sizes[sizes.count - 1])"
        }
        let message =
            "found \(parts.joined(separator: " and ")) but no docked keyboard frame\(scenes.isEmpty ? "" : " or window") to infer the screen from; pass --screen WxH (\(example))"
        return ImportProblem(kind: .screenUnknown, line: 0, message: message)
    }

    /// Each notification's time: from its timestamp, after the first one's; a tenth of a second
    /// apart when the console prints none. A time past what a log can replay, or earlier than the
    /// one before, stays at the one before, and is said.
    private static func times(of found: [ScannedNotification], problems: inout [ImportProblem]) -> [Double] {
        guard let base = found.lazy.compactMap(\.timestamp).first else { return found.indices.map { Double($0) / 10 } }
        var times: [Double] = []
        times.reserveCapacity(found.count)
        var previous = 0.0
        for notification in found {
            var t = previous
            if let stamp = notification.timestamp {
                t = Double(stamp &- base) / 1_000_000
                if t > LogLimits.maximumSeconds {
                    problems.append(
                        ImportProblem(
                            kind: .timeTooLate, line: notification.line,
                            message:
                                "this timestamp is \(formatSeconds(t)) s after the dump's first, more than a log can replay (\(Int(LogLimits.maximumSeconds)) s); t stays at \(formatSeconds(previous))"
                        ))
                    t = previous
                } else if t < previous {
                    problems.append(
                        ImportProblem(
                            kind: .timeWentBack, line: notification.line,
                            message:
                                "this timestamp is \(formatSeconds(previous - t)) s earlier than the one before it; the dump order is kept and t stays at \(formatSeconds(previous))"
                        ))
                    t = previous
                }
            }
            times.append(t)
            previous = t
        }
        return times
    }

    /// The records of a console without a view-hierarchy dump: a scene of the editing views (a
    /// root the screen's size), then the notifications.
    private static func records(of found: [ScannedNotification], times: [Double], screen: Size) -> [LogRecord] {
        var records: [LogRecord] = []
        records.reserveCapacity(found.count + 1)
        var views: [ScannedView] = []
        var seen: Set<ViewID> = []
        for notification in found {
            if case .editing(_, let view) = notification.kind, !seen.contains(view.id) {
                seen.insert(view.id)
                views.append(view)
            }
        }
        if !views.isEmpty {
            let children = views.map { view in
                ViewSpec(id: view.id, kind: view.kind, frame: view.frame ?? .zero, tag: view.tag)
            }
            let rootID: ViewID = seen.contains("root") ? "screen-root" : "root"
            let root = ViewSpec(id: rootID, kind: .view, frame: Rect(origin: .zero, size: screen), children: children)
            records.append(LogRecord(t: 0, event: .scene(SceneInfo(root: root))))
        }
        for (notification, t) in zip(found, times) {
            switch notification.kind {
            case .keyboard(let event, let info):
                records.append(LogRecord(t: t, event: .keyboard(event, info)))
            case .editing(let isBegin, let view):
                let info = EditingInfo(view: view.id)
                records.append(LogRecord(t: t, event: isBegin ? .didBeginEditing(info) : .didEndEditing(info)))
            }
        }
        return records
    }

    /// Where the dumps show the keyboard stands for the keyboard's notifications when the console
    /// has none: a `keyboardWillShow` and a `keyboardDidShow` ending at its frame, at each dump
    /// whose keyboard is not where the one before left it. Returns the problems that say so.
    private static func keyboardsShown(by keyboards: [(line: Int, frame: Rect)], in found: inout [ScannedNotification]) -> [ImportProblem] {
        guard !keyboards.isEmpty, !found.contains(where: { if case .keyboard = $0.kind { true } else { false } }) else { return [] }
        var problems: [ImportProblem] = []
        var shown: [ScannedNotification] = []
        var previous: Rect?
        for keyboard in keyboards where keyboard.frame != previous {
            previous = keyboard.frame
            // UIKit's pair, so that plugins that act before the keyboard moves (on the will-event)
            // decide as they would have.
            for event in [LogEvent.KeyboardEvent.keyboardWillShow, .keyboardDidShow] {
                shown.append(ScannedNotification(kind: .keyboard(event, KeyboardInfo(end: keyboard.frame)), timestamp: nil, line: keyboard.line))
            }
            let f = keyboard.frame
            problems.append(
                ImportProblem(
                    kind: .keyboardFromDump, line: keyboard.line,
                    message:
                        "the console has no keyboard notification, and this dump shows the keyboard at {{\(f.origin.x), \(f.origin.y)}, {\(f.size.width), \(f.size.height)}}: imported as a keyboardWillShow and a keyboardDidShow ending there",
                    // Line 0 is the view-hierarchy dump pasted apart (`--scene`).
                    source: keyboard.line == 0 ? .scene : .console))
        }
        // In the console's order: a dump's keyboard after what was printed before the dump.
        found = (found + shown).enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
        return problems
    }

    private static func formatSeconds(_ value: Double) -> String {
        let rounded = (value * 1_000_000).rounded() / 1_000_000
        return rounded.isFinite ? "\(rounded)" : "?"
    }
}

/// Infers the screen from docked keyboard frames; see ``ConsoleImporter`` ("Screen").
enum ScreenInference {
    /// Portrait screens of iOS devices, in points (landscape is the same pair swapped).
    static let knownScreens: Set<Size> = {
        let portrait: [(Double, Double)] = [
            (320, 480), (320, 568), (375, 667), (414, 736), (375, 812), (414, 896), (360, 780), (390, 844),
            (428, 926), (393, 852), (430, 932), (402, 874), (440, 956), (420, 912), (768, 1024), (834, 1112),
            (834, 1194), (1024, 1366), (810, 1080), (820, 1180), (744, 1133), (834, 1210), (1032, 1376),
        ]
        var sizes: Set<Size> = []
        for (w, h) in portrait {
            sizes.insert(Size(width: w, height: h))
            sizes.insert(Size(width: h, height: w))
        }
        return sizes
    }()

    /// Portrait height → width of the screens that ran iOS before 8 (sideways landscape frames).
    static let preIOS8Widths: [Double: Double] = [480: 320, 568: 320, 1024: 768]

    static func infer(from notifications: [ScannedNotification]) -> Size? {
        var votes: [Size: (count: Int, first: Int)] = [:]
        var order = 0
        func vote(_ size: Size) {
            guard size.width > 0, size.height > 0, size.width.isFinite, size.height.isFinite else { return }
            if let existing = votes[size] {
                votes[size] = (existing.count + 1, existing.first)
            } else {
                votes[size] = (1, order)
                order += 1
            }
        }
        for notification in notifications {
            guard case .keyboard(_, let info) = notification.kind else { continue }
            for frame in [info.begin, info.end].compactMap({ $0 }) {
                guard frame.components.allSatisfy(\.isFinite), frame.size.width > 0, frame.size.height >= 0 else { continue }
                if frame.origin.y == 0, frame.size.height > frame.size.width,
                    let width = preIOS8Widths[frame.size.height]
                {
                    vote(Size(width: width, height: frame.size.height))
                    continue
                }
                // Docked: from x = 0, and below the top of the screen (an undocked iPad keyboard's
                // `{{0, 0}, {768, 304}}` → `{{0, -264}, …}` says nothing about the screen).
                guard abs(frame.origin.x) < 0.5, frame.minY > 0 else { continue }
                let candidates = frame.minY == frame.maxY ? [frame.minY] : [frame.minY, frame.maxY]
                for height in candidates where height > 0 && height >= frame.height {
                    vote(Size(width: frame.size.width, height: height))
                }
            }
        }
        let best = votes.max { a, b in
            if a.value.count != b.value.count { return a.value.count < b.value.count }
            let aKnown = knownScreens.contains(a.key)
            let bKnown = knownScreens.contains(b.key)
            if aKnown != bKnown { return !aKnown }
            return a.value.first > b.value.first
        }
        return best?.key
    }
}

extension ImportSummary {
    /// Counts the dumps, their views and text inputs, and the notifications found.
    mutating func count(_ scenes: [PlacedScene], _ found: [ScannedNotification]) {
        dumps = scenes.count
        views = scenes.reduce(0) { $0 + $1.scene.viewCount }
        var seen: Set<ViewID> = []
        textInputIDs = scenes.flatMap(\.scene.textInputIDs).filter { seen.insert($0).inserted }
        textInputs = textInputIDs.count
        for notification in found {
            if case .keyboard = notification.kind { keyboardNotifications += 1 } else { editingNotifications += 1 }
        }
    }
}
