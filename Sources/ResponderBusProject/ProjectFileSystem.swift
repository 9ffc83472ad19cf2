import EventLog
import ResponderBusPlatform

/// Reading the file, finding it, and the paths in it.
enum ProjectFileSystem {
    /// The largest file read: 1 MiB.
    static let maximumSize = 1 << 20

    /// The error for a file over ``maximumSize``.
    static func tooLarge(_ path: String) -> ProjectFileError {
        ProjectFileError(
            path: path, line: 0, column: 0, message: "the file is larger than 1 MiB (\(maximumSize) bytes), too large for a project file")
    }

    /// The whole file, refusing folders and files over ``maximumSize``.
    static func readFile(_ path: String) throws(ProjectFileError) -> [UInt8] {
        func failure(_ code: Int32) -> ProjectFileError {
            ProjectFileError(path: path, line: 0, column: 0, message: "cannot read: " + String(cString: strerror(code)))
        }
        // Not blocking in `open` on a FIFO that has no writer; blocking reads are restored below.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw failure(errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(errno) }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR { throw failure(EISDIR) }
        if type == S_IFREG {
            if info.st_size > maximumSize { throw tooLarge(path) }
        } else {
            let flags = fcntl(descriptor, F_GETFL)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        }
        switch DescriptorIO.readAll(descriptor, maximumSize: maximumSize) {
        case .success(let bytes): return bytes
        case .failure(.error(let code)): throw failure(code)
        case .failure(.tooLarge): throw tooLarge(path)
        }
    }

    /// The current directory, or `nil` when it cannot be read.
    static func currentDirectory() -> String? {
        guard let pointer = getcwd(nil, 0) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// `path` made absolute against the current directory.
    static func absolute(_ path: String) -> String? {
        if path.hasPrefix("/") { return path }
        guard let directory = currentDirectory() else { return nil }
        return path.isEmpty ? directory : directory + "/" + path
    }

    /// The components of the absolute folder ``ProjectFile/find(from:)`` starts from, without empty
    /// ones and `.`; `..` resolved by `realpath` when the folder exists, else by dropping the
    /// component before it.
    static func searchStart(_ folder: String) -> [String]? {
        guard let absolute = absolute(folder) else { return nil }
        let parts = absolute.split(separator: "/").filter { $0 != "." }
        if parts.contains("..") {
            if let resolved = realpath(absolute, nil) {
                defer { free(resolved) }
                return String(cString: resolved).split(separator: "/").map(String.init)
            }
            var kept: [String] = []
            for part in parts {
                if part == ".." {
                    if !kept.isEmpty { kept.removeLast() }
                } else {
                    kept.append(String(part))
                }
            }
            return kept
        }
        return parts.map(String.init)
    }

    /// Whether `suffix` (after an `@`) is a position: `first`, `last`, `before:NAME`, `after:NAME`.
    static func isPosition(_ suffix: Substring) -> Bool {
        suffix == "first" || suffix == "last" || (suffix.hasPrefix("before:") && suffix.count > 7)
            || (suffix.hasPrefix("after:") && suffix.count > 6)
    }

    /// A `plugins` entry split into its path and, when its last `@` starts one, its position.
    static func splitPosition(_ entry: String) -> (path: Substring, position: Substring?) {
        guard let at = entry.lastIndex(of: "@") else { return (entry[...], nil) }
        let suffix = entry[entry.index(after: at)...]
        return isPosition(suffix) ? (entry[..<at], suffix) : (entry[...], nil)
    }

    /// What is wrong with a `plugins` entry, by the rules of `--plugin`: an `@` followed by neither
    /// a position nor something with a `/` or `.` in it is a mistaken position.
    static func pluginProblem(_ entry: String) -> String? {
        guard let at = entry.lastIndex(of: "@") else { return nil }
        let suffix = entry[entry.index(after: at)...]
        let shown = JSONMessageText.escaped(String(suffix)).text
        if isPosition(suffix) {
            return entry[..<at].isEmpty ? "the library's path before '@\(shown)' is empty" : nil
        }
        if suffix.hasPrefix("before") || suffix.hasPrefix("after") {
            return "'@\(shown)' names no plugin; write @before:NAME or @after:NAME, such as @after:KeyboardAvoidance"
        }
        if suffix.contains("/") || suffix.contains(".") { return nil }
        return "'@\(shown)' is not a position; use @first, @last, @before:NAME or @after:NAME"
    }
}
