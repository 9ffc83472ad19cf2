import CLibUV
import CSignalCleanup
import ResponderBusPlatform

/// How the child ended, as libuv's exit callback told it.
struct ChildExit {
    var exited = false
    /// Whether the status is known (not when another part of the host reaped the process).
    var known = true
    /// Its exit status, when it exited.
    var status: Int64 = 0
    /// The signal that ended it, or 0.
    var signal: Int32 = 0
}

/// When a plugin's process has ended, and what is left of its process group: through
/// ``PluginProcessHandles/exit`` and ``PluginProcessHandles/pid`` alone.
extension PluginProcessHandles {
    /// libuv's words for an error code ("no such file or directory").
    static func describe(_ code: Int32) -> String {
        // libuv's codes are negated errno values on Unix; strerror's words are the system's own.
        code < 0 && code > -4000 ? String(cString: strerror(-code)) : String(cString: uv_strerror(code))
    }

    /// Whether the process has ended. libuv learns of it through SIGCHLD; where no thread of the
    /// host lets that signal in (a process started from a Dispatch worker thread inherits a mask
    /// that blocks it), it is reaped here instead, and libuv's own `waitpid` later finds nothing.
    /// A process another part of the host reaped counts as ended, with its status unknown.
    ///
    /// Its process group is killed before it is reaped here (see ``endGroup(of:)``).
    func checkExit() -> Bool {
        guard !exit.exited, pid > 0 else { return exit.exited }
        // Look without reaping first: while the leader is a zombie its id cannot be reused, so
        // the group it names is certainly still the plugin's.
        if SystemProcess.childHasExited(pid) {
            Self.endGroup(of: pid)
        }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid {
            let signal = status & 0x7f
            exit = ChildExit(exited: true, status: Int64((status >> 8) & 0xff), signal: signal)
        } else if reaped < 0 && errno == ECHILD {
            exit = ChildExit(exited: true, known: false)
            // libuv's exit callback ends the group when libuv reaped it; another part of the host
            // did here, and the group may still hold the plugin's children.
            Self.endGroup(of: pid)
        }
        return exit.exited
    }

    /// Kills what is left of the process group `leader` led, once the leader has exited: the
    /// plugin's children, a wrapper script's background jobs. The group ends with the plugin,
    /// always — a plugin that exits or crashes leaves nothing running, and `test`, which starts a
    /// plugin per session, leaks nothing in proportion to a corpus.
    ///
    /// Why killing `-leader` after the leader has exited is safe (it cannot hit an unrelated
    /// group): Linux does not hand out a process id while any process still uses it as its
    /// process group id (or session id), and the leader's zombie holds its id until it is reaped.
    /// So as long as one member of the group lives, `-leader` names that group and no other;
    /// when none lives, the kill finds nothing (`ESRCH`) — unless the id has since been reused
    /// by a new process that made itself a group leader, which takes the kernel's allocator
    /// going all the way round the id space. That is why the group is killed at the moment the
    /// exit is noticed and never later: before reaping (``checkExit()``, with `WNOWAIT`), or in
    /// libuv's exit callback right after its `waitpid` returned, microseconds later.
    static func endGroup(of leader: pid_t) {
        guard leader > 0 else { return }
        kill(-leader, SIGKILL)
        rb_cleanup_forget_group(leader)
    }
}
