// The ResponderBus benchmarks. Run through `Benchmarks/run.sh`, which builds in release mode,
// generates the logs and passes: <responder-bus CLI> <1M-event log> <100k-event log> <results.json>.
import Foundation

let args = CommandLine.arguments
guard args.count >= 5 else {
    print(
        "usage: BusBenchmarks CLI LOG SMALL_LOG RESULTS_JSON [cases: sync,cross,replay,scale,corpus,external,wasm,explore; or import alone; profile-post, profile-import, profile-import-small, profile-records, profile-push for a profiler]"
    )
    exit(2)
}
let selected = Set((args.count > 5 ? args[5] : "sync,cross,replay,scale,corpus,external,wasm,explore").split(separator: ",").map(String.init))
let results = Results()
print("| group | case | ResponderBus | baseline | ratio | goal |")
print("|---|---|---|---|---|---|")
if selected.contains("profile-post") { runProfilePost() }
if selected.contains("profile-records") { runProfileRecords(args[3], pushed: false) }
if selected.contains("profile-push") { runProfileRecords(args[3], pushed: true) }
if selected.contains("profile-import") { importBench(views: 100_000)(3) }
if selected.contains("profile-import-small") { importBench(views: 10_000)(30) }
if selected.contains("import") { runImportHierarchy(results) }
if selected.contains("sync") { runSyncPost(results) }
if selected.contains("cross") { runCrossThread(results, scale: 1) }
if selected.contains("replay") {
    let count = { (path: String) in
        (try? Data(contentsOf: URL(fileURLWithPath: path)))?.reduce(0) { $0 + ($1 == 10 ? 1 : 0) } ?? 0
    }
    runReplay(
        results, cli: args[1], log: args[2], smallLog: args[3], events: count(args[2]) - 1,
        smallEvents: count(args[3]) - 1)
}
if selected.contains("corpus") { runCorpus(results, cli: args[1]) }
if selected.contains("external") { runExternal(results, cli: args[1], log: args[2], smallLog: args[3]) }
if selected.contains("wasm") { runWasm(results, cli: args[1], log: args[2]) }
if selected.contains("explore") { runExplore(results) }
if selected.contains("scale") {
    runScalePosts(results)
    runAvoidance(results)
    runImportHierarchy(results)
}
let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
try! encoder.encode(results.rows).write(to: URL(fileURLWithPath: args[4]))
print("raw results: \(args[4])")
