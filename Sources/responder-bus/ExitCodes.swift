import ArgumentParser
import EventLog
import ResponderBusPlatform
import ResponderBusReplay
import ResponderBusReport

/// The exit codes of the CLI contract (sysexits.h values).
enum Exit {
    /// A check or a verification failed.
    static let checkFailed = ExitCode(1)
    /// Bad input data.
    static let dataError = ExitCode(65)
    /// Input missing or unreadable.
    static let noInput = ExitCode(66)
    /// An internal error.
    static let internalError = ExitCode(70)
    /// An output that cannot be created (sysexits' EX_CANTCREAT).
    static let cannotCreate = ExitCode(73)
    /// A write to an output failed (sysexits' EX_IOERR): a full disk, a closed standard output.
    static let writeFailed = ExitCode(74)
    /// A plugin that cannot be loaded.
    static let pluginError = ExitCode(78)
    /// An external plugin failed and `--plugin-failure stop` was given (sysexits' EX_SOFTWARE).
    static let pluginStopped = ExitCode(70)
}

/// Writes a line to standard error, prefixed with the command's name; control characters from a
/// log or a dump are shown escaped (see `TerminalText`).
func complain(_ message: String) {
    writeStandardError("responder-bus: \(TerminalText.escaped(message))\n")
}

/// Writes text to standard error, unbuffered.
func writeStandardError(_ text: String) {
    _ = DescriptorIO.writeAll(Array(text.utf8), to: 2)
}

extension OutputError {
    /// Says what failed on standard error and gives the exit code to end with.
    func reported() -> ExitCode {
        complain(message)
        return ExitCode(exit)
    }
}
