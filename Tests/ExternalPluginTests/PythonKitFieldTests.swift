import EventLog
import Foundation
import ResponderBus
import Testing

@testable import ResponderBusExternal

/// The Python kit's source, read as text, and what its functions read and write of a record.
enum PythonKit {
    static let path = "PluginKits/python/responder_bus_plugin.py"
    static let source: String = (try? String(contentsOfFile: Scripts.repository.appendingPathComponent(path).path, encoding: .utf8)) ?? ""

    /// The body of the function whose `def` line starts with `def ` and `signature` (down to the
    /// next line indented as far as the `def`, or less).
    static func function(_ signature: String) -> Substring {
        guard let start = source.range(of: "def " + signature) else { return "" }
        let lineStart = source[..<start.lowerBound].lastIndex(of: "\n").map { source.index(after: $0) } ?? source.startIndex
        let indent = source.distance(from: lineStart, to: start.lowerBound)
        var end = source.endIndex
        var index = source[start.upperBound...].firstIndex(of: "\n") ?? source.endIndex
        while index < source.endIndex {
            let next = source.index(after: index)
            let line = source[next...].prefix { $0 != "\n" }
            let leading = line.prefix { $0 == " " }.count
            if !line.trimmingCharacters(in: .whitespaces).isEmpty && leading <= indent {
                end = next
                break
            }
            index = source[next...].firstIndex(of: "\n") ?? source.endIndex
        }
        return source[start.lowerBound..<end]
    }

    /// The keys `text` reads of `variable`: `variable["k"]` and `variable.get("k"`.
    static func keysRead(of variable: String, in text: Substring) -> Set<String> {
        var keys = Set<String>()
        for match in text.matches(of: #/(\w+)(?:\["(\w+)"\]|\.get\("(\w+)")/#) where match.1 == variable {
            if let key = match.2 ?? match.3 { keys.insert(String(key)) }
        }
        return keys
    }

    /// The keys `Screen.apply` reads of each event's record, by event name (the keyboard's
    /// events: what `Keyboard.note` reads).
    static func modelKeys() -> [String: Set<String>] {
        let apply = function("apply(")
        var keys: [String: Set<String>] = [:]
        var names: [String] = []
        var body: Substring = ""
        func flush() { for name in names { keys[name, default: []].formUnion(keysRead(of: "record", in: body)) } }
        for line in apply.split(separator: "\n") {
            if let equals = line.firstMatch(of: #/(?:if|elif) name == "(\w+)"/#) {
                flush()
                (names, body) = ([String(equals.1)], "")
            } else if let among = line.firstMatch(of: #/(?:if|elif) name in \(([^)]*)\)/#) {
                flush()
                (names, body) = (among.1.matches(of: #/"(\w+)"/#).map { String($0.1) }, "")
            } else if line.contains("elif name in KEYBOARD_EVENTS") {
                flush()
                (names, body) = (PluginProtocol.keyboardEvents, function("note("))
            } else {
                body += line + "\n"
            }
        }
        flush()
        return keys
    }
}

/// The Python kit reads and writes the records of the log format by their keys; these tests hold
/// its keys to the payload structs and the log writer, field by field, and say which key is
/// missing where. Adding a field to a payload: the kit's `Screen.apply` (or `View`) reads it, or
/// ``notModelled`` says why it need not.
@Suite("the Python kit and the log format agree, field by field")
struct PythonKitFieldTests {
    static let kit = "the Python kit (\(PythonKit.path))"

    /// A record of every event a log may hold, every field set.
    static let samples: [String: LogEvent] = {
        let keyboard = KeyboardInfo(
            begin: Rect(x: 0, y: 812, width: 375, height: 0), end: Rect(x: 0, y: 521, width: 375, height: 291), duration: 0.25, curve: 7,
            isLocal: true)
        var samples: [String: LogEvent] = [:]
        for name in EventName<KeyboardInfo>.allKeyboardEvents { samples[name.rawValue] = .keyboard(name, keyboard) }
        samples["didBeginEditing"] = .didBeginEditing(EditingInfo(view: "name"))
        samples["didEndEditing"] = .didEndEditing(EditingInfo(view: "name"))
        samples["returnKey"] = .returnKey(ReturnKeyInfo(view: "name"))
        samples["scene"] = .scene(SceneInfo(root: rootSample, lastFieldAction: "signUp"))
        samples["setFrame"] = .setFrame(FrameChange(view: "name", frame: Rect(x: 1, y: 2, width: 3, height: 4)))
        samples["screen"] = .screen(ScreenChange(size: Size(width: 812, height: 375), safeArea: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)))
        samples["viewShift"] = .viewShift(ViewShift(originY: -100, duration: 0.25, curve: 7))
        samples["scroll"] = .scroll(ScrollChange(view: "scroll", contentOffsetY: 10, bottomInset: 20))
        samples["focusChange"] = .focusChange(FocusChange(from: "name", to: "email"))
        samples["action"] = .action(ActionInfo(name: "signUp"))
        samples["resign"] = .resign(ResignInfo(view: "name"))
        samples["viewSettings"] = .viewSettings(ViewSettings(view: "name", keyboardDistance: 40, avoidsKeyboard: false, followsKeyboard: true))
        samples["viewMove"] = .viewMove(ViewMove(view: "name", frame: Rect(x: 1, y: 2, width: 3, height: 4), duration: 0.25, curve: 7))
        samples["diagnostic"] = .diagnostic(Diagnostic(level: .warning, message: "m", failure: .pluginThrew, views: ["name"], metadata: ["k": "v"]))
        return samples
    }()

    /// A view with every setting a log keeps, and a child.
    static let rootSample = ViewSpec(
        id: "field", kind: .textField, frame: Rect(x: 1, y: 2, width: 3, height: 4), tag: 3, isHidden: true, isEnabled: false,
        keyboardDistance: 12, isSecure: true, contentOffset: Point(x: 0, y: 5), contentSize: Size(width: 6, height: 7), className: "UITextField",
        children: [ViewSpec(id: "child", frame: Rect(x: 0, y: 0, width: 1, height: 1))])

    /// The fields of a record the kit's model has no use for, by event (`*`: every event).
    static let notModelled: [String: Set<String>] = [
        "*": ["t", "event", "origin", "by"],
        // The keyboard model keeps the whole record; it reads where the keyboard ends and whose it is.
        "keyboard": ["begin", "duration", "curve"],
        "viewShift": ["duration", "curve"],
        "viewMove": ["duration", "curve"],
        "focusChange": ["from"],
    ]
    /// The view fields the kit's `View` has no use for: what a dump's class was, a content size.
    static let viewNotModelled: Set<String> = ["class", "contentSize"]

    /// The keys the writer writes for a record of `event`.
    static func writtenKeys(_ event: LogEvent) throws -> [String: Any] {
        let line = LogWriter.line(for: LogRecord(t: 1, event: event, origin: .derived(by: "X")))
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("every event a log may hold has a sample here with every field of its payload written")
    func samplesAreWhole() throws {
        let aliases: [String: [String]] = ["size": ["width", "height"], "failure": []]
        for event in BuiltinEvent.allCases where event.isInLog {
            let sample = try #require(Self.samples[event.name], "add a sample '\(event.name)' with every field set to PythonKitFieldTests.samples")
            let written = try Self.writtenKeys(sample)
            // The case's payload (a keyboard event's case holds its name, then its payload).
            var payload = try #require(Mirror(reflecting: sample).children.first).value
            if Mirror(reflecting: payload).displayStyle == .tuple, let last = Array(Mirror(reflecting: payload).children).last {
                payload = last.value
            }
            for child in Mirror(reflecting: payload).children {
                guard let label = child.label else { continue }
                for key in aliases[label] ?? [label] {
                    #expect(
                        written[key] != nil,
                        "the sample '\(event.name)' writes no '\(key)': set its field '\(label)' in PythonKitFieldTests.samples (or, if logs do not carry it, map it to nothing in `aliases`)"
                    )
                }
            }
        }
    }

    @Test("the kit's model reads every field of every model event it needs, and no key the format does not write")
    func modelKeys() throws {
        let read = PythonKit.modelKeys()
        for name in PluginProtocol.modelEvents.sorted() {
            let written = Set(try Self.writtenKeys(try #require(Self.samples[name])).keys)
            let kitReads = read[name] ?? []
            #expect(!kitReads.isEmpty, "\(Self.kit): Screen.apply has no branch for '\(name)'")
            for key in kitReads.subtracting(written) {
                Issue.record("\(Self.kit): Screen.apply reads '\(key)' of '\(name)' records, which the log format does not write")
            }
            let group = PluginProtocol.keyboardEvents.contains(name) ? "keyboard" : name
            let unneeded = Self.notModelled["*", default: []].union(Self.notModelled[group, default: []])
            for key in written.subtracting(kitReads).subtracting(unneeded).sorted() {
                Issue.record(
                    "\(Self.kit): Screen.apply does not read '\(key)' of '\(name)' records: model it, or add it to PythonKitFieldTests.notModelled")
            }
        }
    }

    @Test("the kit's View reads every field a log gives a view, and no other; its view kinds are the format's")
    func viewKeys() throws {
        let scene = try Self.writtenKeys(try #require(Self.samples["scene"]))
        let root = try #require(scene["root"] as? [String: Any])
        let written = Set(root.keys)
        let read = PythonKit.keysRead(of: "spec", in: PythonKit.function("__init__(self, spec"))
        #expect(read.contains("id"), "\(Self.kit): View.__init__ was not found")
        for key in read.subtracting(written) { Issue.record("\(Self.kit): View reads '\(key)' of a view, which the log format does not write") }
        for key in written.subtracting(read).subtracting(Self.viewNotModelled).sorted() {
            Issue.record("\(Self.kit): View does not read '\(key)' of a view: model it, or add it to PythonKitFieldTests.viewNotModelled")
        }
        let kinds = Set(PythonKit.source.matches(of: #/"(textField|textView|scrollView|button|label|view|\w+View|\w+Field)"/#).map { String($0.1) })
        #expect(!kinds.isEmpty)
        #expect(kinds.isSubset(of: Set(ViewKind.allCases.map(\.rawValue))), "\(Self.kit) names view kinds the format lacks: \(kinds)")
    }

    @Test("what the kit's helpers derive has exactly the fields of the format's viewSettings and diagnostic records")
    func derivedKeys() throws {
        for (helper, event) in [("set_view_settings", "viewSettings"), ("diagnose", "diagnostic"), ("move_view", "viewMove")] {
            let body = PythonKit.function(helper + "(")
            let given = Set(body.matches(of: #/"(\w+)":|fields\["(\w+)"\]/#).compactMap { ($0.1 ?? $0.2).map(String.init) })
            let written = Set(try Self.writtenKeys(try #require(Self.samples[event])).keys).subtracting(Self.notModelled["*", default: []])
            #expect(!given.isEmpty, "\(Self.kit): \(helper) was not found")
            for key in given.subtracting(written) { Issue.record("\(Self.kit): \(helper) writes '\(key)', which a \(event) record does not have") }
            for key in written.subtracting(given).sorted() {
                Issue.record("\(Self.kit): \(helper) cannot give a \(event) record's '\(key)'")
            }
        }
    }
}

/// The Python kit's reference page (ResponderBusExternal's *The Python plugin kit*) names every
/// name the kit exports, in code, so that a name added to the kit without a line there fails.
@Suite("the Python kit's reference page names everything the kit exports")
struct PythonKitReferenceTests {
    static let page = "Sources/ResponderBusExternal/ResponderBusExternal.docc/PythonPluginKit.md"

    /// The kit's names: its classes, functions and methods, module constants, class attributes and
    /// the attributes its objects set, none starting with `_`.
    static func exportedNames() -> Set<String> {
        var names = Set<String>()
        for pattern in [#/(?m)^class (\w+)/#, #/(?m)^\s*def (\w+)\(/#, #/(?m)^([A-Z][A-Z_]+) = /#] {
            names.formUnion(PythonKit.source.matches(of: pattern).map { String($0.1) })
        }
        // The class attributes a plugin sets (`name`, `events`, `position`): Plugin's, before its methods.
        if let start = PythonKit.source.range(of: "class Plugin:"), let end = PythonKit.source[start.upperBound...].range(of: "    def ") {
            names.formUnion(PythonKit.source[start.upperBound..<end.lowerBound].matches(of: #/(?m)^    (\w+) = /#).map { String($0.1) })
        }
        // `self.a, self.b = …` and `self.a = …`: what an object carries.
        for line in PythonKit.source.split(separator: "\n") {
            guard let assignment = line.range(of: " = "), !line.contains("==") else { continue }
            names.formUnion(line[..<assignment.lowerBound].matches(of: #/self\.(\w+)/#).map { String($0.1) })
        }
        return names.filter { !$0.hasPrefix("_") }
    }

    /// The identifiers of the page's code spans and fenced blocks.
    static func codeWords() throws -> Set<String> {
        let text = try String(contentsOfFile: Scripts.repository.appendingPathComponent(page).path, encoding: .utf8)
        var code = ""
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                fenced.toggle()
            } else if fenced {
                code += line + "\n"
            } else {
                code +=
                    line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
                    .joined(separator: "\n") + "\n"
            }
        }
        return Set(code.matches(of: #/[A-Za-z_]\w*/#).map { String($0.0) })
    }

    @Test("every name the Python kit exports is on its reference page; the page links the restart rule")
    func pageNamesEverything() throws {
        let names = Self.exportedNames()
        #expect(
            names.isSuperset(of: ["is_secure", "avoids_keyboard", "frame_in_screen", "frame", "subtree", "on_turn_end", "run", "KEYBOARD_EVENTS"]))
        let missing = names.subtracting(try Self.codeWords()).sorted()
        #expect(missing.isEmpty, "\(Self.page) does not name \(missing.joined(separator: ", ")), which \(PythonKit.path) exports")
        let text = try String(contentsOfFile: Scripts.repository.appendingPathComponent(Self.page).path, encoding: .utf8)
        #expect(text.contains("<doc:RestartsAndCatchUp>"))
        let readme =
            (try? String(contentsOfFile: Scripts.repository.appendingPathComponent("PluginKits/python/README.md").path, encoding: .utf8)) ?? ""
        #expect(
            readme.contains("PythonPluginKit.md") && readme.contains("RestartsAndCatchUp.md"),
            "PluginKits/python/README.md links the page and the rule")
    }
}
