import ArgumentParser
import ConsoleImport
import EventLog
import ResponderBus
import ResponderBusPlatform
import ResponderBusReplay

/// `responder-bus import`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn what an iOS app printed to its console into a v1 log.",
        discussion: """
            Finds the keyboard notifications (and text field / text view begin and end editing) in \
            print(notification) output, NSLog lines, po and userInfo dumps, with whatever surrounds them, \
            and writes a v1 log. Times come from the lines' timestamps when present (NSLog's, the unified log's, syslog's). The screen comes from \
            --screen, or is inferred from docked keyboard frames or a dumped window; the header says \
            which. What cannot be read is reported with its line on standard error, then a summary of \
            what was found (the text inputs named); a dump with nothing importable exits 65.

            Keyboard frames in portrait coordinates, as iOS before 8 gave a landscape keyboard's \
            ({{0, 0}, {352, 1024}} on an iPad), are converted when --screen is landscape (1024x768); \
            on a portrait screen they are kept and standard error offers that conversion.

            View-hierarchy dumps (po [view recursiveDescription], pviews) in the console, or pasted \
            apart with --scene, become the session's scene: text fields, text views and scroll views \
            with their frames, tags, hidden and enabled states and classes; editing notifications whose \
            object address is in the dump become that view's begin and end editing. A later dump of \
            the same window carries over the frames that moved. Without editing notifications, \
            --focus names the field being edited (one that names no text input of the first dump \
            exits 64, listing them); without --focus either, the dump's only text input is taken \
            as focused while the keyboard shows, and standard error says so.

            Examples:
              responder-bus import console.txt --screen 375x812 -o session.jsonl
              pbpaste | responder-bus import - > session.jsonl
              responder-bus import userinfo.txt --event keyboardWillShow
              responder-bus import console.txt --scene hierarchy.txt --focus UITextField@0x7f9a1c40b3a0
              responder-bus import console.txt --kind MyApp.NoteBox=textView -o session.jsonl
              responder-bus import console.txt --follow | responder-bus replay -
            """
    )

    @Argument(help: "The console dump, or - for standard input.")
    var dump: String

    @Option(help: ArgumentHelp("The screen size in points, such as 375x812, when the dump does not show it.", valueName: "WxH"))
    var screen: String?

    @Option(help: ArgumentHelp("The event a userInfo printed without its notification's name becomes.", valueName: "name"))
    var event: String = "keyboardWillChangeFrame"

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the log to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "A view-hierarchy dump (recursiveDescription) pasted apart from the console: the screen from the start.", valueName: "file"))
    var scene: String?

    @Option(
        help: ArgumentHelp(
            "The text field or text view being edited, by id or address, when the console has no editing notification (one that names none exits 64).",
            valueName: "id|address"))
    var focus: String?

    @Option(
        name: .customLong("kind"),
        help: ArgumentHelp(
            "The kind of an app's view class, over what its name suggests: view, textField, textView, scrollView, button or label (repeatable).",
            valueName: "CLASS=KIND"))
    var kinds: [String] = []

    @Flag(
        help:
            "Follow the console by name as it grows, like tail -F, and write each event to standard output as it is found, until interrupted (pipe it into replay -)."
    )
    var follow = false

    func validate() throws {
        if follow {
            if dump == "-" { throw ValidationError("--follow needs a console file to follow, not standard input") }
            if output != nil { throw ValidationError("--follow writes to standard output, for replay - to read as it goes; redirect it with >") }
        }
        if let screen, Self.parseScreen(screen) == nil {
            throw ValidationError("--screen \(screen): expected WIDTHxHEIGHT in points, such as 375x812")
        }
        for kind in kinds where Self.parseKind(kind) == nil {
            throw ValidationError("--kind \(kind): expected CLASS=KIND, KIND one of \(ViewKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if dump == "-", scene == "-" {
            throw ValidationError("--scene -: the console is read from standard input already; give the scene as a file")
        }
        if ConsoleImporter.keyboardEvent(named: event) == nil {
            let names = EventName<KeyboardInfo>.allKeyboardEvents.map(\.rawValue)
            throw ValidationError("--event \(event): expected one of \(names.joined(separator: ", "))")
        }
    }

    static func parseScreen(_ text: String) -> Size? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]), width > 0, height > 0,
            width.isFinite, height.isFinite
        else { return nil }
        return Size(width: width, height: height)
    }

    /// `CLASS=KIND`.
    static func parseKind(_ text: String) -> (String, ViewKind)? {
        guard let equals = text.lastIndex(of: "=") else { return nil }
        let className = String(text[..<equals])
        guard !className.isEmpty, let kind = ViewKind(rawValue: String(text[text.index(after: equals)...])) else { return nil }
        return (className, kind)
    }

    func run() throws {
        _ = StandardOutput.wasClosed
        if let clash = OutputClash.check(inputs: [dump] + [scene].compactMap { $0 }, outputs: [output ?? "-"]) {
            complain(clash)
            throw ExitCode.validationFailure
        }
        var options = ConsoleImporter.Options()
        options.screen = screen.flatMap(Self.parseScreen)
        options.defaultEvent = ConsoleImporter.keyboardEvent(named: event) ?? .keyboardWillChangeFrame
        options.kinds = Dictionary(kinds.compactMap(Self.parseKind), uniquingKeysWith: { _, last in last })
        options.focus = focus
        if let scene {
            guard let text = Self.readAll(scene) else { throw Exit.noInput }
            options.sceneText = text
        }
        if follow { return try follow(options: options) }
        guard let bytes = Self.readAll(dump) else { throw Exit.noInput }
        // The dump is handed over (blanked in place, not copied), and the log is written record
        // by record: a dump of a million views is a hundred megabytes, its scene line as much.
        let result = ConsoleImporter(options: options).importDump(consume bytes)
        // Each problem is labelled with the file it is in.
        for problem in result.problems { complain("\(problem.source == .scene ? scene ?? dump : dump): \(problem)") }
        complain("\(dump): found \(result.summary)")
        // A --focus that names nothing is a wrong argument (said above, with the text inputs it could name).
        if result.focusNotFound != nil { throw ExitCode.validationFailure }
        guard !result.records.isEmpty else {
            if result.problems.isEmpty { complain("\(dump): nothing importable") }
            throw Exit.dataError
        }
        let tooLong: String?
        do throws(OutputError) {
            tooLong = try Self.write(result, to: output)
        } catch {
            throw error.reported()
        }
        if let tooLong {
            complain("\(dump): \(tooLong)")
            throw Exit.dataError
        }
        complain("\(dump): imported \(result.records.count) events (screen \(result.header.screen), \(result.header.screenSource ?? "given"))")
    }

    /// Writes the log to `path` (standard output when `nil`), record by record; returns why
    /// nothing was written when a record's line would be longer than the log format allows (a
    /// scene of some 400,000 views), `nil` when all was.
    static func write(_ result: ImportResult, to path: String?) throws(OutputError) -> String? {
        let file = try path.map { path throws(OutputError) in try OutputFile(path: path) }
        let out = file.map(Output.init(file:)) ?? Output()
        out.line(LogWriter.line(for: result.header))
        for record in result.records {
            let (name, t) = (record.event.name, record.t)
            guard let length = out.line(record, atMost: LogLimits.maximumLineLength) else { continue }
            file?.abandon()
            return
                "the \(name) at t \(JSONText.number(t)) would be a line of \(length) bytes, over the log format's \(LogLimits.maximumLineLength >> 20) MiB; nothing written (import a part of the dump)"
        }
        out.flush()
        if let error = out.error {
            file?.abandon()
            throw error
        }
        try file?.commit()
        return nil
    }

    /// Reads a whole file (or standard input).
    static func readAll(_ path: String) -> [UInt8]? {
        let descriptor: Int32 = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            complain("cannot open '\(path)': \(String(cString: strerror(errno))); check the path")
            return nil
        }
        defer { if descriptor != 0 { close(descriptor) } }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            complain("'\(path)' is a directory, not a console dump")
            return nil
        }
        // A file's size is known: read into one buffer of that size rather than doubling one.
        let sizeHint = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
        switch DescriptorIO.readAll(descriptor, sizeHint: sizeHint) {
        case .success(let bytes):
            return bytes
        case .failure(let failure):
            let reason = if case .error(let code) = failure { String(cString: strerror(code)) } else { "too large" }
            complain("cannot read '\(path)': \(reason)")
            return nil
        }
    }
}
