import ResponderBusTesting
import Testing

/// The names of the records' events, in order.
private func names(_ records: [LogRecord]) -> [String] { records.map(\.event.name) }

/// A device of the table by name.
private func device(_ name: String) throws -> Device { try #require(Device.named(name)) }

@Suite("Generated sessions")
struct GeneratorTests {
    @Test("every generated session is a log the replay takes whole, and reads back as written")
    func validLogs() throws {
        let generator = SessionGenerator()
        let target = PluginTarget(builtins)
        for seed in UInt64(0)..<400 {
            let session = generator.session(seed: seed)
            let records = session.records()
            #expect(records.first.map { if case .scene = $0.event { true } else { false } } == true)
            #expect(zip(records, records.dropFirst()).allSatisfy { $0.t <= $1.t }, "seed \(seed): out of order")
            let rejected = try target.run(header: session.header, records: records) { _ in }
            #expect(rejected.isEmpty, "seed \(seed): \(rejected)\n\(session)")
            let reader = LogReader(bytes: Array(LogWriter.text(header: session.header, records: records).utf8))
            #expect(try reader.readHeader() == session.header)
            var read: [LogRecord] = []
            while let item = reader.next() { if case .record(let record, _) = item { read.append(record) } }
            #expect(read == records, "seed \(seed) does not read back as written")
        }
    }

    @Test("the generator makes every keyboard, container and step it names")
    func variety() throws {
        let generator = SessionGenerator()
        var keyboards: Set<String> = []
        var containers: Set<GeneratedSession.Container> = []
        var steps: Set<String> = []
        var reversed = false
        for seed in UInt64(0)..<2_000 {
            let session = generator.session(seed: seed)
            keyboards.insert(String("\(session.keyboard)".prefix { $0 != "(" }))
            containers.formUnion(session.groups.map(\.container))
            steps.formUnion(session.steps.map { String($0.action.description.prefix { $0 != " " }) })
            reversed = reversed || session.tagsReversed
        }
        #expect(keyboards == ["system", "thirdParty", "hardware", "floating", "undocked", "split"])
        #expect(containers == Set(GeneratedSession.Container.allCases))
        #expect(steps == ["tap", "Return", "rotate", "dismiss", "grow", "switch", "another"])
        #expect(reversed)
        let narrowed = SessionGenerator(devices: [try device("iPhone SE")], containers: [.none])
        for seed in UInt64(0)..<100 {
            let session = narrowed.session(seed: seed)
            #expect(session.device.name == "iPhone SE" && session.groups.allSatisfy { $0.container == .none })
        }
    }

    @Test("a text field begins editing before the keyboard's events, a text view after")
    func textViewOrder() throws {
        var session = GeneratedSession(
            device: try device("iPhone SE"),
            groups: [.init(container: .none, fields: [.init(id: "a", kind: .text), .init(id: "b", kind: .textView)])])
        session.steps = [.init(after: 0, .tap("a")), .init(after: 0.5, .dismiss), .init(after: 0.5, .tap("b"))]
        let shown = names(session.records())
        #expect(
            shown == [
                "scene", "didBeginEditing", "keyboardWillChangeFrame", "keyboardWillShow", "keyboardDidChangeFrame", "keyboardDidShow",
                "didEndEditing", "keyboardWillChangeFrame", "keyboardWillHide", "keyboardDidChangeFrame", "keyboardDidHide",
                "keyboardWillChangeFrame", "keyboardWillShow", "didBeginEditing", "keyboardDidChangeFrame", "keyboardDidShow",
            ], "\(shown)")
    }

    @Test("a secure field shows no prediction bar: moving to one announces the shorter keyboard")
    func secureField() throws {
        var session = GeneratedSession(
            device: try device("iPhone SE"), keyboard: .system(predictionBar: true),
            groups: [.init(container: .none, fields: [.init(id: "user", kind: .text), .init(id: "password", kind: .secure)])])
        session.steps = [.init(after: 0, .tap("user")), .init(after: 0.5, .returnKey)]
        let ends = session.records().compactMap { record -> Double? in
            if case .keyboard(let name, let info) = record.event, name == .keyboardWillShow { return info.end?.height }
            return nil
        }
        let se = try device("iPhone SE")
        #expect(ends == [se.keyboard.portraitWithPredictionBar, se.keyboard.portrait])
    }

    @Test("the iPad's floating keyboard changes frames only; the undocked and split ones say willHide; a hardware keyboard reaches below the screen")
    func keyboards() throws {
        let pad = try device("iPad Pro 11-inch")
        func events(_ keyboard: GeneratedSession.Keyboard, on device: Device) -> [LogRecord] {
            var session = GeneratedSession(
                device: device, keyboard: keyboard, groups: [.init(container: .none, fields: [.init(id: "a", kind: .text)])])
            session.steps = [.init(after: 0, .tap("a"))]
            return session.records()
        }
        #expect(names(events(.floating, on: pad)) == ["scene", "didBeginEditing", "keyboardWillChangeFrame", "keyboardDidChangeFrame"])
        for keyboard in [GeneratedSession.Keyboard.undocked, .split] {
            #expect(names(events(keyboard, on: pad)).contains("keyboardWillHide"))
            #expect(!names(events(keyboard, on: pad)).contains("keyboardWillShow"))
        }
        let se = try device("iPhone SE")
        let hardware = events(.hardware(bar: 44), on: se).compactMap { record -> Rect? in
            if case .keyboard(let name, let info) = record.event, name == .keyboardWillShow { return info.end }
            return nil
        }
        #expect(hardware.first?.minY == 568 - 44 && (hardware.first?.maxY ?? 0) > 568)
    }

    @Test("another app's keyboard is not local; a step that cannot happen does nothing; tags can run bottom to top")
    func stepsAndTags() throws {
        var session = GeneratedSession(
            device: try device("iPhone SE"),
            groups: [.init(container: .none, fields: [.init(id: "a", kind: .text), .init(id: "b", kind: .text), .init(id: "c", kind: .text)])])
        session.steps = [.init(after: 0, .otherAppKeyboard), .init(after: 0.5, .returnKey), .init(after: 0.5, .dismiss)]
        let records = session.records()
        // Shown and hidden, each with its `Did` events: the Return that cannot happen cuts no animation.
        #expect(records.filter { if case .keyboard(_, let info) = $0.event { info.isLocal == false } else { false } }.count == 8)
        #expect(!names(records).contains("returnKey") && !names(records).contains("didEndEditing"))
        session.tagsReversed = true
        session.steps = [.init(after: 0, .tap("c")), .init(after: 0.5, .returnKey)]
        let begun = session.records().compactMap { record -> String? in
            if case .didBeginEditing(let info) = record.event { return info.view.rawValue }
            return nil
        }
        #expect(begun == ["c", "b"])
    }

    @Test("a rotation with the keyboard up: the new screen, every moved view's frame, the keyboard hidden and shown again")
    func rotation() throws {
        var session = GeneratedSession(
            device: try device("iPhone SE"), groups: [.init(container: .scrollView, fields: [.init(id: "a", kind: .text)])])
        session.steps = [.init(after: 0, .tap("a")), .init(after: 0.5, .rotate)]
        let turn = session.records().filter { $0.t == session.records().last { $0.event.name == "screen" }?.t }
        #expect(
            names(turn) == [
                "screen", "keyboardWillChangeFrame", "keyboardWillHide", "setFrame", "setFrame", "setFrame", "keyboardWillChangeFrame",
                "keyboardWillShow",
            ], "\(names(turn))")
    }

    @Test("an animation ends with its Did events unless a step starts another: Return in a text view, switching apps")
    func didEvents() throws {
        var session = GeneratedSession(device: try device("iPhone SE"), groups: [.init(container: .none, fields: [.init(id: "v", kind: .textView)])])
        session.steps = [.init(after: 0, .tap("v")), .init(after: 0.05, .returnKey), .init(after: 0.5, .switchApps)]
        let shown = names(session.records())
        #expect(shown.filter { $0 == "keyboardDidShow" }.count == 2, "\(shown)")
        #expect(shown.filter { $0 == "keyboardDidHide" }.count == 1, "the hide while away ends before the app comes back: \(shown)")
    }
}
