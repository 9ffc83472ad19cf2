/// The contract between `responder-bus` and a plugin library it loads at run time
/// (`responder-bus replay --plugin PATH`).
///
/// A plugin library is a `.dynamic` SwiftPM library product that depends on the `ResponderBus`
/// product and exports two C symbols, named after the library (`libMyPlugin.so` exports
/// ``versionSymbol(forLibrary:)`` and ``makeSymbol(forLibrary:)`` of `MyPlugin`):
///
/// ```swift
/// @_cdecl("responder_bus_plugin_api_version_MyPlugin")
/// public func responderBusPluginAPIVersion() -> Int32 { PluginABI.version }
///
/// @_cdecl("responder_bus_plugin_make_MyPlugin")
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
///
/// The library's name in the symbols lets one package hold several plugins: a test target links
/// every library target of its package into one binary, where two plugins' entry points of the
/// same name would collide. The loader looks for the symbols of the name it reads from the file's
/// name (`lib<Name>.so`, or `lib<Name>.dylib`), then for the unnamed ones, ``versionSymbol`` and
/// ``makeSymbol``, which a library with one plugin may export instead (as libraries written
/// before the named symbols do).
public enum PluginABI {
    /// The version of the plugin contract this build of ResponderBus speaks. It changes whenever the
    /// plugin protocols, the event types or this contract change incompatibly: 3 since the
    /// `viewMove` event, which renumbered the built-in events' ids that plugins inline (2 was
    /// `viewSettings`'s).
    public static let version: Int32 = 3

    /// The exported C symbol that returns the library's contract version as an `Int32`: the
    /// unnamed one, which the loader takes when the library exports no
    /// ``versionSymbol(forLibrary:)``.
    public static let versionSymbol = "responder_bus_plugin_api_version"

    /// The exported C symbol that returns a new plugin, retained once, as an opaque pointer: the
    /// unnamed one, which the loader takes when the library exports no ``makeSymbol(forLibrary:)``.
    public static let makeSymbol = "responder_bus_plugin_make"

    /// The version symbol of the library `lib<name>.so`: ``versionSymbol``, `_` and `name`
    /// (`responder_bus_plugin_api_version_MyPlugin`).
    ///
    /// - Parameter name: the library's name, its file's name without `lib` and `.so` (a SwiftPM
    ///   library product's name).
    public static func versionSymbol(forLibrary name: String) -> String { versionSymbol + "_" + name }

    /// The make symbol of the library `lib<name>.so`: ``makeSymbol``, `_` and `name`
    /// (`responder_bus_plugin_make_MyPlugin`).
    ///
    /// - Parameter name: the library's name, its file's name without `lib` and `.so` (a SwiftPM
    ///   library product's name).
    public static func makeSymbol(forLibrary name: String) -> String { makeSymbol + "_" + name }

    /// The library's name in the file name `file` (a path's last component): what lies between
    /// `lib` and `.so` or `.dylib` (`libMyPlugin.so` → `MyPlugin`); `nil` for a file not named so.
    ///
    /// - Parameter file: the library file's name, or its path.
    public static func libraryName(ofFile file: String) -> String? {
        let last = file.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? file
        guard last.hasPrefix("lib") else { return nil }
        for suffix in [".so", ".dylib"] where last.hasSuffix(suffix) {
            let name = last.dropFirst(3).dropLast(suffix.count)
            return name.isEmpty ? nil : String(name)
        }
        return nil
    }

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
