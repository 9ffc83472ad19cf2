import CBenchSupport
import EventLog
import Foundation
import ResponderBus
import ResponderBusExternal
import ResponderBusWasm

/// Group 7: WebAssembly plugins (issue 34). Delivery to a module that decides nothing, beside the
/// same plugin in process and out of process, with fuel metering on and off; a replay of the
/// 1M-event log with that module asking for the keyboard events (goal ≥750,000 events/s, ≥3× the
/// out-of-process figure); how long a module that loops runs before its fuel stops it; a module
/// that traps on every event; the host's memory over 1M deliveries.
func runWasm(_ results: Results, cli: String, log: String) {
    let g = "7 wasm"
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let root = here.deletingLastPathComponent()
    let nullProcess = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("NullKeyboardProcess").path
    func module(_ define: String?) -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("rb-bench-null-\(define ?? "plain").wasm").path
        let clang = Process()
        // The Swift toolchain's clang, beside swiftc on PATH (a system clang may lack wasm32).
        clang.executableURL = URL(fileURLWithPath: "/bin/sh")
        clang.arguments =
            [
                "-c", #"exec "$(dirname "$(readlink -f "$(command -v swiftc)")")/clang" "$@""#, "clang", "--target=wasm32", "-nostdlib", "-O2",
                "-Wl,--no-entry", "-I", root.appendingPathComponent("PluginKits/c-wasm").path,
            ]
            + (define.map { ["-D" + $0] } ?? []) + ["-o", output, here.appendingPathComponent("Modules/null_keyboard.c").path]
        try! clang.run()
        clang.waitUntilExit()
        precondition(clang.terminationStatus == 0, "clang failed on null_keyboard.c")
        return output
    }
    let null = module(nil)
    let loops = module("LOOPS")
    let traps = module("TRAPS")

    final class InProcessNull: KeyboardObserving {
        let name = "NullKeyboard"
    }
    let info = KeyboardInfo(
        begin: Rect(x: 0, y: 812, width: 375, height: 0), end: Rect(x: 0, y: 521, width: 375, height: 291), duration: 0.25, curve: 7)
    func bus(with plugin: any ResponderPlugin) -> Bus {
        let bus = Bus(loop: VirtualTimeLoop(), screen: Screen(size: Size(width: 375, height: 812)))
        try! bus.register(plugin)
        return bus
    }
    let metered = try! WasmPluginModule(contentsOf: null)
    let unmetered = try! WasmPluginModule(contentsOf: null, sandbox: WasmSandbox(fuelPerDelivery: nil))
    let header = LogHeader(screen: Size(width: 375, height: 812))
    var wasm = Double.infinity
    var wasmUnmetered = Double.infinity
    var inProcess = Double.infinity
    var external = Double.infinity
    for _ in 0..<3 {
        wasm = min(wasm, deliveryP50(try! metered.makePlugin(), posts: 50_000))
        wasmUnmetered = min(wasmUnmetered, deliveryP50(try! unmetered.makePlugin(), posts: 50_000))
        inProcess = min(inProcess, deliveryP50(InProcessNull(), posts: 50_000))
        let plugin = try! ExternalPlugin(ExternalPlugin.Configuration(command: [nullProcess]), header: header)
        external = min(external, deliveryP50(plugin, posts: 20_000))
        plugin.shutDown()
    }
    results.add(
        Row(
            group: g, name: "delivery to a WebAssembly plugin, p50 (fuel metered)", value: wasm, unit: "µs",
            baselineName: "the same plugin out of process", baselineValue: external, ratio: external / wasm, goal: "≤1 µs, ≥4× faster",
            met: wasm <= 1 && external / wasm >= 4))
    results.add(
        Row(
            group: g, name: "delivery to a WebAssembly plugin, p50 (fuel metered)", value: wasm, unit: "µs",
            baselineName: "the same plugin in process", baselineValue: inProcess, ratio: wasm / inProcess))
    results.add(
        Row(
            group: g, name: "delivery to a WebAssembly plugin, p50, fuel metering off", value: wasmUnmetered, unit: "µs",
            baselineName: "fuel metered", baselineValue: wasm, ratio: wasmUnmetered / wasm))

    // Replays of the 1M-event log: none, the module, the module unmetered, out of process. Best of
    // two, in turns.
    let events = Double((try? Data(contentsOf: URL(fileURLWithPath: log)))?.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } ?? 1) - 1
    var plain = Double.infinity
    var withModule = Double.infinity
    var withUnmetered = Double.infinity
    var withProcess = Double.infinity
    for _ in 0..<2 {
        plain = min(plain, spawnTimed([cli, "replay", log, "--format", "jsonl"]).seconds)
        let m = spawnTimed([cli, "replay", log, "--format", "jsonl", "--plugin", null])
        precondition(m.status == 0, "replay with the WebAssembly plugin failed: \(m.status) (is the CLI built with --traits WebAssembly?)")
        withModule = min(withModule, m.seconds)
        withUnmetered = min(withUnmetered, spawnTimed([cli, "replay", log, "--format", "jsonl", "--plugin", null, "--plugin-fuel", "0"]).seconds)
        withProcess = min(withProcess, spawnTimed([cli, "replay", log, "--format", "jsonl", "--plugin-command", nullProcess]).seconds)
    }
    results.add(
        Row(
            group: g, name: "replay 1M events, WebAssembly plugin asking for the keyboard events", value: events / withModule,
            unit: "events/s", baselineName: "the same plugin out of process", baselineValue: events / withProcess,
            ratio: withProcess / withModule, goal: "≥750,000 events/s, ≥3×", met: events / withModule >= 750_000 && withProcess / withModule >= 3))
    results.add(
        Row(
            group: g, name: "replay 1M events, WebAssembly plugin asking for the keyboard events", value: events / withModule,
            unit: "events/s", baselineName: "the replay without it", baselineValue: events / plain, ratio: plain / withModule))
    results.add(
        Row(
            group: g, name: "replay 1M events, WebAssembly plugin, fuel metering off", value: events / withUnmetered, unit: "events/s",
            baselineName: "fuel metered", baselineValue: events / withModule, ratio: withModule / withUnmetered))

    // A module that loops: one delivery, timed, until the default fuel stops it.
    let looping = try! WasmPluginModule(contentsOf: loops)
    var stopped = Double.infinity
    for _ in 0..<5 {
        let bus = bus(with: try! looping.makePlugin())
        let start = ContinuousClock.now
        bus.post(.keyboardWillShow, info)
        let elapsed = ContinuousClock.now - start
        stopped = min(stopped, Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
    }
    results.add(
        Row(
            group: g, name: "a module in an endless loop, stopped by the default fuel (\(WasmSandbox.defaultFuel) units)", value: stopped,
            unit: "ms", goal: "≤10 ms", met: stopped <= 10))

    // A module that traps on every event: the 1M-event replay completes (it is disabled after
    // four faults), exit 0.
    let trapped = spawnTimed([cli, "replay", log, "--format", "jsonl", "--plugin", traps])
    results.add(
        Row(
            group: g, name: "replay 1M events, a module that traps on every event: completed", value: trapped.status == 0 ? 1 : 0,
            unit: "yes=1", goal: "=1", met: trapped.status == 0))

    // The host's memory over 1M deliveries to the module: resident size after 100k and after 1M.
    let steady = bus(with: try! metered.makePlugin())
    for _ in 0..<100_000 { steady.post(.keyboardWillShow, info) }
    let before = residentKB()
    for _ in 0..<1_000_000 { steady.post(.keyboardWillShow, info) }
    let after = residentKB()
    results.add(
        Row(
            group: g, name: "resident memory growth over 1M deliveries to a module (after 100k warm-up)", value: Double(after - before),
            unit: "KiB", goal: "≤1024 KiB (flat)", met: after - before <= 1024))
}

/// The process's resident size now, in KiB.
private func residentKB() -> Int {
    bench_self_rss_kb()
}
