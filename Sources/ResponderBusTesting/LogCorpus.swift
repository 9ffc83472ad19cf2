import EventLog

/// Logs every plugin should survive: the bundled example session, real iOS console dumps imported
/// into the log format, and edge cases (UIKit's text-view ordering, another app's keyboard, floating
/// and zero-height keyboards, events with no userInfo, scroll views, rotation, Return in unknown
/// views).
///
/// ``PluginConformance`` replays each of them through the plugin under test.
public enum LogCorpus {
    /// One log of the corpus.
    public struct Entry: Sendable {
        /// A short name, such as `ios-23-objc-ipad-ios5-…`.
        public let name: String
        /// The log's text (format v1).
        public let text: String
    }

    /// Every log of the corpus.
    public static var all: [Entry] { bundled.map { Entry(name: $0.name, text: $0.text) } }

    /// The log with this name, if any.
    public static func named(_ name: String) -> Entry? { all.first { $0.name == name } }
}
