import ResponderBus

#if canImport(Glibc)
import Glibc
#endif

/// Why a plugin library could not be loaded; the CLI exits 78 with the message.
struct PluginLoadError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Loads third-party plugin libraries with `dlopen` (see `PluginABI`).
///
/// Refuses, with a message that says what to do: a missing file, a file others could change (as ssh
/// refuses loose key files), a file that is not a loadable library, a library without the entry
/// points, a library built for another plugin API version, and an entry point that does not make a
/// plugin. A loaded library is never unloaded: Swift code cannot be safely `dlclose`d.
enum PluginLoader {
    static func load(_ path: String) throws(PluginLoadError) -> any ResponderPlugin {
        let absolute = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
        var info = stat()
        guard stat(absolute, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            throw PluginLoadError(message: "cannot load plugin '\(path)': \(reason); build the plugin package with `swift build` and pass its .build/debug/lib<Name>.so")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw PluginLoadError(message: "cannot load plugin '\(path)': not a regular file; pass the plugin's lib<Name>.so")
        }
        if info.st_mode & 0o022 != 0 {
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw PluginLoadError(message: "refusing to load plugin '\(path)': it is writable by \(info.st_mode & 0o002 != 0 ? "anyone" : "its group") (mode \(mode)), so others could change the code it runs; fix with `chmod go-w \(path)`")
        }
        let owner = info.st_uid
        if owner != getuid() && owner != 0 {
            throw PluginLoadError(message: "refusing to load plugin '\(path)': it belongs to another user (uid \(owner)); copy it and own the copy")
        }
        guard let handle = dlopen(absolute, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
            throw PluginLoadError(message: "cannot load plugin '\(path)': not a loadable library (\(reason)); pass the lib<Name>.so that `swift build` made")
        }
        guard let versionSymbol = dlsym(handle, PluginABI.versionSymbol) else {
            throw PluginLoadError(message: "'\(path)' is not a ResponderBus plugin: it exports no \(PluginABI.versionSymbol); write plugins with `responder-bus new-plugin`")
        }
        let versionFunction = unsafeBitCast(versionSymbol, to: (@convention(c) () -> Int32).self)
        let version = versionFunction()
        guard version == PluginABI.version else {
            throw PluginLoadError(message: "'\(path)' was built for plugin API version \(version), but this responder-bus speaks version \(PluginABI.version); rebuild the plugin against this ResponderBus")
        }
        guard let makeSymbol = dlsym(handle, PluginABI.makeSymbol) else {
            throw PluginLoadError(message: "'\(path)' declares plugin API version \(version) but exports no \(PluginABI.makeSymbol); add the entry point `responder-bus new-plugin` writes")
        }
        let make = unsafeBitCast(makeSymbol, to: (@convention(c) () -> UnsafeMutableRawPointer?).self)
        guard let pointer = make() else {
            throw PluginLoadError(message: "'\(path)': \(PluginABI.makeSymbol) returned no plugin")
        }
        let object = Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()
        guard let plugin = object as? any ResponderPlugin else {
            throw PluginLoadError(message: "'\(path)' made a \(type(of: object)), which is not a ResponderPlugin of this responder-bus; rebuild the plugin against the ResponderBus this binary was built from")
        }
        return plugin
    }

    private static func currentDirectory() -> String {
        guard let pointer = getcwd(nil, 0) else { return "." }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
