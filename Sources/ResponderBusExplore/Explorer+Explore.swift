import EventLog
import ResponderBus
import ResponderBusPlatform
import Synchronization

/// What an exploration found for one property: the first session (by index) that broke it, and
/// that session shrunk.
public struct Finding: Sendable {
    /// The property broken.
    public var property: String
    /// How the shrunk session breaks it.
    public var failure: PropertyFailure
    /// How the first session broke it, before shrinking.
    public var originalFailure: PropertyFailure
    /// The index of the first session that broke it.
    public var index: Int
    /// That session's seed: `--seed` it with `--count 1` to check that session alone.
    public var seed: UInt64
    /// That session.
    public var original: GeneratedSession
    /// The shrunk session.
    public var shrunk: GeneratedSession
    /// How many of the checked sessions broke the property.
    public var failingSessions: Int
    /// How many smaller sessions the shrink tried.
    public var shrinkTries: Int

    /// The shrunk session's header and records: the log to write.
    public var log: String { LogWriter.text(header: shrunk.header, records: shrunk.records()) }
}

/// Where an exploration stands, for a progress line.
public struct ExplorationProgress: Sendable {
    /// Sessions checked so far.
    public var checked: Int
    /// Sessions that broke a property.
    public var failing: Int
    /// Seconds since the start.
    public var seconds: Double
}

/// What an exploration did.
public struct ExplorationReport: Sendable {
    /// The seed.
    public var seed: UInt64
    /// How many sessions were checked: every session of index below this one.
    public var checked: Int
    /// How long the checking took, in seconds (shrinking not counted).
    public var seconds: Double
    /// Each property broken, in the order of the explorer's properties, then the properties
    /// plugins said they broke (``SessionProperty/metadataKey``), by name.
    public var findings: [Finding]

    /// Sessions checked per second.
    public var sessionsPerSecond: Double { seconds > 0 ? Double(checked) / seconds : 0 }
}

extension Explorer {
    /// Checks sessions 0, 1, 2, … until `count` have been checked or `seconds` have passed
    /// (whichever comes first; at least one of them must be given), on ``workers`` threads each
    /// with a target `makeTarget` makes, then shrinks the first session that broke each property.
    ///
    /// - Parameters:
    ///   - count: how many sessions to check.
    ///   - seconds: how long to check for.
    ///   - makeTarget: a fresh target, called once per worker and once for shrinking.
    ///   - progress: called about twice a second, on the calling thread.
    /// - Throws: ``ExplorationError``, or what `makeTarget` or a target throws.
    public func explore(
        count: Int? = nil, seconds: Double? = nil, makeTarget: @escaping @Sendable () throws -> any ExplorationTarget,
        progress: ((ExplorationProgress) -> Void)? = nil
    ) throws -> ExplorationReport {
        guard count != nil || seconds != nil else { throw ExplorationError("give a count of sessions or a time limit") }
        let shared = Shared(limit: count ?? Int.max)
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = seconds.map { start.advanced(by: .saturating(seconds: $0)) }
        let explorer = self
        // Each worker checks sessions until the budget is spent; the calling thread's one also
        // reports progress (`report`, never called on another thread).
        @Sendable func work(_ report: (() -> Void)?) {
            do {
                let target = try makeTarget()
                while let index = shared.take(before: deadline, clock: clock) {
                    report?()
                    let session = explorer.generator.session(seed: SeededRandom.sessionSeed(explorer.seed, index: index))
                    let failures = try explorer.check(session, on: target)
                    shared.done(index, failures: failures)
                }
            } catch {
                shared.stop(with: error)
            }
        }
        let threads = (1..<max(1, workers)).compactMap { _ in SystemThread.start { work(nil) } }
        var lastReport = clock.now
        work {
            guard let progress, clock.now - lastReport > .milliseconds(500) else { return }
            lastReport = clock.now
            progress(shared.progress(seconds: (clock.now - start).seconds))
        }
        for thread in threads { _ = thread.join() }
        let elapsed = (clock.now - start).seconds
        if let error = shared.error { throw error }
        progress?(shared.progress(seconds: elapsed))
        let findings = try findings(in: shared.failures(), makeTarget: makeTarget)
        return ExplorationReport(seed: seed, checked: shared.checkedCount, seconds: elapsed, findings: findings)
    }

    private func findings(in failing: [Int: [PropertyFailure]], makeTarget: () throws -> any ExplorationTarget) throws -> [Finding] {
        let target = try makeTarget()
        var findings: [Finding] = []
        // The explorer's properties in order, then those plugins said they broke, by name.
        let known = properties.map(\.name)
        let said = Set(failing.values.flatMap { $0.map(\.property) }).subtracting(known).sorted()
        for name in known + said {
            let indices = failing.filter { $0.value.contains { $0.property == name } }.keys.sorted()
            guard let index = indices.first, let failure = failing[index]?.first(where: { $0.property == name }) else { continue }
            let seed = SeededRandom.sessionSeed(self.seed, index: index)
            let session = generator.session(seed: seed)
            let shrunk = try shrink(session, breaking: name, on: target)
            findings.append(
                Finding(
                    property: name, failure: shrunk?.failure ?? failure, originalFailure: failure, index: index, seed: seed,
                    original: session, shrunk: shrunk?.session ?? session, failingSessions: indices.count, shrinkTries: shrunk?.tried ?? 0))
        }
        return findings
    }
}

/// What the workers share: the next index, the failures, the first error.
private final class Shared: Sendable {
    private struct State {
        var next = 0
        var checked = 0
        var failures: [Int: [PropertyFailure]] = [:]
        var error: (any Error)?
    }
    private let state = Mutex(State())
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    func take(before deadline: ContinuousClock.Instant?, clock: ContinuousClock) -> Int? {
        if let deadline, clock.now >= deadline { return nil }
        return state.withLock { state in
            guard state.error == nil, state.next < limit else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    func done(_ index: Int, failures: [PropertyFailure]) {
        state.withLock { state in
            state.checked += 1
            if !failures.isEmpty { state.failures[index] = failures }
        }
    }

    func stop(with error: any Error) {
        state.withLock { state in if state.error == nil { state.error = error } }
    }

    var error: (any Error)? { state.withLock { $0.error } }
    var checkedCount: Int { state.withLock { $0.checked } }
    func failures() -> [Int: [PropertyFailure]] { state.withLock { $0.failures } }
    func progress(seconds: Double) -> ExplorationProgress {
        state.withLock { ExplorationProgress(checked: $0.checked, failing: $0.failures.count, seconds: seconds) }
    }
}

extension ExplorationReport {
    /// The report in a few lines, for a test's message: how many sessions, and for each finding
    /// its failure, its shrunk session and the seed that reproduces it.
    public var summary: String {
        var lines = ["checked \(checked) sessions with seed \(seed): \(findings.isEmpty ? "no property broken" : "\(findings.count) broken")"]
        for finding in findings {
            lines.append("\(finding.failure) (\(finding.failingSessions) sessions; session \(finding.index), seed \(finding.seed))")
            lines += finding.shrunk.description.split(separator: "\n").map { "    " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
