import EventLog
import ResponderBus

/// Screens and devices to test plugins on, without writing view trees by hand.
public enum CannedScreens {
    /// A device: its screen, safe area and the height of its docked system keyboard.
    public struct Device: Hashable, Sendable, CustomStringConvertible {
        /// A short name such as `iPhone X`.
        public let name: String
        /// The screen's size in points.
        public let screen: Size
        /// The screen's safe area.
        public let safeArea: EdgeInsets
        /// The docked system keyboard's height.
        public let keyboardHeight: Double

        /// Creates a device.
        public init(name: String, screen: Size, safeArea: EdgeInsets, keyboardHeight: Double) {
            self.name = name
            self.screen = screen
            self.safeArea = safeArea
            self.keyboardHeight = keyboardHeight
        }

        /// iPhone SE (1st generation), 320×568 portrait.
        public static let iPhoneSE = Device(
            name: "iPhone SE", screen: Size(width: 320, height: 568), safeArea: EdgeInsets(top: 20), keyboardHeight: 253)
        /// iPhone X, 375×812 portrait.
        public static let iPhoneX = Device(
            name: "iPhone X", screen: Size(width: 375, height: 812), safeArea: EdgeInsets(top: 44, bottom: 34), keyboardHeight: 291)
        /// iPad, 1024×768 landscape.
        public static let iPadLandscape = Device(
            name: "iPad landscape", screen: Size(width: 1024, height: 768), safeArea: EdgeInsets(top: 20), keyboardHeight: 398)
        /// The three devices above.
        public static let all: [Device] = [.iPhoneSE, .iPhoneX, .iPadLandscape]

        /// The name.
        public var description: String { name }

        /// The docked system keyboard's frame.
        public var dockedKeyboard: Rect {
            Rect(x: 0, y: screen.height - keyboardHeight, width: screen.width, height: keyboardHeight)
        }
        /// The keyboard's frame just below the screen.
        public var offScreenKeyboard: Rect {
            Rect(x: 0, y: screen.height, width: screen.width, height: keyboardHeight)
        }
        /// A keyboard of another height docked at the bottom (a predictive bar, an accessory view).
        public func docked(height: Double) -> Rect {
            Rect(x: 0, y: screen.height - height, width: screen.width, height: height)
        }
        /// A hardware keyboard: the keyboard's full frame reaches below the screen, and only its
        /// 44-point shortcut bar shows.
        public var hardwareKeyboard: Rect {
            Rect(x: 0, y: screen.height - 44, width: screen.width, height: keyboardHeight)
        }
        /// A floating (iPad) keyboard, 320×240 in the middle of the screen.
        public var floatingKeyboard: Rect {
            Rect(x: screen.width / 2 - 160, y: screen.height / 2 - 120, width: 320, height: 240)
        }
        /// The log header for this device.
        public var header: LogHeader { LogHeader(screen: screen, safeArea: safeArea, device: name) }
        /// A `keyboardWillShow` payload for the docked system keyboard.
        public var keyboardShow: KeyboardInfo {
            KeyboardInfo(begin: offScreenKeyboard, end: dockedKeyboard, duration: 0.25, curve: 7, isLocal: true)
        }
        /// A `keyboardWillHide` payload for the docked system keyboard.
        public var keyboardHide: KeyboardInfo {
            KeyboardInfo(begin: dockedKeyboard, end: offScreenKeyboard, duration: 0.25, curve: 7, isLocal: true)
        }
    }

    /// A sign-up form in the lower part of the screen, where the keyboard covers it: `name` (tag 1),
    /// `email` (2), `password` (3) text fields, a `bio` text view (4) and, below them, the
    /// `signUpButton` button (which a docked keyboard covers); Return on the last text field performs
    /// `signUp`.
    public static func signUp(on device: Device) -> SceneInfo {
        let width = device.screen.width - 40
        let base = device.screen.height - 330
        return SceneInfo(
            root: ViewSpec(
                id: "root", frame: Rect(origin: .zero, size: device.screen),
                children: [
                    ViewSpec(id: "name", kind: .textField, frame: Rect(x: 20, y: base, width: width, height: 44), tag: 1),
                    ViewSpec(id: "email", kind: .textField, frame: Rect(x: 20, y: base + 60, width: width, height: 44), tag: 2),
                    ViewSpec(id: "password", kind: .textField, frame: Rect(x: 20, y: base + 120, width: width, height: 44), tag: 3),
                    ViewSpec(id: "bio", kind: .textView, frame: Rect(x: 20, y: base + 180, width: width, height: 100), tag: 4),
                    ViewSpec(id: "signUpButton", kind: .button, frame: Rect(x: 20, y: base + 290, width: width, height: 36)),
                ]), lastFieldAction: "signUp")
    }

    /// A login form: `username` (tag 1) and `password` (tag 2) near the bottom; Return on the
    /// password performs `logIn`.
    public static func login(on device: Device) -> SceneInfo {
        let width = device.screen.width - 40
        let base = device.screen.height - 200
        return SceneInfo(
            root: ViewSpec(
                id: "root", frame: Rect(origin: .zero, size: device.screen),
                children: [
                    ViewSpec(id: "username", kind: .textField, frame: Rect(x: 20, y: base, width: width, height: 44), tag: 1),
                    ViewSpec(id: "password", kind: .textField, frame: Rect(x: 20, y: base + 60, width: width, height: 44), tag: 2),
                ]), lastFieldAction: "logIn")
    }

    /// A `notes` text view far down inside a scroll view (`scroller`) that fills the screen below
    /// the safe area.
    public static func textViewInScrollView(on device: Device) -> SceneInfo {
        let height = device.screen.height - device.safeArea.top
        return SceneInfo(
            root: ViewSpec(
                id: "root", frame: Rect(origin: .zero, size: device.screen),
                children: [
                    ViewSpec(
                        id: "scroller", kind: .scrollView, frame: Rect(x: 0, y: device.safeArea.top, width: device.screen.width, height: height),
                        contentSize: Size(width: device.screen.width, height: height * 2),
                        children: [
                            ViewSpec(
                                id: "notes", kind: .textView, frame: Rect(x: 20, y: height - 160, width: device.screen.width - 40, height: 120),
                                tag: 1)
                        ])
                ]))
    }

    /// A short session on `scene`: focus `field` (in UIKit's order for its kind), the keyboard shows,
    /// Return, the keyboard hides. Times from 0 to 3 s.
    public static func session(on device: Device, scene: SceneInfo, focusing field: ViewID, kind: ViewKind = .textField) -> [LogRecord] {
        var records = [LogRecord(t: 0, event: .scene(scene))]
        let focus = LogRecord(t: 1, event: .didBeginEditing(EditingInfo(view: field)))
        if kind != .textView { records.append(focus) }
        records.append(LogRecord(t: 1, event: .keyboard(.keyboardWillChangeFrame, device.keyboardShow)))
        records.append(LogRecord(t: 1, event: .keyboard(.keyboardWillShow, device.keyboardShow)))
        if kind == .textView { records.append(focus) }
        records.append(LogRecord(t: 1.25, event: .keyboard(.keyboardDidShow, device.keyboardShow)))
        records.append(LogRecord(t: 2, event: .returnKey(ReturnKeyInfo(view: field))))
        records.append(LogRecord(t: 3, event: .keyboard(.keyboardWillHide, device.keyboardHide)))
        records.append(LogRecord(t: 3.25, event: .keyboard(.keyboardDidHide, device.keyboardHide)))
        return records
    }
}
