#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a ``LogReader`` reads bytes from.
enum ByteSource {
    /// A file descriptor; closed by the reader when `owned`.
    case file(descriptor: Int32, owned: Bool)
    /// Bytes in memory.
    case memory([UInt8])

    /// Opens `path` for reading (`-` is standard input), refusing directories and what cannot be
    /// read, with a message that says what to do.
    static func open(path: String) throws(LogReadError) -> (ByteSource, size: Int?) {
        if path == "-" { return (.file(descriptor: 0, owned: false), nil) }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            let reason = String(cString: strerror(errno))
            throw LogReadError(.unreadable, line: 0, column: 0, "cannot open '\(path)': \(reason); check the path and its permissions")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw LogReadError(.unreadable, line: 0, column: 0, "cannot read '\(path)': \(reason)")
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw LogReadError(.unreadable, line: 0, column: 0, "'\(path)' is a directory, not a log file; name a .jsonl log inside it")
        }
        let isRegular = (info.st_mode & S_IFMT) == S_IFREG
        return (.file(descriptor: descriptor, owned: true), isRegular ? Int(info.st_size) : nil)
    }
}
