import ResponderBus

/// The WebAssembly plugin ABI, version 1: what a module exports, what the host offers it, and the
/// layout of what crosses between them. The article <doc:WebAssemblyPluginABI> says the same for
/// plugin authors; the C header and the Embedded Swift source of the author kits
/// (`PluginKits/c-wasm`, `PluginKits/swift-wasm`) spell it in their languages.
///
/// Everything is little-endian, addresses are 32-bit offsets into the module's exported memory,
/// and numbers in the layouts are byte offsets.
public enum WasmPluginABI {
    /// The ABI version this host speaks; a module's `rb_abi_version` must return it.
    public static let version: Int32 = 1

    /// The module the host's functions are imported from.
    public static let importModule = "rb"

    /// The functions a module exports: its handshake, its event buffer and its delivery entry.
    public enum Export {
        /// `() -> i32`: the ABI version the module was built for.
        public static let abiVersion = "rb_abi_version"
        /// `() -> i32`: the handshake; it names the plugin (`set_name`), asks for events
        /// (`observe`) and may ask for a position (`set_position`); 0 means ready.
        public static let initialize = "rb_init"
        /// `() -> i32`: the address of the event buffer, at least ``eventBufferSize`` bytes, where
        /// the host writes each event's payload before calling ``onEvent``.
        public static let eventBuffer = "rb_event_buffer"
        /// `(i32 kind, f64 t) -> i32`: one delivery; 0 means handled, anything else is reported as
        /// the plugin's error.
        public static let onEvent = "rb_on_event"
        /// The module's memory.
        public static let memory = "memory"
    }

    /// The size of the event buffer a module lends the host.
    public static let eventBufferSize = 128

    /// The event kinds, by the number a module sees: fixed by this version of the ABI (a new bus
    /// event gets a new number; none is ever reused). The turn bookkeeping (`turnSettled`) is not
    /// delivered to modules.
    public static let eventKinds: [(kind: Int32, name: AnyEventName)] = [
        (1, EventName.keyboardWillShow.erased), (2, EventName.keyboardDidShow.erased),
        (3, EventName.keyboardWillHide.erased), (4, EventName.keyboardDidHide.erased),
        (5, EventName.keyboardWillChangeFrame.erased), (6, EventName.keyboardDidChangeFrame.erased),
        (7, EventName.didBeginEditing.erased), (8, EventName.didEndEditing.erased), (9, EventName.returnKey.erased),
        (10, EventName.scene.erased), (11, EventName.setFrame.erased), (12, EventName.screen.erased),
        (13, EventName.viewShift.erased), (14, EventName.scroll.erased), (15, EventName.focusChange.erased),
        (16, EventName.action.erased), (17, EventName.resign.erased), (18, EventName.viewSettings.erased),
        (19, EventName.diagnostic.erased), (20, EventName.viewMove.erased),
    ]

    /// The kinds of the keyboard's events (a keyboard payload) in this version of the ABI: the
    /// kinds in ``eventKinds`` whose events are the bus's keyboard events
    /// (`EventName.allKeyboardEvents`), which is how the host routes them.
    public static let keyboardKinds: ClosedRange<Int32> = 1...6

    /// The ABI kind of a bus event, `nil` for one modules are not sent.
    public static func kind(of name: AnyEventName) -> Int32? {
        guard name.id >= 0, name.id < kindsByID.count else { return nil }
        let kind = kindsByID[name.id]
        return kind == 0 ? nil : kind
    }

    /// The bus event of an ABI kind.
    public static func event(ofKind kind: Int32) -> AnyEventName? {
        eventKinds.first { $0.kind == kind }?.name
    }

    /// ``eventKinds`` indexed by the bus's event id (0 for none).
    private static let kindsByID: [Int32] = {
        var table = [Int32](repeating: 0, count: (eventKinds.map(\.name.id).max() ?? 0) + 1)
        for (kind, name) in eventKinds { table[name.id] = kind }
        return table
    }()

    /// The view kinds, by the number `view_info` writes.
    public static let viewKinds: [ViewKind] = [.view, .textField, .textView, .scrollView, .button, .label]

    /// The bits of a view's `flags` in `view_info`.
    public enum ViewFlag {
        /// The view is hidden (its own flag; a hidden ancestor hides it too).
        public static let hidden: Int32 = 1
        /// The view is enabled.
        public static let enabled: Int32 = 2
        /// A secure text entry.
        public static let secure: Int32 = 4
        /// Keyboard avoidance applies to it (`viewSettings` can take it out).
        public static let avoidsKeyboard: Int32 = 8
        /// It is the first responder.
        public static let firstResponder: Int32 = 16
        /// It has a tag (its low 32 bits at offset 8, its high 32 bits at offset 92).
        public static let hasTag: Int32 = 32
        /// It has a keyboard distance of its own (at offset 16).
        public static let hasKeyboardDistance: Int32 = 64
        /// Its bottom follows the keyboard's top (`viewSettings` turns it on).
        public static let followsKeyboard: Int32 = 128
    }

    /// The bits of `post_view_settings`'s `flags`: a module built before following was in the ABI
    /// passes 1 or 0 for whether the view avoids the keyboard, which reads the same.
    public enum SettingsFlag {
        /// Keyboard avoidance applies to the view and its subtree.
        public static let avoidsKeyboard: Int32 = 1
        /// The view's bottom follows the keyboard's top.
        public static let followsKeyboard: Int32 = 2
        /// Every bit the host reads; another is refused.
        public static let all: Int32 = avoidsKeyboard | followsKeyboard
    }

    /// The bits of a keyboard payload's `flags`.
    public enum KeyboardFlag {
        /// The begin frame is there (offset 16).
        public static let hasBegin: Int32 = 1
        /// The end frame is there (offset 48).
        public static let hasEnd: Int32 = 2
        /// The duration is there (offset 8).
        public static let hasDuration: Int32 = 4
        /// The curve is there (offset 4).
        public static let hasCurve: Int32 = 8
        /// Whether it is this app's keyboard is known (the next bit).
        public static let hasIsLocal: Int32 = 16
        /// It is this app's keyboard.
        public static let isLocal: Int32 = 32
    }

    /// The positions `set_position` takes.
    public enum Position {
        /// The start of the pipeline.
        public static let first: Int32 = 0
        /// The end of the pipeline.
        public static let last: Int32 = 1
        /// Before the named plugin.
        public static let before: Int32 = 2
        /// After the named plugin.
        public static let after: Int32 = 3
    }

    /// The levels `diagnose` takes: info, warning, error.
    public static let levels: [Diagnostic.Level] = [.info, .warning, .error]

    /// The host's functions (module ``importModule``), by name, with their WebAssembly types: what a
    /// module may import, and nothing else.
    public static let imports: [(name: String, parameters: String, results: String)] = [
        ("set_name", "i32 i32", ""),
        ("observe", "i32", ""),
        ("set_position", "i32 i32 i32", ""),
        ("log", "i32 i32", ""),
        ("diagnose", "i32 i32 i32 i32", ""),
        ("now", "", "f64"),
        ("screen", "i32", ""),
        ("keyboard", "i32", "i32"),
        ("first_responder", "", "i32"),
        ("view_count", "", "i32"),
        ("view_find", "i32 i32", "i32"),
        ("view_id", "i32 i32 i32", "i32"),
        ("view_info", "i32 i32", "i32"),
        ("event_view_id", "i32 i32", "i32"),
        ("screen_action", "i32 i32", "i32"),
        ("post_view_shift", "f64 f64 i32", ""),
        ("post_focus_change", "i32 i32", ""),
        ("post_scroll", "i32 f64 f64", ""),
        ("post_resign", "i32", ""),
        ("post_action", "i32 i32", ""),
        ("post_view_settings", "i32 f64 i32", ""),
        ("post_view_move", "i32 f64 f64 f64 f64 f64 i32", ""),
    ]
}
