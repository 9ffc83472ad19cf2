import ArgumentParser
import ResponderBus

/// One `--plugin` argument: a library's path and, after an `@`, where in the pipeline it goes —
/// `first`, `last`, `before:NAME` or `after:NAME` (`--plugin libWarner.so@after:KeyboardAvoidance`).
/// Without one, the plugin's own `preferredPosition` decides, or it goes last.
struct PluginArgument: Equatable {
    /// The library's path.
    var path: String
    /// Where it goes, when the argument says; `nil` leaves it to the plugin.
    var position: PluginPosition?

    /// Parses `PATH[@POSITION]`. An `@` followed by something that is not a position is part of the
    /// path (`/tmp/a@b/libX.so`).
    init(_ argument: String) throws {
        guard let at = argument.lastIndex(of: "@") else {
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
                throw ValidationError(
                    "--plugin \(argument): '@\(suffix)' names no plugin; write @before:NAME or @after:NAME, such as @after:KeyboardAvoidance")
            } else if suffix.contains("/") || suffix.contains(".") {
                path = argument
                return
            } else {
                throw ValidationError(
                    "--plugin \(argument): '@\(suffix)' is not a position; use @first, @last, @before:NAME or @after:NAME")
            }
        }
        path = head
    }

    private static func anchor(_ suffix: String, _ prefix: String) -> String? {
        guard suffix.hasPrefix(prefix) else { return nil }
        let name = String(suffix.dropFirst(prefix.count))
        return name.isEmpty ? nil : name
    }
}

/// A plugin loaded from a library, and where the command line puts it.
struct LoadedPlugin {
    let plugin: any ResponderPlugin
    let position: PluginPosition?
}
