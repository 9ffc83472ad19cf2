import ResponderBus

/// Reports, for each keyboard session, how noisy the keyboard was — bursts of frames, duplicate
/// shows, hides that still draw the keyboard on screen, events from another app's keyboard — as one
/// `info` diagnostic when the session ends with a hide. A quiet session says nothing.
///
/// This is the worked example of the "Writing a plugin" guide: it uses nothing a third-party author
/// cannot use — one capability protocol (`KeyboardObserving`), the context's clock and
/// screen, and a derived event — and keeps its decision logic in a value type (``NoiseCounter``)
/// tested on its own.
public final class KeyboardNoise: KeyboardObserving {
    /// The plugin's name: `"KeyboardNoise"`.
    public let name: String
    private var counter: NoiseCounter

    /// Creates the plugin.
    ///
    /// - Parameters:
    ///   - burstWindow: frames closer together than this (in seconds) are one burst.
    ///   - name: the plugin's name, `"KeyboardNoise"` unless you run two.
    public init(burstWindow: Double = 0.05, name: String = "KeyboardNoise") {
        self.name = name
        counter = NoiseCounter(burstWindow: burstWindow)
    }

    /// Counts the event; at the end of a noisy session, reports it.
    public func keyboardEvent(_ event: Event<KeyboardInfo>, context: PluginContext) {
        guard let report = counter.note(event.name, event.payload, at: context.now.seconds, screen: context.screen.size) else { return }
        if !report.isQuiet { context.diagnose(.info, report.description) }
    }
}

extension Duration {
    fileprivate var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
