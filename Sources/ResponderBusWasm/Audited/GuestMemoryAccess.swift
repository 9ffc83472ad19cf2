import ResponderBus
import WasmKit

/// The one place the WebAssembly host touches a module's memory and the engine's argument buffers
/// through pointers: every access is bounds-checked against the memory's size at the moment of the
/// access, so that an address a module passes can never reach outside its own memory.
///
/// Invariants: a pointer never outlives the closure it is lent to; an access whose range does not
/// lie wholly inside the memory is refused (`nil`, `false`, or ``GuestFault/outOfBounds``) before
/// any byte is read or written. Values are little-endian, as WebAssembly's are.
struct GuestMemoryAccess {
    let memory: Memory

    /// The memory's size in bytes now (it can grow during a call).
    var byteCount: Int { memory.byteCount }

    /// Whether `count` bytes from `address` lie inside the memory.
    func contains(_ address: UInt32, count: Int) -> Bool {
        count >= 0 && Int(address) + count <= memory.byteCount
    }

    /// The bytes at `address`, or `nil` when they are not all inside the memory.
    func bytes(at address: UInt32, count: Int) -> [UInt8]? {
        guard contains(address, count: count) else { return nil }
        guard count > 0 else { return [] }
        return memory.withUnsafeBufferPointer(offset: UInt(address), count: count) { Array($0) }
    }

    /// Copies `bytes` (at most `capacity` of them) to `address`; `false` when the range is not
    /// inside the memory.
    func write(_ bytes: some Collection<UInt8>, at address: UInt32, capacity: Int) -> Bool {
        let count = min(bytes.count, max(capacity, 0))
        guard contains(address, count: count) else { return false }
        guard count > 0 else { return true }
        memory.withUnsafeMutableBufferPointer(offset: UInt(address), count: count) { buffer in
            for (index, byte) in bytes.prefix(count).enumerated() { buffer[index] = byte }
        }
        return true
    }

    /// Zeroes the `size` bytes at `address` and lends `body` a writer over them: one access for a
    /// whole record; `false` (nothing written) when the bytes are not inside the memory.
    @discardableResult
    func writeRecord(at address: UInt32, size: Int, _ body: (inout GuestRecordWriter) -> Void) -> Bool {
        guard contains(address, count: size), size > 0 else { return size == 0 }
        memory.withUnsafeMutableBufferPointer(offset: UInt(address), count: size) { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            var writer = GuestRecordWriter(buffer)
            body(&writer)
        }
        return true
    }
}

/// Writes the fields of one fixed-layout record into a module's memory, each at its byte offset;
/// lent by ``GuestMemoryAccess/writeRecord(at:size:_:)`` for the length of its closure, and never
/// outside the record (an offset past its end stops with a precondition failure: a host bug).
struct GuestRecordWriter: ~Copyable {
    private let buffer: UnsafeMutableRawBufferPointer

    fileprivate init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }

    /// An `i32` at `offset`.
    mutating func i32(_ offset: Int, _ value: Int32) {
        precondition(offset >= 0 && offset + 4 <= buffer.count, "a record field past the record's end")
        buffer.storeBytes(of: value.littleEndian, toByteOffset: offset, as: Int32.self)
    }

    /// An `f64` at `offset`.
    mutating func f64(_ offset: Int, _ value: Double) {
        precondition(offset >= 0 && offset + 8 <= buffer.count, "a record field past the record's end")
        buffer.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: offset, as: UInt64.self)
    }

    /// A rectangle's x, y, width and height as four `f64`s from `offset`.
    mutating func rect(_ offset: Int, _ rect: Rect) {
        f64(offset, rect.origin.x)
        f64(offset + 8, rect.origin.y)
        f64(offset + 16, rect.size.width)
        f64(offset + 24, rect.size.height)
    }
}

/// A host function's arguments, read by position and type; a wrong type is a ``GuestFault``
/// (the engine checks the types at instantiation, so it does not happen).
struct HostArguments: ~Copyable {
    private let values: UnsafeBufferPointer<Value>

    fileprivate init(_ values: UnsafeBufferPointer<Value>) { self.values = values }

    func i32(_ index: Int) throws(GuestFault) -> Int32 {
        guard index < values.count, case .i32(let bits) = values[index] else { throw .wrongArgument }
        return Int32(bitPattern: bits)
    }

    func u32(_ index: Int) throws(GuestFault) -> UInt32 {
        guard index < values.count, case .i32(let bits) = values[index] else { throw .wrongArgument }
        return bits
    }

    func f64(_ index: Int) throws(GuestFault) -> Double {
        guard index < values.count, case .f64(let bits) = values[index] else { throw .wrongArgument }
        return Double(bitPattern: bits)
    }
}

/// A host function's result.
enum HostResult {
    case none
    case i32(Int32)
    case f64(Double)
}

/// Why a host function refused a call: the call traps, and the plugin's fault names the reason.
enum GuestFault: Error, Equatable {
    /// An address and length that do not lie inside the module's memory.
    case outOfBounds(function: String, address: UInt32, count: Int)
    /// Something else the ABI does not allow, in words.
    case refused(String)
    /// An argument of the wrong type.
    case wrongArgument
}

extension Function {
    /// A host function in the engine's buffer form (no allocation per call), whose body reads its
    /// arguments through ``HostArguments`` and returns its one result, if any.
    init(
        store: Store, parameters: [ValueType], results: [ValueType],
        host body: @escaping (borrowing HostArguments) throws(GuestFault) -> HostResult
    ) {
        self.init(
            store: store, parameters: parameters, results: results,
            raw: { _, arguments, results in
                let produced = try body(HostArguments(arguments))
                switch produced {
                case .none: break
                case .i32(let value): results[0] = .i32(UInt32(bitPattern: value))
                case .f64(let value): results[0] = .f64(value.bitPattern)
                }
            })
    }
}
