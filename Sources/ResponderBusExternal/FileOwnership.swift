import ResponderBusPlatform

/// The rule every file the host takes code from is held to — a plugin library, a WebAssembly
/// module, a project file's command script: no one but its owner, the caller or root, may change
/// it, or others could change the code the host runs.
package enum FileOwnership {
    /// What is wrong with the file at `path` whose status is `info`, as the end of a refusal
    /// ("refusing to load plugin 'x': …"); `nil` when nothing is.
    package static func problem(with info: stat, path: String) -> String? {
        if info.st_mode & 0o022 != 0 {
            let mode = String(info.st_mode & 0o777, radix: 8)
            return
                "it is writable by \(info.st_mode & 0o002 != 0 ? "anyone" : "its group") (mode \(mode)), so others could change the code it runs; fix with `chmod go-w \(path)`"
        }
        if info.st_uid != getuid() && info.st_uid != 0 {
            return "it belongs to another user (uid \(info.st_uid)); copy it and own the copy"
        }
        return nil
    }
}
