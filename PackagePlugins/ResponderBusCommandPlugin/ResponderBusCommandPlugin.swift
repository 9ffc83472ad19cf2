import Foundation
import PackagePlugin

/// `swift package responder-bus …`: runs the `responder-bus` command on the package's files, as
/// swift-format's and DocC's plugins run theirs.
///
/// The arguments go to the command as given, run in the package's folder, so that every path it
/// prints (and JUnit's `file=`) is relative to the package. `swift package responder-bus test`
/// with no sessions named tests the package's `sessions/` folder. The command's output is its own;
/// when it exits non-zero, the plugin says so and fails with it.
///
/// ```sh
/// swift package responder-bus test --junit results.xml
/// swift package responder-bus replay sessions/sign-up.jsonl --check
/// ```
///
/// On macOS a command plugin runs sandboxed: the plugin asks for permission to write to the
/// package (`--allow-writing-to-package-directory`, or the prompt).
@main
struct ResponderBusCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "responder-bus")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments.isEmpty ? ["--help"] : arguments
        process.currentDirectoryURL = context.package.directoryURL
        var environment = ProcessInfo.processInfo.environment
        // `test` with no sessions named: the package's own folder of them.
        environment["RESPONDER_BUS_SESSIONS"] = "sessions"
        process.environment = environment
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            Diagnostics.error("responder-bus \(arguments.first ?? "") exited with status \(process.terminationStatus)")
            return
        }
    }
}
