import CBenchSupport
import Dispatch
import Foundation
import NIOCore
import NIOPosix
import ResponderBus
import ResponderBusUV
import Synchronization

final class Counter: @unchecked Sendable {
    var count = 0
    var sum = 0.0
    let done = Atomic<Int>(0)
    let lastSeq = Atomic<Int>(0)
}

final class TokenHolder: @unchecked Sendable {
    var token: ObservationToken?
}

final class Gate: Sendable {
    let open = Atomic<Bool>(false)
}

/// A cross-thread system under test: `send(seq)` from any thread; the consumer bumps the counter.
struct System {
    var name: String
    var send: @Sendable (Int) -> Void
    var stop: () -> Void
}

/// Runs `producers` threads that each call `send` `perProducer` times; returns nanoseconds until the
/// consumer saw them all.
func throughputNs(producers: Int, perProducer: Int, counter: Counter, send: @escaping @Sendable (Int) -> Void) -> UInt64 {
    counter.done.store(0, ordering: .releasing)
    let gate = Gate()
    let finished = DispatchSemaphore(value: 0)
    var threads: [Thread] = []
    for _ in 0..<producers {
        let t = Thread {
            while !gate.open.load(ordering: .acquiring) {}
            for i in 0..<perProducer { send(i) }
            finished.signal()
        }
        t.start()
        threads.append(t)
    }
    usleep(20_000)
    let t0 = bench_now_ns()
    gate.open.store(true, ordering: .releasing)
    for _ in 0..<producers { finished.wait() }
    while counter.done.load(ordering: .acquiring) == 0 { usleep(50) }
    return bench_now_ns() - t0
}

func roundTrips(_ count: Int, counter: Counter, send: (Int) -> Void) -> [UInt64] {
    var out = [UInt64](repeating: 0, count: count)
    for i in 0..<count {
        let seq = i + 1
        let t0 = bench_now_ns()
        send(seq)
        while counter.lastSeq.load(ordering: .acquiring) != seq {}
        out[i] = bench_now_ns() - t0
    }
    return out
}

func makeSystems(target: Int, counter: Counter) -> [System] {
    // ResponderBus on its libuv loop: postFromAnyThread, delivered to one observer on the loop.
    let uv = UVEventLoop()
    let bus = Bus(loop: uv)
    let ready = DispatchSemaphore(value: 0)
    let holder = TokenHolder()
    uv.execute {
        holder.token = bus.observe(.keyboardWillShow) { event in
            counter.count += 1
            counter.sum += event.payload.end?.height ?? 0
            counter.lastSeq.store(event.payload.curve ?? 0, ordering: .releasing)
            if counter.count == target { counter.done.store(1, ordering: .releasing) }
        }
        ready.signal()
    }
    ready.wait()
    let busSystem = System(
        name: "ResponderBus (libuv)",
        send: { seq in
            var payload = keyboardPayload
            payload.curve = seq
            bus.postFromAnyThread(.keyboardWillShow, payload)
        },
        stop: {
            uv.execute { holder.token = nil }
            uv.shutdown()
        })

    let queue = DispatchQueue(label: "bench.serial")
    let dispatchSystem = System(
        name: "DispatchQueue.async",
        send: { seq in
            let payload = KeyboardInfo(begin: keyboardPayload.begin, end: keyboardPayload.end, duration: 0.25, curve: seq, isLocal: true)
            queue.async {
                counter.count += 1
                counter.sum += payload.end?.height ?? 0
                counter.lastSeq.store(payload.curve ?? 0, ordering: .releasing)
                if counter.count == target { counter.done.store(1, ordering: .releasing) }
            }
        }, stop: {})

    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let eventLoop = group.next()
    let nioSystem = System(
        name: "SwiftNIO EventLoop.execute",
        send: { seq in
            let payload = KeyboardInfo(begin: keyboardPayload.begin, end: keyboardPayload.end, duration: 0.25, curve: seq, isLocal: true)
            eventLoop.execute {
                counter.count += 1
                counter.sum += payload.end?.height ?? 0
                counter.lastSeq.store(payload.curve ?? 0, ordering: .releasing)
                if counter.count == target { counter.done.store(1, ordering: .releasing) }
            }
        }, stop: { try? group.syncShutdownGracefully() })
    return [busSystem, dispatchSystem, nioSystem]
}

func runCrossThread(_ results: Results, scale: Double) {
    let total = Int(2_000_000 * scale)
    var rates: [String: [Int: Double]] = [:]
    var p50s: [String: (Double, Double)] = [:]
    for producers in [1, 4] {
        let per = total / producers
        let rawNs = bench_rawuv_throughput(Int32(producers), per)
        rates["raw libuv", default: [:]][producers] = Double(per * producers) / (Double(rawNs) / 1e9)
        let counter = Counter()
        let systems = makeSystems(target: per * producers, counter: counter)
        for system in systems {
            counter.count = 0
            let ns = throughputNs(producers: producers, perProducer: per, counter: counter, send: system.send)
            rates[system.name, default: [:]][producers] = Double(per * producers) / (Double(ns) / 1e9)
        }
        if producers == 1 {
            // In ten rounds, every system (and raw libuv) in turn, so that a slow spell of the
            // machine falls on all of them alike; the percentiles are over all rounds' trips.
            let rounds = 10
            let samples = max(1, Int(20_000 * scale) / rounds)
            var trips: [String: [UInt64]] = [:]
            for _ in 0..<rounds {
                for system in systems {
                    counter.count = Int.min  // never reaches target during round trips
                    trips[system.name, default: []] += roundTrips(samples, counter: counter, send: system.send)
                    counter.lastSeq.store(0, ordering: .releasing)
                }
                var raw = [UInt64](repeating: 0, count: samples)
                raw.withUnsafeMutableBufferPointer { bench_rawuv_roundtrip(samples, $0.baseAddress) }
                trips["raw libuv", default: []] += raw
            }
            for (name, all) in trips {
                let sorted = all.sorted()
                p50s[name] = (percentile(sorted, 0.5), percentile(sorted, 0.99))
            }
        }
        for system in systems { system.stop() }
    }
    let bus = "ResponderBus (libuv)"
    for producers in [1, 4] {
        let ours = rates[bus]![producers]!
        let g = "2 cross-thread"
        let label = "\(producers) producer\(producers == 1 ? "" : "s")"
        if producers == 1 {
            results.add(
                Row(
                    group: g, name: "postFromAnyThread, \(label)", value: ours, unit: "events/s",
                    goal: "≥5M events/s", met: ours >= 5e6))
        }
        let goals: [(String, Double, String)] = [
            ("raw libuv", 1 / 1.5, "≥0.67× (within 1.5×)"), ("SwiftNIO EventLoop.execute", 5, "≥5×"),
            ("DispatchQueue.async", 7, "≥7×"),
        ]
        for (base, goal, text) in goals {
            let b = rates[base]![producers]!
            results.add(
                Row(
                    group: g, name: "postFromAnyThread, \(label) vs \(base)", value: ours, unit: "events/s",
                    baselineName: base, baselineValue: b, ratio: ours / b,
                    goal: producers == 1 ? text : nil, met: producers == 1 ? ours / b >= goal : nil))
        }
    }
    let (ours50, ours99) = p50s[bus]!
    for base in ["raw libuv", "SwiftNIO EventLoop.execute", "DispatchQueue.async"] {
        let (b50, b99) = p50s[base]!
        results.add(
            Row(
                group: "2 cross-thread", name: "round trip p50 vs \(base)", value: ours50, unit: "ns",
                baselineName: base, baselineValue: b50, ratio: ours50 / b50,
                goal: base == "raw libuv" ? "≤1.1×" : nil, met: base == "raw libuv" ? ours50 / b50 <= 1.1 : nil))
        results.add(
            Row(
                group: "2 cross-thread", name: "round trip p99 vs \(base)", value: ours99, unit: "ns",
                baselineName: base, baselineValue: b99, ratio: ours99 / b99))
    }
}
