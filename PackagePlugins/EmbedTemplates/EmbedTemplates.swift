import Foundation
import PackagePlugin

/// Embeds the repository's `Templates/` folder — the scaffolds `responder-bus new-plugin` writes —
/// in the target it is applied to, as one generated Swift file of string constants
/// (`EmbeddedTemplates.files`, written by the `embed-templates` tool into the plugin's work folder,
/// never into the repository), so that the built command carries them and runs from anywhere.
///
/// The templates are the files in `Templates/`'s folders; the files directly in it (its README) are
/// not. Every file and folder under `Templates/` is an input of the command that writes the
/// generated file: editing one rebuilds the target. SwiftPM keeps the commands a plugin made until
/// it plans the build again, which it does when a target's folder changes: `Templates/` is one to
/// it through the link `Sources/responder-bus/Templates` (excluded from the target), so that adding
/// or removing a template plans again and the command's inputs follow.
@main
struct EmbedTemplates: BuildToolPlugin {
    /// One command: `embed-templates` from `Templates/` to `EmbeddedTemplates.swift`.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL.appending(path: "Templates")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTemplates.swift")
        let entries = try FileManager.default.subpathsOfDirectory(atPath: root.path(percentEncoded: false)).sorted()
        return [
            .buildCommand(
                displayName: "Embedding the new-plugin templates of Templates/",
                executable: try context.tool(named: "embed-templates").url,
                arguments: [output.path(percentEncoded: false), root.path(percentEncoded: false)],
                inputFiles: [root] + entries.map { root.appending(path: $0) },
                outputFiles: [output]
            )
        ]
    }
}
