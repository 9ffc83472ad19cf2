/// The limits a WebAssembly plugin (`WasmPlugin`, in ResponderBusWasm) runs within, and what a
/// fault does. Here rather than in ResponderBusWasm so that a pipeline description can carry it
/// whether or not the program is built with WebAssembly plugins.
///
/// A module can reach nothing but the host's functions (`WasmPluginABI.imports`): no file, no
/// network, no clock but the replay's. Within that, ``fuelPerDelivery`` bounds the work of one
/// delivery (a module that loops is stopped), and ``memoryLimit`` the memory it may declare or grow
/// to. A fault — a trap, fuel run out, the memory ceiling passed, an address outside its memory
/// given to the host — is reported as an error diagnostic naming the plugin and the event, and
/// handled by ``failureMode``: a fresh instance of the module replaces the faulty one, up to
/// ``maximumRestarts`` times, then the plugin is disabled (or, with `stop`, the session ends).
public struct WasmSandbox: Sendable, Hashable {
    /// The fuel one delivery (or the handshake) may burn — about one unit per WebAssembly
    /// instruction; `nil` turns metering off (a module that loops then hangs the replay).
    public var fuelPerDelivery: UInt64?
    /// The most memory, in bytes, the module may have: one that declares more is refused, one
    /// that grows past it faults.
    public var memoryLimit: Int
    /// What a fault does.
    public var failureMode: ExternalPlugin.FailureMode
    /// How many times a faulty plugin is replaced by a fresh instance before it is disabled.
    public var maximumRestarts: Int

    /// The default fuel per delivery: five million units — about 3 ms of a loop in a release build
    /// here, and room for a rule that walks every view of a 30,000-view screen (the bundled
    /// examples burn a few thousand units an event).
    public static let defaultFuel: UInt64 = 5_000_000

    /// The default memory ceiling: 16 MiB.
    public static let defaultMemoryLimit = 16 << 20

    /// A sandbox; the defaults meter ``defaultFuel`` per delivery, allow ``defaultMemoryLimit`` of
    /// memory and replace a faulty instance up to three times.
    public init(
        fuelPerDelivery: UInt64? = WasmSandbox.defaultFuel, memoryLimit: Int = WasmSandbox.defaultMemoryLimit,
        failureMode: ExternalPlugin.FailureMode = .continue, maximumRestarts: Int = 3
    ) {
        self.fuelPerDelivery = fuelPerDelivery
        self.memoryLimit = memoryLimit
        self.failureMode = failureMode
        self.maximumRestarts = maximumRestarts
    }
}
