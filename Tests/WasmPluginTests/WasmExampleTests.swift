import EventLog
import Foundation
import KeyboardNoise
import ResponderBus
import ResponderBusReplay
import ResponderBusTesting
import ResponderBusWasm
import Testing

@Suite("WebAssembly plugins: the kits' worked examples")
struct WasmExampleTests {
    /// The Embedded Swift example, built with the kit's build script.
    static func swiftExample() throws -> String {
        let output = WasmModules.folder + "/swift-keyboard-noise.wasm"
        let kit = WasmModules.repository.appendingPathComponent("PluginKits/swift-wasm")
        let run = try WasmModules.run(
            "/bin/sh", [kit.appendingPathComponent("build.sh").path, kit.appendingPathComponent("examples/KeyboardNoise.swift").path, output])
        guard run.status == 0 else { throw WasmModules.BuildError(description: "build.sh failed: \(run.output)") }
        return output
    }

    @Test("KeyboardNoise ported to C and to Embedded Swift says word for word what the built-in says, on every log of the corpus and the examples")
    func keyboardNoisePorts() throws {
        let c = try WasmPluginModule(
            contentsOf: try WasmModules.build(WasmModules.repository.appendingPathComponent("PluginKits/c-wasm/examples/keyboard_noise.c").path))
        let swift = try WasmPluginModule(contentsOf: try Self.swiftExample())
        #expect(c.name == "KeyboardNoiseWasm")
        #expect(swift.name == "KeyboardNoiseWasm")
        var logs = LogCorpus.all.map { ($0.name, $0.text) }
        let examples = WasmModules.repository.appendingPathComponent("Sources/responder-bus/Examples")
        for file in try FileManager.default.contentsOfDirectory(atPath: examples.path).sorted() where file.hasSuffix(".jsonl") {
            logs.append((file, try String(contentsOf: examples.appendingPathComponent(file), encoding: .utf8)))
        }
        var said = 0
        for (name, text) in logs {
            let path = WasmModules.folder + "/noise.jsonl"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            for module in [c, swift] {
                let replayed = try WasmReplay.run([PluginMaker { KeyboardNoise() }, PluginMaker { try module.makePlugin() }], log: path)
                let builtIn = replayed.diagnostics(by: "KeyboardNoise")
                #expect(replayed.result.pluginFaults.isEmpty, "\(name)")
                #expect(replayed.diagnostics(by: "KeyboardNoiseWasm") == builtIn, "\(name), \(module.path)")
                said += builtIn.count
            }
        }
        #expect(said >= 4, "the comparison covers sessions where KeyboardNoise spoke")
    }
}
