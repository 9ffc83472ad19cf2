import ResponderBusPlatform

/// A file's path as the system has it: bytes, which need not be UTF-8 (a name with byte 0xFF is a
/// valid Linux file name). A `String` cannot hold such a name — decoding repairs the bad bytes to
/// U+FFFD, and the repaired path names no file — so a path found in a folder or given on the
/// command line is kept as bytes for opening, and ``description`` is for messages.
public struct SystemPath: Hashable, Sendable, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    /// The path of a string (its UTF-8).
    public init(_ path: String) {
        bytes = Array(path.utf8)
    }

    /// A path of bytes, cut at the first NUL if any (no path holds one).
    public init(bytes: [UInt8]) {
        self.bytes = Array(bytes.prefix { $0 != 0 })
    }

    /// The path for messages: its bytes decoded as UTF-8, a byte that is not shown as U+FFFD.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the bytes are UTF-8, so that ``description`` names the file exactly.
    public var isUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// The path joined with a name found in it (a folder's entry).
    public func appending(_ name: SystemPath) -> SystemPath {
        SystemPath(bytes: bytes + [UInt8(ascii: "/")] + name.bytes)
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    public func withCString<T>(_ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// The path a command-line argument was given as: `value` is how it was decoded (a `String`
    /// from `CommandLine.arguments` or an argument parser, with bad bytes repaired); when an
    /// argument of the process decodes to it but its bytes differ, those bytes. Otherwise `value`'s
    /// own UTF-8.
    public static func argument(_ value: String) -> SystemPath {
        let given = SystemPath(value)
        guard value.unicodeScalars.contains("\u{FFFD}") else { return given }
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let raw = SystemPath(bytes: Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))))
            if raw.description == value { return raw }
        }
        return given
    }
}
