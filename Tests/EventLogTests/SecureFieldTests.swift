import EventLog
import ResponderBus
import Testing

/// The `secure` field of a scene's views (issue 32): additive, written only when true.
@Suite("LogReader and LogWriter: a text input's secure flag")
struct SecureFieldTests {
    static let scene = LogRecord(
        t: 0,
        event: .scene(
            SceneInfo(
                root: ViewSpec(
                    id: "root", frame: Rect(x: 0, y: 0, width: 375, height: 812),
                    children: [
                        ViewSpec(id: "email", kind: .textField, frame: Rect(x: 20, y: 500, width: 335, height: 44), tag: 1),
                        ViewSpec(id: "password", kind: .textField, frame: Rect(x: 20, y: 560, width: 335, height: 44), tag: 2, isSecure: true),
                        ViewSpec(id: "recovery", kind: .textView, frame: Rect(x: 20, y: 620, width: 335, height: 88), isSecure: true),
                    ]))))

    static func firstScene(_ records: [LogRecord]) -> SceneInfo? {
        for record in records { if case .scene(let info) = record.event { return info } }
        return nil
    }

    @Test("written as \"secure\":true on the secure inputs only, in sorted place, and read back equal")
    func roundTrip() throws {
        let line = LogWriter.line(for: Self.scene)
        #expect(line.components(separatedBy: #""secure":true"#).count - 1 == 2)
        #expect(!line.contains(#""secure":false"#))
        #expect(line.contains(#""id":"password","kind":"textField","secure":true,"tag":2}"#))
        #expect(line.contains(#""id":"email","kind":"textField","tag":1}"#))
        let (_, records, problems) = readAll(header + "\n" + line + "\n")
        #expect(problems.isEmpty)
        #expect(records == [Self.scene])
        let info = try #require(Self.firstScene(records))
        #expect(info.root.children.map(\.isSecure) == [false, true, true])
    }

    @Test("a scene without secure inputs is written exactly as before: no secure key")
    func absentWhenFalse() {
        var plain = Self.scene
        if case .scene(var info) = plain.event {
            for index in info.root.children.indices { info.root.children[index].isSecure = false }
            plain = LogRecord(t: 0, event: .scene(info))
        }
        #expect(!LogWriter.line(for: plain).contains("secure"))
    }

    @Test("\"secure\" with a value that is not a boolean is a read error with line and column; the lines around it survive")
    func notABoolean() throws {
        for value in ["1", #""yes""#, "null"] {
            let scene =
                #"{"t":0,"event":"scene","root":{"id":"r","kind":"view","frame":[0,0,10,10],"children":[{"id":"pw","kind":"textField","frame":[0,0,1,1],"secure":\#(value)}]}}"#
            let log = header + "\n" + scene + "\n" + #"{"t":1,"event":"returnKey","view":"pw"}"# + "\n"
            let (_, records, problems) = readAll(log)
            let problem = try #require(problems.first)
            #expect(problems.count == 1)
            #expect(!problem.isWarning)
            #expect(problem.code == .malformedJSON)
            #expect(problem.line == 2)
            let column = try #require(scene.range(of: #""secure":"#)).upperBound.utf16Offset(in: scene) + 1
            #expect(problem.column == column, "\(value)")
            #expect(problem.message.contains("true or false"), "\(problem.message)")
            #expect(records.count == 1, "the scene is refused, the next line read")
        }
    }

    @Test("false reads as not secure; on a view that is not a text input it is ignored; on an unknown kind it is kept and written back")
    func whereItCounts() throws {
        let scene =
            #"{"t":0,"event":"scene","root":{"id":"r","kind":"view","frame":[0,0,10,10],"secure":true,"children":[{"id":"a","kind":"textField","frame":[0,0,1,1],"secure":false},{"id":"b","kind":"button","frame":[0,2,1,1],"secure":true},{"id":"c","kind":"pinField","frame":[0,4,1,1],"secure":true}]}}"#
        let (_, records, problems) = readAll(header + "\n" + scene + "\n")
        #expect(problems.map(\.code) == [.unknownViewKind])
        let info = try #require(Self.firstScene(records))
        #expect(info.root.isSecure == false)
        #expect(info.root.children.map(\.isSecure) == [false, false, true])
        let again = LogWriter.line(for: try #require(records.first))
        #expect(again.contains(#""id":"c","kind":"pinField","secure":true}"#))
        #expect(again.components(separatedBy: "secure").count - 1 == 1)
        // In the model, the unknown kind is a plain view: not a password field.
        let node = ViewNode(spec: info.root)
        #expect(node.subtree.map(\.isSecure) == [false, false, false, false])
    }
}
