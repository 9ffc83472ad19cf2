import ResponderBus
import ResponderBusExternal

/// A plugin library named by the pipeline (`--plugin PATH[@POSITION]`, a project file's
/// `"plugins"`): its path and, when given, where in the pipeline it goes.
///
/// After an `@`, a position: `first`, `last`, `before:NAME` or `after:NAME`
/// (`libWarner.so@after:KeyboardAvoidance`). Without one, the plugin's own `preferredPosition`
/// decides, or it goes last.
public struct PluginReference: Hashable, Sendable {
    /// The library's path.
    public var path: String
    /// Where it goes, when the reference says; `nil` leaves it to the plugin.
    public var position: PluginPosition?

    /// A reference to the library at `path`, placed at `position`.
    ///
    /// - Parameters:
    ///   - path: the library's path (`lib<Name>.so`).
    ///   - position: where it goes; `nil` leaves it to the plugin.
    public init(path: String, position: PluginPosition? = nil) {
        self.path = path
        self.position = position
    }

    /// Parses `PATH[@POSITION]`. An `@` followed by something that is not a position is part of the
    /// path (`/tmp/a@b/libX.so`).
    ///
    /// - Parameter argument: the text, as `--plugin` takes it.
    /// - Throws: ``PipelineError`` (a usage error) when the position names no plugin, is not a
    ///   position, or no path is given.
    public init(parsing argument: String) throws(PipelineError) {
        guard let at = argument.lastIndex(of: "@") else {
            guard !argument.isEmpty else {
                throw .usage("--plugin needs a library's path, such as --plugin .build/debug/\(PluginLibrary.fileName(forPlugin: "Warner"))")
            }
            path = argument
            return
        }
        let suffix = String(argument[argument.index(after: at)...])
        let head = String(argument[..<at])
        switch suffix {
        case "first": position = .first
        case "last": position = .last
        default:
            if let anchor = Self.anchor(suffix, "before:") {
                position = .before(anchor)
            } else if let anchor = Self.anchor(suffix, "after:") {
                position = .after(anchor)
            } else if suffix.hasPrefix("before") || suffix.hasPrefix("after") {
                throw .usage(
                    "--plugin \(argument): '@\(suffix)' names no plugin; write @before:NAME or @after:NAME, such as @after:KeyboardAvoidance")
            } else if suffix.contains("/") || suffix.contains(".") {
                path = argument
                return
            } else {
                throw .usage("--plugin \(argument): '@\(suffix)' is not a position; use @first, @last, @before:NAME or @after:NAME")
            }
        }
        guard !head.isEmpty else {
            throw .usage(
                "--plugin \(argument): no library before '@\(suffix)'; write PATH@\(suffix), such as \(PluginLibrary.fileName(forPlugin: "Warner"))@\(suffix)"
            )
        }
        path = head
    }

    private static func anchor(_ suffix: String, _ prefix: String) -> String? {
        guard suffix.hasPrefix(prefix) else { return nil }
        let name = String(suffix.dropFirst(prefix.count))
        return name.isEmpty ? nil : name
    }
}
