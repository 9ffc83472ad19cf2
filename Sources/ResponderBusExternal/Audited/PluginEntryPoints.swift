import ResponderBus

/// A plugin library's two entry points (``PluginABI``), from the addresses `dlsym` found to C
/// functions Swift can call: the dlopen C boundary of ``PluginLibrary``.
///
/// Invariants (the audited layer): only an address `dlsym` returned for a version symbol
/// (``PluginABI/versionSymbol`` or ``PluginABI/versionSymbol(forLibrary:)``) or a make symbol
/// (``PluginABI/makeSymbol`` or ``PluginABI/makeSymbol(forLibrary:)``) is cast, each to the C type the contract gives that symbol; the
/// library is never unloaded, so the functions stay valid for the life of the process. A library
/// that exports the names with other types breaks the contract it declared with its version
/// symbol, which is checked before the make function is called. Any thread.
enum PluginEntryPoints {
    /// `responder_bus_plugin_api_version[_Name]`: the contract version the library was built against.
    typealias Version = @convention(c) () -> Int32
    /// `responder_bus_plugin_make[_Name]`: a new plugin, retained once, for the host to take.
    typealias Make = @convention(c) () -> UnsafeMutableRawPointer?
    /// What `dlopen` returned for a library: what its symbols are looked up in with `dlsym`.
    typealias Library = UnsafeMutableRawPointer

    /// The version function at `symbol`, the address of a version symbol.
    static func version(at symbol: UnsafeMutableRawPointer) -> Version {
        unsafeBitCast(symbol, to: Version.self)
    }

    /// The make function at `symbol`, the address of a make symbol.
    static func make(at symbol: UnsafeMutableRawPointer) -> Make {
        unsafeBitCast(symbol, to: Make.self)
    }
}
