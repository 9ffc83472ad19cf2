import ResponderBus

/// Which keyboard a sketched session types on.
public enum KeyboardStyle: Hashable, Sendable {
    /// The system keyboard: it announces its height once, with or without the prediction bar
    /// (``KeyboardHeights``).
    case system(predictionBar: Bool)
    /// A third-party keyboard: it announces several heights within milliseconds as it appears.
    case thirdParty(ThirdPartyKeyboard)

    /// The heights the keyboard announces as it appears on `device` in `orientation`, in order; the
    /// last is the height it settles at.
    public func heights(on device: Device, in orientation: Device.Orientation) -> [Double] {
        switch self {
        case .system(let predictionBar): [device.keyboard.height(in: orientation, predictionBar: predictionBar)]
        case .thirdParty(let keyboard): keyboard.heights(on: device, in: orientation)
        }
    }
}

/// A third-party keyboard (an app extension): iOS gives it the system keyboard's frame first and
/// the keyboard then sets its own height, so an app hears several `keyboardWillShow`s within
/// milliseconds, often starting at 0.
///
/// Measured on an iPhone 6 in portrait (the Stack Overflow question "Unable to retrieve the accurate
/// keyboard height in iOS8", as mirrored at
/// https://qanswer.space/questions/unable-to-retrieve-the-accurate-keyboard-height-in-ios8): SwiftKey
/// announces 0, 216, 259 (``swiftKey``), Swype 0, 216, 256 (``swype``), where the system keyboard
/// announces its height once.
public struct ThirdPartyKeyboard: Hashable, Sendable {
    /// The heights announced in portrait, in order, in points; the last is where the keyboard
    /// settles (more than 0).
    public var portraitHeights: [Double]
    /// The heights announced in landscape; when `nil`, ``portraitHeights`` scaled by the device's
    /// landscape-to-portrait ratio of system keyboard heights (with the prediction bar), rounded.
    public var landscapeHeights: [Double]?
    /// The time between two announcements, in seconds: 4 ms.
    public var interval: Double

    /// Describes a keyboard.
    public init(portraitHeights: [Double], landscapeHeights: [Double]? = nil, interval: Double = 0.004) {
        self.portraitHeights = portraitHeights
        self.landscapeHeights = landscapeHeights
        self.interval = interval
    }

    /// SwiftKey on an iPhone 6 in portrait: 0, 216, 259.
    public static let swiftKey = ThirdPartyKeyboard(portraitHeights: [0, 216, 259])
    /// Swype on an iPhone 6 in portrait: 0, 216, 256.
    public static let swype = ThirdPartyKeyboard(portraitHeights: [0, 216, 256])

    /// The heights announced on `device` in `orientation`.
    public func heights(on device: Device, in orientation: Device.Orientation) -> [Double] {
        if orientation == .portrait { return portraitHeights }
        if let landscapeHeights { return landscapeHeights }
        let ratio = device.keyboard.landscapeWithPredictionBar / device.keyboard.portraitWithPredictionBar
        return portraitHeights.map { ($0 * ratio).rounded() }
    }
}
