/// The contract between `responder-bus` and a plugin library it loads at run time
/// (`responder-bus replay --plugin PATH`).
///
/// A plugin library is a `.dynamic` SwiftPM library product that depends on the `ResponderBus`
/// product and exports two C symbols:
///
/// ```swift
/// @_cdecl("responder_bus_plugin_api_version")
/// public func responderBusPluginAPIVersion() -> Int32 { PluginABI.version }
///
/// @_cdecl("responder_bus_plugin_make")
/// public func responderBusPluginMake() -> UnsafeMutableRawPointer {
///     Unmanaged.passRetained(MyPlugin() as AnyObject).toOpaque()
/// }
/// ```
///
/// The first says which version of this contract (and of the plugin protocols) the library was
/// built against; the host refuses a library whose version differs from its own. The second makes
/// a new plugin instance, retained once for the host, which takes it over. Swift has no stable ABI
/// on Linux: build plugins with the same toolchain and the same ResponderBus source as the host.
/// `responder-bus new-plugin` writes a package that does all this.
public enum PluginABI {
    /// The version of the plugin contract this build of ResponderBus speaks. It changes whenever the
    /// plugin protocols, the event types or this contract change incompatibly.
    public static let version: Int32 = 1

    /// The exported C symbol that returns the library's contract version as an `Int32`.
    public static let versionSymbol = "responder_bus_plugin_api_version"

    /// The exported C symbol that returns a new plugin, retained once, as an opaque pointer.
    public static let makeSymbol = "responder_bus_plugin_make"
}
