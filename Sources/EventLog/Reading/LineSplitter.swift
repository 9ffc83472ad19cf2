#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits a ``LogReader``'s input into lines: reads it in chunks, finds each newline with
/// `memchr`, gathers a line that spans chunks, skips blank lines and lines longer than the limit
/// without holding them, and counts lines and bytes.
///
/// A value, owned by its reader: everything that changes for each line is here, so that the
/// reader's one call per record checks exclusive access once (a struct's fields are checked when
/// compiled), not once per field.
struct LineSplitter {
    /// The longest line accepted, in bytes.
    let maxLineLength: Int
    /// Where the bytes come from.
    let source: ByteSource
    /// How many bytes have been consumed so far.
    private(set) var bytesConsumed = 0
    /// The number of the last line read.
    private(set) var lineNumber = 0
    /// Whether the input may still grow (see ``LogReader/follows``).
    var follows = false

    private var chunk: [UInt8]
    private var chunkStart = 0
    private var chunkEnd = 0
    private var pending: [UInt8] = []
    private var pendingTooLong = false
    private var reachedEnd = false

    private static let chunkSize = 1 << 16

    init(source: ByteSource, maxLineLength: Int) {
        self.source = source
        self.maxLineLength = maxLineLength
        if case .memory(let bytes) = source {
            chunk = bytes
            chunkEnd = bytes.count
            reachedEnd = true
        } else {
            chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        }
    }

    /// Where the next line is: in the current chunk, or gathered in `pending` (a line that spans
    /// chunks, or the file's last line without a newline).
    enum Line {
        /// `chunk[start..<end]`.
        case chunk(start: Int, end: Int)
        /// `pending`; `endsFile` when it is the file's last line and had no newline.
        case pending(endsFile: Bool)
        /// A line longer than ``maxLineLength``, skipped.
        case tooLong
    }

    /// Finds the next non-blank line; `nil` at the end of the input.
    mutating func nextLine() -> Line? {
        while true {
            // Look for a newline in the current chunk.
            if let newline = newlineInChunk() {
                let lineStart = chunkStart
                chunkStart = newline + 1
                bytesConsumed += newline + 1 - lineStart
                lineNumber += 1
                if pendingTooLong {
                    pendingTooLong = false
                    pending.removeAll(keepingCapacity: false)
                    return .tooLong
                }
                if !pending.isEmpty {
                    guard pending.count + (newline - lineStart) <= maxLineLength else {
                        pending.removeAll(keepingCapacity: false)
                        return .tooLong
                    }
                    pending.append(contentsOf: chunk[lineStart..<newline])
                    if pending.withUnsafeBufferPointer(Self.isBlank) {
                        pending.removeAll(keepingCapacity: true)
                        continue
                    }
                    return .pending(endsFile: false)
                }
                guard newline - lineStart <= maxLineLength else { return .tooLong }
                if chunk.withUnsafeBufferPointer({ Self.isBlank(UnsafeBufferPointer(rebasing: $0[lineStart..<newline])) }) { continue }
                return .chunk(start: lineStart, end: newline)
            }
            // No newline: keep the rest and read more.
            let rest = chunkEnd - chunkStart
            if rest > 0 {
                bytesConsumed += rest
                if pendingTooLong || pending.count + rest > maxLineLength {
                    pendingTooLong = true
                    pending.removeAll(keepingCapacity: false)
                } else {
                    pending.append(contentsOf: chunk[chunkStart..<chunkEnd])
                }
                chunkStart = chunkEnd
            }
            if !fill() {
                if follows { return nil }
                // The end: a last line without a newline.
                if pendingTooLong {
                    pendingTooLong = false
                    lineNumber += 1
                    return .tooLong
                }
                guard !pending.isEmpty else { return nil }
                lineNumber += 1
                if pending.withUnsafeBufferPointer(Self.isBlank) {
                    pending.removeAll()
                    return nil
                }
                return .pending(endsFile: true)
            }
        }
    }

    /// The offset of the next newline in the current chunk (`memchr`).
    @inline(__always)
    private func newlineInChunk() -> Int? {
        let start = chunkStart
        let count = chunkEnd - start
        guard count > 0 else { return nil }
        return chunk.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, let found = memchr(base + start, 0x0A, count) else { return nil }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }
    }

    /// Whether a line holds only spaces, tabs and carriage returns.
    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in line where byte != 0x20 && byte != 0x09 && byte != 0x0D { return false }
        return true
    }

    /// Calls `body` with the bytes of `line` (the whole line, without its newline) and whether it
    /// ends the file. A line gathered in `pending` is dropped afterwards.
    @inline(__always)
    mutating func withBytes<T>(of line: Line, _ body: (UnsafeBufferPointer<UInt8>, Bool) -> T) -> T {
        switch line {
        case .chunk(let start, let end):
            return chunk.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<end]), false) }
        case .pending(let endsFile):
            let result = pending.withUnsafeBufferPointer { body($0, endsFile) }
            pending.removeAll(keepingCapacity: !endsFile)
            return result
        case .tooLong:
            preconditionFailure("a line too long has no bytes; the callers report it")
        }
    }

    func tooLongError() -> LogReadError {
        LogReadError(
            .lineTooLong, line: lineNumber, column: maxLineLength + 1,
            "the line is longer than \(maxLineLength) bytes; skipped without reading it into memory")
    }

    /// Reads the next chunk; `false` at the end of the input.
    private mutating func fill() -> Bool {
        guard !reachedEnd, case .file(let descriptor, _) = source else { return false }
        chunkStart = 0
        chunkEnd = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, Self.chunkSize) }
            if count > 0 {
                chunkEnd = count
                return true
            }
            if count < 0 && errno == EINTR { continue }
            if !follows { reachedEnd = true }
            return false
        }
    }
}
