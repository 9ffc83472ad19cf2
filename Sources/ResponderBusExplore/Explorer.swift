import EventLog
import ResponderBus

/// Why an exploration could not run.
public struct ExplorationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// Checks generated sessions against the properties, and shrinks the ones that break one: what
/// `responder-bus explore` and `check-plugin` run, and what a plugin's tests run through
/// `ResponderBusTesting`.
///
/// ```swift
/// let explorer = Explorer(seed: 42)
/// let report = try explorer.explore(count: 2_000) { PluginTarget { BuiltinPlugins.make() + [MyPlugin()] } }
/// for finding in report.findings { print(finding.failure, finding.shrunk) }
/// ```
///
/// The same seed gives the same sessions, in the same order, and (with a count) the same findings
/// on every run and machine: session `i` is made from ``SeededRandom/sessionSeed(_:index:)``, and
/// each property's finding is the failing session of lowest index, shrunk by a fixed order of
/// steps. With a time limit a slower machine checks fewer of the same sessions.
public struct Explorer: Sendable {
    /// The seed.
    public var seed: UInt64
    /// The properties checked: built-in ones and declared ones.
    public var properties: [SessionProperty]
    /// What makes the sessions.
    public var generator: SessionGenerator
    /// How many threads check sessions (each with a target of its own).
    public var workers: Int
    /// The most runs a shrink may take.
    public var shrinkRuns: Int

    /// An explorer.
    ///
    /// - Parameters:
    ///   - seed: the seed of the first session and of every later one.
    ///   - properties: what to check: ``SessionProperty/builtins`` and any declared ones.
    ///   - generator: what makes the sessions.
    ///   - workers: how many threads check sessions.
    public init(
        seed: UInt64, properties: [SessionProperty] = SessionProperty.builtins, generator: SessionGenerator = SessionGenerator(),
        workers: Int = 1
    ) {
        self.seed = seed
        self.properties = properties
        self.generator = generator
        self.workers = max(1, workers)
        shrinkRuns = 3_000
    }

    private var builtinNames: Set<String> { Set(properties.filter(\.isBuiltin).map(\.name)) }
    private var declared: [SessionProperty] { properties.filter { !$0.isBuiltin } }

    /// Runs `session` on `target` (twice when ``SessionProperty/deterministic`` is checked) and
    /// returns what it broke, in the order found.
    ///
    /// - Throws: ``ExplorationError`` when the target could not run it or rejected one of its
    ///   records (a generator's fault), or what the target throws.
    public func check(_ session: GeneratedSession, on target: any ExplorationTarget) throws -> [PropertyFailure] {
        try check(header: session.header, records: session.records(), on: target)
    }

    /// Runs `records` on `target` (see ``check(_:on:)``).
    public func check(header: LogHeader, records: [LogRecord], on target: any ExplorationTarget) throws -> [PropertyFailure] {
        let names = builtinNames
        var watch: PropertyWatch?
        // The decisions are kept only for what reads them: the second run's comparison, a declared property.
        let keeps = names.contains(SessionProperty.deterministic.name) || !declared.isEmpty
        let rejected = try target.run(header: header, records: records) {
            watch = PropertyWatch(bus: $0, properties: names, declared: declared, keepsDecisions: keeps)
        }
        guard let first = watch else { throw ExplorationError("the target ran no bus") }
        first.finish()
        if let line = rejected.first { throw ExplorationError("a generated record was rejected: \(line)") }
        var failures = first.failures
        guard names.contains(SessionProperty.deterministic.name) else { return failures }
        var second: PropertyWatch?
        _ = try target.run(header: header, records: records) { second = PropertyWatch(bus: $0, properties: [], declared: []) }
        second?.finish()
        if let again = second?.decisions, let difference = Self.difference(first.decisions, again) {
            failures.append(PropertyFailure(property: SessionProperty.deterministic.name, message: difference, t: nil))
        }
        return failures
    }

    /// A decision for a person: a diagnostic as its sentence (which may hold line breaks), the
    /// others as their log line.
    static func readable(_ record: LogRecord) -> String {
        if case .diagnostic(let diagnostic) = record.event {
            return "\(record.origin.derivingPlugin ?? "the world")'s diagnostic at t=\(JSONText.number(record.t)) s, \(diagnostic)"
        }
        return LogWriter.line(for: record)
    }

    /// Where two runs' decisions first differ, in words; `nil` when they are the same.
    static func difference(_ first: [LogRecord], _ second: [LogRecord]) -> String? {
        guard first != second else { return nil }
        let index = first.indices.first { $0 >= second.count || first[$0] != second[$0] } ?? first.count
        func line(_ records: [LogRecord]) -> String { index < records.count ? readable(records[index]) : "nothing" }
        return "decision \(index + 1) differs: the first run derived \(line(first)), the second \(line(second))"
    }
}
