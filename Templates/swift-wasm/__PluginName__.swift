// __PluginName__: says, each time the keyboard shows, which field it showed for — or that no field
// was focused yet (a text view's keyboard comes before its didBeginEditing).
//
// Replace this with your plugin: ask for the events you want in pluginInit, read the screen
// through the kit's functions, and post what you decide through them.
//
//   ./build.sh && responder-bus replay session.jsonl --plugin __PluginName__.wasm

func pluginInit() -> Int32 {
    setName("__PluginName__")  // the "by" of what it derives; unique in the pipeline
    observe(.keyboardWillShow)
    // setPosition(.after("KeyboardAvoidance"))  -- else it goes last
    return 0
}

func pluginEvent(_ kind: EventKind, _ t: Double, _ payload: Payload) -> Int32 {
    guard let field = firstResponder() else {
        log("the keyboard showed for no field yet")
        return 0
    }
    diagnose(.info, "the keyboard showed for '" + viewID(field) + "'", view: field)
    return 0
}
