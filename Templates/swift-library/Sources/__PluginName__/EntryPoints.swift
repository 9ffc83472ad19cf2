import ResponderBus

// The two symbols `responder-bus replay --plugin` looks for (see `PluginABI`), named after the
// library (__PluginLibrary__), so that another plugin of this package has entry points of its own.

/// The plugin API version this library was built against.
@_cdecl("__PluginAPIVersionSymbol__")
public func responderBusPluginAPIVersion() -> Int32 { PluginABI.version }

/// Makes a new plugin, retained once for the host.
@_cdecl("__PluginMakeSymbol__")
public func responderBusPluginMake() -> PluginABI.Handle {
    PluginABI.handle(for: __PluginName__())
}
