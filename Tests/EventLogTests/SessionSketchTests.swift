import EventLog
import ResponderBus
import Testing

/// The records of `sketch` at time `t`, as log lines.
private func lines(_ records: [LogRecord], at t: Double) -> [String] {
    records.filter { $0.t == t }.map { LogWriter.line(for: $0) }
}

/// Reads `text` back with the log reader: the header and the records, and every problem.
private func readBack(_ text: String) throws -> (header: LogHeader, records: [LogRecord], problems: [LogReadError]) {
    let reader = LogReader(bytes: Array(text.utf8))
    let header = try reader.readHeader()
    var records: [LogRecord] = []
    var problems: [LogReadError] = []
    while let item = reader.next() {
        switch item {
        case .record(let record, _): records.append(record)
        case .problem(let problem): problems.append(problem)
        }
    }
    return (header, records, problems)
}

@Suite("SessionSketch: a session from a device, fields and actions")
struct SessionSketchTests {
    static let se = Device.named("iPhone SE")!

    static func sketch(_ fields: String, on device: Device = se, _ actions: [SessionSketch.Action]) throws -> SessionSketch {
        SessionSketch(device: device, fields: try FieldSketch.list(parsing: fields), actions: actions)
    }

    @Test("every device, in either orientation at the start: a log the reader reads without a problem, replayed with no rejected line")
    func everyDevice() throws {
        for device in Device.all {
            for orientation in Device.Orientation.allCases {
                var sketch = try Self.sketch(
                    "user,password:secure,notes:textView", on: device,
                    [.focus("user", at: 1), .returnKey(at: 2), .rotate(at: 3), .returnKey(at: 4), .focus("password", at: 5), .dismiss(at: 6)])
                sketch.orientation = orientation
                let text = try sketch.log()
                let (header, records, problems) = try readBack(text)
                #expect(problems.isEmpty, "\(device.name) \(orientation): \(problems)")
                #expect(header.screen == device.screenSize(in: orientation))
                #expect(header.safeArea == device.safeArea(in: orientation))
                #expect(records == (try sketch.records()), "\(device.name): the log reads back as the records written")
                let run = TurnCursor(check: true)
                let summary = try run.run(text)
                #expect(summary.rejectedLines == 0 && summary.warnings == 0, "\(device.name): \(run.problems)")
                #expect(run.bus.screen.firstResponder == nil, "\(device.name): dismissed at the end")
                #expect(run.bus.screen.size == device.screenSize(in: orientation.turned))
            }
        }
    }

    @Test(
        "a rotation on an iPhone SE: the new screen, every view laid out for 568 points, the keyboard in the new coordinates at 199, the focus kept")
    func rotationGeometry() throws {
        let records = try Self.sketch("user,password:secure", [.focus("password", at: 1), .rotate(at: 3)]).records()
        // Portrait: the form's bottom 20 points above the screen's; the keyboard 253 with the bar.
        guard case .scene(let scene) = records[0].event else { throw SketchTestFailure("no scene first") }
        #expect(scene.root.frame == Rect(x: 0, y: 0, width: 320, height: 568))
        #expect(scene.root.children.map(\.frame) == [Rect(x: 20, y: 444, width: 280, height: 44), Rect(x: 20, y: 504, width: 280, height: 44)])
        #expect(scene.root.children.map(\.tag) == [1, 2])
        #expect(scene.root.children.map(\.isSecure) == [false, true])
        #expect(
            lines(records, at: 1) == [
                #"{"event":"didBeginEditing","t":1,"view":"password"}"#,
                #"{"begin":[0,568,320,253],"curve":7,"duration":0.25,"end":[0,315,320,253],"event":"keyboardWillChangeFrame","isLocal":true,"t":1}"#,
                #"{"begin":[0,568,320,253],"curve":7,"duration":0.25,"end":[0,315,320,253],"event":"keyboardWillShow","isLocal":true,"t":1}"#,
            ])
        #expect(
            lines(records, at: 3) == [
                #"{"event":"screen","height":320,"safeArea":{"bottom":0,"left":0,"right":0,"top":0},"t":3,"width":568}"#,
                #"{"event":"setFrame","frame":[0,0,568,320],"t":3,"view":"root"}"#,
                #"{"event":"setFrame","frame":[20,196,528,44],"t":3,"view":"user"}"#,
                #"{"event":"setFrame","frame":[20,256,528,44],"t":3,"view":"password"}"#,
                #"{"begin":[0,315,320,253],"curve":7,"duration":0.25,"end":[0,568,320,253],"event":"keyboardWillChangeFrame","isLocal":true,"t":3}"#,
                #"{"begin":[0,315,320,253],"curve":7,"duration":0.25,"end":[0,568,320,253],"event":"keyboardWillHide","isLocal":true,"t":3}"#,
                #"{"begin":[0,320,568,199],"curve":7,"duration":0.25,"end":[0,121,568,199],"event":"keyboardWillChangeFrame","isLocal":true,"t":3}"#,
                #"{"begin":[0,320,568,199],"curve":7,"duration":0.25,"end":[0,121,568,199],"event":"keyboardWillShow","isLocal":true,"t":3}"#,
            ])
        #expect(lines(records, at: 3.25).count == 2 && lines(records, at: 3.25)[1].contains(#""end":[0,121,568,199],"event":"keyboardDidShow""#))
        #expect(!records.contains { if case .didEndEditing = $0.event { true } else { false } }, "the focus is kept")

        let run = TurnCursor(check: true)
        try run.run(LogWriter.text(header: try Self.sketch("user,password:secure", []).header, records: records))
        run.loop.runUntilQuiet()
        #expect(run.bus.screen.firstResponder?.id == "password")
        #expect(run.bus.screen.size == Size(width: 568, height: 320))
        #expect(run.bus.screen.keyboard.coveredPart == Rect(x: 0, y: 121, width: 568, height: 199))
        #expect(run.check?.violations == [], "the password field fits above the landscape keyboard")
        #expect(run.bus.screen.rootOriginY == -199)
    }

    @Test("replay --check passes where the fields fit, and reports covered where they cannot (a text view taller than the space above the keyboard)")
    func coverage() throws {
        let fits = TurnCursor(check: true)
        let sketch = try Self.sketch("user,password:secure", [.focus("password", at: 1), .rotate(at: 3)])
        try fits.run(try sketch.log())
        fits.loop.runUntilQuiet()
        #expect(fits.check?.violations == [])

        let tall = TurnCursor(check: true)
        try tall.run(try Self.sketch("notes:textView:height=200", [.focus("notes", at: 1), .rotate(at: 3)]).log())
        tall.loop.runUntilQuiet()
        // Landscape: the text view at 100…300 may rise only to the safe area's top (0): 100 points,
        // and the keyboard's top is at 121.
        let violation = try #require(tall.check?.violations.last)
        #expect(violation.field == "notes")
        #expect(violation.keyboardTop == 121)
        #expect(violation.coveredHeight == 79)
    }

    @Test("a third-party keyboard announces its heights 4 ms apart as it appears, then settles once")
    func thirdPartyKeyboard() throws {
        var sketch = try Self.sketch("message", on: Device.named("iPhone 8")!, [.focus("message", at: 1)])
        sketch.keyboard = .thirdParty(.swiftKey)
        let records = try sketch.records()
        let shows = records.compactMap { record -> (Double, KeyboardInfo)? in
            guard case .keyboard(let name, let info) = record.event, name == .keyboardWillShow else { return nil }
            return (record.t, info)
        }
        #expect(shows.map(\.0) == [1, 1.004, 1.008])
        #expect(shows.map { $0.1.end?.height } == [0, 216, 259])
        #expect(shows.map { $0.1.end?.minY } == [667, 451, 408])
        #expect(shows.map { $0.1.duration } == [0, 0.25, 0.25])
        #expect(shows[1].1.begin == shows[0].1.end && shows[2].1.begin == shows[1].1.end)
        let didShows = records.filter { if case .keyboard(let name, _) = $0.event { name == .keyboardDidShow } else { false } }
        #expect(didShows.map(\.t) == [1.258])
        // In landscape, scaled as the system keyboard's 200/258: 0, 167, 201.
        #expect(ThirdPartyKeyboard.swiftKey.heights(on: Device.named("iPhone 8")!, in: .landscape) == [0, 167, 201])
    }

    @Test(
        "Return moves to the next field in tag order (skipping hidden, disabled and done fields); on the last it ends editing; in a text view nothing else"
    )
    func returnKey() throws {
        let fields = "a,skipped:hidden,b,c:done,d:textView"
        let sketch = try Self.sketch(
            fields,
            [.focus("a", at: 1), .returnKey(at: 2), .returnKey(at: 3), .focus("d", at: 4), .returnKey(at: 5), .focus("c", at: 6), .returnKey(at: 7)])
        let records = try sketch.records()
        #expect(lines(records, at: 2.01) == [#"{"event":"didEndEditing","t":2.01,"view":"a"}"#, #"{"event":"didBeginEditing","t":2.01,"view":"b"}"#])
        // b's next is d (c ends editing: no tag), but d is... after b in tag order: b → d.
        #expect(lines(records, at: 3.01) == [#"{"event":"didEndEditing","t":3.01,"view":"b"}"#, #"{"event":"didBeginEditing","t":3.01,"view":"d"}"#])
        #expect(lines(records, at: 5) == [#"{"event":"returnKey","t":5,"view":"d"}"#])
        #expect(lines(records, at: 7.01).first == #"{"event":"didEndEditing","t":7.01,"view":"c"}"#)
        #expect(lines(records, at: 7.01).last?.contains(#""event":"keyboardWillHide""#) == true)

        // The built-ins decide what the sketch wrote: the focus follows Return the same way.
        let run = TurnCursor(check: true)
        try run.run(try sketch.log())
        let moves = run.derived.compactMap { record -> String? in
            if case .focusChange(let change) = record.event { return "\(change.from?.rawValue ?? "-")→\(change.to?.rawValue ?? "-")" }
            if case .resign(let resign) = record.event { return "resign \(resign.view)" }
            return nil
        }
        #expect(moves == ["a→b", "b→d", "resign c"])
    }

    @Test(
        "a text view begins editing after the keyboard's first announcement; another field's focus ends the first's editing and the keyboard keeps its frame"
    )
    func editingOrder() throws {
        let records = try Self.sketch("notes:textView,title", [.focus("notes", at: 1), .focus("title", at: 2)]).records()
        let first = lines(records, at: 1).map { $0.contains("didBeginEditing") ? "begin" : "keyboard" }
        #expect(first == ["keyboard", "keyboard", "begin"])
        let second = lines(records, at: 2)
        #expect(second.count == 4)
        #expect(second[0] == #"{"event":"didEndEditing","t":2,"view":"notes"}"#)
        #expect(second[1] == #"{"event":"didBeginEditing","t":2,"view":"title"}"#)
        #expect(
            second[3] == #"{"begin":[0,315,320,253],"curve":7,"duration":0.25,"end":[0,315,320,253],"event":"keyboardWillShow","isLocal":true,"t":2}"#
        )
    }

    @Test("an action before the keyboard's animation ends cuts it short: its Did events are left out")
    func cutShort() throws {
        let records = try Self.sketch("user", [.focus("user", at: 1), .rotate(at: 1.1)]).records()
        let dids = records.filter { if case .keyboard(let name, _) = $0.event { name == .keyboardDidShow } else { false } }
        #expect(dids.map(\.t) == [1.35])
        #expect(records.map(\.t) == records.map(\.t).sorted())
    }

    @Test("a field's explicit y is kept in portrait and placed in proportion turned; top layout; without the prediction bar")
    func layoutAndKeyboardOptions() throws {
        var sketch = try Self.sketch("a:y=300,b,c", [.focus("b", at: 1)])
        sketch.layout = .top
        sketch.keyboard = .system(predictionBar: false)
        #expect(sketch.fieldFrames(in: .portrait).map(\.minY) == [300, 40, 100])
        // 300 in a safe area 20…568 is at (300 − 20) / 548 of it; 320 points high in landscape: 164.
        #expect(sketch.fieldFrames(in: .landscape).map(\.minY) == [164, 20, 80])
        let show = try #require(try sketch.records().first { if case .keyboard = $0.event { true } else { false } })
        guard case .keyboard(_, let info) = show.event else { throw SketchTestFailure("not a keyboard event") }
        #expect(info.end == Rect(x: 0, y: 352, width: 320, height: 216))
    }

    @Test("what cannot be a session is refused with what to change")
    func refusals() throws {
        func error(_ fields: String, _ actions: [SessionSketch.Action]) -> SessionSketchError? {
            do {
                _ = try Self.sketch(fields, actions).records()
                return nil
            } catch let error as SessionSketchError {
                return error
            } catch {
                return nil
            }
        }
        #expect(error("user", [.focus("nobody", at: 1)])?.code == .unknownField)
        #expect(error("user", [.focus("nobody", at: 1)])?.message.contains("its fields are 'user'") == true)
        #expect(error("user:hidden", [.focus("user", at: 1)])?.message.contains("hidden") == true)
        #expect(error("user:disabled", [.focus("user", at: 1)])?.code == .impossibleAction)
        #expect(error("user", [.returnKey(at: 1)])?.message == "Return at 1 s: no field is focused then; focus one before it")
        #expect(error("user", [.focus("user", at: 1), .dismiss(at: 2), .dismiss(at: 3)])?.code == .impossibleAction)
        #expect(error("user", [.focus("user", at: 1), .rotate(at: 1.02)])?.message.contains("20 ms after") == true)
        #expect(error("user,user", [])?.code == .badField)
        #expect(error("root", [])?.message.contains("root view") == true)
        #expect(error("user", [.rotate(at: -1)])?.code == .badValue)
        #expect(throws: SessionSketchError.self) { try FieldSketch(parsing: "user:bold") }
        #expect(throws: SessionSketchError.self) { try FieldSketch(parsing: "user:height=0") }
        #expect(throws: SessionSketchError.self) { try FieldSketch.list(parsing: " , ") }
        var sketch = try Self.sketch("user", [])
        sketch.keyboard = .thirdParty(ThirdPartyKeyboard(portraitHeights: [216, 0]))
        #expect(throws: SessionSketchError.self) { try sketch.records() }
        sketch.keyboard = .system(predictionBar: true)
        sketch.animationDuration = 250
        #expect(throws: SessionSketchError.self) { try sketch.records() }
    }

    @Test("fields are read from NAME[:WORD…]: kinds, flags and settings")
    func fieldParsing() throws {
        let fields = try FieldSketch.list(
            parsing: "user, password:secure:gap=40 ,notes:textview:height=200:y=10,code:disabled:done,promo:hidden:return=done,last:return=next")
        #expect(fields.map(\.id) == ["user", "password", "notes", "code", "promo", "last"])
        #expect(fields.map(\.kind) == [.text, .secure, .textView, .text, .text, .text])
        #expect(fields[1].keyboardDistance == 40)
        #expect(fields[2].height == 200 && fields[2].y == 10)
        #expect(!fields[3].isEnabled && fields[3].returnEndsEditing && fields[4].isHidden)
        #expect(fields.map(\.returnEndsEditing) == [false, false, false, true, true, false])
        #expect(throws: SessionSketchError.self) { try FieldSketch(parsing: "user:return=go") }
    }

    @Test("devices are found by name, alias, spelling and size; the table's keyboards and safe areas are consistent")
    func deviceTable() throws {
        #expect(Device.named("iphone se")?.portraitSize == Size(width: 320, height: 568))
        #expect(Device.named("iPhone-5s")?.name == "iPhone SE")
        #expect(Device.named("iPhone SE (2nd generation)")?.name == "iPhone 8")
        #expect(Device.named("iPhone SE 3")?.name == "iPhone 8")
        #expect(Device.named("iPad mini")?.portraitSize == Size(width: 744, height: 1133))
        #expect(Device.named("iPhone 13")?.portraitSize == Size(width: 390, height: 844))
        #expect(Device.named("568x320")?.name == "iPhone SE")
        #expect(Device.orientation(named: "568x320") == .landscape)
        #expect(Device.orientation(named: "iPhone SE") == nil)
        #expect(Device.named("iPhone 99") == nil && Device.named("") == nil && Device.named("12x34") == nil)
        #expect(SessionSketchError.unknownDevice("iPhone 99").message.contains("iPhone SE, iPhone 8, iPhone 8 Plus"))
        #expect(Device.named("iPhone X")?.keyboard.height(in: .landscape, predictionBar: true) == 209)
        for device in Device.all {
            let k = device.keyboard
            #expect(device.portraitSize.width < device.portraitSize.height, "\(device.name)")
            #expect(k.portrait < k.portraitWithPredictionBar && k.landscape < k.landscapeWithPredictionBar, "\(device.name)")
            #expect(k.portraitWithPredictionBar < device.portraitSize.height / 2, "\(device.name)")
            #expect(device.dockedKeyboardFrame(in: .landscape, height: k.landscape).maxY == device.portraitSize.width)
            #expect(Device.named(device.name) == device)
        }
        #expect(Set(Device.all.map(\.portraitSize)).count == Device.all.count, "one entry per screen")
    }
}

private struct SketchTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
