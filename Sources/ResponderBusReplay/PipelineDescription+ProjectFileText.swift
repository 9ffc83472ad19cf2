import EventLog
import KeyboardAvoidance
import ResponderBus
import ResponderBusExternal
import ResponderBusPlatform
import ResponderBusProject

extension PipelineDescription {
    /// This description as a project file's text (`.responder-bus.json`): what turns built-ins off,
    /// the plugin libraries (absolute paths) and commands (a word naming a file made absolute,
    /// since a file's commands run in its folder), their timeout and failure policy, the
    /// WebAssembly limits that are not the defaults, the built-ins' settings, `allowConflicts`, and
    /// the two keys `responder-bus explore` writes beside a finding: `checkProperties` and
    /// `expectedFailures`. In-process plugins (``plugins``) have no place in a file and are left out.
    ///
    /// - Parameters:
    ///   - checksProperties: write `"checkProperties": true`.
    ///   - expectedFailures: sessions, by path relative to the file's folder, each with why it fails.
    public func projectFileText(checksProperties: Bool = false, expectedFailures: [String: String] = [:]) -> String {
        var members: [(String, String)] = []
        func list(_ items: [String]) -> String { "[" + items.map(JSONText.string).joined(separator: ", ") + "]" }
        if !disabled.isEmpty { members.append(("disable", list(disabled.sorted()))) }
        if !libraries.isEmpty { members.append(("plugins", list(libraries.map(Self.argument)))) }
        if let first = commands.first {
            // A file's commands run in its folder: a word naming a file here is made absolute.
            let absolute = commands.map { $0.command.map(Self.absoluteIfFile).map(Self.shellWord).joined(separator: " ") }
            members.append(("pluginCommands", list(absolute)))
            members.append(
                ("pluginTimeout", "\(first.timeout.components.seconds * 1000 + first.timeout.components.attoseconds / 1_000_000_000_000_000)"))
        }
        if (commands.first?.failureMode ?? wasmSandbox.failureMode) == .stop { members.append(("pluginFailure", JSONText.string("stop"))) }
        let defaults = WasmSandbox()
        if wasmSandbox.fuelPerDelivery != defaults.fuelPerDelivery {
            members.append(("pluginFuel", "\(wasmSandbox.fuelPerDelivery ?? 0)"))
        }
        if wasmSandbox.memoryLimit != defaults.memoryLimit { members.append(("pluginMemory", "\(wasmSandbox.memoryLimit >> 20)")) }
        if allowsConflicts { members.append(("allowConflicts", "true")) }
        if checksProperties { members.append(("checkProperties", "true")) }
        if !expectedFailures.isEmpty {
            let entries = expectedFailures.sorted { $0.key < $1.key }.map { "\(JSONText.string($0.key)): \(JSONText.string($0.value))" }
            members.append(("expectedFailures", "{" + entries.joined(separator: ", ") + "}"))
        }
        members += settingsMembers()
        let body = members.map { "    \(JSONText.string($0.0)): \($0.1)" }.joined(separator: ",\n")
        return members.isEmpty ? "{}\n" : "{\n" + body + "\n}\n"
    }

    private func settingsMembers() -> [(String, String)] {
        var avoidance: [String] = []
        if let gap = settings.keyboardDistance { avoidance.append("\"keyboardDistance\": \(JSONText.number(gap))") }
        if let timing = settings.avoidanceTiming {
            let name =
                switch timing {
                case .automatic: "automatic"
                case .everyEvent: "everyEvent"
                case .settledTurns: "settledTurns"
                }
            avoidance.append("\"timing\": \(JSONText.string(name))")
        }
        if let honors = settings.honorsOtherAppsKeyboards { avoidance.append("\"honorsOtherAppsKeyboards\": \(honors)") }
        var advancing: [String] = []
        if let order = settings.fieldOrder { advancing.append("\"order\": \(JSONText.string(order == .tag ? "tag" : "position"))") }
        if let advances = settings.textViewReturnAdvances { advancing.append("\"textViewReturnAdvances\": \(advances)") }
        var ordering: [String] = []
        func milliseconds(_ duration: Duration) -> Int64 {
            duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        }
        if let window = settings.settleWindow { ordering.append("\"settleWindow\": \(milliseconds(window))") }
        if let held = settings.heldFrameTimeout { ordering.append("\"heldFrameTimeout\": \(milliseconds(held))") }
        return [("keyboardAvoidance", avoidance), ("fieldAdvancing", advancing), ("textViewOrdering", ordering)]
            .filter { !$0.1.isEmpty }.map { ($0.0, "{" + $0.1.joined(separator: ", ") + "}") }
    }

    /// `word` made absolute when it names a file relative to the current folder (a command's
    /// script), else as it is.
    private static func absoluteIfFile(_ word: String) -> String {
        guard !word.hasPrefix("/"), !word.hasPrefix("-") else { return word }
        var info = stat()
        guard stat(word, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return word }
        return SystemFiles.resolvedPath(word)
    }

    /// `PATH[@POSITION]`, the path made absolute.
    private static func argument(_ reference: PluginReference) -> String {
        let path = reference.path.hasPrefix("/") ? reference.path : SystemFiles.resolvedPath(reference.path)
        let position: String? =
            switch reference.position {
            case nil: nil
            case .first: "first"
            case .last: "last"
            case .before(let name): "before:" + name
            case .after(let name): "after:" + name
            }
        return position.map { path + "@" + $0 } ?? path
    }

    /// `word` as a POSIX shell, and a project file's command splitter, read it back: as is when
    /// it is plain (letters, digits and `-_./=:@,+`), else in single quotes (a quote in it as
    /// `'\''`). What `responder-bus explore` writes a reproduction's words with.
    ///
    /// - Parameter word: a command's word, such as a path with a space.
    public static func shellWord(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
                    || "-_./=:@,+".unicodeScalars.contains(scalar)
            }
        return plain ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
