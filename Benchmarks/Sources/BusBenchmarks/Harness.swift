import CBenchSupport
import Foundation

/// One row of the results table.
struct Row: Codable {
    var group: String
    var name: String
    var value: Double
    var unit: String
    var baselineName: String?
    var baselineValue: Double?
    /// "faster": value/baseline is how many times faster we are (times, rates);
    /// "ratio": value/baseline as is, for costs (ns), where lower is better.
    var ratio: Double?
    var goal: String?
    var met: Bool?
}

final class Results {
    var rows: [Row] = []

    func add(_ row: Row) {
        rows.append(row)
        let line = Self.format(row)
        print(line)
    }

    static func num(_ v: Double) -> String {
        if v.isNaN { return "n/a" }
        if v >= 1e6 { return String(format: "%.2fM", v / 1e6) }
        if v >= 1e4 { return String(format: "%.0f", v) }
        if v >= 100 { return String(format: "%.1f", v) }
        if v >= 1 { return String(format: "%.2f", v) }
        return String(format: "%.3f", v)
    }

    static func format(_ r: Row) -> String {
        let value = "\(num(r.value)) \(r.unit)"
        let base = r.baselineName.map { "\($0): \(num(r.baselineValue ?? .nan)) \(r.unit)" } ?? ""
        let ratio = r.ratio.map { String(format: "%.2f×", $0) } ?? ""
        let goal = r.goal.map { "\($0) \(r.met == true ? "MET" : "MISSED")" } ?? ""
        return "| \(r.group) | \(r.name) | \(value) | \(base) | \(ratio) | \(goal) |"
    }
}

/// Nanoseconds per operation: the median of `samples` runs of `body(iterations)`, after one warm-up.
func nsPerOp(iterations: Int, samples: Int = 7, _ body: (Int) -> Void) -> Double {
    body(max(1, iterations / 10))
    var times: [Double] = []
    for _ in 0..<samples {
        let t0 = bench_now_ns()
        body(iterations)
        let t1 = bench_now_ns()
        times.append(Double(t1 - t0) / Double(iterations))
    }
    times.sort()
    return times[times.count / 2]
}

/// Nanoseconds per operation of each of `bodies`, measured in turns (A, B, C, A, B, C, …) so that a
/// slow spell of the machine hits them alike, and the fastest of `rounds` runs kept for each: noise
/// only ever adds time. For goals stated as a ratio between two cases.
func interleavedNsPerOp(iterations: Int, rounds: Int = 9, _ bodies: [(Int) -> Void]) -> [Double] {
    interleavedNsPerOp(rounds: rounds, bodies.map { (iterations, $0) })
}

/// ``interleavedNsPerOp(iterations:rounds:_:)`` with a number of iterations per case (a slow
/// baseline runs fewer).
func interleavedNsPerOp(rounds: Int = 9, _ cases: [(iterations: Int, body: (Int) -> Void)]) -> [Double] {
    for (iterations, body) in cases { body(max(1, iterations / 10)) }
    var best = [Double](repeating: .infinity, count: cases.count)
    for _ in 0..<rounds {
        for (index, (iterations, body)) in cases.enumerated() {
            let t0 = bench_now_ns()
            body(iterations)
            let t1 = bench_now_ns()
            best[index] = min(best[index], Double(t1 - t0) / Double(iterations))
        }
    }
    return best
}

/// Heap allocations per operation made by this thread; NaN where they are not counted (not glibc).
func mallocsPerOp(iterations: Int, _ body: (Int) -> Void) -> Double {
    guard bench_counts_mallocs() != 0 else { return .nan }
    body(10)
    let before = bench_malloc_count()
    body(iterations)
    return Double(bench_malloc_count() - before) / Double(iterations)
}

func percentile(_ sorted: [UInt64], _ p: Double) -> Double {
    Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))])
}

/// Prevents the optimizer from deleting the work whose result it is given.
@inline(never)
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
