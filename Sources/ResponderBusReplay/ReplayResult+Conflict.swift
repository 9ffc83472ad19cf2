import ResponderBus

extension ReplayResult {
    /// A conflict between two plugins the bus named during a replay: one set the root, a scroll
    /// view or the first responder, and another set it to another value in the same loop turn.
    public struct Conflict: Hashable, Sendable {
        /// The replay's time (the log's), in seconds.
        public var t: Double
        /// The bus's message: both plugins, what they set and the values.
        public var message: String
        /// The plugin whose decision came first in the turn.
        public var first: String
        /// The plugin whose decision changed the first one's.
        public var second: String

        /// A conflict.
        ///
        /// - Parameters:
        ///   - t: the replay's time, in seconds.
        ///   - message: what the bus said.
        ///   - first: the plugin that decided first.
        ///   - second: the plugin that changed it.
        public init(t: Double, message: String, first: String, second: String) {
            self.t = t
            self.message = message
            self.first = first
            self.second = second
        }

        /// The conflict a diagnostic names, or `nil` when it names none (its failure is not
        /// `Diagnostic.Failure.conflictingDecisions`).
        ///
        /// - Parameters:
        ///   - diagnostic: a diagnostic the bus derived.
        ///   - t: when, in seconds.
        public init?(_ diagnostic: Diagnostic, t: Double) {
            guard diagnostic.failure == .conflictingDecisions else { return nil }
            self.init(t: t, message: diagnostic.message, first: diagnostic.metadata["first"] ?? "", second: diagnostic.metadata["second"] ?? "")
        }

        /// Whether `plugin` is one of the two.
        ///
        /// - Parameter plugin: a plugin's name.
        public func involves(_ plugin: String) -> Bool { first == plugin || second == plugin }
    }
}
