// __PluginName__: says, each time the keyboard comes up, which field it came up for — or that no
// field was focused yet (a text view's keyboard comes before its didBeginEditing). It watches the
// keyboard's frame changes as well as its shows: a log imported from a console mostly carries
// keyboardWillChangeFrame alone.
//
// Replace this with your plugin: ask for the events you want in pluginInit, read the screen
// through the kit's functions, and post what you decide through them.
//
//   ./build.sh && responder-bus replay session.jsonl --plugin __PluginName__.wasm

/// Whether the keyboard was on the screen after the last keyboard event.
nonisolated(unsafe) var keyboardWasUp = false

func pluginInit() -> Int32 {
    setName("__PluginName__")  // the "by" of what it derives; unique in the pipeline
    observe([.keyboardWillShow, .keyboardWillChangeFrame, .keyboardWillHide])
    // setPosition(.after("KeyboardAvoidance"))  -- else it goes last
    return 0
}

func pluginEvent(_ kind: EventKind, _ t: Double, _ payload: Payload) -> Int32 {
    // The model has applied the event: the keyboard is up when it is shown with its top on the screen.
    var isUp = false
    if let keyboard = keyboardFrame() { isUp = keyboard.height > 0 && keyboard.y < screen().size.height }
    let cameUp = isUp && !keyboardWasUp
    keyboardWasUp = isUp
    guard cameUp else { return 0 }
    guard let field = firstResponder() else {
        log("the keyboard showed for no field yet")
        return 0
    }
    diagnose(.info, "the keyboard showed for '" + viewID(field) + "'", view: field)
    return 0
}
