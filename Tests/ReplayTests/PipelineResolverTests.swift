import EventLog
import Foundation
import ResponderBus
import ResponderBusPlatform
import ResponderBusReplay
import Synchronization
import Testing

/// A folder of its own under the temporary directory, with project files in some of its folders;
/// removed by `remove()`.
private struct Sessions {
    let root: String

    init() throws {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent("replaytests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
        // Resolved, as the resolver's messages name resolved paths (macOS's /var is /private/var).
        root = SystemFiles.resolvedPath(made)
    }

    /// Makes the folder `relative` (with a project file holding `project`, when given); its path.
    @discardableResult
    func folder(_ relative: String, project: String? = nil) throws -> String {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if let project { try project.write(toFile: path + "/" + ProjectFile.fileName, atomically: false, encoding: .utf8) }
        return path
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

/// The pipeline error `body` throws, if any.
private func pipelineError<T>(_ body: () throws -> T) -> PipelineError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? PipelineError
    }
}

/// Lines handed to a resolver's `warn`.
private final class Warnings: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func add(_ line: String) { lines.withLock { $0.append(line) } }
}

@Suite("PipelineResolver: each folder's project file, with the options over it")
struct PipelineResolverTests {
    @Test("two folders with different project files get different pipelines; a folder without one gets the overrides alone")
    func perFolder() throws {
        let sessions = try Sessions()
        defer { sessions.remove() }
        let checkout = try sessions.folder("checkout", project: #"{"disable": ["FieldAdvancing"]}"#)
        let signUp = try sessions.folder("sign-up", project: #"{"keyboardAvoidance": {"keyboardDistance": 40}}"#)
        let plain = try sessions.folder("plain")
        let nested = try sessions.folder("checkout/nested/deeper")
        var overrides = PipelineDescription()
        overrides.settings.fieldOrder = .position
        let resolver = PipelineResolver(overrides: overrides)

        #expect(resolver.projectFilePath(forSessionsIn: checkout) == checkout + "/.responder-bus.json")
        #expect(resolver.projectFilePath(forSessionsIn: nested) == checkout + "/.responder-bus.json")
        #expect(resolver.projectFilePath(forSessionsIn: plain) == nil)

        let first = try resolver.pipeline(forSessionsIn: checkout)
        #expect(first.description.disabled == ["FieldAdvancing"])
        #expect(first.description.settings.keyboardDistance == nil)
        #expect(first.description.settings.fieldOrder == .position, "the overrides' settings over the file's")
        #expect(first.inProcessPluginNames == ["TextViewOrdering", "KeyboardAvoidance"])

        let second = try resolver.pipeline(forSessionsIn: signUp)
        #expect(second.description.disabled == [])
        #expect(second.description.settings.keyboardDistance == 40)
        #expect(second.description.settings.fieldOrder == .position)
        #expect(second.inProcessPluginNames == BuiltinPlugins.names)

        let none = try resolver.pipeline(forSessionsIn: plain)
        #expect(none.description.disabled == [])
        #expect(none.description.settings == overrides.settings)
        #expect(try resolver.description(forSessionsIn: plain).settings == overrides.settings)

        // Made once per project file, whichever folder under it asks.
        #expect(try resolver.pipeline(forSessionsIn: nested) === first)
        #expect(try resolver.pipeline(forSessionsIn: checkout) === first)
        #expect(try resolver.pipeline(forSessionsIn: signUp) === second)
        #expect(first !== second)

        // The two pipelines replay differently: the one at 40 pt shifts 20 pt more.
        #expect(try replayExample(with: second).shifts.first == -43)
        #expect(try replayExample(with: first).shifts.first == -23)
        #expect(try replayExample(with: first).derived.allSatisfy { $0.origin.derivingPlugin != "FieldAdvancing" })
    }

    @Test("the overrides win over the file: a list replaces the file's, a setting replaces the file's")
    func overridesWin() throws {
        let sessions = try Sessions()
        defer { sessions.remove() }
        let folder = try sessions.folder(
            "s", project: #"{"disable": ["FieldAdvancing"], "keyboardAvoidance": {"keyboardDistance": 40, "timing": "everyEvent"}}"#)
        var overrides = PipelineDescription(disabled: ["TextViewOrdering"])
        overrides.settings.keyboardDistance = 30
        let description = try PipelineResolver(overrides: overrides).pipeline(forSessionsIn: folder).description
        #expect(description.disabled == ["TextViewOrdering"])
        #expect(description.settings.keyboardDistance == 30)
        #expect(description.settings.avoidanceTiming == .everyEvent, "a setting the overrides leave alone is the file's")

        // With no project file chosen, the file is not read; with another file chosen, that one.
        let ignoring = try PipelineResolver(overrides: overrides, choice: .none).pipeline(forSessionsIn: folder).description
        #expect(ignoring.settings.avoidanceTiming == nil)
        let other = try sessions.folder("other", project: #"{"fieldAdvancing": {"order": "position"}}"#)
        let chosen = PipelineResolver(choice: .file(other + "/.responder-bus.json"))
        #expect(try chosen.pipeline(forSessionsIn: folder).description.settings.fieldOrder == .position)
        #expect(try chosen.pipeline(forSessionsIn: folder).description.disabled == [])
    }

    @Test(
        "a project file that cannot be used is a plugin error naming its path, line and key, for every folder it applies to",
        arguments: [
            ("{\n  \"disable\": [],\n  \"keyboardAvoidance\": {\"keyboardDistance\": \"x\"}\n}\n", ":3:", "keyboardAvoidance.keyboardDistance"),
            ("{\n  \"disable\": [],\n  \"pluginTimeout\": 0\n}\n", ":3:", "pluginTimeout"),
            ("{\n  \"disable\": [],\n  \"pluginFailure\": \"sometimes\"\n}\n", ":3:", "pluginFailure"),
            ("{\n  \"disable\": [],\n  \"plugins\": [\"libA.so\" \"libB.so\"]\n}\n", ":3:", "expected ',' or ']' after an array item"),
        ])
    func badFile(_ text: String, _ line: String, _ key: String) throws {
        let sessions = try Sessions()
        defer { sessions.remove() }
        let folder = try sessions.folder("bad", project: text)
        let nested = try sessions.folder("bad/nested")
        let resolver = PipelineResolver()
        for asked in [folder, nested, folder] {
            let error = try #require(pipelineError { try resolver.pipeline(forSessionsIn: asked) })
            #expect(error.kind == .plugin)
            #expect(error.exitCode == 78)
            #expect(error.message.hasPrefix(folder + "/.responder-bus.json" + line), "\(error.message)")
            #expect(error.message.contains(key), "\(error.message)")
        }
        #expect(pipelineError { try resolver.description(forSessionsIn: folder) }?.kind == .plugin)
        // The options cannot save a file that cannot be read; --no-project-file can.
        #expect(pipelineError { try PipelineResolver(choice: .none).pipeline(forSessionsIn: folder) } == nil)
    }

    @Test("a project file disabling a plugin that is not built in is a plugin error naming the path and the key")
    func badValues() throws {
        let sessions = try Sessions()
        defer { sessions.remove() }
        let unknown = try sessions.folder("unknown", project: #"{"disable": ["KeyboardNoise"]}"#)
        let message = try #require(pipelineError { try PipelineResolver().pipeline(forSessionsIn: unknown) }).message
        #expect(message.hasPrefix(unknown + "/.responder-bus.json"), "\(message)")
        #expect(
            message.contains(".responder-bus.json:1:14: key 'disable[0]'") && message.contains("'KeyboardNoise' is no built-in plugin"), "\(message)")
    }

    @Test("unknown keys are warned about once per project file, however often and from wherever it is asked for")
    func warnsOnce() throws {
        let sessions = try Sessions()
        defer { sessions.remove() }
        let folder = try sessions.folder(
            "s", project: "{\n  \"colour\": \"blue\",\n  \"keyboardAvoidance\": {\"keyboardDistance\": 40, \"gap\": 3}\n}\n")
        let nested = try sessions.folder("s/nested")
        let quiet = try sessions.folder("quiet", project: #"{"disable": []}"#)
        let warnings = Warnings()
        let resolver = PipelineResolver(warn: { warnings.add($0) })
        _ = try resolver.pipeline(forSessionsIn: folder)
        _ = try resolver.pipeline(forSessionsIn: folder)
        _ = try resolver.pipeline(forSessionsIn: nested)
        _ = try resolver.pipeline(forSessionsIn: quiet)
        let path = folder + "/.responder-bus.json"
        try #require(warnings.all.count == 2, "\(warnings.all)")
        #expect(warnings.all[0].hasPrefix(path + ":2: unknown key 'colour' (ignored)"), "\(warnings.all[0])")
        #expect(warnings.all[1].hasPrefix(path + ":3: unknown key 'keyboardAvoidance.gap' (ignored)"), "\(warnings.all[1])")
        #expect(try resolver.pipeline(forSessionsIn: nested).description.settings.keyboardDistance == 40, "the file is used all the same")
    }

    @Test("the folder of a log: its directory, . for a bare name, nil for standard input")
    func folderOfLog() {
        #expect(PipelineResolver.folder(ofLog: "/a/b/log.jsonl") == "/a/b")
        #expect(PipelineResolver.folder(ofLog: "b/log.jsonl") == "b")
        #expect(PipelineResolver.folder(ofLog: "log.jsonl") == ".")
        #expect(PipelineResolver.folder(ofLog: "/log.jsonl") == "/")
        #expect(PipelineResolver.folder(ofLog: "-") == nil)
    }
}

@Suite("LogReader(header:records:): records in memory read as a log")
struct LogReaderRecordsTests {
    static func focus(_ view: String, at t: Double) -> LogRecord {
        LogRecord(t: t, event: .didBeginEditing(EditingInfo(view: ViewID(rawValue: view))))
    }

    @Test("records out of order are read in time order, those with the same time in the order given, at lines 2, 3, …")
    func ordered() throws {
        let header = LogHeader(screen: Size(width: 320, height: 568))
        let records = [
            Self.focus("c", at: 2), Self.focus("a", at: 1), LogRecord(t: 1, event: .action(ActionInfo(name: "go"))), Self.focus("b", at: 1),
            Self.focus("z", at: 0.5),
        ]
        let reader = LogReader(header: header, records: records)
        #expect(try reader.readHeader() == header)
        var read: [(LogRecord, RecordLocation)] = []
        while let item = reader.next() {
            guard case .record(let record, let location) = item else {
                Issue.record("\(item)")
                continue
            }
            read.append((record, location))
        }
        #expect(read.map(\.0) == [records[4], records[1], records[2], records[3], records[0]])
        #expect(read.map(\.1.line) == [2, 3, 4, 5, 6])
        #expect(read.map(\.1.viewColumn) == [1, 1, nil, 1, 1])
        #expect(reader.next() == nil)
    }

    @Test("a keyboard event named outside the vocabulary is an unknown event at its line, as its text would be")
    func unknownKeyboardName() throws {
        let header = LogHeader(screen: Size(width: 320, height: 568))
        let custom = EventName<KeyboardInfo>("keyboardDidSomethingElse")
        let records = [LogRecord(t: 1, event: .keyboard(custom, KeyboardInfo())), Self.focus("a", at: 2)]
        let reader = LogReader(header: header, records: records)
        guard case .problem(let error) = reader.next() else {
            Issue.record("the custom name was read as a record")
            return
        }
        #expect(error.code == .unknownEvent && error.line == 2)
        #expect(error.message.contains("keyboardDidSomethingElse"))
        guard case .record(let record, _) = reader.next() else {
            Issue.record("the good record after it was not read")
            return
        }
        #expect(record == records[1])
        // Written, it is the same unknown event to the file reader.
        let text = #"{"format":"responder-bus-log","version":1,"screen":{"width":320,"height":568}}"# + "\n" + LogWriter.line(for: records[0]) + "\n"
        guard case .problem(let written) = LogReader(bytes: Array(text.utf8)).next() else {
            Issue.record("the written line was read as a record")
            return
        }
        #expect(written.code == .unknownEvent)
    }

    @Test("a record the format does not allow is a problem at its line, as in text; the good ones are read")
    func badRecords() throws {
        let header = LogHeader(screen: Size(width: 320, height: 568))
        let records = [
            Self.focus("early", at: -1),
            Self.focus("a", at: 1),
            LogRecord(t: 2, event: .keyboard(.keyboardWillShow, KeyboardInfo(end: Rect(x: 0, y: 300, width: 320, height: 268), duration: -0.25))),
            LogRecord(t: 3, event: .action(ActionInfo(name: "go")), origin: .derived(by: "")),
            Self.focus("late", at: 5e9),
        ]
        let reader = LogReader(header: header, records: records)
        var problems: [LogReadError] = []
        var read: [LogRecord] = []
        while let item = reader.next() {
            switch item {
            case .record(let record, _): read.append(record)
            case .problem(let error): problems.append(error)
            }
        }
        #expect(read == [records[1]])
        #expect(problems.map(\.line) == [2, 4, 5, 6])
        #expect(problems.allSatisfy { $0.code == .invalidValue })
        #expect(problems[0].message.contains("t is -1.0"))
        #expect(problems[1].message.contains("duration of -0.25"))
        #expect(problems[2].message.contains("needs \"by\""))
        #expect(problems[3].message.contains("beyond what can be replayed"))

        // Through a session: counted and reported as rejected lines (line 3 too: no scene has
        // view 'a'), as the same log's text would be.
        let collector = Collector()
        let session = try ReplaySession(pipeline: ReplayPipeline(PipelineDescription()), header: header, sinks: [collector])
        let summary = session.finish(session.replay(records: records)).summary
        let reported = collector.problems.map { ($0.line, $0.code) }
        #expect(summary.rejectedLines == 5)
        #expect(reported.map(\.0) == [2, 3, 4, 5, 6])
        #expect(reported.map(\.1) == [.invalidValue, .unknownView, .invalidValue, .invalidValue, .invalidValue])
    }

    @Test("without readHeader, next() reads the records all the same; no records, no items")
    func noHeaderCall() throws {
        let reader = LogReader(header: LogHeader(screen: Size(width: 320, height: 568)), records: [Self.focus("a", at: 3), Self.focus("b", at: 0)])
        guard case .record(let record, let location)? = reader.next() else {
            Issue.record("no record")
            return
        }
        #expect(record == Self.focus("b", at: 0))
        #expect(location.line == 2)
        let empty = LogReader(header: LogHeader(screen: Size(width: 1, height: 1)), records: [])
        #expect(try empty.readHeader().screen == Size(width: 1, height: 1))
        #expect(empty.next() == nil)
    }
}
