// The built-in keyboard avoidance, run out of process: the same plugin source as the in-process
// one, served by ExternalPluginMain. A replay with
//   --disable KeyboardAvoidance --plugin-command keyboard-avoidance-process
// derives what the in-process plugin derives (ExternalPluginCLITests checks it, on both loops).
import KeyboardAvoidance
import ResponderBusExternal

ExternalPluginMain.serve(KeyboardAvoidance())
