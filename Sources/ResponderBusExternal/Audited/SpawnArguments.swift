import CLibUV
import ResponderBusPlatform

/// The C strings `uv_spawn` reads: the command and its arguments as a `NULL`-terminated `argv`,
/// and the working directory, each copied with `strdup`.
///
/// Invariants (the audited layer): the copies are made in `init` and freed in `deinit`, once
/// (the type is `~Copyable`); they are lent only through ``withOptions(_:)``, whose options must
/// not outlive its closure. `uv_spawn` reads them before it returns (the child has exec'd or
/// failed by then), so nothing of them is kept. Used on the thread that spawns.
struct SpawnArguments: ~Copyable {
    private let argv: [UnsafeMutablePointer<CChar>?]
    private let workingDirectory: UnsafeMutablePointer<CChar>?

    /// Copies `arguments` (the command first) and `workingDirectory` (the host's when `nil`).
    init(_ arguments: [String], workingDirectory: String?) {
        argv = arguments.map { strdup($0) } + [nil]
        self.workingDirectory = workingDirectory.flatMap { strdup($0) }
    }

    deinit {
        for argument in argv { free(argument) }
        if let workingDirectory { free(workingDirectory) }
    }

    /// Lends `body` process options whose `file`, `args` and `cwd` are these strings; the rest is
    /// `body`'s to fill. What `body` returns.
    func withOptions<Result>(_ body: (inout uv_process_options_t) -> Result) -> Result {
        argv.withUnsafeBufferPointer { argv in
            var options = uv_process_options_t()
            options.file = UnsafePointer(argv[0])
            options.args = UnsafeMutablePointer(mutating: argv.baseAddress)
            if let workingDirectory { options.cwd = UnsafePointer(workingDirectory) }
            return body(&options)
        }
    }
}
