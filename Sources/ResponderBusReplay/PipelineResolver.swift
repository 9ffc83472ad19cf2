import ResponderBusExternal
import ResponderBusPlatform
import Synchronization

/// Finds the pipeline for sessions in a folder: the nearest project file's (`ProjectFile`), with
/// the caller's own description over it — what `responder-bus replay`, `test` and `render` do with
/// their pipeline options, so that a folder of sessions carries its own pipeline.
///
/// Each project file is read, checked and made ready (its libraries loaded) once, however many
/// sessions it applies to; its warnings (unknown keys) are handed to
/// ``init(overrides:choice:commandTimeout:commandFailure:warn:unknownKeysFail:)``'s `warn` once
/// (or fail it, with `unknownKeysFail`). Safe to share between threads.
///
/// ```swift
/// let resolver = PipelineResolver(overrides: PipelineDescription(disabled: ["FieldAdvancing"]))
/// let pipeline = try resolver.pipeline(forSessionsIn: "sessions/checkout")
/// ```
public final class PipelineResolver: Sendable {
    /// Which project file applies.
    public enum Choice: Sendable, Hashable {
        /// The nearest `.responder-bus.json`: the sessions' folder's, then its parents'.
        case nearest
        /// This file, for every folder.
        case file(String)
        /// None: the overrides alone describe the pipeline.
        case none
    }

    /// The description that wins over a project file where it says something.
    public let overrides: PipelineDescription
    /// Which project file applies.
    public let choice: Choice
    private let commandTimeout: Duration?
    private let commandFailure: ExternalPlugin.FailureMode?
    private let warn: @Sendable (String) -> Void
    private let unknownKeysFail: Bool
    /// Made ready, by project file path ("" for none).
    private let cache = Mutex<[String: Result<ReplayPipeline, PipelineError>]>([:])

    /// A resolver.
    ///
    /// - Parameters:
    ///   - overrides: what wins over a project file (the command line's options).
    ///   - choice: which project file applies.
    ///   - commandTimeout: a timeout for the project file's commands too (`--plugin-timeout`).
    ///   - commandFailure: a failure policy for the project file's commands and WebAssembly
    ///     plugins too (`--plugin-failure`).
    ///   - warn: called once per project file with each of its warnings.
    ///   - unknownKeysFail: whether a key the project file does not know (a typo such as
    ///     `keyboardDistanse`, or a plugin's key at the top level) makes the file unusable, a
    ///     ``PipelineError`` (exit 78) with its warnings, rather than a warning: what a test suite
    ///     wants, so that a typo cannot pass CI with a default in its place.
    public init(
        overrides: PipelineDescription = PipelineDescription(), choice: Choice = .nearest, commandTimeout: Duration? = nil,
        commandFailure: ExternalPlugin.FailureMode? = nil, warn: @escaping @Sendable (String) -> Void = { _ in },
        unknownKeysFail: Bool = false
    ) {
        self.overrides = overrides
        self.choice = choice
        self.commandTimeout = commandTimeout
        self.commandFailure = commandFailure
        self.warn = warn
        self.unknownKeysFail = unknownKeysFail
    }

    /// The path of the project file that applies to sessions in `folder`, if any.
    ///
    /// - Parameter folder: the sessions' folder; `nil` for standard input (the current directory).
    public func projectFilePath(forSessionsIn folder: String?) -> String? {
        switch choice {
        case .none: nil
        case .file(let path): path
        case .nearest: ProjectFile.find(from: folder ?? ".")
        }
    }

    /// The description for sessions in `folder`: the project file's, with ``overrides`` over it.
    ///
    /// - Parameter folder: the sessions' folder; `nil` for standard input.
    /// - Throws: ``PipelineError``: a plugin error (exit 78) naming the project file, its line and
    ///   key, for a file that cannot be read or used.
    public func description(forSessionsIn folder: String?) throws(PipelineError) -> PipelineDescription {
        guard let path = projectFilePath(forSessionsIn: folder) else { return overrides }
        return try description(ofProjectFile: path)
    }

    private func description(ofProjectFile path: String) throws(PipelineError) -> PipelineDescription {
        try Self.checkOwnership(of: path)
        let file: ProjectFile
        do throws(ProjectFileError) {
            file = try ProjectFile(contentsOf: path)
        } catch {
            throw PipelineError(.plugin, error.description)
        }
        var fromFile = try PipelineDescription(projectFile: file)
        for index in fromFile.commands.indices {
            if let commandTimeout { fromFile.commands[index].timeout = commandTimeout }
            if let commandFailure { fromFile.commands[index].failureMode = commandFailure }
        }
        if let commandFailure { fromFile.wasmSandbox.failureMode = commandFailure }
        if unknownKeysFail, !file.warnings.isEmpty {
            throw PipelineError(.plugin, file.warnings.joined(separator: " · ").replacing(" (ignored);", with: ";"))
        }
        for warning in file.warnings { warn(warning) }
        return fromFile.overridden(by: overrides)
    }

    /// The pipeline for sessions in `folder`, made ready once per project file.
    ///
    /// - Parameter folder: the sessions' folder; `nil` for standard input.
    /// - Throws: ``PipelineError``: the project file cannot be used, a library cannot be loaded or
    ///   a plugin cannot be placed (the same error for every folder the file applies to).
    public func pipeline(forSessionsIn folder: String?) throws(PipelineError) -> ReplayPipeline {
        let key = projectFilePath(forSessionsIn: folder) ?? ""
        if let known = cache.withLock({ $0[key] }) { return try known.get() }
        let made: Result<ReplayPipeline, PipelineError>
        do throws(PipelineError) {
            let description = key.isEmpty ? overrides : try description(ofProjectFile: key)
            made = .success(try ReplayPipeline(description))
        } catch {
            made = .failure(error)
        }
        let kept = cache.withLock { cache in
            if let other = cache[key] { return other }
            cache[key] = made
            return made
        }
        return try kept.get()
    }

    /// Refuses a project file that someone else could have written — one owned by another user
    /// (not root), or writable by its group or by others — as the plugin loader refuses such a
    /// library: a project file loads libraries and starts commands, and one in a shared folder
    /// such as `/tmp` is found from every session below it.
    static func checkOwnership(of path: String) throws(PipelineError) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }  // reading it says why
        if info.st_uid != getuid() && info.st_uid != 0 {
            throw PipelineError(
                .plugin,
                "refusing to use project file '\(path)': it belongs to another user (uid \(info.st_uid)), and a project file loads plugins and runs commands; pass --no-project-file, or copy it and own the copy"
            )
        }
        if info.st_mode & 0o022 != 0 {
            throw PipelineError(
                .plugin,
                "refusing to use project file '\(path)': it is writable by \(info.st_mode & 0o002 != 0 ? "anyone" : "its group"), and a project file loads plugins and runs commands; fix with `chmod go-w \(path)`"
            )
        }
    }

    /// The folder a log is in, for finding its project file: `nil` for standard input (`-`), `.`
    /// for a bare file name.
    ///
    /// - Parameter path: the log's path.
    public static func folder(ofLog path: String) -> String? {
        guard path != "-" else { return nil }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
