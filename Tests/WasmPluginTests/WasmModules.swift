import Foundation
import ResponderBusExternal
import ResponderBusWasm
import Synchronization

/// Builds the test modules (`Modules/*.c`) and the kits' examples with the Swift toolchain's clang,
/// once per source and defines, into a folder of this test process's own.
enum WasmModules {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let modules = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Modules")
    static let cKit = repository.appendingPathComponent("PluginKits/c-wasm")
    static let example = repository.appendingPathComponent("Sources/responder-bus/Examples/sign-up-session.jsonl").path

    struct BuildError: Error, CustomStringConvertible {
        var description: String
    }

    /// The toolchain's folder: the one `swiftc` on `PATH` resolves into.
    static let toolchainBin: String = {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swiftc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate.resolvingSymlinksInPath().deletingLastPathComponent().path
            }
        }
        return "/usr/bin"
    }()

    /// The modules built and the files the tests write: one folder per test process, removed when
    /// it exits.
    static let folder: String = {
        let path = NSTemporaryDirectory() + "rb-wasm-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "rb-wasm-tests-\(getpid())") }
        return path
    }()
    private static let built = Mutex<[String: String]>([:])

    /// The module built from `source` (a path, or a file of `Modules/`) with `defines` (`LOOP`,
    /// `RB_ABI_VERSION=2`) and extra clang arguments.
    static func build(_ source: String, defines: [String] = [], extra: [String] = []) throws -> String {
        let path = source.hasPrefix("/") ? source : modules.appendingPathComponent(source).path
        let key = ([path] + defines + extra).joined(separator: " ")
        if let known = built.withLock({ $0[key] }) { return known }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let output = folder + "/\(name)-\(abs(key.hashValue)).wasm"
        let arguments =
            ["--target=wasm32", "-nostdlib", "-O2", "-Wl,--no-entry", "-I", cKit.path] + defines.map { "-D" + $0 } + extra + ["-o", output, path]
        let run = try Self.run(toolchainBin + "/clang", arguments)
        guard run.status == 0 else { throw BuildError(description: "clang \(arguments.joined(separator: " ")) failed: \(run.output)") }
        built.withLock { $0[key] = output }
        return output
    }

    /// Runs a program and collects its standard output and error together.
    static func run(_ program: String, _ arguments: [String], in directory: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The module built from `source`, loaded within `sandbox`.
    static func load(_ source: String, defines: [String] = [], sandbox: WasmSandbox = WasmSandbox()) throws -> WasmPluginModule {
        try WasmPluginModule(contentsOf: try build(source, defines: defines), sandbox: sandbox)
    }
}
