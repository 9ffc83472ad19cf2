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
/// public func responderBusPluginMake() -> PluginABI.Handle {
///     PluginABI.handle(for: MyPlugin())
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
    /// plugin protocols, the event types or this contract change incompatibly: 3 since the
    /// `viewMove` event, which renumbered the built-in events' ids that plugins inline (2 was
    /// `viewSettings`'s).
    public static let version: Int32 = 3

    /// The exported C symbol that returns the library's contract version as an `Int32`.
    public static let versionSymbol = "responder_bus_plugin_api_version"

    /// The exported C symbol that returns a new plugin, retained once, as an opaque pointer.
    public static let makeSymbol = "responder_bus_plugin_make"

    /// What a library's make function returns: a plugin, retained once, for the host to take.
    public typealias Handle = UnsafeMutableRawPointer

    /// Hands `plugin` over as the make function returns it: retained once for the host, which
    /// takes it with ``plugin(from:)``.
    public static func handle(for plugin: some ResponderPlugin) -> Handle {
        Unmanaged.passRetained(plugin as AnyObject).toOpaque()
    }

    /// Takes over the object a make function returned (see ``handle(for:)``): what it made, which
    /// the host then checks is a plugin.
    public static func plugin(from handle: Handle) -> AnyObject {
        Unmanaged<AnyObject>.fromOpaque(handle).takeRetainedValue()
    }
}
