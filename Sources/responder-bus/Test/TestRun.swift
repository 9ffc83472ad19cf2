import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Replays sessions on `jobs` worker threads — one loop and bus per session, on the worker that
/// took it — and hands their results back in the order of the sessions, whatever finishes first.
///
/// Workers take the next session from a shared counter, so a slow session holds up one worker
/// only; each keeps one session in memory at a time, so memory grows with the jobs, not the corpus
/// (the results kept for the summary are a few hundred bytes each).
final class TestRun: Sendable {
    let sessions: [SessionInput]
    let settings: SessionSettings
    let jobs: Int
    private let next = Atomic<Int>(0)
    private let results: Mutex<[SessionResult?]>
    private let finished = DispatchSemaphore(value: 0)

    init(sessions: [SessionInput], settings: SessionSettings, jobs: Int) {
        self.sessions = sessions
        self.settings = settings
        self.jobs = max(1, min(jobs, sessions.count))
        results = Mutex(Array(repeating: nil, count: sessions.count))
    }

    /// Runs every session; calls `each` on the calling thread with each result in session order,
    /// and `tick` whenever a session finished (with how many did, and how many of those failed).
    func run(each: (SessionResult) -> Void, tick: (_ done: Int, _ failed: Int) -> Void) -> [SessionResult] {
        guard !sessions.isEmpty else { return [] }
        let group = DispatchGroup()
        // One serial queue per job: such queues may each have a thread of their own (unlike work
        // on the global queue, which runs no more at once than there are cores), so `--jobs N`
        // runs N sessions at once.
        for job in 0..<jobs {
            DispatchQueue(label: "responder-bus.test.\(job)").async(group: group) { [self] in work() }
        }
        var handedOut = 0
        var done = 0
        var failed = 0
        while done < sessions.count {
            finished.wait()
            done += 1
            while handedOut < sessions.count, let result = results.withLock({ $0[handedOut] }) {
                if !result.status.passes { failed += 1 }
                each(result)
                handedOut += 1
            }
            tick(done, failed)
        }
        group.wait()
        return results.withLock { $0.map { $0! } }
    }

    /// A worker: takes sessions until none is left.
    private func work() {
        while true {
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < sessions.count else { return }
            let result = SessionCheck.run(sessions[index], settings)
            results.withLock { $0[index] = result }
            finished.signal()
        }
    }
}

/// The progress line `responder-bus test` keeps on a terminal's standard error: sessions done,
/// failures, rate and time left, redrawn at most ten times a second.
final class TestProgress {
    private let total: Int
    private let enabled: Bool
    private let start = monotonicSeconds()
    private var lastDraw = 0.0
    private var shown = false

    init(total: Int, enabled: Bool = isatty(2) == 1) {
        self.total = total
        self.enabled = enabled && total > 1
    }

    func update(done: Int, failed: Int) {
        guard enabled else { return }
        let now = monotonicSeconds()
        guard done == total || now - lastDraw >= 0.1 else { return }
        lastDraw = now
        let elapsed = max(now - start, 1e-9)
        let rate = Double(done) / elapsed
        let left = rate > 0 ? Double(total - done) / rate : 0
        let width = 24
        let filled = total == 0 ? width : width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let line =
            "[\(bar)] \(done)/\(total) sessions, \(failed) failed, \(Self.rate(rate))/s, ETA \(Self.duration(left))"
        writeStandardError("\r\u{1B}[2K" + line)
        shown = true
    }

    /// Clears the line, before other output and at the end.
    func clear() {
        guard shown else { return }
        writeStandardError("\r\u{1B}[2K")
        shown = false
    }

    static func rate(_ value: Double) -> String {
        value >= 100 ? String(Int(value.rounded())) : String(Double(Int(value * 10)) / 10)
    }

    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "?" }
        let whole = Int(seconds.rounded(.up))
        return whole >= 60 ? "\(whole / 60)m\(whole % 60)s" : "\(whole)s"
    }
}
