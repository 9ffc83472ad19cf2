import Testing
import ResponderBus

/// A device the matrices run on: its screen, safe area and its system keyboard's docked frame.
struct Device: Sendable, CustomTestStringConvertible {
    let name: String
    let screen: Size
    let safeArea: EdgeInsets
    /// The height of the system keyboard, docked at the bottom.
    let keyboardHeight: Double

    var testDescription: String { name }

    static let iPhoneSE = Device(
        name: "iPhone SE 320×568", screen: Size(width: 320, height: 568), safeArea: EdgeInsets(top: 20), keyboardHeight: 253)
    static let iPhoneX = Device(
        name: "iPhone X 375×812", screen: Size(width: 375, height: 812), safeArea: EdgeInsets(top: 44, bottom: 34),
        keyboardHeight: 291)
    static let iPadLandscape = Device(
        name: "iPad 1024×768 landscape", screen: Size(width: 1024, height: 768), safeArea: EdgeInsets(top: 20),
        keyboardHeight: 398)

    static let all: [Device] = [.iPhoneSE, .iPhoneX, .iPadLandscape]

    /// The keyboard's frame when hidden (just below the screen).
    var offScreenKeyboard: Rect { Rect(x: 0, y: screen.height, width: screen.width, height: keyboardHeight) }
    /// The docked system keyboard's frame.
    var dockedKeyboard: Rect { docked(height: keyboardHeight) }
    /// A docked keyboard of another height.
    func docked(height: Double) -> Rect { Rect(x: 0, y: screen.height - height, width: screen.width, height: height) }
    /// A hardware keyboard: the full frame reaches below the screen; only a 44-point bar shows.
    var hardwareKeyboard: Rect { Rect(x: 0, y: screen.height - 44, width: screen.width, height: keyboardHeight) }
    /// A floating iPad keyboard, in the middle of the screen.
    var floatingKeyboard: Rect { Rect(x: screen.width / 2 - 160, y: screen.height / 2 - 120, width: 320, height: 240) }

    /// A sign-up form whose fields sit in the lower part of the screen, where the keyboard covers
    /// them: email (tag 1), password (tag 2), bio text view (tag 3), with a `signUp` action.
    var signUpForm: SceneInfo {
        let width = screen.width - 40
        let base = screen.height - 260
        return SceneInfo(
            root: ViewSpec(id: "root", frame: Rect(origin: .zero, size: screen), children: [
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
