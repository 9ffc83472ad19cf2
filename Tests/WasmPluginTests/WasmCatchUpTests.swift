import EventLog
import Foundation
import ResponderBus
import ResponderBusReplay
import ResponderBusWasm
import Testing

/// A fresh instance of a module, and a module registered on a running bus, is shown the screen as
/// it is — the catch-up a restarted out-of-process plugin gets — so that state it built on a scene
/// comes back (the article *Restarts and catch-up* of ResponderBusExternal).
@Suite("WebAssembly plugins: restart and catch-up as in the other kinds")
struct WasmCatchUpTests {
    /// A form with two text fields, the first focused, and keyboardWillShow at t = 1, 2 and 3.
    static let session = """
        {"format":"responder-bus-log","version":1,"screen":{"width":375,"height":812}}
        {"event":"scene","t":0,"root":{"id":"root","kind":"view","frame":[0,0,375,812],"children":[{"id":"name","kind":"textField","frame":[20,600,335,44]},{"id":"email","kind":"textField","frame":[20,660,335,44]}]}}
        {"event":"didBeginEditing","t":0.5,"view":"name"}
        {"event":"keyboardWillShow","t":1,"begin":[0,812,375,0],"end":[0,521,375,291],"duration":0.25,"curve":7}
        {"event":"keyboardWillShow","t":2,"begin":[0,812,375,0],"end":[0,521,375,291],"duration":0.25,"curve":7}
        {"event":"keyboardWillShow","t":3,"begin":[0,812,375,0],"end":[0,521,375,291],"duration":0.25,"curve":7}

        """

    @Test("the instance that replaces a trapped one is shown the scene it asked for, and says nothing of it")
    func freshInstanceSeesTheScene() throws {
        let module = try WasmModules.load("scene_memory.c")
        let log = WasmModules.folder + "/catch-up-\(UUID().uuidString).jsonl"
        try Self.session.write(toFile: log, atomically: true, encoding: .utf8)
        let replayed = try WasmReplay.run([PluginMaker { try module.makePlugin() }], log: log)
        #expect(replayed.result.pluginFaults.map(\.outcome) == [.restarting(in: .zero, attempt: 1, of: 3)])
        // The scene at 0, the shows at 1 and 3; what it logged on the catch-up's scene is dropped.
        #expect(
            replayed.diagnostics(by: "SceneMemory") == [
                "scene", "fields 2", "plugin 'SceneMemory' trapped (unreachable) on keyboardWillShow; restarting it at once (restart 1 of 3)",
                "fields 2",
            ])
    }

    @Test("a module registered on a bus already running is shown its scene, as an out-of-process plugin is")
    func joiningLate() throws {
        let module = try WasmModules.load("scene_memory.c")
        let loop = VirtualTimeLoop()
        let bus = Bus(loop: loop, screen: Screen(size: Size(width: 375, height: 812)))
        var said: [String] = []
        let token = bus.observe(.diagnostic) { event in
            if event.origin == .derived(by: "SceneMemory") { said.append(event.payload.message) }
        }
        defer { token.cancel() }
        let records = try Self.session.split(separator: "\n").dropFirst().map { try LogReader.record(line: Array($0.utf8)) }
        for record in records.prefix(2) { record.event.post(on: bus) }
        loop.run()
        try bus.register(try module.makePlugin())
        loop.advance(to: .seconds(3))
        records[4].event.post(on: bus)
        loop.run()
        #expect(said == ["fields 2"])
    }
}
