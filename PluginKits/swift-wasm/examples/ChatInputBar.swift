// The plugin guide's ChatInputBar in Embedded Swift: the view holding a text input whose bottom sits
// on the bottom of the safe area follows the keyboard, out of avoidance; KeyboardAvoidance moves it.
//   PluginKits/swift-wasm/build.sh PluginKits/swift-wasm/examples/ChatInputBar.swift ChatInputBar.wasm

/// The handshake: the name, scenes only, before avoidance.
func pluginInit() -> Int32 {
    setName("ChatInputBar")
    observe([EventKind.scene])
    setPosition(.before("KeyboardAvoidance"))
    return 0
}

/// Makes the bar of the new scene follow the keyboard.
func pluginEvent(_ kind: EventKind, _ t: Double, _ payload: Payload) -> Int32 {
    let screen = screen()
    let safeBottom = screen.size.height - screen.safeBottom
    for view in allViews() {
        guard let field = viewInfo(view), field.kind == .textField || field.kind == .textView, let bar = field.parent,
            bar.handle != 0, let info = viewInfo(bar), abs(info.frame.y + info.frame.height - safeBottom) < 1
        else { continue }
        if info.avoidsKeyboard || !info.followsKeyboard {
            postViewSettings(bar, keyboardDistance: info.keyboardDistance, avoidsKeyboard: false, followsKeyboard: true)
        }
    }
    return 0
}
