// ResponderBusPlugin.swift — the ResponderBus WebAssembly plugin ABI, version 1, for Embedded Swift.
//
// A plugin is one Swift file compiled together with this one (and runtime.c) for
// wasm32-unknown-none-wasm with the toolchain alone — no SDK, no WASI; build.sh does it:
//
//     PluginKits/swift-wasm/build.sh MyPlugin.swift MyPlugin.wasm
//
// The plugin file defines two functions, which this file's exported entry points call:
//
//     func pluginInit() -> Int32
//         The handshake (rb_init): name the plugin with setName, ask for events with observe,
//         maybe ask for a place with setPosition. Return 0 when ready.
//
//     func pluginEvent(_ kind: EventKind, _ t: Double, _ payload: Payload) -> Int32
//         One delivery (rb_on_event) of an event it asked for, at replay time t (seconds): read
//         the screen, log and diagnose, post decisions. Return 0 when handled; anything else is
//         reported as the plugin's error. What was posted reaches the bus when it returns (and
//         nothing does if it traps).
//
// Everything else a plugin reaches is the host's functions, wrapped below as Swift: no files, no
// clock but the replay's, no network. The C header (PluginKits/c-wasm/responder_bus_plugin.h) and
// the article "WebAssembly plugin ABI" (ResponderBusWasm's documentation) spell the same ABI.
//
// Embedded Swift notes: the plugin's state lives in globals (`nonisolated(unsafe) var`, Swift 6
// language mode); there are no existentials (`any P`), no untyped `throws`, no reflection (an enum
// interpolates as "(cannot print value in embedded Swift)" unless it has a description); String,
// Array, Dictionary, Set, generics, closures and interpolation of integers and Doubles all work.

// MARK: - The host's functions (import module "rb")

// The raw imports, named as in the C header. Prefer the Swift wrappers below; these are here for
// what the wrappers do not cover. Addresses are pointers into this module's memory, lengths are
// byte counts, view handles are Int32 (-1 for none).

@_extern(wasm, module: "rb", name: "set_name") @_extern(c)
func rb_set_name(_ name: UnsafePointer<UInt8>?, _ length: Int32)
@_extern(wasm, module: "rb", name: "observe") @_extern(c)
func rb_observe(_ kind: Int32)
@_extern(wasm, module: "rb", name: "set_position") @_extern(c)
func rb_set_position(_ position: Int32, _ anchor: UnsafePointer<UInt8>?, _ length: Int32)
@_extern(wasm, module: "rb", name: "log") @_extern(c)
func rb_log(_ text: UnsafePointer<UInt8>?, _ length: Int32)
@_extern(wasm, module: "rb", name: "diagnose") @_extern(c)
func rb_diagnose(_ level: Int32, _ text: UnsafePointer<UInt8>?, _ length: Int32, _ view: Int32)
@_extern(wasm, module: "rb", name: "now") @_extern(c)
func rb_now() -> Double
@_extern(wasm, module: "rb", name: "screen") @_extern(c)
func rb_screen(_ out: UnsafeMutableRawPointer?)
@_extern(wasm, module: "rb", name: "keyboard") @_extern(c)
func rb_keyboard(_ out: UnsafeMutableRawPointer?) -> Int32
@_extern(wasm, module: "rb", name: "first_responder") @_extern(c)
func rb_first_responder() -> Int32
@_extern(wasm, module: "rb", name: "view_count") @_extern(c)
func rb_view_count() -> Int32
@_extern(wasm, module: "rb", name: "view_find") @_extern(c)
func rb_view_find(_ id: UnsafePointer<UInt8>?, _ length: Int32) -> Int32
@_extern(wasm, module: "rb", name: "view_id") @_extern(c)
func rb_view_id(_ view: Int32, _ out: UnsafeMutablePointer<UInt8>?, _ capacity: Int32) -> Int32
@_extern(wasm, module: "rb", name: "view_info") @_extern(c)
func rb_view_info(_ view: Int32, _ out: UnsafeMutableRawPointer?) -> Int32
@_extern(wasm, module: "rb", name: "event_view_id") @_extern(c)
func rb_event_view_id(_ out: UnsafeMutablePointer<UInt8>?, _ capacity: Int32) -> Int32
@_extern(wasm, module: "rb", name: "screen_action") @_extern(c)
func rb_screen_action(_ out: UnsafeMutablePointer<UInt8>?, _ capacity: Int32) -> Int32
@_extern(wasm, module: "rb", name: "post_view_shift") @_extern(c)
func rb_post_view_shift(_ originY: Double, _ duration: Double, _ curve: Int32)
@_extern(wasm, module: "rb", name: "post_focus_change") @_extern(c)
func rb_post_focus_change(_ from: Int32, _ to: Int32)
@_extern(wasm, module: "rb", name: "post_scroll") @_extern(c)
func rb_post_scroll(_ view: Int32, _ contentOffsetY: Double, _ bottomInset: Double)
@_extern(wasm, module: "rb", name: "post_resign") @_extern(c)
func rb_post_resign(_ view: Int32)
@_extern(wasm, module: "rb", name: "post_action") @_extern(c)
func rb_post_action(_ name: UnsafePointer<UInt8>?, _ length: Int32)
@_extern(wasm, module: "rb", name: "post_view_settings") @_extern(c)
func rb_post_view_settings(_ view: Int32, _ keyboardDistance: Double, _ flags: Int32)

@_extern(wasm, module: "rb", name: "post_view_move") @_extern(c)
func rb_post_view_move(_ view: Int32, _ x: Double, _ y: Double, _ width: Double, _ height: Double, _ duration: Double, _ curve: Int32)

/// Logs print()'s unfinished line (runtime.c); called when a delivery returns.
@_extern(c, "rb_kit_flush_output")
func rb_kit_flush_output()

// MARK: - The ABI's values

/// The ABI version this kit speaks (what `rb_abi_version` returns).
let abiVersion: Int32 = 1

/// The size of the event buffer the module lends the host.
let eventBufferSize = 128

/// An event a plugin can observe, by the number the ABI gives it (fixed by version 1). Its
/// `description` is the bus's name for it (Embedded Swift has no reflection to print an enum).
enum EventKind: Int32, CaseIterable, CustomStringConvertible {
    case keyboardWillShow = 1
    case keyboardDidShow = 2
    case keyboardWillHide = 3
    case keyboardDidHide = 4
    case keyboardWillChangeFrame = 5
    case keyboardDidChangeFrame = 6
    case didBeginEditing = 7
    case didEndEditing = 8
    case returnKey = 9
    case scene = 10
    case setFrame = 11
    case screen = 12
    case viewShift = 13
    case scroll = 14
    case focusChange = 15
    case action = 16
    case resign = 17
    case viewSettings = 18
    case diagnostic = 19
    case viewMove = 20

    /// The keyboard's six events, whose payload is a ``KeyboardPayload``.
    static let keyboardEvents: [EventKind] = [
        .keyboardWillShow, .keyboardDidShow, .keyboardWillHide, .keyboardDidHide, .keyboardWillChangeFrame,
        .keyboardDidChangeFrame,
    ]

    /// The keyboard's events after which the keyboard is hidden, whatever frame they carry.
    static let hideEvents: [EventKind] = [.keyboardWillHide, .keyboardDidHide]

    /// Whether this is one of the keyboard's events.
    var isKeyboard: Bool { EventKind.keyboardEvents.contains(self) }

    /// Whether this is a hide (`keyboardWillHide`, `keyboardDidHide`).
    var isHide: Bool { EventKind.hideEvents.contains(self) }

    /// The event's name on the bus and in logs, as in `keyboardWillShow`.
    var description: String {
        switch self {
        case .keyboardWillShow: "keyboardWillShow"
        case .keyboardDidShow: "keyboardDidShow"
        case .keyboardWillHide: "keyboardWillHide"
        case .keyboardDidHide: "keyboardDidHide"
        case .keyboardWillChangeFrame: "keyboardWillChangeFrame"
        case .keyboardDidChangeFrame: "keyboardDidChangeFrame"
        case .didBeginEditing: "didBeginEditing"
        case .didEndEditing: "didEndEditing"
        case .returnKey: "returnKey"
        case .scene: "scene"
        case .setFrame: "setFrame"
        case .screen: "screen"
        case .viewShift: "viewShift"
        case .scroll: "scroll"
        case .focusChange: "focusChange"
        case .action: "action"
        case .resign: "resign"
        case .viewSettings: "viewSettings"
        case .diagnostic: "diagnostic"
        case .viewMove: "viewMove"
        }
    }
}

/// What a view is, as ``viewInfo(_:)`` reports it; its `description` is the log format's name.
enum ViewKind: Int32, CustomStringConvertible {
    case view = 0
    case textField = 1
    case textView = 2
    case scrollView = 3
    case button = 4
    case label = 5

    /// Whether the keyboard types into it.
    var isTextInput: Bool { self == .textField || self == .textView }

    /// The kind's name in logs, as in `textField`.
    var description: String {
        switch self {
        case .view: "view"
        case .textField: "textField"
        case .textView: "textView"
        case .scrollView: "scrollView"
        case .button: "button"
        case .label: "label"
        }
    }
}

/// How serious a diagnostic is.
enum DiagnosticLevel: Int32 {
    case info = 0
    case warning = 1
    case error = 2
}

/// Where a plugin asks to sit in the pipeline (``setPosition(_:)``).
enum Position {
    /// The start of the pipeline.
    case first
    /// The end of the pipeline (where a plugin goes when it asks for nothing).
    case last
    /// Just before the plugin of that name.
    case before(String)
    /// Just after the plugin of that name.
    case after(String)
}

/// The bits of a keyboard payload's `flags` (offset 0): which fields the event carried.
struct KeyboardFlags: OptionSet {
    let rawValue: Int32
    /// The begin frame is there (offset 16).
    static let hasBegin = KeyboardFlags(rawValue: 1)
    /// The end frame is there (offset 48).
    static let hasEnd = KeyboardFlags(rawValue: 2)
    /// The duration is there (offset 8).
    static let hasDuration = KeyboardFlags(rawValue: 4)
    /// The curve is there (offset 4).
    static let hasCurve = KeyboardFlags(rawValue: 8)
    /// Whether it is this app's keyboard is known (``isLocal``).
    static let hasIsLocal = KeyboardFlags(rawValue: 16)
    /// It is this app's keyboard.
    static let isLocal = KeyboardFlags(rawValue: 32)
}

/// The bits of `view_info`'s `flags` (offset 4).
struct ViewFlags: OptionSet {
    let rawValue: Int32
    /// The view's own hidden flag.
    static let hidden = ViewFlags(rawValue: 1)
    /// The view is enabled.
    static let enabled = ViewFlags(rawValue: 2)
    /// A secure text entry.
    static let secure = ViewFlags(rawValue: 4)
    /// Keyboard avoidance applies to it.
    static let avoidsKeyboard = ViewFlags(rawValue: 8)
    /// It is the first responder.
    static let firstResponder = ViewFlags(rawValue: 16)
    /// It has a tag (offset 8).
    static let hasTag = ViewFlags(rawValue: 32)
    /// It has a keyboard distance of its own (offset 16).
    static let hasKeyboardDistance = ViewFlags(rawValue: 64)
    static let followsKeyboard = ViewFlags(rawValue: 128)
}

// MARK: - Geometry

/// A width and a height, in points.
struct Size: Equatable {
    var width: Double
    var height: Double
}

/// A rectangle in points, in screen coordinates: x, y, width, height, as the ABI lays it out
/// (four f64s). The same rules as ResponderBus's `Rect`: a negative size is kept as given, and
/// ``minX``/``maxX`` account for it; ``null`` is what non-overlapping rectangles intersect to.
struct Rect: Equatable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double

    /// The null rectangle: what ``intersection(_:)`` returns when two rectangles do not meet.
    static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)

    /// The smallest x coordinate.
    var minX: Double { width >= 0 ? x : x + width }
    /// The largest x coordinate.
    var maxX: Double { width >= 0 ? x + width : x }
    /// The smallest y coordinate: the top edge.
    var minY: Double { height >= 0 ? y : y + height }
    /// The largest y coordinate: the bottom edge.
    var maxY: Double { height >= 0 ? y + height : y }

    /// Whether this is the ``null`` rectangle (or any rectangle with an infinite origin).
    var isNull: Bool { x == .infinity || y == .infinity }

    /// Whether any of the four numbers is NaN.
    var hasNaN: Bool { x.isNaN || y.isNaN || width.isNaN || height.isNaN }

    /// Whether this rectangle has no bounds (an infinite or huge size, or a `-inf` origin).
    var isInfinite: Bool {
        if isNull || hasNaN { return false }
        return !x.isFinite || !y.isFinite || !width.isFinite || !height.isFinite
            || abs(width) >= Double.greatestFiniteMagnitude / 2 || abs(height) >= Double.greatestFiniteMagnitude / 2
    }

    /// Whether this rectangle covers no area: null, NaN, or zero width or height.
    var isEmpty: Bool { isNull || width == 0 || height == 0 || hasNaN }

    /// The part both rectangles cover, or ``null`` when they do not overlap (touching edges do
    /// not overlap).
    func intersection(_ other: Rect) -> Rect {
        if isNull || other.isNull || hasNaN || other.hasNaN { return .null }
        let x0 = max(minX, other.minX)
        let y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX)
        let y1 = min(maxY, other.maxY)
        guard x0 < x1, y0 < y1 else { return .null }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Reads four f64s at `offset`.
    init(_ raw: UnsafeRawPointer, at offset: Int) {
        x = raw.load(fromByteOffset: offset, as: Double.self)
        y = raw.load(fromByteOffset: offset + 8, as: Double.self)
        width = raw.load(fromByteOffset: offset + 16, as: Double.self)
        height = raw.load(fromByteOffset: offset + 24, as: Double.self)
    }

    /// A rectangle from its four numbers.
    init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

// MARK: - Payloads

/// A keyboard event's payload (kinds 1 to 6): what the notification's user info held. Each field
/// is `nil` when the event did not carry it.
struct KeyboardPayload: Equatable {
    /// Where the keyboard was (`UIKeyboardFrameBeginUserInfoKey`).
    var begin: Rect?
    /// Where the keyboard is going (`UIKeyboardFrameEndUserInfoKey`).
    var end: Rect?
    /// The animation's duration, in seconds.
    var duration: Double?
    /// The animation's raw curve.
    var curve: Int32?
    /// Whether this is this app's keyboard (`false`: another app's, iPad multitasking).
    var isLocal: Bool?

    /// Reads the 80-byte keyboard payload.
    init(_ raw: UnsafeRawPointer) {
        let flags = KeyboardFlags(rawValue: raw.load(as: Int32.self))
        begin = flags.contains(.hasBegin) ? Rect(raw, at: 16) : nil
        end = flags.contains(.hasEnd) ? Rect(raw, at: 48) : nil
        duration = flags.contains(.hasDuration) ? raw.load(fromByteOffset: 8, as: Double.self) : nil
        curve = flags.contains(.hasCurve) ? raw.load(fromByteOffset: 4, as: Int32.self) : nil
        isLocal = flags.contains(.hasIsLocal) ? flags.contains(.isLocal) : nil
    }

    /// A payload from its parts (for tests).
    init(begin: Rect? = nil, end: Rect? = nil, duration: Double? = nil, curve: Int32? = nil, isLocal: Bool? = nil) {
        self.begin = begin
        self.end = end
        self.duration = duration
        self.curve = curve
        self.isLocal = isLocal
    }

    /// The part of the screen this keyboard covers, or `nil` when it covers nothing: the rule
    /// every ResponderBus plugin shares (`KeyboardInfo.coveredPart(ofScreen:isHide:)`).
    ///
    /// - The end frame is intersected with the screen, so a hardware keyboard whose frame reaches
    ///   below the screen covers only its visible strip.
    /// - Nothing is covered when the end frame is missing, null, infinite, NaN or of zero height,
    ///   when the intersection is empty, or when the frame does not reach the bottom edge of the
    ///   screen (an iPad keyboard that is floating, undocked or split).
    /// - Hides cover nothing, whatever frame they carry.
    ///
    /// - Parameters:
    ///   - screen: the screen's size (``ScreenInfo/size``).
    ///   - isHide: whether the event is a hide.
    func coveredPart(ofScreen screen: Size, isHide: Bool = false) -> Rect? {
        guard !isHide, let end else { return nil }
        // The usual docked keyboard, inside the screen.
        let x = end.x
        let y = end.y
        let x1 = x + end.width
        let y1 = y + end.height
        if x >= 0, y >= 0, x < x1, y < y1, x1 <= screen.width, y1 <= screen.height, y1 >= screen.height - 0.5,
            screen.width < .greatestFiniteMagnitude / 2, screen.height < .greatestFiniteMagnitude / 2
        {
            return Rect(x: x, y: y, width: x1 - x, height: y1 - y)
        }
        guard !end.isNull, !end.isInfinite, !end.isEmpty else { return nil }
        let part = end.intersection(Rect(x: 0, y: 0, width: screen.width, height: screen.height))
        guard !part.isNull, !part.isEmpty else { return nil }
        // Docked keyboards end at (or below) the bottom edge; allow half a point of rounding.
        guard end.maxY >= screen.height - 0.5 else { return nil }
        return part
    }

    /// The animation duration to use: the event's, or 0.25 s when it is missing or zero.
    var effectiveDuration: Double {
        guard let duration, duration.isFinite, duration > 0 else { return 0.25 }
        return duration
    }

    /// The raw animation curve to use: the event's, or 7 (the keyboard's own) when missing.
    var effectiveCurve: Int32 { curve ?? 7 }
}

/// A view shift's payload: where the root view's origin goes, and how.
struct ViewShiftPayload: Equatable {
    /// The root view's new y origin.
    var originY: Double
    /// The animation's duration, in seconds.
    var duration: Double
    /// The animation's raw curve.
    var curve: Int32
}

/// What an event carries, read from the event buffer for its kind.
enum Payload: Equatable {
    /// The keyboard's events (kinds 1 to 6).
    case keyboard(KeyboardPayload)
    /// `didBeginEditing`, `didEndEditing`, `returnKey`, `setFrame`, `scroll`, `resign`,
    /// `viewSettings`, `viewMove`: the view it is about (`nil` when it is not on the screen). Its id is
    /// ``eventViewID()``.
    case view(View?)
    /// `focusChange`: the field focus leaves and the one it goes to.
    case focusChange(from: View?, to: View?)
    /// `viewShift`: where the root goes.
    case viewShift(ViewShiftPayload)
    /// `scene`, `screen`, `action`, `diagnostic`: nothing; read the screen.
    case none

    /// The keyboard payload, `nil` for another kind of event.
    var keyboard: KeyboardPayload? {
        if case .keyboard(let payload) = self { return payload }
        return nil
    }

    /// The view the event is about, `nil` when it names none (for a focus change, the one focus
    /// goes to).
    var view: View? {
        switch self {
        case .view(let view): return view
        case .focusChange(_, let to): return to
        default: return nil
        }
    }

    /// Reads the payload the host wrote for an event of `kind`.
    init(_ kind: EventKind, _ raw: UnsafeRawPointer) {
        switch kind {
        case .keyboardWillShow, .keyboardDidShow, .keyboardWillHide, .keyboardDidHide, .keyboardWillChangeFrame,
            .keyboardDidChangeFrame:
            self = .keyboard(KeyboardPayload(raw))
        case .didBeginEditing, .didEndEditing, .returnKey, .setFrame, .scroll, .resign, .viewSettings, .viewMove:
            self = .view(View(raw.load(as: Int32.self)))
        case .focusChange:
            self = .focusChange(from: View(raw.load(as: Int32.self)), to: View(raw.load(fromByteOffset: 4, as: Int32.self)))
        case .viewShift:
            self = .viewShift(
                ViewShiftPayload(
                    originY: raw.load(fromByteOffset: 8, as: Double.self), duration: raw.load(fromByteOffset: 16, as: Double.self),
                    curve: raw.load(as: Int32.self)))
        case .scene, .screen, .action, .diagnostic:
            self = .none
        }
    }
}

// MARK: - The screen

/// A view on the screen of the delivery under way: a handle (its index in tree order, a view
/// before its children), good until the screen changes. Read it with ``viewID(_:)`` and
/// ``viewInfo(_:)``.
struct View: Equatable {
    /// The handle, 0 to ``viewCount()`` - 1.
    let handle: Int32

    /// The view of a handle, `nil` for -1 (none).
    init?(_ handle: Int32) {
        guard handle >= 0 else { return nil }
        self.handle = handle
    }
}

/// The screen of the delivery under way (``screen()``).
struct ScreenInfo: Equatable {
    /// The screen's size, in points.
    var size: Size
    /// The safe area's insets: top, left, bottom, right.
    var safeTop: Double, safeLeft: Double, safeBottom: Double, safeRight: Double
    /// The root view's y origin now (negative when the content is shifted up).
    var rootOriginY: Double
    /// The root view's y origin at rest, with no shift.
    var restingRootOriginY: Double
}

/// What ``viewInfo(_:)`` says of a view.
struct ViewInfo: Equatable {
    /// What the view is.
    var kind: ViewKind
    /// Its own hidden flag (a hidden ancestor hides it too).
    var isHidden: Bool
    /// Whether it is enabled.
    var isEnabled: Bool
    /// Whether it is a secure text entry.
    var isSecure: Bool
    /// Whether keyboard avoidance applies to it (its own setting; an ancestor's reaches it too).
    var avoidsKeyboard: Bool
    /// Whether its bottom follows the keyboard's top (KeyboardAvoidance moves it).
    var followsKeyboard: Bool
    /// Whether it is the first responder.
    var isFirstResponder: Bool
    /// Its tag, if it has one (64 bits, as UIKit's are).
    var tag: Int64?
    /// Its own keyboard distance (the gap kept above the keyboard), if it has one.
    var keyboardDistance: Double?
    /// Its parent, `nil` for the root.
    var parent: View?
    /// Its frame in screen coordinates, as it is now.
    var frame: Rect
    /// Its frame in screen coordinates when the content is not shifted.
    var unmovedFrame: Rect
    /// How many children it has.
    var childCount: Int32
}

// MARK: - The handshake (only from pluginInit)

/// Names the plugin: 1 to 128 characters, without spaces or '@'. Diagnostics and decisions are
/// posted under this name.
func setName(_ name: String) {
    withBytes(of: name) { rb_set_name($0, $1) }
}

/// Asks for an event. The keyboard's events come with a ``KeyboardPayload``.
func observe(_ kind: EventKind) {
    rb_observe(kind.rawValue)
}

/// Asks for each of these events.
func observe(_ kinds: [EventKind]) {
    for kind in kinds { rb_observe(kind.rawValue) }
}

/// Asks for a place in the pipeline (without it, the plugin goes last, or where --plugin's
/// `@position` says).
func setPosition(_ position: Position) {
    switch position {
    case .first: rb_set_position(0, nil, 0)
    case .last: rb_set_position(1, nil, 0)
    case .before(let anchor): withBytes(of: anchor) { rb_set_position(2, $0, $1) }
    case .after(let anchor): withBytes(of: anchor) { rb_set_position(3, $0, $1) }
    }
}

// MARK: - Saying things (during a delivery)

/// Posts an info diagnostic under the plugin's name. (What is logged in `pluginInit` is dropped;
/// `print` logs too, a line at a time.)
func log(_ text: String) {
    withBytes(of: text) { rb_log($0, $1) }
}

/// Posts a diagnostic under the plugin's name, naming `view` when given.
func diagnose(_ level: DiagnosticLevel, _ text: String, view: View? = nil) {
    withBytes(of: text) { rb_diagnose(level.rawValue, $0, $1, view?.handle ?? -1) }
}

// MARK: - Reading the screen (during a delivery)

/// The replay's time, in seconds (the `t` the delivery was given).
func now() -> Double {
    rb_now()
}

/// The screen: its size, safe area and root origin.
func screen() -> ScreenInfo {
    var raw: (Double, Double, Double, Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0, 0, 0)
    return withUnsafeMutableBytes(of: &raw) { buffer in
        rb_screen(buffer.baseAddress)
        let d = buffer.baseAddress!
        func f(_ index: Int) -> Double { d.load(fromByteOffset: index * 8, as: Double.self) }
        return ScreenInfo(
            size: Size(width: f(0), height: f(1)), safeTop: f(2), safeLeft: f(3), safeBottom: f(4), safeRight: f(5),
            rootOriginY: f(6), restingRootOriginY: f(7))
    }
}

/// The keyboard's frame, `nil` when the keyboard is not shown.
func keyboardFrame() -> Rect? {
    var raw: (Double, Double, Double, Double) = (0, 0, 0, 0)
    return withUnsafeMutableBytes(of: &raw) { buffer in
        rb_keyboard(buffer.baseAddress) == 1 ? Rect(buffer.baseAddress!, at: 0) : nil
    }
}

/// The first responder, `nil` for none.
func firstResponder() -> View? {
    View(rb_first_responder())
}

/// How many views the screen has (handles 0 to count - 1).
func viewCount() -> Int32 {
    rb_view_count()
}

/// Every view on the screen, in tree order (a view before its children).
func allViews() -> [View] {
    var views: [View] = []
    let count = rb_view_count()
    views.reserveCapacity(Int(count))
    for handle in 0..<count {
        if let view = View(handle) { views.append(view) }
    }
    return views
}

/// The view named `id`, `nil` when the screen has none.
func findView(_ id: String) -> View? {
    View(withBytes(of: id) { rb_view_find($0, $1) })
}

/// A view's id.
func viewID(_ view: View) -> String {
    readText { rb_view_id(view.handle, $0, $1) } ?? ""
}

/// What the host knows of a view; `nil` if it would not say.
func viewInfo(_ view: View) -> ViewInfo? {
    var raw: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return withUnsafeMutableBytes(of: &raw) { buffer -> ViewInfo? in
        let d = buffer.baseAddress!
        guard rb_view_info(view.handle, d) == 0 else { return nil }
        let flags = ViewFlags(rawValue: d.load(fromByteOffset: 4, as: Int32.self))
        return ViewInfo(
            kind: ViewKind(rawValue: d.load(as: Int32.self)) ?? .view,
            isHidden: flags.contains(.hidden), isEnabled: flags.contains(.enabled), isSecure: flags.contains(.secure),
            avoidsKeyboard: flags.contains(.avoidsKeyboard), followsKeyboard: flags.contains(.followsKeyboard),
            isFirstResponder: flags.contains(.firstResponder),
            tag: flags.contains(.hasTag)
                ? Int64(bitPattern: UInt64(d.load(fromByteOffset: 92, as: UInt32.self)) << 32 | UInt64(d.load(fromByteOffset: 8, as: UInt32.self)))
                : nil,
            keyboardDistance: flags.contains(.hasKeyboardDistance) ? d.load(fromByteOffset: 16, as: Double.self) : nil,
            parent: View(d.load(fromByteOffset: 12, as: Int32.self)),
            frame: Rect(d, at: 24), unmovedFrame: Rect(d, at: 56),
            childCount: d.load(fromByteOffset: 88, as: Int32.self))
    }
}

/// The id of the view the event is about, `nil` when it names none.
func eventViewID() -> String? {
    readText { rb_event_view_id($0, $1) }
}

/// The screen's last field action (the scene's `lastFieldAction`), `nil` when it has none.
func screenAction() -> String? {
    readText { rb_screen_action($0, $1) }
}

// MARK: - Deciding (during a delivery; posted on the bus when pluginEvent returns, none if it traps)

/// Moves the root view's origin to `originY`, animated over `duration` seconds with `curve`.
func postViewShift(originY: Double, duration: Double, curve: Int32 = 7) {
    rb_post_view_shift(originY, duration, curve)
}

/// Moves focus from one view to another (`nil`: none).
func postFocusChange(from: View?, to: View?) {
    rb_post_focus_change(from?.handle ?? -1, to?.handle ?? -1)
}

/// Scrolls a scroll view to a content offset, with a bottom inset.
func postScroll(_ view: View, contentOffsetY: Double, bottomInset: Double) {
    rb_post_scroll(view.handle, contentOffsetY, bottomInset)
}

/// Resigns a view's first responder status.
func postResign(_ view: View) {
    rb_post_resign(view.handle)
}

/// Performs a named action (a button's, or the screen's last field action).
func postAction(_ name: String) {
    withBytes(of: name) { rb_post_action($0, $1) }
}

/// Sets a view's keyboard settings: its gap above the keyboard (`nil`: the default), whether
/// keyboard avoidance applies to it and its subtree, and whether its bottom follows the keyboard's
/// top. It sets all three: pass the view's current values (``viewInfo(_:)``) for the ones you keep.
func postViewSettings(_ view: View, keyboardDistance: Double?, avoidsKeyboard: Bool, followsKeyboard: Bool = false) {
    rb_post_view_settings(view.handle, keyboardDistance ?? .nan, (avoidsKeyboard ? 1 : 0) | (followsKeyboard ? 2 : 0))
}

/// Moves one view to `frame` (in its parent's coordinates), animated over `duration` seconds with
/// `curve`.
func postViewMove(_ view: View, frame: Rect, duration: Double = 0.25, curve: Int32 = 7) {
    rb_post_view_move(view.handle, frame.x, frame.y, frame.width, frame.height, duration, curve)
}

// MARK: - Text across the boundary

/// Calls `body` with the UTF-8 bytes of `text` and their count. (Native strings are contiguous:
/// the bytes are read in place; `String.withUTF8` would bring in 20 KB of String internals.)
func withBytes<R>(of text: String, _ body: (UnsafePointer<UInt8>?, Int32) -> R) -> R {
    if let result = text.utf8.withContiguousStorageIfAvailable({ body($0.baseAddress, Int32($0.count)) }) {
        return result
    }
    return Array(text.utf8).withUnsafeBufferPointer { body($0.baseAddress, Int32($0.count)) }
}

/// A text the host copies into a buffer (`fill(address, capacity)` returns the full length, or
/// -1 for none), with a second try when it did not fit.
func readText(_ fill: (UnsafeMutablePointer<UInt8>?, Int32) -> Int32) -> String? {
    var capacity = 64
    while true {
        var length: Int32 = 0
        let text = String(unsafeUninitializedCapacity: capacity) { buffer in
            length = fill(buffer.baseAddress, Int32(buffer.count))
            return length < 0 ? 0 : min(Int(length), buffer.count)
        }
        if length < 0 { return nil }
        if Int(length) <= capacity { return text }
        capacity = Int(length)
    }
}

// MARK: - The ABI's entry points

/// The event buffer the host writes each payload into: 128 bytes, 8-aligned, in static memory.
nonisolated(unsafe) private var eventBuffer: EventBufferStorage = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

/// ``eventBufferSize`` bytes as sixteen UInt64s: 8-aligned, as the payloads' f64s need.
private typealias EventBufferStorage = (
    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
)

/// `() -> i32`: the ABI version this module was built for.
@_expose(wasm, "rb_abi_version") @_cdecl("rb_abi_version")
func _rbABIVersion() -> Int32 {
    abiVersion
}

/// `() -> i32`: the handshake, the plugin's `pluginInit`.
@_expose(wasm, "rb_init") @_cdecl("rb_init")
func _rbInit() -> Int32 {
    pluginInit()
}

/// `() -> i32`: the address of the event buffer.
@_expose(wasm, "rb_event_buffer") @_cdecl("rb_event_buffer")
func _rbEventBuffer() -> Int32 {
    withUnsafeMutableBytes(of: &eventBuffer) { Int32(truncatingIfNeeded: UInt(bitPattern: $0.baseAddress)) }
}

/// `(i32 kind, f64 t) -> i32`: one delivery, the plugin's `pluginEvent` with the payload read for
/// its kind. A kind this kit does not know (a later ABI's) is ignored.
@_expose(wasm, "rb_on_event") @_cdecl("rb_on_event")
func _rbOnEvent(_ kind: Int32, _ t: Double) -> Int32 {
    guard let kind = EventKind(rawValue: kind) else { return 0 }
    let payload = withUnsafeMutableBytes(of: &eventBuffer) { Payload(kind, UnsafeRawPointer($0.baseAddress!)) }
    let code = pluginEvent(kind, t, payload)
    rb_kit_flush_output()
    return code
}
