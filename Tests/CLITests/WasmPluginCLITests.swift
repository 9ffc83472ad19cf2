import Foundation
import ResponderBusExternal
import ResponderBusTesting
import Testing

/// Builds C WebAssembly plugins with the Swift toolchain's clang, for the command's tests.
enum WasmBuild {
    static let cKit = CLI.repository.appendingPathComponent("PluginKits/c-wasm").path

    /// The Swift toolchain's clang, beside the `swiftc` on `PATH` (a system clang may lack the
    /// wasm32 target), as the kits' build scripts find it.
    static let clang: URL = {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let swiftc = URL(fileURLWithPath: String(folder)).appendingPathComponent("swiftc")
            if FileManager.default.isExecutableFile(atPath: swiftc.path) {
                return swiftc.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("clang")
            }
        }
        return URL(fileURLWithPath: "/usr/bin/clang")
    }()

    /// The module built from `source` (a path in the repository) with `defines`.
    static func c(_ source: String, defines: [String] = []) throws -> String {
        let output = try CLI.temporaryFile("", name: URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent + ".wasm")
        let arguments = ["--target=wasm32", "-nostdlib", "-O2", "-Wl,--no-entry", "-I", cKit] + defines.map { "-D" + $0 }
        let run = try CLI.run(arguments + ["-o", output, CLI.repository.appendingPathComponent(source).path], executable: clang)
        guard run.status == 0 else { throw CLIError("clang failed on \(source): \(run.stderr)") }
        return output
    }

    struct CLIError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

@Suite(
    "replay --plugin X.wasm: WebAssembly plugins",
    .enabled(if: CLI.loadsWebAssembly, "responder-bus was built without the WebAssembly trait (--disable-default-traits): it loads no .wasm plugins"))
struct WasmPluginCLITests {
    /// Every log the FieldAdvancing port is compared on: the bundled examples, the fixture logs, the
    /// corpus of real sessions (imported from the fixtures' consoles), and canned sessions on each
    /// device, for each of their text inputs.
    static func logs() throws -> [(name: String, path: String)] {
        var logs: [(String, String)] = []
        let examples = CLI.repository.appendingPathComponent("Sources/responder-bus/Examples")
        for file in try FileManager.default.contentsOfDirectory(atPath: examples.path).sorted() where file.hasSuffix(".jsonl") {
            logs.append((file, examples.appendingPathComponent(file).path))
        }
        let fixtures = CLI.repository.appendingPathComponent("Tests/Fixtures/logs")
        for file in try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted() where file.hasSuffix(".jsonl") {
            logs.append((file, fixtures.appendingPathComponent(file).path))
        }
        for entry in LogCorpus.all {
            logs.append((entry.name, try CLI.temporaryFile(entry.text, name: "corpus.jsonl")))
        }
        // The edges of the ABI: 64-bit tags (UIKit's NSInteger), and an action name longer than
        // any buffer a plugin would think of.
        let header = #"{"format":"responder-bus-log","screen":{"height":812,"width":375},"version":1}"#
        let wide = """
            \(header)
            {"event":"scene","lastFieldAction":"\(String(repeating: "go", count: 2500))","root":{"children":[\
            {"frame":[20,100,335,44],"id":"a","kind":"textField","tag":5000000001},\
            {"frame":[20,200,335,44],"id":"b","kind":"textField","tag":2147483647},\
            {"frame":[20,300,335,44],"id":"c","kind":"textField","tag":5000000000},\
            {"frame":[20,400,335,44],"id":"d","kind":"textField","tag":-5000000000}],"frame":[0,0,375,812],"id":"root","kind":"view"},"t":0}
            {"event":"didBeginEditing","t":1,"view":"d"}
            {"event":"returnKey","t":2,"view":"d"}
            {"event":"returnKey","t":3,"view":"b"}
            {"event":"returnKey","t":4,"view":"c"}
            {"event":"returnKey","t":5,"view":"a"}

            """
        logs.append(("64-bit tags and a long action", try CLI.temporaryFile(wide, name: "wide.jsonl")))
        for device in CannedScreens.Device.all {
            for (name, scene) in [("signUp", CannedScreens.signUp(on: device)), ("login", CannedScreens.login(on: device))] {
                let header = LogWriter.line(for: LogHeader(screen: device.screen, safeArea: device.safeArea))
                var inputs: [ViewSpec] = []
                var pending = [scene.root]
                while let view = pending.popLast() {
                    if view.kind.isTextInput { inputs.append(view) }
                    pending += view.children
                }
                for field in inputs {
                    let records = CannedScreens.session(on: device, scene: scene, focusing: field.id, kind: field.kind)
                    let text = ([header] + records.map(LogWriter.line(for:))).joined(separator: "\n") + "\n"
                    logs.append(("\(device) \(name) \(field.id)", try CLI.temporaryFile(text, name: "canned.jsonl")))
                }
            }
        }
        return logs
    }

    /// The decisions of a `--format jsonl` run: every line but the summary.
    static func decisions(_ run: CLI.Run) -> [Substring] {
        run.stdout.split(separator: "\n").filter { !$0.hasPrefix(#"{"commandPlugins""#) }
    }

    @Test(
        "FieldAdvancing ported to C decides exactly as the built-in on every bundled, corpus and canned session, on virtual time and on libuv, in tag and position order"
    )
    func identicalDecisions() throws {
        let tagOrder = try WasmBuild.c("PluginKits/c-wasm/examples/field_advancing.c")
        let positionOrder = try WasmBuild.c("PluginKits/c-wasm/examples/field_advancing.c", defines: ["FIELD_ORDER_POSITION"])
        let logs = try Self.logs()
        #expect(logs.count > 30)
        var returns = 0
        for (name, log) in logs {
            for (module, order) in [(tagOrder, "tag"), (positionOrder, "position")] {
                let base = ["replay", log, "--format", "jsonl", "--no-project-file", "--field-order", order]
                let builtIn = try CLI.run(base)
                let port = ["--disable", "FieldAdvancing", "--plugin", module + "@after:TextViewOrdering"]
                let virtual = try CLI.run(base + port)
                #expect(builtIn.status == virtual.status, "\(name): \(virtual.stderr)")
                #expect(Self.decisions(virtual) == Self.decisions(builtIn), "\(name), \(order) order")
                if order == "tag", builtIn.stdout.contains(#""by":"FieldAdvancing""#) { returns += 1 }
                if name.hasSuffix(".jsonl") && !name.contains(" ") && log.contains("/Examples/") {
                    let libuv = try CLI.run(base + port + ["--realtime", "--speed", "1000000"])
                    #expect(
                        Self.decisions(libuv) == Self.decisions(builtIn),
                        "\(name) on libuv, \(order) order: status \(libuv.status), standard error: \(libuv.stderr), output: \(libuv.stdout)")
                }
            }
        }
        #expect(returns >= 10, "the comparison covers sessions where FieldAdvancing decided")
    }

    @Test("a module that is not WebAssembly, or imports what the host does not offer, is exit 78 naming what is wrong")
    func malformedModules() throws {
        let text = try CLI.temporaryFile("hello, I am text", name: "text.wasm")
        let refused = try CLI.run(["replay", CLI.example, "--plugin", text])
        #expect(refused.status == 78)
        #expect(refused.stderr.contains("WebAssembly plugin '\(text)' is not a WebAssembly module: it does not begin with the bytes \\0asm"))
        let wasi = try WasmBuild.c("Tests/WasmPluginTests/Modules/handshakes.c", defines: ["NO_FILES"])
        let imports = try CLI.run(["replay", CLI.example, "--plugin", wasi])
        #expect(imports.status == 78)
        #expect(imports.stderr.contains("imports 'wasi_snapshot_preview1.fd_write', which the host does not offer"))
        let check = try CLI.run(["check-plugin", wasi])
        #expect(check.status == 78)
        let missing = try CLI.run(["replay", CLI.example, "--plugin", "/nonexistent/x.wasm"])
        #expect(missing.status == 78)
        #expect(missing.stderr.contains("cannot read WebAssembly plugin '/nonexistent/x.wasm'"))
    }

    @Test(
        "a module that traps: reported and the replay completes; --plugin-failure stop ends with 70; test fails the session; the report shows the fault"
    )
    func faults() throws {
        let trapping = try WasmBuild.c("Tests/WasmPluginTests/Modules/misbehaving.c", defines: ["TRAP"])
        let goOn = try CLI.run(["replay", CLI.example, "--plugin", trapping])
        #expect(goOn.status == 0, "\(goOn.stderr)")
        #expect(goOn.stderr.contains("plugin 'Misbehaving' trapped (unreachable) on keyboardWillShow; restarting it at once (restart 1 of 3)"))
        #expect(goOn.stdout.contains("→ Misbehaving: diagnostic error: plugin 'Misbehaving' trapped (unreachable) on keyboardWillShow"))
        let stop = try CLI.run(["replay", CLI.example, "--plugin", trapping, "--plugin-failure", "stop"])
        #expect(stop.status == 70)
        #expect(stop.stderr.contains("plugin 'Misbehaving' trapped (unreachable) on keyboardWillShow; stopping (--plugin-failure stop)"))
        let suite = try CLI.run(["test", CLI.example, "--plugin", trapping])
        #expect(suite.status == 1, "\(suite.stdout)\(suite.stderr)")
        #expect(suite.stdout.contains("Misbehaving"))
        let report = try CLI.temporaryFile("", name: "report.html")
        let rendered = try CLI.run(["replay", CLI.example, "--plugin", trapping, "--report", report])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("Misbehaving"))
        #expect(html.contains("trapped (unreachable)"))
    }

    /// Writes a plugin with `new-plugin NAME --language LANGUAGE`, runs its own test script, and
    /// uses it in replay (the timeline), check-plugin, the report and test.
    func scaffold(_ name: String, language: String) throws {
        let folder = try PluginCLITests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try CLI.run(["new-plugin", name, "--language", language, "--path", folder, "--responder-bus", CLI.repository.path])
        #expect(made.status == 0, "\(made.stderr)")
        let package = folder + "/" + name
        let test = try CLI.shell("cd '\(package)' && RESPONDER_BUS='\(CLI.binary.path)' ./test.sh")
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.stdout.hasSuffix("all tests passed\n"), "\(test.stdout)")
        let module = package + "/\(name).wasm"
        let replay = try CLI.run(["replay", CLI.example, "--plugin", module])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("→ \(name): diagnostic info: the keyboard showed for 'name'"))
        #expect(replay.stdout.contains("\(name) (loaded)"))
        let report = package + "/report.html"
        #expect(try CLI.run(["replay", CLI.example, "--plugin", module, "--report", report]).status == 0)
        #expect(try String(contentsOfFile: report, encoding: .utf8).contains("the keyboard showed for"))
        let copy = folder + "/again.jsonl"
        try FileManager.default.copyItem(atPath: CLI.example, toPath: copy)
        let suite = try CLI.run(["test", CLI.example, copy, "--plugin", module, "--jobs", "2"])
        #expect(suite.status == 0, "\(suite.stdout)\(suite.stderr)")
        #expect(suite.stdout.contains("2 sessions: 2 passed"))
    }

    @Test("new-plugin --language c-wasm writes a plugin whose test script passes, that replays, passes check-plugin and runs under test")
    func cScaffold() throws {
        try scaffold("FocusC", language: "c-wasm")
    }

    @Test("the fuel default the Swift kit's README and the command's help give is the host's")
    func fuelDefaultSaidAlike() throws {
        let fuel = WasmSandbox.defaultFuel
        let grouped = fuel.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        let readme = try String(contentsOf: CLI.repository.appendingPathComponent("PluginKits/swift-wasm/README.md"), encoding: .utf8)
        #expect(readme.contains("\(grouped) per delivery by default"), "the README should say \(grouped)")
        let help = try CLI.run(["replay", "--help"])
        #expect(help.stdout.contains("default \(fuel);"), "\(help.stdout)")
    }

    @Test("a 9-line C plugin that logs a view's id and rounds a time links at -O2 with the scaffold's build.sh, and runs")
    func smallCPluginLinks() throws {
        let folder = try PluginCLITests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try CLI.run(["new-plugin", "Tiny", "--language", "c-wasm", "--path", folder, "--responder-bus", CLI.repository.path])
        #expect(made.status == 0, "\(made.stderr)")
        let package = folder + "/Tiny"
        // A loop clang turns into strlen at -O2 (the header's rb_strlen, inside rb_log), and a rounding.
        try """
        #include "responder_bus_plugin.h"
        static char id[64];
        int32_t rb_plugin_init(void) { rb_set_name("Tiny"); rb_observe(RB_KEYBOARD_WILL_SHOW); return 0; }
        int32_t rb_plugin_event(int32_t kind, double t, const rb_payload *event) {
            if (rb_event_view_id(id, sizeof id) < 0) rb_log("no view");
            else rb_log(id);
            return rb_round(t * 10) < 0;
        }
        """.write(toFile: package + "/Tiny.c", atomically: true, encoding: .utf8)
        let built = try CLI.shell("cd '\(package)' && ./build.sh")
        #expect(built.status == 0, "\(built.stdout)\(built.stderr)")
        let replay = try CLI.run(["replay", CLI.example, "--plugin", package + "/Tiny.wasm"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("Tiny (loaded)"), "\(replay.stdout)")
    }

    @Test("new-plugin --language swift-wasm writes a plugin whose test script passes, that replays, passes check-plugin and runs under test")
    func swiftScaffold() throws {
        try scaffold("FocusSwift", language: "swift-wasm")
    }
}

extension WasmPluginCLITests {
    @Test("a project file's plugins may be modules, with its pluginFailure, pluginFuel and pluginMemory; the command line's options win")
    func projectFile() throws {
        let folder = try PluginCLITests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let looping = try WasmBuild.c("Tests/WasmPluginTests/Modules/misbehaving.c", defines: ["LOOP"])
        try FileManager.default.copyItem(atPath: looping, toPath: folder + "/looping.wasm")
        try FileManager.default.copyItem(atPath: CLI.example, toPath: folder + "/session.jsonl")
        try #"{"plugins": ["looping.wasm@first"], "pluginFuel": 5000, "pluginFailure": "stop"}"#.write(
            toFile: folder + "/.responder-bus.json", atomically: true, encoding: .utf8)
        chmod(folder + "/.responder-bus.json", 0o644)
        let stopped = try CLI.run(["replay", folder + "/session.jsonl"])
        #expect(stopped.status == 70, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("plugin 'Misbehaving' ran out of fuel (5000 units for one call"))
        #expect(stopped.stdout.contains("plugins: Misbehaving (loaded) → TextViewOrdering"), "\(stopped.stdout)")
        let goOn = try CLI.run(["replay", folder + "/session.jsonl", "--plugin-failure", "continue", "--plugin-fuel", "2000"])
        #expect(goOn.status == 0, "\(goOn.stderr)")
        #expect(
            goOn.stderr.contains(
                "ran out of fuel (2000 units for one call; it loops, or works far too hard) on keyboardWillShow; restarting it at once"))
        try #"{"plugins": ["looping.wasm"], "pluginFuel": 10}"#.write(toFile: folder + "/.responder-bus.json", atomically: true, encoding: .utf8)
        chmod(folder + "/.responder-bus.json", 0o644)
        let bad = try CLI.run(["replay", folder + "/session.jsonl"])
        #expect(bad.status == 78)
        #expect(bad.stderr.contains("key 'pluginFuel': expected 0 (no metering) or at least 1000, got 10"))
    }
}
