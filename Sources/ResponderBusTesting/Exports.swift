// `import ResponderBusTesting` is all a plugin's tests need: the bus, the plugin protocols and the
// log types the kit's API speaks in come with it.
@_exported import EventLog
@_exported import ResponderBus
// Exploring a plugin with generated sessions (`PluginExploration`) speaks in the explorer's types.
@_exported import ResponderBusExplore
