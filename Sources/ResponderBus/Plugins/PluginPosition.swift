/// Where a plugin goes in a bus's pipeline.
///
/// Plugins see each event in pipeline order, first to last:
///
/// ```
///   .first ─► [A] ─► [B] ─► [C] ◄─ .last
///                 ▲
///          .before("B") / .after("A")
/// ```
public enum PluginPosition: Hashable, Sendable {
    /// Before every plugin registered so far.
    case first
    /// After every plugin registered so far (the default).
    case last
    /// Immediately before the plugin with this name.
    case before(String)
    /// Immediately after the plugin with this name.
    case after(String)
}
