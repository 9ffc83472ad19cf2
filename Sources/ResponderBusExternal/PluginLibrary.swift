import ResponderBus
import ResponderBusPlatform

/// Why a plugin library could not be loaded; the CLI exits 78 with the message.
public struct PluginLoadError: Error, Sendable, CustomStringConvertible {
    /// What went wrong and what to do, naming the library.
    public let message: String
    /// The message.
    public var description: String { message }
}

/// Loads third-party plugin libraries (``fileName(forPlugin:)``: `lib<Name>.so` on Linux,
/// `lib<Name>.dylib` on macOS, built from a `responder-bus new-plugin` package) with `dlopen`.
///
/// Refuses, with a message that says what to do: a missing file, a file others could change or one in
/// a folder others could change (as ssh refuses loose key files: checked before anything of the
/// library runs), a file that is not a loadable library, a library without the entry points, a
/// library built for another plugin API version, and an entry point that does not make a plugin.
/// The file is opened once for its checks; it is loaded by its resolved path (its dependencies are
/// found through its run path, its own folder), and the file mapped is compared with the one
/// checked (Linux: the inode mapped; macOS: the inode at the path dyld loaded, after loading). A
/// loaded library is never unloaded: Swift code cannot be safely `dlclose`d.
///
/// The entry points are those of the library's name, read from its file's name (`lib<Name>.so`),
/// or the unnamed ones (see `PluginABI`), so that one package can build several plugins.
///
/// ## One ResponderBus in the process
///
/// A library's plugin is a `ResponderPlugin` of this program only if the library binds to the
/// program's own copy of ResponderBus; bound to another copy, it conforms to that copy's protocols,
/// and is refused as not a `ResponderPlugin` of this program. A program that loads plugin libraries
/// holds ResponderBus as objects linked in (a program in this package, or one that reaches the
/// module through a static product such as `ResponderBusExternal`), and the library it was built
/// against, `libResponderBus`, is another copy. The binding reaches the program's copy this way:
///
/// - **Linux (ELF)** binds every symbol by name, in load order, the program first: the program
///   exports its copy (`-Xlinker --export-dynamic`), and the plugin's symbols bind to it. Its
///   `libResponderBus.so` must still be found: beside the plugin (SwiftPM gives a library its own
///   folder, `$ORIGIN`, as run path), where it is loaded unused, or met by the program itself when
///   the program is named `libResponderBus.so` — glibc takes an already-loaded object of the needed
///   name before it searches a folder. `responder-bus` is (linked with lld and
///   `-Xlinker -soname=libResponderBus.so`), so a plugin library loads from whatever folder it was
///   copied to, with nothing beside it; a program of your own does the same with
///   `linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic", "-use-ld=lld", "-Xlinker",
///   "-soname=libResponderBus.so"], .when(platforms: [.linux]))]` (gold, the toolchain's default
///   linker, leaves the name out of a program).
/// - **macOS (Mach-O)** binds each symbol to the library the plugin was linked against (two-level
///   namespace), and a program has no install name to stand in for `@rpath/libResponderBus.dylib`.
///   So the program exports its copy (`-Xlinker -export_dynamic`: without it ld64 dead-strips a
///   program's globals that no code of its own uses) and the plugin library is linked
///   `-Xlinker -flat_namespace` (the templates `new-plugin` writes do it), so that dyld looks its
///   symbols up in load order, the program first, as ELF does. The plugin's own
///   `libResponderBus.dylib` must be beside it and is loaded unused. Written from dyld's and
///   ld64's sources and documentation; not run on a Mac (README, "Platforms").
///
/// When the library it needs cannot be found, the error says so, where the loader looked and what
/// to do.
public enum PluginLibrary {
    /// The file name of the plugin library `name` as SwiftPM builds it here: `lib<name>.so` on
    /// Linux, `lib<name>.dylib` on macOS.
    public static func fileName(forPlugin name: String) -> String {
        LoadedImages.libraryFile(name)
    }

    /// A plugin library's file name in messages: `lib<Name>.so` (Linux), `lib<Name>.dylib` (macOS).
    static let namePattern = fileName(forPlugin: "<Name>")

    /// The ResponderBus library a plugin library needs: `libResponderBus.so`, `libResponderBus.dylib`.
    static let responderBusLibrary = fileName(forPlugin: "ResponderBus")

    /// Loads the library at `path` and makes one plugin of it.
    ///
    /// - Parameter path: the library's path (``fileName(forPlugin:)``).
    /// - Throws: ``PluginLoadError`` with what to do (see ``PluginLibrary``).
    public static func plugin(_ path: String) throws(PluginLoadError) -> any ResponderPlugin {
        try load(path).make()
    }

    /// Loads the library at `path`, checks it, and returns what makes its plugins (one per bus:
    /// `responder-bus test` gives each session a fresh instance). One plugin is made and checked
    /// here, so a library whose entry point makes no plugin is refused at once.
    ///
    /// - Parameter path: the library's path (``fileName(forPlugin:)``).
    /// - Throws: ``PluginLoadError`` with what to do (see ``PluginLibrary``).
    public static func load(_ path: String) throws(PluginLoadError) -> PluginFactory {
        let absolute = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
        // The file the path leads to, symbolic links resolved, opened once: what is checked is what
        // is loaded, so nothing can be swapped in between.
        guard let resolvedPointer = realpath(absolute, nil) else {
            let reason = String(cString: strerror(errno))
            throw PluginLoadError(
                message:
                    "cannot load plugin '\(path)': \(reason); build the plugin package with `swift build` and pass its .build/debug/\(namePattern)"
            )
        }
        let resolved = String(cString: resolvedPointer)
        free(resolvedPointer)
        // Without waiting: a named pipe would wait for a writer forever; it is refused below.
        let descriptor = open(resolved, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw PluginLoadError(
                message:
                    "cannot load plugin '\(path)': \(reason); build the plugin package with `swift build` and pass its .build/debug/\(namePattern)"
            )
        }
        // Kept open while the library is loaded; closed once the loader holds its own mapping.
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw PluginLoadError(message: "cannot load plugin '\(path)': not a regular file; pass the plugin's \(namePattern)")
        }
        if let problem = FileOwnership.problem(with: info, path: path) {
            throw PluginLoadError(message: "refusing to load plugin '\(path)': \(problem)")
        }
        try checkFolders(of: resolved, plugin: path)
        // Loaded by its resolved path, not through the descriptor (a path naming an open one): the
        // library finds its own dependencies (libResponderBus) through its run path, its real folder. No
        // one else can swap it meanwhile (the folders are the caller's or root's, and others
        // cannot write them); what was mapped is compared with what was checked all the same.
        guard let handle = dlopen(resolved, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
            throw PluginLoadError(message: notLoaded(path, resolved: resolved, reason: reason))
        }
        if let mapped = LoadedImages.inode(ofImageLoadedFrom: resolved), mapped != UInt64(info.st_ino) {
            throw PluginLoadError(message: "refusing to use plugin '\(path)': the file was replaced while it was being loaded")
        }
        let entry = try entryPoints(in: handle, path: path, resolved: resolved)
        let factory = PluginFactory(
            path: path, entry: entry.make, makeSymbol: entry.makeName,
            carriesResponderBus: carriesOwnResponderBus(handle, resolved: resolved))
        _ = try factory.make()
        return factory
    }

    /// The library's entry points (see `PluginABI`): the version and make symbols of the
    /// library's name, read from `path`'s file name or else `resolved`'s, or else the unnamed ones;
    /// the version checked.
    private static func entryPoints(in handle: PluginEntryPoints.Library, path: String, resolved: String) throws(PluginLoadError) -> (
        make: PluginEntryPoints.Make, makeName: String
    ) {
        var names: [String] = []
        for name in [path, resolved].compactMap(PluginABI.libraryName(ofFile:)) where !names.contains(name) { names.append(name) }
        let named = names.map { (version: PluginABI.versionSymbol(forLibrary: $0), make: PluginABI.makeSymbol(forLibrary: $0)) }
        for symbols in named + [(version: PluginABI.versionSymbol, make: PluginABI.makeSymbol)] {
            guard let versionSymbol = dlsym(handle, symbols.version) else { continue }
            let version = PluginEntryPoints.version(at: versionSymbol)()
            guard version == PluginABI.version else {
                throw PluginLoadError(
                    message:
                        "'\(path)' was built for plugin API version \(version), but this responder-bus speaks version \(PluginABI.version); rebuild the plugin against this ResponderBus"
                )
            }
            guard let make = dlsym(handle, symbols.make) else {
                throw PluginLoadError(
                    message:
                        "'\(path)' declares plugin API version \(version) (\(symbols.version)) but exports no \(symbols.make); add the entry point `responder-bus new-plugin` writes"
                )
            }
            return (PluginEntryPoints.make(at: make), symbols.make)
        }
        let looked = (named.map(\.version) + [PluginABI.versionSymbol]).joined(separator: " nor ")
        let renamed =
            named.isEmpty
            ? " (its file is not named \(namePattern), so the loader looked for no named entry points)"
            : " (the loader reads the plugin's name from the file's, \(namePattern): keep the name `swift build` gave it)"
        throw PluginLoadError(
            message: "'\(path)' is not a ResponderBus plugin: it exports no \(looked)\(renamed); write plugins with `responder-bus new-plugin`")
    }

    /// Why `dlopen` refused the library at `path`, from its `reason`, with what to do: a library it
    /// needs that the loader did not find (`libResponderBus` above all: a program that provides
    /// no ResponderBus of its own) is named with where the loader looked.
    static func notLoaded(_ path: String, resolved: String, reason: String) -> String {
        guard let missing = LoadedImages.missingLibrary(inLoadError: reason) else {
            return "cannot load plugin '\(path)': not a loadable library (\(reason)); pass the \(namePattern) that `swift build` made"
        }
        let folder = resolved.lastIndex(of: "/").map { resolved[..<$0].isEmpty ? "/" : String(resolved[..<$0]) } ?? "."
        #if canImport(Darwin)
            let looked =
                "the loader looked in the plugin's run path (@rpath: SwiftPM gives the libraries it builds their own folder, @loader_path, '\(folder)'), in DYLD_LIBRARY_PATH and in the system's library folders"
        #else
            let looked =
                "the loader looked beside the plugin (in '\(folder)': SwiftPM gives the libraries it builds their own folder, $ORIGIN, as run path), in LD_LIBRARY_PATH and in the system's library folders"
        #endif
        guard missing == responderBusLibrary else {
            return
                "cannot load plugin '\(path)': it needs \(missing), which was not found: \(looked). Copy \(missing) beside the plugin from where it was built (a library of its package: its .build/debug or .build/release) (\(reason))"
        }
        #if canImport(Darwin)
            // A Mach-O program is never the library a plugin needs: the plugin's own must be found
            // (it binds to the program's ResponderBus all the same when linked -flat_namespace).
            return
                "cannot load plugin '\(path)': it needs \(missing), the ResponderBus library it was built with, which was not found: \(looked). Copy \(missing) from the plugin's build folder beside it (cp .build/debug/\(missing) '\(folder)/'); linked -flat_namespace, as the templates of `responder-bus new-plugin` are, the plugin still uses this program's own ResponderBus (see PluginLibrary) (\(reason))"
        #else
            return
                "cannot load plugin '\(path)': it needs \(missing), the ResponderBus library it was built with, and this program does not provide one: \(looked). Load it with `responder-bus`, which provides its own ResponderBus to the libraries it loads, wherever they are; or copy \(missing) from the plugin's build folder beside it (cp .build/debug/\(missing) '\(folder)/'); a program of your own provides its ResponderBus when linked with lld and `-Xlinker -soname=\(missing)` (see PluginLibrary) (\(reason))"
        #endif
    }

    /// ResponderPlugin's protocol descriptor: a symbol every copy of ResponderBus defines
    /// (`ResponderBusReplayTests` checks that this process finds it).
    static let responderPluginDescriptor = "$s12ResponderBus0A6PluginMp"

    /// Whether the library itself defines ResponderBus (a static copy pulled in by a library product
    /// it depends on) rather than using the one `libResponderBus` or this process has: whether the
    /// ResponderPlugin descriptor the library sees is in the library's own image.
    private static func carriesOwnResponderBus(_ handle: PluginEntryPoints.Library, resolved: String) -> Bool {
        guard let descriptor = dlsym(handle, responderPluginDescriptor) else { return false }
        return LoadedImages.path(containing: descriptor) == resolved
    }

    /// Refuses a library whose folders others could change, as ssh's `StrictModes` does: each
    /// folder from the library's up to `/` must belong to the caller or root, and must not be
    /// writable by its group or by others unless it has the sticky bit (as `/tmp` has), where only
    /// a file's owner may rename or remove it.
    private static func checkFolders(of resolved: String, plugin path: String) throws(PluginLoadError) {
        var folder = resolved
        while let slash = folder.lastIndex(of: "/") {
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
            var info = stat()
            guard stat(folder, &info) == 0 else {
                throw PluginLoadError(
                    message: "refusing to load plugin '\(path)': cannot check its folder '\(folder)': \(String(cString: strerror(errno)))")
            }
            if info.st_uid != getuid() && info.st_uid != 0 {
                throw PluginLoadError(
                    message:
                        "refusing to load plugin '\(path)': its folder '\(folder)' belongs to another user (uid \(info.st_uid)), who could swap the library; move it to a folder of yours"
                )
            }
            if info.st_mode & 0o022 != 0 && info.st_mode & S_ISVTX == 0 {
                let mode = String(info.st_mode & 0o7777, radix: 8)
                throw PluginLoadError(
                    message:
                        "refusing to load plugin '\(path)': its folder '\(folder)' is writable by \(info.st_mode & 0o002 != 0 ? "anyone" : "its group") (mode \(mode)), so others could swap the library; fix with `chmod go-w \(folder)` or move the library"
                )
            }
            if folder == "/" { break }
        }
    }

    private static func currentDirectory() -> String {
        guard let pointer = getcwd(nil, 0) else { return "." }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}

/// Makes the plugins of a loaded library (see ``PluginLibrary/load(_:)``).
public struct PluginFactory: Sendable {
    /// The library's make function (see `PluginABI`).
    typealias Entry = PluginEntryPoints.Make
    /// The path the library was loaded from, for messages.
    public let path: String
    let entry: Entry
    /// The make function's symbol, for messages.
    let makeSymbol: String
    /// Whether the library carries its own copy of ResponderBus.
    let carriesResponderBus: Bool

    /// A new plugin instance.
    ///
    /// - Throws: ``PluginLoadError`` when the entry point makes no plugin, or something that is not
    ///   a `ResponderPlugin` of this process's ResponderBus.
    public func make() throws(PluginLoadError) -> any ResponderPlugin {
        guard let pointer = entry() else {
            throw PluginLoadError(message: "'\(path)': \(makeSymbol) returned no plugin")
        }
        let object = PluginABI.plugin(from: pointer)
        guard let plugin = object as? any ResponderPlugin else {
            if carriesResponderBus {
                throw PluginLoadError(
                    message:
                        "'\(path)' carries its own copy of ResponderBus, so the \(type(of: object)) it made is not a ResponderPlugin of this responder-bus: a library product its target depends on links ResponderBus in statically (every product of the ResponderBus package does, the built-in plugins' included, except `ResponderBus` itself). In its Package.swift, let the plugin's target depend on the `ResponderBus` product alone, of the ResponderBus this binary was built from, and keep the others for the test target; to wrap or reuse a built-in plugin, build its source in the package instead of depending on its product, as `responder-bus new-plugin NAME --wrapping KeyboardAvoidance` writes it"
                )
            }
            throw PluginLoadError(
                message:
                    "'\(path)' made a \(type(of: object)), which is not a ResponderPlugin of this responder-bus; rebuild the plugin against the ResponderBus this binary was built from\(Self.bindingHint)"
            )
        }
        return plugin
    }

    /// What else to check on a system where binding to the program's ResponderBus takes a flag.
    private static var bindingHint: String {
        #if canImport(Darwin)
            "; on macOS, link it -flat_namespace as the templates of `responder-bus new-plugin` do (`linkerSettings: [.unsafeFlags([\"-Xlinker\", \"-flat_namespace\"], .when(platforms: [.macOS]))]`), so that it binds to this program's ResponderBus rather than to the libResponderBus.dylib beside it"
        #else
            ""
        #endif
    }
}
