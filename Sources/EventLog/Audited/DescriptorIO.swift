import ResponderBusPlatform

/// Reading and writing a whole file descriptor: the C boundary (`read(2)`, `write(2)`) that the
/// replay's output, the project file and the command's files go through.
package enum DescriptorIO {
    /// Writes all of `bytes` to `descriptor`, again after an interruption; the `errno` of the write
    /// that failed, if one did (`EIO` when a write took nothing).
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            offset += written
        }
        return nil
    }

    /// Reads `descriptor` to its end, 64 KiB at a time, again after an interruption.
    ///
    /// - Parameters:
    ///   - sizeHint: the file's size when known, to read into one buffer of that size.
    ///   - maximumSize: stop with ``ReadFailure/tooLarge`` once more than this was read.
    package static func readAll(_ descriptor: Int32, sizeHint: Int? = nil, maximumSize: Int = .max) -> Result<[UInt8], ReadFailure> {
        var bytes: [UInt8] = []
        if let sizeHint, sizeHint > 0 { bytes.reserveCapacity(min(sizeHint, maximumSize) + 1) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = readChunk(descriptor, into: &chunk)
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.error(errno))
            }
            if count == 0 { return .success(bytes) }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > maximumSize { return .failure(.tooLarge) }
        }
    }

    /// What `descriptor` (non-blocking) has now: read until it would block or ends, again after an
    /// interruption; empty when nothing was there.
    package static func readAvailable(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = readChunk(descriptor, into: &chunk)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// One `read(2)` into `chunk`: its result.
    private static func readChunk(_ descriptor: Int32, into chunk: inout [UInt8]) -> Int {
        chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    }

    /// Why ``readAll(_:sizeHint:maximumSize:)`` stopped.
    package enum ReadFailure: Error, Equatable {
        /// `read(2)` failed with this `errno`.
        case error(Int32)
        /// More than the maximum size was there.
        case tooLarge
    }
}
