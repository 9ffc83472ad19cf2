import ResponderBus
import ResponderBusExternal
// `Store.resourceLimiter`, the engine's one hook for a memory ceiling, is SPI in WasmKit 0.4.2
// (pinned up to the next minor version in Package.swift).
@_spi(Fuzzing) import WasmKit

/// What a module's handshake said.
struct GuestHello: Sendable {
    var name: String
    var events: [Int32]
    var position: PluginPosition?
}

/// One instance of a plugin module: its store, its memory, its entry points, and the host's side
/// of its imports. Loop-confined, like the plugin that owns it.
final class GuestInstance {
    let host: HostState
    private let store: Store
    private let onEvent: Function
    private let fuel: UInt64?
    private var stack: ExecutionStack
    /// Where the host writes each event's payload.
    let eventBuffer: UInt32
    /// The memory, bounds-checked.
    let memory: GuestMemoryAccess
    /// What the handshake said.
    let hello: GuestHello

    /// Instantiates `module` within `sandbox` and runs its handshake.
    init(module: Module, label: String, sandbox: WasmSandbox) throws(WasmPluginError) {
        let engine = Engine(configuration: EngineConfiguration(memoryBoundsChecking: .software, fuelMetering: sandbox.fuelPerDelivery != nil))
        let store = Store(engine: engine)
        store.resourceLimiter = MemoryCeiling(bytes: sandbox.memoryLimit)
        let fuel = sandbox.fuelPerDelivery
        let host = HostState()
        var imports = Imports()
        for (name, function) in host.functions(store: store) {
            imports.define(module: WasmPluginABI.importModule, name: name, function)
        }
        if let fuel { store.fuel = Fuel(remaining: fuel) }
        let instance = try Self.instantiate(module, store: store, imports: imports, label: label, sandbox: sandbox)
        guard let exported = instance.exports[memory: WasmPluginABI.Export.memory] else {
            throw WasmPluginError(.missingExport, "\(label) exports no memory named 'memory'; the host reads the event buffer and strings there")
        }
        let memory = GuestMemoryAccess(memory: exported)
        host.memory = memory
        func export(_ name: String, _ parameters: [ValueType], _ results: [ValueType]) throws(WasmPluginError) -> Function {
            try Self.export(name, parameters, results, of: instance, label: label)
        }
        func call(_ function: Function, _ what: String) throws(WasmPluginError) -> Int32 {
            try Self.call(function, what, store: store, fuel: fuel, label: label)
        }
        let version = try export(WasmPluginABI.Export.abiVersion, [], [.i32])
        let initialize = try export(WasmPluginABI.Export.initialize, [], [.i32])
        let buffer = try export(WasmPluginABI.Export.eventBuffer, [], [.i32])
        let onEvent = try export(WasmPluginABI.Export.onEvent, [.i32, .f64], [.i32])
        let abi = try call(version, "rb_abi_version")
        guard abi == WasmPluginABI.version else {
            throw WasmPluginError(
                .versionMismatch, "\(label) was built for version \(abi) of the plugin ABI; this host speaks version \(WasmPluginABI.version)")
        }
        host.phase = .handshake
        let ready = try call(initialize, "rb_init")
        host.phase = .idle
        if let refusal = host.handshakeProblem {
            throw WasmPluginError(.handshake, "\(label): its rb_init \(refusal)")
        }
        guard ready == 0 else { throw WasmPluginError(.handshake, "\(label): its rb_init returned \(ready), not 0: it is not ready") }
        guard let name = host.name, !name.isEmpty else {
            throw WasmPluginError(.handshake, "\(label): its rb_init named no plugin: call rb.set_name (rb_set_name in the kits) in it")
        }
        let address = UInt32(bitPattern: try call(buffer, "rb_event_buffer"))
        guard memory.contains(address, count: WasmPluginABI.eventBufferSize) else {
            throw WasmPluginError(
                .handshake,
                "\(label): its event buffer (address \(address)) does not hold \(WasmPluginABI.eventBufferSize) bytes inside its memory")
        }
        self.host = host
        self.store = store
        self.onEvent = onEvent
        self.fuel = fuel
        self.stack = ExecutionStack(engine: engine)
        self.eventBuffer = address
        self.memory = memory
        self.hello = GuestHello(name: name, events: host.requestedKinds, position: host.position)
    }

    /// The module instantiated in `store` with the host's functions; a memory past the sandbox's
    /// ceiling, or any other failure, is named.
    private static func instantiate(
        _ module: Module, store: Store, imports: Imports, label: String, sandbox: WasmSandbox
    ) throws(WasmPluginError) -> Instance {
        do {
            return try module.instantiate(store: store, imports: imports)
        } catch let error as MemoryCeiling.Exceeded {
            throw WasmPluginError(
                .memoryLimit,
                "\(label) declares \(mebibytes(error.bytes)) of memory; the sandbox allows \(mebibytes(sandbox.memoryLimit))")
        } catch {
            throw WasmPluginError(.instantiation, "\(label) cannot be instantiated: \(error)")
        }
    }

    /// The function the ABI needs under `name`, of its type; a missing or mistyped one is named.
    private static func export(
        _ name: String, _ parameters: [ValueType], _ results: [ValueType], of instance: Instance, label: String
    ) throws(WasmPluginError) -> Function {
        guard let function = instance.exports[function: name] else {
            throw WasmPluginError(.missingExport, "\(label) exports no function '\(name)', which the ABI needs (see WebAssemblyPluginABI)")
        }
        guard function.type.parameters == parameters, function.type.results == results else {
            throw WasmPluginError(
                .missingExport,
                "\(label) exports '\(name)' as \(spelled(function.type)), and the ABI wants \(spelled(FunctionType(parameters: parameters, results: results)))"
            )
        }
        return function
    }

    /// Calls a handshake function with a fresh fuel budget; its `i32` result.
    private static func call(_ function: Function, _ what: String, store: Store, fuel: UInt64?, label: String) throws(WasmPluginError) -> Int32 {
        let results: [Value]
        do {
            if let fuel { store.fuel = Fuel(remaining: fuel) }
            results = try function.invoke([])
        } catch {
            throw WasmPluginError(.handshake, "\(label): its \(what) failed: \(describe(error, fuel: fuel))")
        }
        guard case .i32(let bits) = results.first else {
            throw WasmPluginError(.handshake, "\(label): its \(what) returned no i32")
        }
        return Int32(bitPattern: bits)
    }

    /// Calls `rb_on_event` with the payload already written; the fuel budget is renewed first.
    func deliver(kind: Int32, t: Double) throws -> Int32 {
        if let fuel { store.fuel = Fuel(remaining: fuel) }
        let results = try onEvent.invoke([.i32(UInt32(bitPattern: kind)), .f64(t.bitPattern)], on: &stack)
        guard case .i32(let bits) = results.first else { return 0 }
        return Int32(bitPattern: bits)
    }

    /// An error from a call, in words: fuel, the memory ceiling, a host function's refusal, a trap.
    static func describe(_ error: any Error, fuel: UInt64?) -> String {
        if let exceeded = error as? MemoryCeiling.Exceeded {
            return "grew its memory to \(mebibytes(exceeded.bytes)), past the sandbox's ceiling of \(mebibytes(exceeded.limit))"
        }
        if let fault = error as? GuestFault {
            switch fault {
            case .outOfBounds(let function, let address, let count):
                return "passed rb.\(function) \(count) bytes at address \(address), outside its memory"
            case .refused(let why): return why
            case .wrongArgument: return "called a host function with arguments of the wrong type"
            }
        }
        // A trap's description is its reason, then the module's backtrace: the reason is enough.
        let text = "\(error)".split(separator: "\n", maxSplits: 1).first.map(String.init) ?? "\(error)"
        if text.lowercased().contains("fuel") {
            return "ran out of fuel (\(fuel.map(String.init) ?? "?") units for one call; it loops, or works far too hard)"
        }
        return "trapped (\(text.hasPrefix("Trap: ") ? String(text.dropFirst(6)) : text))"
    }

    static func mebibytes(_ bytes: Int) -> String {
        if bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }

    static func spelled(_ type: FunctionType) -> String {
        func list(_ types: [ValueType]) -> String { "(" + types.map { "\($0)" }.joined(separator: ", ") + ")" }
        return list(type.parameters) + " -> " + list(type.results)
    }
}

/// The sandbox's memory ceiling, as the engine asks it at every allocation and growth.
final class MemoryCeiling: ResourceLimiter {
    /// A growth past the ceiling: the call that asked for it fails.
    struct Exceeded: Error {
        let bytes: Int
        let limit: Int
    }
    let bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    func limitMemoryGrowth(to desired: Int) throws -> Bool {
        guard desired <= bytes else { throw Exceeded(bytes: desired, limit: bytes) }
        return true
    }

    func limitTableGrowth(to desired: Int) throws -> Bool { desired <= 100_000 }
}
