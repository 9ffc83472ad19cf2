/// What the package asks the system about processes — this one's program and memory, another's
/// state — where Linux and Darwin answer differently: Linux through `/proc`, Darwin through dyld
/// and `sysctl`.
package enum SystemProcess {
    /// The path of this process's program, symbolic links resolved; `nil` when the system does not
    /// say. Linux: `/proc/self/exe`. Darwin: `_NSGetExecutablePath`, then `realpath`.
    package static func executablePath() -> String? {
        #if canImport(Darwin)
            var size: UInt32 = 0
            _ = _NSGetExecutablePath(nil, &size)
            var buffer = [CChar](repeating: 0, count: Int(size) + 1)
            guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
            return buffer.withUnsafeBufferPointer { given in
                guard let resolved = realpath(given.baseAddress!, nil) else { return String(cString: given.baseAddress!) }
                defer { free(resolved) }
                return String(cString: resolved)
            }
        #else
            guard let resolved = realpath("/proc/self/exe", nil) else { return nil }
            defer { free(resolved) }
            return String(cString: resolved)
        #endif
    }

    /// This process's peak resident memory so far, in bytes (`getrusage`'s `ru_maxrss`: kibibytes
    /// on Linux, bytes on Darwin).
    package static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if canImport(Darwin)
            getrusage(RUSAGE_SELF, &usage)
            return usage.ru_maxrss
        #else
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return usage.ru_maxrss * 1024
        #endif
    }

    /// This process's resident memory now, in bytes; `nil` when the system does not say. Linux:
    /// `/proc/self/statm`'s second field, in pages. Darwin: `proc_pidinfo`'s `PROC_PIDTASKINFO`
    /// (not `task_info`, whose `mach_task_self_` is a C global Swift 6 refuses to read).
    package static func residentBytes() -> Int? {
        #if canImport(Darwin)
            var info = proc_taskinfo()
            let size = Int32(MemoryLayout<proc_taskinfo>.size)
            guard proc_pidinfo(getpid(), PROC_PIDTASKINFO, 0, &info, size) == size else { return nil }
            return Int(info.pti_resident_size)
        #else
            guard let line = SystemFiles.firstLine(ofFile: "/proc/self/statm") else { return nil }
            let fields = line.split(separator: " ")
            guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
            return pages * sysconf(Int32(_SC_PAGESIZE))
        #endif
    }

    /// Whether process `pid` runs: it exists (`kill(pid, 0)`) and is not a zombie waiting to be
    /// reaped (Linux: its state in `/proc/PID/stat`; Darwin: `p_stat` from `sysctl`'s
    /// `KERN_PROC_PID`).
    package static func isRunning(_ pid: pid_t) -> Bool {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        #if canImport(Darwin)
            var info = kinfo_proc()
            var size = MemoryLayout<kinfo_proc>.stride
            var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
            guard sysctl(&name, UInt32(name.count), &info, &size, nil, 0) == 0, size > 0 else { return false }
            return Int32(info.kp_proc.p_stat) != SZOMB
        #else
            // "pid (comm) S …": the state follows the last ')'.
            guard let line = SystemFiles.firstLine(ofFile: "/proc/\(pid)/stat"), let close = line.lastIndex(of: ")"),
                let state = line[close...].dropFirst(2).first
            else { return false }
            return state != "Z" && state != "X"
        #endif
    }

    /// Whether child `pid` has exited and waits to be reaped, looked at without reaping it
    /// (`waitid` with `WNOWAIT`: while it is a zombie its id, and the group it led, cannot be
    /// reused). The exited child's id is `siginfo_t`'s `si_pid`: a field of its own on Darwin, in
    /// a union on Linux.
    package static func childHasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return false }
        #if canImport(Darwin)
            return info.si_pid == pid
        #else
            return info._sifields._sigchld.si_pid == pid
        #endif
    }
}
