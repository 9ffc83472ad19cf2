import ArgumentParser
import EventLog
import ResponderBus
import ResponderBusPlatform
import ResponderBusReplay

/// The `responder-bus` command: replay logs through the plugins, import iOS console dumps, and
/// write sessions from a description.
@main
struct ResponderBusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "responder-bus",
        abstract: "Replay keyboard and responder event logs through ResponderBus's plugins, and import iOS console dumps.",
        discussion: """
            Exit codes: 0 success; 1 a check or verification failed; 64 bad usage (an output onto an \
            input or another output included); 65 bad input data; 66 input missing or unreadable; 70 \
            internal error; 73 an output cannot be created; 74 a write failed; 78 a plugin that cannot \
            be loaded. Output files appear whole or not at all: they are written beside their name and \
            renamed into place at the end.

            Examples:
              responder-bus replay session.jsonl
              responder-bus replay session.jsonl --format jsonl --check
              responder-bus import console.txt --screen 375x812 -o session.jsonl
              responder-bus replay session.jsonl --report session.html
              responder-bus render session.jsonl --at 3.2 -o frame.svg
              responder-bus new-session --device "iPhone SE" --fields user,password:secure --rotate-at 3 -o se.jsonl
              responder-bus new-plugin FocusReporter
              responder-bus explore --time 60
            """,
        version: ResponderBusVersion.string,
        subcommands: [
            ReplayCommand.self, TestCommand.self, ImportCommand.self, NewSessionCommand.self, NewPluginCommand.self, CheckPluginCommand.self,
            RenderCommand.self, ExploreCommand.self,
        ]
    )

    /// Runs the command. First, SIGINT, SIGTERM and SIGHUP are unblocked — a process started from
    /// a thread that blocks them (a dispatch worker's, say) inherits that mask, and Ctrl-C would
    /// then do nothing — and a signal that ends the process (Ctrl-C during a fast replay, say)
    /// removes the temporary files of the outputs being written, so none is left beside its target.
    static func main() {
        var ending = sigset_t()
        sigemptyset(&ending)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&ending, signal) }
        pthread_sigmask(SIG_UNBLOCK, &ending, nil)
        OutputFile.removeTemporaryFilesOnSignals()
        main(nil)
    }
}
