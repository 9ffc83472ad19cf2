import EventLog
import Foundation
import ResponderBus
import ResponderBusExternal
import Testing

@Suite("An out-of-process plugin reads a text input's secure flag")
struct SecureFieldKitTests {
    @Test("the host sends the scene's \"secure\":true; the Python kit's View has is_secure (and secure), true on the password field only")
    func kitReadsSecure() throws {
        let command = try Scripts.plugin(
            name: "Secrets", events: ["didBeginEditing"],
            onEvent: """
                field = context.first_responder
                others = sorted(v.id for v in context.screen.views.values() if v.is_secure)
                context.diagnose("info", "%s is_secure=%s secure=%s all=%s" % (field.id, field.is_secure, field.secure, ",".join(others)))
                """)
        let log = """
            {"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812}}
            {"event":"scene","t":0,"root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[{"id":"name","kind":"textField","frame":[20,500,335,44]},{"id":"pin","kind":"textField","frame":[20,560,335,44],"secure":true},{"id":"go","kind":"button","frame":[20,620,335,44],"secure":true}]}}
            {"event":"didBeginEditing","t":1,"view":"name"}
            {"event":"didEndEditing","t":2,"view":"name"}
            {"event":"didBeginEditing","t":2,"view":"pin"}

            """
        let derived = try Scripts.replay(log, [ExternalPlugin.Configuration(command: command)])
        #expect(
            derived.compactMap(\.message) == [
                "name is_secure=False secure=False all=pin",
                "pin is_secure=True secure=True all=pin",
            ])
    }
}
