import EventLog
import ResponderBusPlatform

/// One recorded session a suite replays.
public struct SessionInput: Hashable, Sendable {
    /// The path, as found; for messages when its name is not UTF-8 (see ``systemPath``).
    public let path: String
    /// The path to open: its bytes, which need not be UTF-8 (a file named with byte 0xFF).
    public let systemPath: SystemPath
    /// The session's name in results and reports, and where its snapshot goes under
    /// `--record-missing`: the path relative to the folder it was found in (with that folder's own
    /// name in front), or the path as given for a file.
    public let name: String

    /// A session.
    ///
    /// - Parameters:
    ///   - path: the log's path.
    ///   - name: its name in results and reports.
    public init(path: String, name: String) {
        self.path = path
        self.systemPath = SystemPath(path)
        self.name = name
    }

    /// A session at a path of bytes, named by its decoding (a byte that is not UTF-8 shown as
    /// U+FFFD).
    ///
    /// - Parameters:
    ///   - systemPath: the log's path.
    ///   - name: its name in results and reports.
    public init(systemPath: SystemPath, name: String) {
        self.path = systemPath.description
        self.systemPath = systemPath
        self.name = name
    }
}

/// Finds the sessions of a suite (`responder-bus test`'s arguments): files, folders (every
/// `*.jsonl` below them) and `-` (a list of paths on standard input, one per line).
public enum SessionList {
    /// Why an input could not be used.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        /// What went wrong, naming the input.
        public let description: String
        /// A problem with the arguments rather than with a file (exit 64, not 66).
        public var isUsage = false
    }

    /// The sessions of `arguments`, in a stable order: each argument's in the order given, a folder's
    /// sorted by path; a session named twice is kept once.
    ///
    /// - Parameters:
    ///   - arguments: files, folders, and `-` for a list of paths on standard input.
    ///   - standardInput: the lines of standard input (read when `-` is given).
    /// - Throws: ``Problem`` for an input that cannot be found or read, or two sessions that would
    ///   share a name.
    public static func collect(_ arguments: [String], standardInput: () -> [String] = readStandardInput) throws(Problem) -> [SessionInput] {
        try collect(arguments, standardInput: standardInput, foldsCase: SystemFiles.foldsCase(inFolder:))
    }

    /// ``collect(_:standardInput:)``, asking `foldsCase` whether a folder's file system compares
    /// names without regard to case.
    package static func collect(
        _ arguments: [String], standardInput: () -> [String], foldsCase: (String) -> Bool
    ) throws(Problem) -> [SessionInput] {
        var found: [SessionInput] = []
        // Paths and names compared as the bytes they are: `String` equality folds Unicode's
        // canonical forms, and `café.jsonl` in NFC and in NFD are two files, two sessions.
        var seen = Set<[UInt8]>()
        var pathOfName: [[UInt8]: String] = [:]
        // Except where the file system folds case (APFS and HFS+ by default), on which
        // `Sessions/a.jsonl` and `sessions/a.jsonl` would be one snapshot and one report: names
        // compared there as `String`s do, lowercased (APFS takes NFC and NFD spellings as one too).
        let folding = arguments.contains { foldsCase(folder(of: $0 == "-" ? "." : $0)) }
        var pathOfFoldedName: [String: String] = [:]
        var clash: Problem?
        func add(_ input: SessionInput) {
            guard seen.insert(input.systemPath.bytes).inserted else { return }
            // Names key snapshots, reports and test cases: two sessions may not share one.
            let other =
                folding
                ? pathOfFoldedName.updateValue(input.path, forKey: input.name.lowercased())
                : pathOfName.updateValue(input.path, forKey: Array(input.name.utf8))
            if let other, clash == nil {
                let why = folding ? " (this file system does not tell names apart by case)" : ""
                clash = Problem(
                    description:
                        "'\(other)' and '\(input.path)' would both be named '\(input.name)'\(why) (a folder is named by its last component); give the folders different names",
                    isUsage: true)
            }
            found.append(input)
        }
        for argument in arguments {
            if argument == "-" {
                for line in standardInput() where !line.isEmpty {
                    try add(file(line))
                }
                continue
            }
            let given = SystemPath.argument(argument)
            var info = stat()
            guard given.withCString({ stat($0, &info) }) == 0 else {
                throw Problem(description: "\(argument): \(String(cString: strerror(errno)))")
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                let root = argument.hasSuffix("/") && argument.count > 1 ? String(argument.dropLast()) : argument
                let rootPath = SystemPath.argument(root)
                let label = root.split(separator: "/").last.map(String.init) ?? root
                for relative in try walk(rootPath).sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }) {
                    let name = relative.description
                    add(SessionInput(systemPath: rootPath.appending(relative), name: label == "." ? name : label + "/" + name))
                }
            } else {
                try add(file(argument))
            }
        }
        if let clash { throw clash }
        return found
    }

    /// The folder an argument names, or holds: a folder itself, else the file's folder.
    private static func folder(of argument: String) -> String {
        var info = stat()
        if stat(argument, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return argument }
        guard let slash = argument.lastIndex(of: "/") else { return "." }
        return slash == argument.startIndex ? "/" : String(argument[..<slash])
    }

    private static func file(_ path: String) throws(Problem) -> SessionInput {
        let systemPath = SystemPath.argument(path)
        var info = stat()
        guard systemPath.withCString({ stat($0, &info) }) == 0 else { throw Problem(description: "\(path): \(String(cString: strerror(errno)))") }
        var name = path
        while name.hasPrefix("./") { name.removeFirst(2) }
        return SessionInput(systemPath: systemPath, name: name)
    }

    /// The paths of the `*.jsonl` files below `folder`, relative to it, as bytes (a name need not
    /// be UTF-8). Symbolic links to folders are not followed, so a loop of links cannot hang the
    /// walk.
    private static func walk(_ folder: SystemPath) throws(Problem) -> [SystemPath] {
        var result: [SystemPath] = []
        var pending: [SystemPath?] = [nil]
        let suffix = Array(".jsonl".utf8)
        while let relative = pending.popLast() {
            let path = relative.map { folder.appending($0) } ?? folder
            guard let directory = path.withCString({ opendir($0) }) else {
                throw Problem(description: "\(path): \(String(cString: strerror(errno)))")
            }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { SystemPath(bytes: Array($0)) }
                if name.bytes.first == UInt8(ascii: ".") { continue }
                let child = relative.map { $0.appending(name) } ?? name
                var info = stat()
                guard folder.appending(child).withCString({ lstat($0, &info) }) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: pending.append(child)
                case S_IFREG, S_IFLNK:
                    if name.bytes.count > suffix.count && name.bytes.suffix(suffix.count).elementsEqual(suffix) { result.append(child) }
                default: continue
                }
            }
        }
        return result
    }

    /// Standard input's lines.
    public static func readStandardInput() -> [String] {
        var lines: [String] = []
        while let line = readLine(strippingNewline: true) { lines.append(line) }
        return lines
    }
}

/// `--shard I/N`: the share of the sessions runner I of N takes.
///
/// A session goes to the shard its name hashes to (64-bit FNV-1a, the same on every machine and
/// every run), so the N shards partition any corpus exactly, whatever order its paths are given
/// in, with no coordination between runners. Shards are balanced on average, not exactly.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    /// Which shard, from 1.
    public let index: Int
    /// How many shards.
    public let count: Int

    /// Reads `I/N` (1 ≤ I ≤ N ≤ 100000).
    ///
    /// - Parameter text: `I/N`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, count <= 100_000, index >= 1, index <= count
        else { return nil }
        self.index = index
        self.count = count
    }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }

    /// Whether `input` is in this shard.
    ///
    /// - Parameter input: a session.
    public func contains(_ input: SessionInput) -> Bool {
        Int(Self.hash(input.name) % UInt64(count)) == index - 1
    }

    /// 64-bit FNV-1a of the UTF-8 bytes.
    ///
    /// - Parameter text: a session's name.
    public static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
