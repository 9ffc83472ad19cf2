// Serves the plugin out of process: `responder-bus replay LOG --plugin-command .build/debug/__PluginName__-process`.
// The plugin's source is the same one a library would load in-process.
import ResponderBusExternal
import __PluginName__

ExternalPluginMain.serve(__PluginName__())
