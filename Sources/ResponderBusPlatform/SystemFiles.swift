/// File and descriptor calls that differ between Linux and Darwin: waiting on a descriptor (Darwin's
/// `poll` cannot wait on a terminal), a folder's case folding (APFS and HFS+ fold case by default),
/// a write that must not raise SIGPIPE (Darwin raises it on the process), and reading a system
/// file line by line (Linux's `/proc`).
///
/// Invariants (the platform layer's audited part): an array or `fd_set` is lent to one call for the
/// length of that call; a C string `getline` returns is copied into a `String` before the next call
/// and freed once. Any thread: nothing is kept between calls.
package enum SystemFiles {
    /// Waits until `descriptor` can be read (or, `forWriting`, written) without blocking, or has
    /// ended or failed; returns at once when the descriptor is not valid.
    ///
    /// `poll(2)`; on Darwin, a descriptor `poll` does not support (a terminal or another device:
    /// `POLLNVAL`, at once) is waited on with `select(2)`, which does, rather than counted as ready
    /// (a caller that reads again on "ready" would spin).
    package static func waitUntilReady(_ descriptor: Int32, forWriting: Bool = false) {
        let event = Int16(forWriting ? POLLOUT : POLLIN)
        var entry = pollfd(fd: descriptor, events: event, revents: 0)
        while poll(&entry, 1, -1) < 0 && errno == EINTR {}
        #if canImport(Darwin)
            if entry.revents & Int16(POLLNVAL) != 0, fcntl(descriptor, F_GETFL) >= 0 {
                selectUntilReady(descriptor, forWriting: forWriting)
            }
        #endif
    }

    #if canImport(Darwin)
        /// `select(2)` on one descriptor: Darwin's `fd_set` is 32 words of 32 bits (`FD_SETSIZE`,
        /// 1024 descriptors), `FD_SET` sets bit `fd % 32` of word `fd / 32`. A descriptor beyond
        /// the set is given a millisecond instead.
        private static func selectUntilReady(_ descriptor: Int32, forWriting: Bool) {
            guard descriptor >= 0, descriptor < FD_SETSIZE else {
                usleep(1000)
                return
            }
            var set = fd_set()
            withUnsafeMutableBytes(of: &set) { raw in
                let words = raw.bindMemory(to: Int32.self)
                words[Int(descriptor / 32)] |= Int32(bitPattern: UInt32(1) << UInt32(descriptor % 32))
            }
            if forWriting {
                _ = select(descriptor + 1, nil, &set, nil, nil)
            } else {
                _ = select(descriptor + 1, &set, nil, nil, nil)
            }
        }
    #endif

    /// Makes a write to `descriptor` (a pipe's write end) whose reader has gone fail with `EPIPE`
    /// without raising SIGPIPE, where the system marks that on the descriptor: Darwin raises a
    /// pipe's SIGPIPE on the whole process (any thread that does not block it takes it, and by
    /// default it ends the process), unless the descriptor has `F_SETNOSIGPIPE`. Linux raises it on
    /// the writing thread, which blocks it while it writes (`CPluginPipes`): nothing to do here.
    /// Whether the mark was set.
    @discardableResult
    package static func raiseNoSigPipe(onWritesTo descriptor: Int32) -> Bool {
        #if canImport(Darwin)
            return fcntl(descriptor, F_SETNOSIGPIPE, 1) == 0
        #else
            return false
        #endif
    }

    /// Whether names in the folder at `path` are compared without regard to case, so that
    /// `Out.html` and `out.html` are one file: Darwin asks the volume (`pathconf`'s
    /// `_PC_CASE_SENSITIVE`; APFS and HFS+ fold case unless formatted case-sensitive). Linux file
    /// systems are taken as case-sensitive (a folder with ext4's casefold attribute, or a FAT or
    /// SMB mount, is not told apart). `false` when the folder cannot be asked.
    package static func foldsCase(inFolder path: String) -> Bool {
        #if canImport(Darwin)
            return pathconf(path, _PC_CASE_SENSITIVE) == 0
        #else
            return false
        #endif
    }

    /// `path` with its symbolic links resolved (`realpath`), or `path` itself when it cannot be.
    /// Darwin's temporary folders are under `/var`, a link to `/private/var`: what a program
    /// resolves and prints is the latter.
    package static func resolvedPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether the file system of the folder at `path` takes a file name that is not UTF-8 (Linux's
    /// take any bytes but `/` and NUL; APFS refuses one with `EILSEQ`): tried with a file made and
    /// removed at once.
    package static func acceptsNonUTF8Names(inFolder path: String) -> Bool {
        let name = Array(path.utf8) + Array("/.responder-bus-name-probe-".utf8) + [0xFF] + Array(String(getpid()).utf8) + [0]
        let made = name.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        }
        guard made >= 0 else { return false }
        close(made)
        _ = name.withUnsafeBufferPointer { bytes in bytes.withMemoryRebound(to: CChar.self) { unlink($0.baseAddress!) } }
        return true
    }

    /// The first line of the file at `path`, without its line break; `nil` when it cannot be read.
    package static func firstLine(ofFile path: String) -> String? {
        var first: String?
        _ = forEachLine(ofFile: path) { line in
            if first == nil { first = String(line.prefix { $0 != "\n" }) }
        }
        return first
    }

    /// Calls `body` with each line of the file at `path` (with its line break), read with
    /// `getline`; `false` when the file cannot be opened.
    package static func forEachLine(ofFile path: String, _ body: (String) -> Void) -> Bool {
        guard let file = fopen(path, "r") else { return false }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            body(String(cString: line))
        }
        return true
    }
}
