#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plugin's process and the processes it started: a wrapper (a shell script that does not
/// `exec`, `swift run`, `uv run`) leaves the real plugin as its child, which must end with it.
///
/// The plugin shares the host's process group and session (a session of its own would be a
/// scheduling group of its own), so the tree is found through Linux's
/// `/proc/PID/task/TID/children` lists; where there are none (another system, or a kernel without
/// them), only the plugin's own process is killed.
enum ProcessTree {
    /// Sends SIGKILL to `root` and to every descendant it has now, found before the first kill (a
    /// killed wrapper's children are adopted by another process and can no longer be found).
    static func killAll(_ root: pid_t) {
        let tree = [root] + descendants(of: root)
        for member in tree { _ = kill(member, SIGKILL) }
    }

    /// Every process below `root`, parents before their children.
    static func descendants(of root: pid_t) -> [pid_t] {
        var found: [pid_t] = []
        var queue = [root]
        while let parent = queue.popLast(), found.count < 10_000 {
            let children = self.children(of: parent)
            found += children
            queue += children
        }
        return found
    }

    /// The children of `parent`, from the `children` list of each of its threads.
    private static func children(of parent: pid_t) -> [pid_t] {
        guard let tasks = opendir("/proc/\(parent)/task") else { return [] }
        defer { closedir(tasks) }
        var children: [pid_t] = []
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let thread = Int32(name) else { continue }
            children += readPIDs("/proc/\(parent)/task/\(thread)/children")
        }
        return children
    }

    private static func readPIDs(_ path: String) -> [pid_t] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            text += chunk[..<count]
        }
        return text.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") })
            .compactMap { pid_t(String(decoding: $0, as: UTF8.self)) }
    }
}
