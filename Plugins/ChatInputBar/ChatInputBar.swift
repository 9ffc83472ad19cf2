import ResponderBus

/// Keeps a chat input bar on the keyboard's top, as a view constrained to UIKit's
/// `keyboardLayoutGuide` stays: the view holding a text input whose bottom sits on the bottom of
/// the safe area follows the keyboard, and keyboard avoidance leaves the screen where it is for the
/// field inside it.
///
/// The plugin guide's fourth worked example, written alike in the four kinds of plugin
/// (`PluginKits/python/examples/chat_input_bar.py`, `PluginKits/c-wasm/examples/chat_input_bar.c`,
/// `PluginKits/swift-wasm/examples/ChatInputBar.swift`). It moves nothing itself: when a scene
/// arrives it turns `followsKeyboard` on and `avoidsKeyboard` off for the bar with a derived
/// `viewSettings`, and `KeyboardAvoidance`, placed after it, moves the bar with `viewMove`.
public final class ChatInputBar: EventObserving {
    /// The plugin's name: `"ChatInputBar"`.
    public let name = "ChatInputBar"

    /// Creates the plugin.
    public init() {}

    /// Before `KeyboardAvoidance`: the bar's settings are in the model when avoidance decides.
    public var preferredPosition: PluginPosition? { .before("KeyboardAvoidance") }

    /// Scenes only: the bar arrives with them.
    public var observedEvents: Set<AnyEventName>? { [EventName.scene.erased] }

    /// Makes the bar of the new scene follow the keyboard.
    public func observe(_ event: AnyEvent, context: PluginContext) {
        let screen = context.screen
        let safeBottom = screen.size.height - screen.safeArea.bottom
        for field in screen.textInputs {
            guard let bar = field.parent, bar !== screen.root, abs(screen.frameInScreen(of: bar).maxY - safeBottom) < 1 else { continue }
            var settings = bar.settings
            settings.avoidsKeyboard = false
            settings.followsKeyboard = true
            if settings != bar.settings { context.post(.viewSettings, settings) }
        }
    }
}
