import EventLog
import ResponderBus
import ResponderBusExplore

/// Checks a plugin against generated sessions in its own tests: what `responder-bus explore`
/// does for a pipeline, for a plugin made in the test process, with the properties every pipeline
/// keeps and any the plugin declares for itself (`SessionProperty.init(_:_:check:)`).
///
/// ```swift
/// @Test func keepsTheBarOnTheKeyboard() throws {
///     let report = try PluginExploration.explore(seed: 7, count: 2_000, companions: { [TextViewOrdering(), FieldAdvancing(), KeyboardAvoidance()] }) {
///         MyChatBar()
///     }
///     #expect(report.findings.isEmpty, "\(report.summary)")
/// }
/// ```
///
/// A finding carries the shrunk session (`Finding.shrunk`) and its log (`Finding.log`): save it
/// beside your tests and replay it with `PluginHarness` to lock the fix.
public enum PluginExploration {
    /// Explores `plugin` (a fresh one for every run) after `companions` (fresh ones too, registered
    /// first, in order).
    ///
    /// - Parameters:
    ///   - seed: the seed; the same one gives the same sessions and findings.
    ///   - count: how many sessions to check.
    ///   - properties: the properties: the built-in ones by default; add your plugin's own.
    ///   - generator: what makes the sessions (the devices, how many steps).
    ///   - companions: the plugins yours runs with, such as the built-ins.
    ///   - plugin: makes the plugin under test.
    /// - Throws: a `PluginRegistrationError` when a plugin cannot be placed, or
    ///   `ExplorationError`.
    public static func explore(
        seed: UInt64 = 1, count: Int = 1_000, properties: [SessionProperty] = SessionProperty.builtins,
        generator: SessionGenerator = SessionGenerator(), companions: @escaping @Sendable () -> [any ResponderPlugin] = { [] },
        plugin: @escaping @Sendable () throws -> any ResponderPlugin
    ) throws -> ExplorationReport {
        let explorer = Explorer(seed: seed, properties: properties, generator: generator)
        return try explorer.explore(count: count) { PluginTarget { companions() + [try plugin()] } }
    }
}
