import ResponderBus
import ResponderBusExternal
import ResponderBusPlatform
import WasmKit

/// A WebAssembly plugin module, read and checked once: what `--plugin plugin.wasm` loads. Each
/// replay makes a plugin of its own from it (``makePlugin()``), on a fresh instance, so that no
/// state is shared between sessions; a module can be shared between threads.
///
/// Loading checks everything that can be checked before a replay: the bytes are WebAssembly, every
/// import is one of the host's functions (``WasmPluginABI/imports``, no WASI), the ABI's exports are
/// there with their types, the ABI version matches, the memory it declares is within the sandbox's
/// ceiling, and its handshake names it. Each failure is a ``WasmPluginError`` naming what is wrong.
///
/// ```swift
/// let module = try WasmPluginModule(contentsOf: "keyboard_noise.wasm")
/// try bus.register(try module.makePlugin())
/// ```
public final class WasmPluginModule: Sendable {
    /// Where it was read from (or the label it was given).
    public let path: String
    /// The limits each of its plugins runs within.
    public let sandbox: WasmSandbox
    /// The name its handshake gave.
    public let name: String
    /// Where its handshake asked to sit; `nil` for the end.
    public let preferredPosition: PluginPosition?
    /// The events it asked for.
    public let observedEvents: [AnyEventName]
    /// The module's size in bytes.
    public let byteCount: Int
    private let module: Module

    /// The largest module accepted: 64 MiB.
    public static let maximumSize = 64 << 20

    /// Reads the module at `path` and checks it.
    ///
    /// - Parameters:
    ///   - path: the `.wasm` file.
    ///   - sandbox: the limits its plugins run within.
    /// - Throws: ``WasmPluginError`` naming what is wrong.
    public convenience init(contentsOf path: String, sandbox: WasmSandbox = WasmSandbox()) throws(WasmPluginError) {
        try self.init(bytes: try Self.read(path), path: path, sandbox: sandbox)
    }

    /// Checks the module in `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: the module's bytes.
    ///   - path: how messages name it.
    ///   - sandbox: the limits its plugins run within.
    /// - Throws: ``WasmPluginError`` naming what is wrong.
    public init(bytes: [UInt8], path: String, sandbox: WasmSandbox = WasmSandbox()) throws(WasmPluginError) {
        let label = "WebAssembly plugin '\(path)'"
        guard bytes.count >= 8, bytes.prefix(4).elementsEqual([0, 0x61, 0x73, 0x6d]) else {
            throw WasmPluginError(
                .notWebAssembly,
                "\(label) is not a WebAssembly module: it does not begin with the bytes \\0asm (a .wasm file from clang --target=wasm32 or swiftc -target wasm32-unknown-none-wasm does)"
            )
        }
        guard bytes.count <= Self.maximumSize else {
            throw WasmPluginError(.notWebAssembly, "\(label) is \(bytes.count) bytes; the largest module accepted is \(Self.maximumSize) bytes")
        }
        let module: Module
        do {
            module = try parseWasm(bytes: bytes)
        } catch {
            throw WasmPluginError(.notWebAssembly, "\(label) is not a valid WebAssembly module: \(error)")
        }
        let offered = Set(WasmPluginABI.imports.map(\.name))
        for entry in module.imports {
            let spelled = "\(entry.module).\(entry.name)"
            guard entry.module == WasmPluginABI.importModule, offered.contains(entry.name) else {
                let why =
                    entry.module.hasPrefix("wasi")
                    ? "the sandbox offers no WASI: no files, no clock, no network"
                    : "the host offers only rb.\(WasmPluginABI.imports.map(\.name).joined(separator: ", rb."))"
                throw WasmPluginError(.unsupportedImport, "\(label) imports '\(spelled)', which the host does not offer; \(why)")
            }
            guard case .function = entry.descriptor else {
                throw WasmPluginError(.unsupportedImport, "\(label) imports '\(spelled)' as something other than a function")
            }
        }
        // Instantiated once here: the exports, the version, the memory and the handshake are
        // checked before any replay.
        let probe = try GuestInstance(module: module, label: label, sandbox: sandbox)
        self.path = path
        self.sandbox = sandbox
        self.module = module
        byteCount = bytes.count
        name = probe.hello.name
        preferredPosition = probe.hello.position
        observedEvents = probe.hello.events.compactMap(WasmPluginABI.event(ofKind:))
    }

    /// A new plugin of this module, on a fresh instance.
    ///
    /// - Throws: ``WasmPluginError`` when the instance cannot be made (it could at load).
    public func makePlugin() throws(WasmPluginError) -> WasmPlugin {
        try WasmPlugin(module: self)
    }

    /// A fresh instance, its handshake run.
    func instantiate() throws(WasmPluginError) -> GuestInstance {
        try GuestInstance(module: module, label: "WebAssembly plugin '\(path)'", sandbox: sandbox)
    }

    /// The bytes of the file at `path`: a regular file that no one but its owner (the caller or
    /// root) can change, as a plugin library must be.
    ///
    /// Opened without waiting (a named pipe would wait for a writer forever), then checked before
    /// anything is read.
    static func read(_ path: String) throws(WasmPluginError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw WasmPluginError(.unreadable, "cannot read WebAssembly plugin '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw WasmPluginError(.unreadable, "cannot read WebAssembly plugin '\(path)': not a regular file; pass the module's .wasm file")
        }
        if let problem = FileOwnership.problem(with: info, path: path) {
            throw WasmPluginError(.unreadable, "refusing to load WebAssembly plugin '\(path)': \(problem)")
        }
        // A regular file never blocks; reads go on as usual.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = ResponderBusPlatform.read(descriptor, &chunk, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw WasmPluginError(.unreadable, "cannot read WebAssembly plugin '\(path)': \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
            if bytes.count > maximumSize { break }
        }
        return bytes
    }
}
