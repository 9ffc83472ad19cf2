import ResponderBusPlatform

/// Where a ``LogReader`` reads bytes from.
enum ByteSource {
    /// A file descriptor; closed by the reader when `owned`.
    case file(descriptor: Int32, owned: Bool)
    /// Bytes in memory.
    case memory([UInt8])

    /// Opens `path` for reading (`-` is standard input), refusing directories, devices that never
    /// end (`/dev/zero`, `/dev/urandom`; a terminal is read) and what cannot be read, with a message
    /// that says what to do.
    static func open(path: SystemPath) throws(LogReadError) -> (ByteSource, size: Int?) {
        let standardInput = path.bytes == [UInt8(ascii: "-")]
        let name = standardInput ? "standard input" : "'\(path)'"
        let descriptor = standardInput ? 0 : path.withCString { ResponderBusPlatform.open($0, O_RDONLY | O_CLOEXEC) }
        if descriptor < 0 {
            let reason = String(cString: strerror(errno))
            throw LogReadError(.unreadable, line: 0, column: 0, "cannot open '\(path)': \(reason); check the path and its permissions")
        }
        let owned = !standardInput
        func refuse(_ message: String) -> LogReadError {
            if owned { close(descriptor) }
            return LogReadError(.unreadable, line: 0, column: 0, message)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw refuse("cannot read \(name): \(String(cString: strerror(errno)))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            throw refuse("\(name) is a directory, not a log file; name a .jsonl log inside it")
        case S_IFCHR where isatty(descriptor) == 0, S_IFBLK:
            throw refuse("\(name) is a device, not a log file; name a .jsonl log")
        default:
            let isRegular = (info.st_mode & S_IFMT) == S_IFREG
            return (.file(descriptor: descriptor, owned: owned), isRegular ? Int(info.st_size) : nil)
        }
    }
}
