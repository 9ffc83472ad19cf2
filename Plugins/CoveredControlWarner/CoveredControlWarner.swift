import ResponderBus

/// Warns about every visible, enabled button the keyboard covers once avoidance has moved things:
/// the worked example of a plugin that checks another plugin's decision.
///
/// It runs after `KeyboardAvoidance` (its ``preferredPosition``) and looks in
/// `turnDidSettle(context:)` (`TurnObserving`), when the turn's `viewShift` and `scroll` have
/// been applied, at the keyboard in the bus's model (`context.keyboard`). The rule is
/// ``CoveredControls``. One warning diagnostic names the covered buttons (`views`, which a report
/// outlines) with how many points of each are covered (`metadata`); it is said again only when the
/// set of covered buttons changes, and nothing is said when the keyboard goes.
public final class CoveredControlWarner: TurnObserving {
    /// The plugin's name: `"CoveredControlWarner"`.
    public let name: String
    /// After `KeyboardAvoidance`, whose decisions it checks.
    public var preferredPosition: PluginPosition? { .after("KeyboardAvoidance") }

    /// The buttons warned about last, to say nothing twice.
    private var warned: [ViewID] = []

    /// Creates the plugin.
    public init(name: String = "CoveredControlWarner") {
        self.name = name
    }

    /// Checks the screen as the turn left it.
    public func turnDidSettle(context: PluginContext) {
        let findings = CoveredControls.covered(CoveredControls.controls(on: context.screen), by: context.keyboard.coveredPart)
        let ids = findings.map(\.id)
        guard ids != warned else { return }
        warned = ids
        guard !findings.isEmpty else { return }
        let list = findings.map { "'\($0.id)' (\(Self.points($0.coveredHeight)) pt)" }.joined(separator: ", ")
        var metadata: [String: String] = [:]
        for finding in findings { metadata["covered." + finding.id.rawValue] = Self.points(finding.coveredHeight) }
        context.diagnose(
            .warning, "the keyboard covers \(findings.count == 1 ? "a button" : "\(findings.count) buttons") the user cannot reach: \(list)",
            views: ids, metadata: metadata)
    }

    private static func points(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
