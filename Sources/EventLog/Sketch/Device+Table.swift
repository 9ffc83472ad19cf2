import ResponderBus

// Where the numbers come from.
//
// Screens (points, portrait): Apple's Human Interface Guidelines, "Layout", "Specifications"
// (device screen sizes), the same sizes the console importer knows (ConsoleImporter's list).
//
// Keyboard heights: measured frames where this repository has them — the real console dumps in
// Tests/Fixtures/ios-logs, each with its source in its `#` header:
//   320×568: 216 without the bar (01), 253 with it (43);
//   375×667: 216 (21), 258 with the bar (05, 07, 13, 29; 260 in 31);
//   414×896: 301 (03), 346 (17);  428×926: 346 (19);
//   iPad 1024×768 landscape: 352 on iOS 5 (23), 391 with the bar on iOS 8 (11).
// The rest from Telegram-iOS's table of the system keyboard per device, kept up to date by its
// maintainers for laying out its own input panel over the keyboard:
// https://github.com/TelegramMessenger/Telegram-iOS, submodules/Display/Source/DeviceMetrics.swift
// (`keyboardHeight(inLandscape:)` without the bar, `predictiveInputHeight(inLandscape:)` the bar:
// 37 on the 4-inch phones in portrait, 44 on the others, 45 on the Plus; 37 in landscape; 50 on
// iPads). The bundled sign-up session's 291 and 209 (iPhone X, portrait and landscape) agree.
// Heights change with the iOS version and the keyboard's language by a few points: a bug report's
// own numbers, when it has them, are better (`ThirdPartyKeyboard` takes any).
//
// Safe areas: iPhones with a Home button have the 20-point status bar in portrait and none in
// landscape; iPads keep theirs in both. iPhone X: 44 top and 34 bottom in portrait, 44 left and
// right and 21 bottom in landscape (https://useyourloaf.com/blog/supporting-iphone-x/ and
// https://qiita.com/usagimaru/items/761e9a5f3d78b1939df8, whose safe areas of 375×734 and 724×354
// points give the same insets, as do XR and XS Max's 414×818 and 808×393). iPhone 12: 47 (Telegram's
// `safeInsets(inLandscape:)`); iPhone 14 Pro: 59 top, 34 bottom; 59, 59, 21 in landscape (measured
// in http://csl.cool/2023/09/15/ios-dev/ios-layout-adaptation). iOS 14 raised the top inset of the
// XR and 11 to 48; the table keeps the 44 the sources measured. Face ID iPads: a 24-point status bar
// and the 20-point home indicator.

extension Device {
    /// The common iPhone and iPad screens, smallest first, iPhones before iPads. Each entry stands
    /// for the models in its ``aliases`` too: same screen, same safe areas, same keyboards.
    public static let all: [Device] = phones + pads

    private static let homeButtonPhone = (portrait: EdgeInsets(top: 20), landscape: EdgeInsets.zero)

    private static func faceID(top: Double) -> (portrait: EdgeInsets, landscape: EdgeInsets) {
        (EdgeInsets(top: top, bottom: 34), EdgeInsets(left: top, bottom: 21, right: top))
    }

    private static func phone(
        _ name: String, _ aliases: [String], _ width: Double, _ height: Double, _ safe: (portrait: EdgeInsets, landscape: EdgeInsets),
        _ heights: (Double, Double, Double, Double)
    ) -> Device {
        Device(
            name: name, aliases: aliases, idiom: .phone, portraitSize: Size(width: width, height: height), portraitSafeArea: safe.portrait,
            landscapeSafeArea: safe.landscape,
            keyboard: KeyboardHeights(
                portrait: heights.0, portraitWithPredictionBar: heights.1, landscape: heights.2, landscapeWithPredictionBar: heights.3))
    }

    private static let phones: [Device] = [
        phone("iPhone SE", ["iPhone SE (1st generation)", "iPhone 5", "iPhone 5s", "iPhone 5c"], 320, 568, homeButtonPhone, (216, 253, 162, 199)),
        phone(
            "iPhone 8",
            ["iPhone 6", "iPhone 6s", "iPhone 7", "iPhone SE (2nd generation)", "iPhone SE (3rd generation)", "iPhone SE 2", "iPhone SE 3"], 375, 667,
            homeButtonPhone, (216, 258, 163, 200)),
        phone("iPhone 8 Plus", ["iPhone 6 Plus", "iPhone 6s Plus", "iPhone 7 Plus"], 414, 736, homeButtonPhone, (226, 271, 163, 200)),
        phone("iPhone X", ["iPhone XS", "iPhone 11 Pro"], 375, 812, faceID(top: 44), (291, 335, 172, 209)),
        phone("iPhone 11", ["iPhone XR", "iPhone XS Max", "iPhone 11 Pro Max"], 414, 896, faceID(top: 44), (301, 346, 172, 209)),
        phone("iPhone 12", ["iPhone 12 Pro", "iPhone 13", "iPhone 13 Pro", "iPhone 14"], 390, 844, faceID(top: 47), (292, 336, 172, 209)),
        phone("iPhone 12 Pro Max", ["iPhone 13 Pro Max", "iPhone 14 Plus"], 428, 926, faceID(top: 47), (302, 346, 172, 209)),
        phone("iPhone 14 Pro", ["iPhone 15", "iPhone 15 Pro", "iPhone 16"], 393, 852, faceID(top: 59), (292, 336, 172, 209)),
        phone("iPhone 14 Pro Max", ["iPhone 15 Plus", "iPhone 15 Pro Max", "iPhone 16 Plus"], 430, 932, faceID(top: 59), (302, 346, 172, 209)),
    ]

    private static func pad(
        _ name: String, _ aliases: [String], _ width: Double, _ height: Double, faceID: Bool, _ heights: (Double, Double, Double, Double)
    ) -> Device {
        let safe = faceID ? EdgeInsets(top: 24, bottom: 20) : EdgeInsets(top: 20)
        return Device(
            name: name, aliases: aliases, idiom: .pad, portraitSize: Size(width: width, height: height), portraitSafeArea: safe,
            landscapeSafeArea: safe,
            keyboard: KeyboardHeights(
                portrait: heights.0, portraitWithPredictionBar: heights.1, landscape: heights.2, landscapeWithPredictionBar: heights.3))
    }

    private static let pads: [Device] = [
        pad("iPad", ["iPad (9.7-inch)", "iPad Air 2", "iPad mini 4", "iPad mini (5th generation)"], 768, 1024, faceID: false, (263, 313, 348, 398)),
        pad(
            "iPad (9th generation)", ["iPad 10.2-inch", "iPad (7th generation)", "iPad (8th generation)"], 810, 1080, faceID: false,
            (263, 313, 348, 398)),
        pad("iPad mini (6th generation)", ["iPad mini"], 744, 1133, faceID: true, (328, 378, 368, 418)),
        pad("iPad Pro 11-inch", ["iPad Pro (11-inch)"], 834, 1194, faceID: true, (283, 333, 368, 418)),
        pad("iPad Pro 12.9-inch", ["iPad Pro (12.9-inch)"], 1024, 1366, faceID: true, (348, 398, 441, 491)),
    ]
}
