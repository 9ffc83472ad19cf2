import EventLog
import Foundation
import ResponderBus
import Testing

@testable import ResponderBusExternal

/// Issue 48: the Python kit's view settings keep what they are not given, and it moves one view.
@Suite("the Python kit: set_view_settings keeps the settings it is not given; move_view moves one view")
struct PythonKitSettingsTests {
    @Test("a gap set after the view was taken out and made to follow keeps both; move_view derives the frame, applied to the host's model")
    func settingsKeptAndViewMoved() throws {
        let command = try Scripts.plugin(
            events: ["scene", "didBeginEditing", "keyboardWillShow"],
            onEvent: """
                if event["event"] == "scene":
                    context.set_view_settings("email", avoids_keyboard=False, follows_keyboard=True)
                elif event["event"] == "didBeginEditing":
                    context.set_view_settings("email", keyboard_distance=40)
                elif event["t"] == 1:
                    view = context.screen.view("email")
                    assert view.follows_keyboard and not view.avoids_keyboard and not view.is_avoiding_keyboard
                    context.move_view("email", [20, 400, 335, 44])
                """)
        let derived = try Scripts.replay(Scripts.session(shows: 2), [ExternalPlugin.Configuration(command: command)])
        let settings = derived.compactMap { if case .viewSettings(let settings) = $0.event { settings } else { nil } }
        #expect(
            settings == [
                ViewSettings(view: "email", avoidsKeyboard: false, followsKeyboard: true),
                ViewSettings(view: "email", keyboardDistance: 40, avoidsKeyboard: false, followsKeyboard: true),
            ])
        let moves = derived.compactMap { if case .viewMove(let move) = $0.event { move } else { nil } }
        #expect(moves == [ViewMove(view: "email", frame: Rect(x: 20, y: 400, width: 335, height: 44))])
        #expect(derived.allSatisfy { $0.event.name != "diagnostic" }, "\(derived)")
    }
}
