import ResponderBusReplay
import ResponderBusTesting
import Testing

@Suite("Exploring a WebAssembly plugin", .enabled(if: ReplayPipeline.loadsWebAssembly, "needs the WebAssembly trait"))
struct WasmExploreTests {
    @Test("a module that traps when the keyboard shows breaks no-fault, shrunk to one tap; one that decides nothing keeps every property")
    func explore() throws {
        let trapping = try WasmModules.build("misbehaving.c", defines: ["TRAP"])
        var description = PipelineDescription()
        description.libraries = [PluginReference(path: trapping)]
        let pipeline = try ReplayPipeline(description)
        let report = try Explorer(seed: 4).explore(count: 60) { PipelineTarget(pipeline) }
        let fault = try #require(report.findings.first { $0.property == "no-fault" }, "\(report.summary)")
        #expect(fault.failure.message.contains("Misbehaving"), "\(fault.failure)")
        #expect(fault.shrunk.steps.count == 1, "\(fault.shrunk)")
        #expect(fault.shrunk.records().count <= 12)

        let fine = try WasmModules.build("misbehaving.c", defines: ["FINE"])
        description.libraries = [PluginReference(path: fine)]
        let quiet = try ReplayPipeline(description)
        let clean = try Explorer(seed: 4).explore(count: 60) { PipelineTarget(quiet) }
        #expect(clean.findings.isEmpty, "\(clean.summary)")
    }
}
