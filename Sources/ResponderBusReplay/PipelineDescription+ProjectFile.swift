import FieldAdvancing
import KeyboardAvoidance
import ResponderBusExternal
import ResponderBusPlatform

extension PipelineDescription {
    /// The pipeline a project file describes. Its libraries' relative paths are taken from the
    /// file's folder, and its commands run in that folder.
    ///
    /// - Parameter file: the project file, read.
    /// - Throws: ``PipelineError`` (a plugin error, exit 78) naming the file and the key, for a
    ///   value that is not allowed (an unknown built-in, a bad position, a command that does not
    ///   split into words).
    public init(projectFile file: ProjectFile) throws(PipelineError) {
        func failure(_ key: String, _ message: String) -> PipelineError {
            PipelineError(.plugin, "\(file.path): key '\(key)': \(message)")
        }
        self.init()
        for name in file.disable ?? [] {
            guard BuiltinPlugins.names.contains(name) else {
                throw failure("disable", "'\(name)' is no built-in plugin; the built-in plugins are \(BuiltinPlugins.names.joined(separator: ", "))")
            }
            disabled.insert(name)
        }
        for argument in file.resolvedPlugins ?? [] {
            do throws(PipelineError) {
                libraries.append(try PluginReference(parsing: argument))
            } catch {
                throw failure("plugins", error.message)
            }
        }
        let failureMode: ExternalPlugin.FailureMode
        switch file.pluginFailure {
        case nil, "continue": failureMode = .continue
        case "stop": failureMode = .stop
        case let other?: throw failure("pluginFailure", "expected \"continue\" or \"stop\", got \"\(other)\"")
        }
        wasmSandbox.failureMode = failureMode
        if let fuel = file.pluginFuel {
            guard fuel == 0 || fuel >= 1_000 else { throw failure("pluginFuel", "expected 0 (no metering) or at least 1000, got \(fuel)") }
            wasmSandbox.fuelPerDelivery = fuel == 0 ? nil : UInt64(fuel)
        }
        if let memory = file.pluginMemory { wasmSandbox.memoryLimit = memory << 20 }
        for command in file.pluginCommands ?? [] {
            let words: [String]
            do throws(ExternalPluginError) {
                words = try ExternalPlugin.Configuration.words(of: command)
            } catch {
                throw failure("pluginCommands", error.message)
            }
            // The files a command runs (its program given by path, its script) are held to the
            // rule a plugin library is held to: no one but their owner, the caller or root, may
            // change what a project file runs.
            for word in words {
                let path = word.hasPrefix("/") ? word : file.folder + "/" + word
                var info = stat()
                guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                if let problem = FileOwnership.problem(with: info, path: path) {
                    throw failure("pluginCommands", "refusing to run '\(word)': \(problem)")
                }
            }
            commands.append(
                ExternalPlugin.Configuration(
                    command: words, timeout: .milliseconds(file.pluginTimeout ?? 200), failureMode: failureMode,
                    workingDirectory: file.folder))
        }
        settings.keyboardDistance = file.keyboardDistance
        switch file.avoidanceTiming {
        case nil: break
        case "automatic": settings.avoidanceTiming = .automatic
        case "everyEvent": settings.avoidanceTiming = .everyEvent
        case "settledTurns": settings.avoidanceTiming = .settledTurns
        case let other?:
            throw failure("keyboardAvoidance.timing", "expected \"automatic\", \"everyEvent\" or \"settledTurns\", got \"\(other)\"")
        }
        settings.honorsOtherAppsKeyboards = file.honorsOtherAppsKeyboards
        switch file.fieldOrder {
        case nil: break
        case "tag": settings.fieldOrder = .tag
        case "position": settings.fieldOrder = .position
        case let other?: throw failure("fieldAdvancing.order", "expected \"tag\" or \"position\", got \"\(other)\"")
        }
        settings.textViewReturnAdvances = file.textViewReturnAdvances
        settings.settleWindow = file.settleWindow.map { .milliseconds($0) }
        settings.heldFrameTimeout = file.heldFrameTimeout.map { .milliseconds($0) }
        allowsConflicts = file.allowConflicts ?? false
        checksProperties = file.checkProperties ?? false
        expectedFailures = file.resolvedExpectedFailures
    }
}
