import ResponderBus
import ResponderBusTesting

/// The devices the matrices run on are the testing kit's.
typealias Device = CannedScreens.Device

extension CannedScreens.Device {
    /// A sign-up form whose fields sit in the lower part of the screen, where the keyboard covers
    /// them: email (tag 1), password (tag 2), bio text view (tag 3), with a `signUp` action.
    var signUpForm: SceneInfo {
        let width = screen.width - 40
        let base = screen.height - 260
        return SceneInfo(
            root: ViewSpec(
                id: "root", frame: Rect(origin: .zero, size: screen),
                children: [
                    ViewSpec(id: "email", kind: .textField, frame: Rect(x: 20, y: base, width: width, height: 44), tag: 1),
                    ViewSpec(id: "password", kind: .textField, frame: Rect(x: 20, y: base + 60, width: width, height: 44), tag: 2),
                    ViewSpec(id: "bio", kind: .textView, frame: Rect(x: 20, y: base + 120, width: width, height: 100), tag: 3),
                ]), lastFieldAction: "signUp")
    }
}

/// Keyboard payloads as iOS sends them.
extension KeyboardInfo {
    static func show(_ device: Device, to end: Rect, duration: Double? = 0.25, curve: Int? = 7, isLocal: Bool? = true) -> KeyboardInfo {
        KeyboardInfo(begin: device.offScreenKeyboard, end: end, duration: duration, curve: curve, isLocal: isLocal)
    }

    static func hide(_ device: Device, from begin: Rect) -> KeyboardInfo {
        KeyboardInfo(begin: begin, end: device.offScreenKeyboard, duration: 0.25, curve: 7, isLocal: true)
    }
}
