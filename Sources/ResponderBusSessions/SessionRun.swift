import Dispatch
import ResponderBusPlatform
import Synchronization

/// Replays sessions on `jobs` worker threads — one loop and bus per session, on the worker that
/// took it — and hands their results back in the order of the sessions, whatever finishes first.
///
/// Workers take the next session from a shared counter, so a slow session holds up one worker
/// only; each keeps one session in memory at a time, so memory grows with the jobs, not the corpus
/// (the results kept for the summary are a few hundred bytes each).
final class SessionRun: Sendable {
    let sessions: [SessionInput]
    let suite: SessionSuite
    let jobs: Int
    private let next = Atomic<Int>(0)
    private let results: Mutex<[SessionResult?]>
    private let finished = DispatchSemaphore(value: 0)

    init(sessions: [SessionInput], suite: SessionSuite, jobs: Int) {
        self.sessions = sessions
        self.suite = suite
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
            let result = suite.check(sessions[index])
            results.withLock { $0[index] = result }
            finished.signal()
        }
    }
}
