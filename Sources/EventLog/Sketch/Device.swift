import ResponderBus

/// A device as a log needs it: its screen in both orientations, their safe areas, and the system
/// keyboard's heights, with and without the prediction bar.
///
/// ``all`` is the table of the common iPhone and iPad sizes (each with its sources);
/// ``named(_:)`` finds one by its name, another model's name with the same screen, or its size
/// (`320x568`). A ``SessionSketch`` writes a session on one; a program may describe another with
/// ``init(name:aliases:idiom:portraitSize:portraitSafeArea:landscapeSafeArea:keyboard:)``.
///
/// ```swift
/// let se = Device.named("iPhone SE")!
/// se.screenSize(in: .landscape)                                 // 568×320
/// se.keyboard.height(in: .landscape, predictionBar: true)       // 199
/// se.dockedKeyboardFrame(in: .landscape, height: 199)           // [0, 121, 568, 199]
/// ```
public struct Device: Hashable, Sendable, CustomStringConvertible {
    /// A phone or a tablet.
    public enum Idiom: String, Hashable, Sendable {
        /// An iPhone.
        case phone
        /// An iPad.
        case pad
    }

    /// Which way the device is held.
    public enum Orientation: String, Hashable, Sendable, CaseIterable {
        /// Upright: the screen taller than wide.
        case portrait
        /// On its side: the screen wider than tall.
        case landscape

        /// The other orientation: what a rotation turns this one into.
        public var turned: Orientation { self == .portrait ? .landscape : .portrait }
    }

    /// The model's name, as Apple writes it (`iPhone SE`).
    public var name: String
    /// Other models with the same screen, safe areas and keyboards (`iPhone 5s`).
    public var aliases: [String]
    /// A phone or a tablet.
    public var idiom: Idiom
    /// The screen in portrait, in points (width below height).
    public var portraitSize: Size
    /// The safe area in portrait (UIKit's `safeAreaInsets` of a full-screen view).
    public var portraitSafeArea: EdgeInsets
    /// The safe area in landscape.
    public var landscapeSafeArea: EdgeInsets
    /// The system keyboard's heights.
    public var keyboard: KeyboardHeights

    /// Describes a device.
    public init(
        name: String, aliases: [String] = [], idiom: Idiom, portraitSize: Size, portraitSafeArea: EdgeInsets, landscapeSafeArea: EdgeInsets,
        keyboard: KeyboardHeights
    ) {
        self.name = name
        self.aliases = aliases
        self.idiom = idiom
        self.portraitSize = portraitSize
        self.portraitSafeArea = portraitSafeArea
        self.landscapeSafeArea = landscapeSafeArea
        self.keyboard = keyboard
    }

    /// The screen's size in `orientation`.
    public func screenSize(in orientation: Orientation) -> Size {
        orientation == .portrait ? portraitSize : Size(width: portraitSize.height, height: portraitSize.width)
    }

    /// The safe area in `orientation`.
    public func safeArea(in orientation: Orientation) -> EdgeInsets {
        orientation == .portrait ? portraitSafeArea : landscapeSafeArea
    }

    /// The frame of a keyboard `height` points tall docked at the bottom of the screen in
    /// `orientation`, in screen coordinates (what UIKit's end frame says).
    public func dockedKeyboardFrame(in orientation: Orientation, height: Double) -> Rect {
        let screen = screenSize(in: orientation)
        return Rect(x: 0, y: screen.height - height, width: screen.width, height: height)
    }

    /// The frame of a keyboard `height` points tall just below the screen in `orientation`: where
    /// UIKit says a hidden keyboard is.
    public func hiddenKeyboardFrame(in orientation: Orientation, height: Double) -> Rect {
        let screen = screenSize(in: orientation)
        return Rect(x: 0, y: screen.height, width: screen.width, height: height)
    }

    /// `iPhone SE (320×568)`.
    public var description: String {
        "\(name) (\(JSONText.number(portraitSize.width))×\(JSONText.number(portraitSize.height)))"
    }

    /// The device called `text`: a name or an alias in ``all``, compared without case, spaces or
    /// punctuation (`iphone se`, `iPhone-SE`), or a screen size `WIDTHxHEIGHT` in points in either
    /// orientation (`320x568`, `568x320`), the first device of the table with that screen.
    public static func named(_ text: String) -> Device? {
        let key = nameKey(text)
        if !key.isEmpty, let found = all.first(where: { nameKey($0.name) == key || $0.aliases.contains { nameKey($0) == key } }) {
            return found
        }
        guard let size = Self.size(text) else { return nil }
        return all.first { $0.portraitSize == size || $0.screenSize(in: .landscape) == size }
    }

    /// The orientation `text` implies: landscape for a size wider than tall (`568x320`), `nil`
    /// for a name, which implies none.
    public static func orientation(named text: String) -> Orientation? {
        guard let size = size(text) else { return nil }
        return size.width > size.height ? .landscape : .portrait
    }

    /// The names of ``all``, for messages: `iPhone SE, iPhone 8, …`.
    public static var knownNames: String { all.map(\.name).joined(separator: ", ") }

    private static func nameKey(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") }.map(Character.init))
    }

    private static func size(_ text: String) -> Size? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]), width > 0, height > 0, width.isFinite,
            height.isFinite
        else { return nil }
        return Size(width: width, height: height)
    }
}

/// The system keyboard's height on a device, in points, as UIKit's end frame gives it (on a
/// Face ID iPhone, the home indicator's strip included).
///
/// The prediction bar (QuickType, since iOS 8) sits on top of the keys: a user may hide it, and
/// some fields (a secure field, a field with autocorrection off) show none.
public struct KeyboardHeights: Hashable, Sendable {
    /// Portrait, without the prediction bar.
    public var portrait: Double
    /// Portrait, with the prediction bar.
    public var portraitWithPredictionBar: Double
    /// Landscape, without the prediction bar.
    public var landscape: Double
    /// Landscape, with the prediction bar.
    public var landscapeWithPredictionBar: Double

    /// Creates the heights.
    public init(portrait: Double, portraitWithPredictionBar: Double, landscape: Double, landscapeWithPredictionBar: Double) {
        self.portrait = portrait
        self.portraitWithPredictionBar = portraitWithPredictionBar
        self.landscape = landscape
        self.landscapeWithPredictionBar = landscapeWithPredictionBar
    }

    /// The height in `orientation`, with or without the prediction bar.
    public func height(in orientation: Device.Orientation, predictionBar: Bool) -> Double {
        switch (orientation, predictionBar) {
        case (.portrait, false): portrait
        case (.portrait, true): portraitWithPredictionBar
        case (.landscape, false): landscape
        case (.landscape, true): landscapeWithPredictionBar
        }
    }
}
