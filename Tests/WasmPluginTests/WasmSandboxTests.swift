import EventLog
import Foundation
import ResponderBus
import ResponderBusExternal
import ResponderBusReplay
import ResponderBusWasm
import Testing

/// What one replay of the example gave, with a module's plugin in the pipeline (after the
/// built-ins).
struct WasmReplay {
    var result: ReplayResult
    var derived: [LogRecord]

    /// The messages of the diagnostics `plugin` derived, in order.
    func diagnostics(by plugin: String) -> [String] {
        derived.compactMap {
            guard $0.origin == .derived(by: plugin), case .diagnostic(let diagnostic) = $0.event else { return nil }
            return diagnostic.message
        }
    }

    /// The decisions (everything but diagnostics) `plugin` derived.
    func decisions(by plugin: String) -> [LogRecord] {
        derived.filter {
            guard $0.origin == .derived(by: plugin) else { return false }
            if case .diagnostic = $0.event { return false }
            return true
        }
    }

    /// Derives the example's log from `plugins` (makers), through the built-ins.
    static func run(_ plugins: [PluginMaker], log: String = WasmModules.example) throws -> WasmReplay {
        let pipeline = try ReplayPipeline(PipelineDescription(plugins: plugins))
        let reader = try LogReader(path: log)
        final class Collected: ReplaySink {
            var derived: [LogRecord] = []
            func decided(_ record: consuming LogRecord) { derived.append(record) }
        }
        let collected = Collected()
        let session = try ReplaySession(pipeline: pipeline, header: try reader.readHeader(), sinks: [collected])
        let result = session.finish(session.replay(reader))
        return WasmReplay(result: result, derived: collected.derived)
    }

    /// Derives the example's log through the built-ins and the module.
    static func run(_ module: WasmPluginModule) throws -> WasmReplay {
        try run([PluginMaker { try module.makePlugin() }])
    }
}

@Suite("WebAssembly plugins: the sandbox")
struct WasmSandboxTests {
    /// The built-ins' decisions on the example, without any module.
    static let builtinsAlone: [LogRecord] = (try? WasmReplay.run([]).derived) ?? []

    /// Checks that a module misbehaving on every keyboardWillShow is reported four times, each
    /// naming it, the event and `what`, restarted three times then disabled, and that the replay
    /// went on with the built-ins' decisions unchanged.
    func contained(_ define: String, _ what: String, sandbox: WasmSandbox = WasmSandbox()) throws {
        let module = try WasmModules.load("misbehaving.c", defines: [define], sandbox: sandbox)
        let replayed = try WasmReplay.run(module)
        let faults = replayed.result.pluginFaults
        #expect(faults.count == 4, "\(define): \(faults)")
        #expect(faults.allSatisfy { $0.plugin == "Misbehaving" && $0.what.contains(what) && $0.what.hasSuffix("on keyboardWillShow") }, "\(faults)")
        #expect(faults.prefix(3).map(\.outcome) == (1...3).map { .restarting(in: .zero, attempt: $0, of: 3) })
        #expect(faults.last?.outcome == .disabled(afterFailures: 4))
        #expect(replayed.result.endedPlugins == ["Misbehaving"])
        #expect(replayed.result.summary.externalEvents == 43, "the replay went on to the end")
        #expect(replayed.decisions(by: "Misbehaving").isEmpty, "a call that faults posts no decision")
        let errors = replayed.diagnostics(by: "Misbehaving").filter { $0.contains(what) }
        #expect(errors.first == "plugin 'Misbehaving' \(faults[0].what); restarting it at once (restart 1 of 3)")
        let others = replayed.derived.filter { $0.origin != .derived(by: "Misbehaving") }
        #expect(others == Self.builtinsAlone, "the other plugins decided as without it")
    }

    @Test("a module that loops is stopped by its fuel, named with the event, restarted three times, then disabled")
    func loops() throws {
        try contained("LOOP", "ran out of fuel (1000000 units for one call", sandbox: WasmSandbox(fuelPerDelivery: 1_000_000))
    }

    @Test("a module that traps posts nothing of the call that trapped; the trap is its fault")
    func traps() throws {
        try contained("TRAP", "trapped (unreachable)")
    }

    @Test("a module that grows its memory without bound is stopped at the ceiling")
    func grows() throws {
        try contained("GROW", "grew its memory to 16.1 MiB, past the sandbox's ceiling of 16 MiB")
        try contained("GROW", "past the sandbox's ceiling of 2 MiB", sandbox: WasmSandbox(memoryLimit: 2 << 20))
    }

    @Test("an address outside the module's memory, or a view handle the screen does not have, is refused")
    func refusedArguments() throws {
        try contained("BAD_ADDRESS", "passed rb.log 64 bytes at address 2147483632, outside its memory")
        try contained("BAD_VIEW", "passed rb.post_focus_change view handle 99999, and the screen has 8 views (handles 0 to 7)")
    }

    @Test("with the stop policy, the first fault disables the module and stops the replay after the turn")
    func stopPolicy() throws {
        let module = try WasmModules.load("misbehaving.c", defines: ["TRAP"], sandbox: WasmSandbox(failureMode: .stop))
        let replayed = try WasmReplay.run(module)
        #expect(replayed.result.pluginFaults.map(\.outcome) == [.stopped])
        #expect(replayed.result.stoppedByPlugin?.hasPrefix("plugin 'Misbehaving' trapped (unreachable) on keyboardWillShow") == true)
        #expect(replayed.result.summary.externalEvents < 43)
    }

    @Test("a non-zero return is the plugin's own error, like a Swift plugin's throw: reported, not a fault")
    func errorCode() throws {
        let replayed = try WasmReplay.run(try WasmModules.load("misbehaving.c", defines: ["ERROR_CODE"]))
        #expect(replayed.result.pluginFaults.isEmpty)
        let errors = replayed.derived.compactMap { record -> Diagnostic? in
            guard case .diagnostic(let diagnostic) = record.event, diagnostic.failure == .pluginThrew else { return nil }
            return diagnostic
        }
        #expect(errors.count == 5, "one per keyboardWillShow")
        #expect(errors.first?.message == "plugin 'Misbehaving' returned error 7 from keyboardWillShow")
        #expect(replayed.diagnostics(by: "Misbehaving").filter { $0 == "fine" }.count == 3, "the didShows went on")
    }

    @Test("at most 100 messages per delivery; the rest are counted once")
    func chatty() throws {
        let replayed = try WasmReplay.run(try WasmModules.load("misbehaving.c", defines: ["CHATTY"]))
        let messages = replayed.diagnostics(by: "Misbehaving")
        #expect(messages.filter { $0 == "chatter" }.count == 500, "100 for each of the 5 keyboardWillShow")
        #expect(messages.filter { $0.contains("wrote 50 more messages in one delivery; dropped (the most is 100)") }.count == 5)
    }

    @Test("a module posting 20,000 decisions in one delivery is stopped at the 1,001st, named, its delivery's decisions not posted")
    func decisionFlood() throws {
        try contained("FLOOD", "posted more than 1000 decisions in one delivery (rb.post_action)")
    }

    @Test("a module handing the host 4 MiB action names is stopped before the host holds more than 1 MiB of its text in a delivery")
    func bigNames() throws {
        try contained("BIG_NAMES", "bytes of text, past the 1024 KiB one delivery may hand the host")
    }

    @Test("a module that is a named pipe, or writable by others, is refused at once, never waited for")
    func pipeAndWritableModules() throws {
        let folder = NSTemporaryDirectory() + "rb-wasm-fifo-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/plugin.wasm"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: WasmPluginError.self) { try WasmPluginModule(contentsOf: fifo) }
        do {
            _ = try WasmPluginModule(contentsOf: fifo)
        } catch {
            #expect(error.description.contains("not a regular file"), "\(error)")
        }
        let writable = folder + "/writable.wasm"
        try FileManager.default.copyItem(atPath: try WasmModules.build("misbehaving.c"), toPath: writable)
        #expect(chmod(writable, 0o666) == 0)
        do {
            _ = try WasmPluginModule(contentsOf: writable)
            Issue.record("a module anyone can change was loaded")
        } catch {
            #expect(error.description.contains("writable by anyone (mode 666)"), "\(error)")
        }
    }

    @Test("modules the host refuses at load, each named with what is wrong")
    func refusedModules() throws {
        func refusal(_ make: () throws -> WasmPluginModule) -> WasmPluginError? {
            do {
                _ = try make()
                return nil
            } catch let error as WasmPluginError {
                return error
            } catch {
                return nil
            }
        }
        let cases: [(define: [String], extra: [String], code: WasmPluginError.Code, message: String)] = [
            (
                ["NO_FILES"], [], .unsupportedImport,
                "imports 'wasi_snapshot_preview1.fd_write', which the host does not offer; the sandbox offers no WASI"
            ),
            (["NO_NAME"], [], .handshake, "its rb_init named no plugin"),
            (["UNKNOWN_EVENT"], [], .handshake, "its rb_init asked for event kind 42, which ABI version 1 does not have"),
            (["NOT_READY"], [], .handshake, "its rb_init returned 3, not 0"),
            (["RB_ABI_VERSION=2"], [], .versionMismatch, "was built for version 2 of the plugin ABI; this host speaks version 1"),
            ([], ["-Wl,--initial-memory=33554432"], .memoryLimit, "declares 32 MiB of memory; the sandbox allows 16 MiB"),
        ]
        for refused in cases {
            let path = try WasmModules.build("handshakes.c", defines: refused.define, extra: refused.extra)
            let error = refusal { try WasmPluginModule(contentsOf: path) }
            #expect(error?.code == refused.code, "\(refused.define)")
            #expect(error?.message.contains(refused.message) == true, "\(error?.message ?? "loaded")")
            #expect(error?.message.hasPrefix("WebAssembly plugin '\(path)'") == true)
        }
        let text = refusal { try WasmPluginModule(bytes: Array("not a module at all".utf8), path: "text.wasm") }
        #expect(text?.code == .notWebAssembly)
        #expect(text?.message.contains("does not begin with the bytes \\0asm") == true)
        let truncated = refusal { try WasmPluginModule(bytes: [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 9, 1], path: "cut.wasm") }
        #expect(truncated?.code == .notWebAssembly)
        #expect(truncated?.message.hasPrefix("WebAssembly plugin 'cut.wasm' is not a valid WebAssembly module:") == true)
        let empty = refusal { try WasmPluginModule(bytes: [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0], path: "empty.wasm") }
        #expect(empty?.code == .missingExport)
        #expect(empty?.message.contains("exports no memory named 'memory'") == true)
        let missing = refusal { try WasmPluginModule(contentsOf: "/nonexistent/plugin.wasm") }
        #expect(missing?.code == .unreadable)
    }
}
