import CSignalCleanup
import ResponderBusPlatform

/// Why a file a replay or a session suite writes (a recording, a report, a snapshot, JUnit) could
/// not be written, with the exit code the CLI contract gives it.
public struct OutputError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file, in one line for a person.
    public let message: String
    /// 73 when the output could not be created, 74 when a write to it failed (sysexits.h).
    public let exit: Int32

    /// Creates an error; `exit` is 73 (cannot create) or 74 (a write failed).
    public init(message: String, exit: Int32) {
        self.message = message
        self.exit = exit
    }

    /// The message.
    public var description: String { message }

    /// An output that cannot be opened or created.
    package static func cannotCreate(_ name: String, _ code: Int32) -> OutputError {
        OutputError(message: "cannot create \(name): \(String(cString: strerror(code)))", exit: 73)
    }

    /// A write, a flush, a close or the final rename that failed.
    package static func writeFailed(_ name: String, _ code: Int32) -> OutputError {
        OutputError(message: "cannot write \(name): \(String(cString: strerror(code)))", exit: 74)
    }
}

/// A file a command writes: `--record`, `--report`, `import -o`, `render -o`.
///
/// A regular file (or a path that does not exist yet) is written to a temporary file in the same
/// folder, `.NAME.XXXXXX.tmp`, and renamed into place by ``commit()`` once everything was written,
/// so that a run that fails or is killed leaves the previous file (or none), never a part that
/// looks whole. Anything else — a device such as `/dev/full` or `/dev/null`, a FIFO — is written
/// directly. A file that is read-only (no write permission in its mode, for anyone) is refused
/// (73), as `>` would refuse it, rather than replaced by the rename. After
/// ``removeTemporaryFilesOnSignals()`` (the command calls it), SIGINT, SIGTERM or SIGHUP ending
/// the process removes the temporary files being written; a run killed with SIGKILL may leave its
/// temporary file behind.
package final class OutputFile {
    /// The path as given.
    package let path: String
    /// The descriptor being written.
    package let descriptor: Int32
    /// The temporary file renamed onto ``path`` by ``commit()``, if writing through one.
    private var temporary: String?
    /// Its slot among the files a signal removes (`rb_cleanup_remember_file`), -1 when none.
    private var signalSlot: Int32 = -1
    private var closed = false

    /// How the file is named in messages.
    package var name: String { "'\(path)'" }

    /// Opens `path` for writing (through a temporary file when it is a regular file or new).
    package init(path: String) throws(OutputError) {
        self.path = path
        var info = stat()
        let exists = stat(path, &info) == 0
        if exists && (info.st_mode & S_IFMT) == S_IFDIR {
            throw OutputError(message: "cannot create '\(path)': it is a directory; give a file name", exit: 73)
        }
        if exists && (info.st_mode & S_IFMT) == S_IFREG && (access(path, W_OK) != 0 || info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) == 0) {
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw OutputError(
                message: "cannot create '\(path)': it is read-only (mode \(mode)); make it writable (chmod u+w) or choose another file", exit: 73)
        }
        if exists && (info.st_mode & S_IFMT) != S_IFREG {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .cannotCreate("'\(path)'", errno) }
            self.descriptor = descriptor
            return
        }
        let (folder, file) = Self.split(path)
        var template = Array("\(folder)/.\(file).XXXXXX.tmp".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard descriptor >= 0 else { throw .cannotCreate("'\(path)'", errno) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        // The mode a plain `open(…, 0o644)` would give, not mkstemp's 0600.
        fchmod(descriptor, 0o666 & ~Self.creationMask)
        self.descriptor = descriptor
        temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        signalSlot = template.withUnsafeBufferPointer { rb_cleanup_remember_file($0.baseAddress!) }
    }

    /// From now on, SIGINT, SIGTERM or SIGHUP ending the process removes the temporary files being
    /// written and kills the out-of-process plugins' process groups (then ends it as the signal
    /// would). Only where the signal's action is the default:
    /// an ignored signal, or one a handler takes (the live modes' libuv watch, which completes the
    /// outputs), is left as it is. For the command; a library leaves its embedder's signals alone.
    package static func removeTemporaryFilesOnSignals() {
        rb_cleanup_on_signals()
    }

    /// Closes the descriptor and, when writing through a temporary file, renames it into place.
    /// Call it once everything was written without error.
    package func commit() throws(OutputError) {
        guard !closed else { return }
        closed = true
        if close(descriptor) != 0 {
            let code = errno
            abandonTemporary()
            throw .writeFailed(name, code)
        }
        guard let temporary else { return }
        if rename(temporary, path) != 0 {
            let code = errno
            abandonTemporary()
            throw .writeFailed(name, code)
        }
        self.temporary = nil
        rb_cleanup_forget_file(signalSlot)
        signalSlot = -1
    }

    /// Closes the descriptor and removes the temporary file, leaving `path` as it was.
    package func abandon() {
        if !closed {
            closed = true
            close(descriptor)
        }
        abandonTemporary()
    }

    private func abandonTemporary() {
        if let temporary { unlink(temporary) }
        temporary = nil
        rb_cleanup_forget_file(signalSlot)
        signalSlot = -1
    }

    deinit {
        abandon()
    }

    /// The process's umask, read once: reading it means setting it (`umask(0)`, then back), which
    /// must not race with files and folders other threads create (`responder-bus test --jobs`).
    /// Read before any worker thread starts.
    package static let creationMask: mode_t = {
        let mask = umask(0)
        umask(mask)
        return mask
    }()

    /// The folder (`.` when none) and the file name of a path.
    private static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}

/// Refuses outputs that would overwrite an input or each other, before anything is opened for
/// writing.
package enum OutputClash {
    /// A file to compare: the same file when device and inode match (for one that exists), or
    /// when the resolved folder and the name match (for one that does not yet; lowercased where
    /// the folder's file system folds case, as APFS does, so `Out.html` and `out.html` are one).
    private struct Identity: Equatable {
        var device: UInt64?
        var inode: UInt64?
        var resolvedPath: String?
    }

    /// `nil` when none of `outputs` is the same file as one of `inputs` or as another output;
    /// otherwise the message naming both. Standard output (`-`) counts as an output when it is a
    /// regular file; devices (`/dev/null`) and pipes never clash.
    package static func check(inputs: [String], outputs: [String]) -> String? {
        check(inputs: inputs, outputs: outputs, foldsCase: SystemFiles.foldsCase(inFolder:))
    }

    /// ``check(inputs:outputs:)``, asking `foldsCase` whether a folder's file system compares names
    /// without regard to case.
    package static func check(inputs: [String], outputs: [String], foldsCase: (String) -> Bool) -> String? {
        var seen: [(String, Identity, isInput: Bool)] = []
        for input in inputs {
            guard let identity = identity(of: input, standard: 0, foldsCase: foldsCase) else { continue }
            seen.append((input, identity, true))
        }
        for output in outputs {
            guard let identity = identity(of: output, standard: 1, foldsCase: foldsCase) else { continue }
            if let clash = seen.first(where: { $0.1 == identity }) {
                let what = clash.isInput ? "the input \(describe(clash.0, input: true))" : "the output \(describe(clash.0, input: false))"
                return
                    "the output \(describe(output, input: false)) is the same file as \(what); writing it would destroy \(clash.isInput ? "what is being read" : "the other output"). Choose another file"
            }
            seen.append((output, identity, false))
        }
        return nil
    }

    private static func describe(_ path: String, input: Bool) -> String {
        path == "-" ? (input ? "standard input" : "standard output") : "'\(path)'"
    }

    /// The identity of a regular file (existing or not); `nil` for devices, pipes and the like.
    private static func identity(of path: String, standard: Int32, foldsCase: (String) -> Bool) -> Identity? {
        var info = stat()
        if path == "-" {
            guard fstat(standard, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
        // Not there yet: compare where it would be.
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        let file = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let resolved = realpath(folder, nil) else { return Identity(resolvedPath: path) }
        defer { free(resolved) }
        let resolvedFolder = String(cString: resolved)
        return Identity(resolvedPath: resolvedFolder + "/" + (foldsCase(resolvedFolder) ? file.lowercased() : file))
    }
}

/// Standard output, checked once at start-up: when the descriptor is closed (`>&-`), `/dev/null`
/// takes its place so that no file opened later gets descriptor 1 by accident, and writing to
/// standard output then fails with the original EBADF.
package enum StandardOutput {
    /// Whether descriptor 1 was closed at start-up. Reading it the first time checks descriptors
    /// 0, 1 and 2 and gives a closed one `/dev/null`: commands read it before opening anything.
    package static let wasClosed: Bool = {
        var stdoutClosed = false
        for descriptor: Int32 in [0, 1, 2] where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
            if descriptor == 1 { stdoutClosed = true }
            let null = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            if null >= 0 && null != descriptor {
                dup2(null, descriptor)
                close(null)
            }
        }
        return stdoutClosed
    }()
}
