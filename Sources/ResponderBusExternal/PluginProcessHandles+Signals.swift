import ResponderBus

/// Ending a wait for a plugin when the host is asked to stop.
///
/// The host waits for a plugin's answer inside a callback of the bus's loop, running the plugin's
/// own loop (``PluginProcess``); the bus loop's callbacks, its signal watch among them
/// (`UVEventLoop.watchSignals`, what `replay --realtime` and `--follow` end on), cannot run until
/// the wait ends — up to the plugin's time limit, which may be minutes. So the plugin's loop
/// watches the same signals while the process watches them, with a `uv_signal_t` each: libuv keeps
/// one handler per signal for all its loops and tells every loop that watches it, so this changes
/// nothing for the rest of the process, and the bus loop's watch still sees the signal once the
/// wait has ended. Signals nobody watches through libuv are left alone: watching them would take
/// away their effect (SIGINT's default ends the process, a plugin with it).
///
/// ``WatchedSignals`` says which signals those are; the wait follows it before each turn of the
/// plugin's loop. A signal also ends the waits that come after it, on any plugin, until the bus
/// loop's watch has handled it (``WatchedSignals/arrived()``).
extension PluginProcessHandles {
    /// Starts a `uv_signal_t` on the plugin's loop for each signal ``WatchedSignals`` lists, and
    /// stops those it no longer lists; nothing to do (one locked read) when the list has not
    /// changed since the last call.
    func followWatchedSignals() {
        guard !closed else { return }
        let generation = WatchedSignals.generation
        guard generation != signalGeneration else { return }
        signalGeneration = generation
        let wanted = Set(WatchedSignals.signals)
        for signal in signalsStarted.subtracting(wanted) {
            stopSignal(signal)
            signalsStarted.remove(signal)
        }
        for signal in wanted.subtracting(signalsStarted) where startSignal(signal) {
            signalsStarted.insert(signal)
        }
    }
}
