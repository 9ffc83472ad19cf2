/// Why a WebAssembly module cannot be used as a plugin: exit 78 on the command line.
public struct WasmPluginError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Code: Hashable, Sendable {
        /// The file cannot be read.
        case unreadable
        /// It is not a WebAssembly module, or not a valid one.
        case notWebAssembly
        /// It imports something the host does not offer (a WASI function, say).
        case unsupportedImport
        /// It lacks an export the ABI needs, or one has the wrong type.
        case missingExport
        /// It was built for another version of the ABI.
        case versionMismatch
        /// Its handshake failed or gave no usable name.
        case handshake
        /// It declares more memory than the sandbox allows.
        case memoryLimit
        /// The engine could not instantiate it.
        case instantiation
    }

    /// What is wrong.
    public var code: Code
    /// What is wrong, in words, naming the module.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
