extension ExternalPlugin {
    /// A fault of an out-of-process plugin — it exited, hung, or wrote what the protocol does not
    /// allow — and what the host did about it (``ExternalPlugin/faults``).
    ///
    /// Each fault is also posted as an error diagnostic derived by the plugin, with the failure
    /// `pluginProcessFailed` and ``message`` as its text, so that it is recorded and shown in the
    /// timeline and the report; this value is for a host that must say it elsewhere (`replay` on
    /// standard error) or judge by it (`test` fails a session whose plugin failed).
    public struct Fault: Sendable, Hashable, CustomStringConvertible {
        /// What the host did.
        public enum Outcome: Sendable, Hashable {
            /// It will start the plugin again after `delay` (in loop time; zero for a WebAssembly
            /// plugin, replaced by a fresh instance at its next event): restart `attempt` of `of`.
            case restarting(in: Duration, attempt: Int, of: Int)
            /// It failed too often: it is disabled for the rest of the session, after
            /// `afterFailures` faults.
            case disabled(afterFailures: Int)
            /// Its failure mode is ``ExternalPlugin/FailureMode/stop``: the session stops.
            case stopped
        }

        /// The plugin's name.
        public let plugin: String
        /// What it did: `exited with status 3`, `did not answer within 0.2 seconds`, ….
        public let what: String
        /// What the host did about it.
        public let outcome: Outcome
        /// The log time of the fault, in seconds.
        public let t: Double
        /// The last lines the plugin wrote to standard error since the delivery before the fault
        /// (the end of a Python traceback, say), oldest first, blank ones left out: at most 12,
        /// each cut at 300 bytes, counting lines that were too many to forward as diagnostics.
        public let lastErrorLines: [String]

        /// Creates a fault.
        public init(plugin: String, what: String, outcome: Outcome, t: Double, lastErrorLines: [String]) {
            self.plugin = plugin
            self.what = what
            self.outcome = outcome
            self.t = t
            self.lastErrorLines = lastErrorLines
        }

        /// Whether the plugin runs no more in this session (disabled, or the session stopped).
        public var endedThePlugin: Bool {
            if case .restarting = outcome { return false }
            return true
        }

        /// The diagnostic's text: `plugin 'X' exited with status 3; restarting it in 0.1 seconds
        /// (restart 1 of 3)`.
        public var message: String {
            switch outcome {
            case .restarting(let delay, let attempt, let limit):
                let when = delay == .zero ? "at once" : "in \(delay)"
                return "plugin '\(plugin)' \(what); restarting it \(when) (restart \(attempt) of \(limit))"
            case .disabled(let failures):
                return "plugin '\(plugin)' \(what); it failed \(failures) times, so it is disabled for the rest of the session"
            case .stopped:
                return "plugin '\(plugin)' \(what); stopping (--plugin-failure stop)"
            }
        }

        /// ``message``.
        public var description: String { message }

        /// The plugins whose faults ended them (disabled, or the session stopped), each once, in
        /// the order of those faults.
        public static func endedPlugins(in faults: [Fault]) -> [String] {
            var seen = Set<String>()
            return faults.filter { $0.endedThePlugin && seen.insert($0.plugin).inserted }.map(\.plugin)
        }
    }
}
