import ResponderBusPlatform

/// A log followed by name (`replay --follow`, `LogFollower`), opened once and compared with what its name now points at.
package final class FollowedFile {
    /// The path followed.
    package let path: String
    /// The descriptor it was opened with.
    package let descriptor: Int32
    private let device: UInt64
    private let inode: UInt64
    /// Whether it is a named pipe (FIFO): read as its writers write, never truncated, and opened
    /// without waiting for a writer.
    package let isPipe: Bool

    /// Opens `path`; `nil` when there is nothing there (yet).
    package init?(path: String) {
        var named = stat()
        let isPipe = stat(path, &named) == 0 && (named.st_mode & S_IFMT) == S_IFIFO
        // A FIFO opened for reading without O_NONBLOCK waits for a writer, on the loop's thread.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (isPipe ? O_NONBLOCK : 0))
        guard descriptor >= 0 else { return nil }
        self.isPipe = isPipe
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else {
            close(descriptor)
            return nil
        }
        self.path = path
        self.descriptor = descriptor
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    deinit {
        close(descriptor)
    }

    /// What happened to the file since it was opened, given how much of it was read.
    package enum Change {
        /// Nothing but appends (or nothing at all).
        case none
        /// It is shorter than what was read: emptied, or rewritten from the start.
        case truncated
        /// The name now points at another file (log rotation: `mv` and a new file).
        case replaced
        /// Nothing is at the name.
        case deleted
    }

    /// What happened to the file since it was opened, `consumed` bytes of it read.
    package func change(consumed: Int) -> Change {
        var named = stat()
        guard stat(path, &named) == 0 else { return .deleted }
        if UInt64(named.st_dev) != device || UInt64(named.st_ino) != inode { return .replaced }
        var opened = stat()
        if !isPipe, fstat(descriptor, &opened) == 0, Int(opened.st_size) < consumed { return .truncated }
        return .none
    }

    /// Whether the file's first line is complete (a header can be read), or too long to wait for.
    /// A FIFO cannot be read ahead of its reader: it is ready once its writer has written something.
    package func hasFirstLine() -> Bool {
        if isPipe {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            return poll(&ready, 1, 0) > 0 && ready.revents & Int16(POLLIN) != 0
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        while offset < 1 << 20 {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            if count <= 0 { return false }
            if buffer[0..<count].contains(0x0A) { return true }
            offset += count
        }
        return true
    }
}
