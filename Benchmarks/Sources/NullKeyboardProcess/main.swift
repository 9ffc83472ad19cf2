// An external plugin that asks for the six keyboard events (or, with `action`, for `action` only)
// and decides nothing: the benchmarks time the protocol's round trip and what a replay pays for
// one plugin out of process, not the plugin's own work.
import ResponderBus
import ResponderBusExternal

final class NullKeyboard: KeyboardObserving {
    let name = "NullKeyboard"
}

final class NullAction: EventObserving {
    let name = "NullAction"
    var observedEvents: Set<AnyEventName>? { [EventName.action.erased] }
}

let plugin: any ResponderPlugin = CommandLine.arguments.dropFirst().first == "action" ? NullAction() : NullKeyboard()
ExternalPluginMain.serve(plugin, turns: false)
