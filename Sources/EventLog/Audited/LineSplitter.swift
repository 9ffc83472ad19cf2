#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Splits a ``LogReader``'s input into lines: reads it in chunks, finds each newline with
/// `memchr`, gathers a line that spans chunks, skips blank lines, and counts lines and bytes.
///
/// A line longer than the limit ends the input as soon as the limit is passed, without holding
/// more than the limit or reading on to a newline that may never come (an endless device, a binary
/// file); so does a read that fails. Each is returned once, then the end.
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
    private var reachedEnd = false
    /// Set when a line too long or a failed read ended the input: ``nextLine()`` returns `nil`.
    private var ended = false

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
        /// A line longer than ``maxLineLength``: the input ends here.
        case tooLong
        /// A read failed (`errno`): the input ends here.
        case failed(Int32)
    }

    /// Finds the next non-blank line; `nil` at the end of the input.
    mutating func nextLine() -> Line? {
        guard !ended else { return nil }
        while true {
            // Look for a newline in the current chunk.
            if let newline = newlineInChunk() {
                let lineStart = chunkStart
                guard pending.count + (newline - lineStart) <= maxLineLength else { return endTooLong() }
                chunkStart = newline + 1
                bytesConsumed += newline + 1 - lineStart
                lineNumber += 1
                if !pending.isEmpty {
                    pending.append(contentsOf: chunk[lineStart..<newline])
                    if pending.withUnsafeBufferPointer(Self.isBlank) {
                        pending.removeAll(keepingCapacity: true)
                        continue
                    }
                    return .pending(endsFile: false)
                }
                if chunk.withUnsafeBufferPointer({ Self.isBlank(UnsafeBufferPointer(rebasing: $0[lineStart..<newline])) }) { continue }
                return .chunk(start: lineStart, end: newline)
            }
            // No newline: keep the rest and read more.
            let rest = chunkEnd - chunkStart
            if rest > 0 {
                guard pending.count + rest <= maxLineLength else { return endTooLong() }
                bytesConsumed += rest
                pending.append(contentsOf: chunk[chunkStart..<chunkEnd])
                chunkStart = chunkEnd
            }
            switch fill() {
            case .filled: continue
            case .failed(let code):
                ended = true
                pending.removeAll(keepingCapacity: false)
                return .failed(code)
            case .end:
                if follows { return nil }
                // The end: a last line without a newline.
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

    /// Ends the input at a line longer than the limit, dropping what was gathered of it.
    private mutating func endTooLong() -> Line {
        lineNumber += 1
        ended = true
        pending.removeAll(keepingCapacity: false)
        return .tooLong
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
    mutating func withBytes<T>(of line: Line, _ body: (LineBytes, Bool) -> T) -> T {
        switch line {
        case .chunk(let start, let end):
            return chunk.withUnsafeBufferPointer { body(LineBytes(UnsafeBufferPointer(rebasing: $0[start..<end])), false) }
        case .pending(let endsFile):
            let result = pending.withUnsafeBufferPointer { body(LineBytes($0), endsFile) }
            pending.removeAll(keepingCapacity: !endsFile)
            return result
        case .tooLong, .failed:
            preconditionFailure("a line too long or a failed read has no bytes; the callers report it")
        }
    }

    /// The problem that ended the input at `line` (``Line/tooLong`` or ``Line/failed(_:)``).
    func endingError(_ line: Line) -> LogReadError {
        if case .failed(let code) = line {
            let reason = String(cString: strerror(code))
            return LogReadError(
                .unreadable, line: lineNumber + 1, column: 0, "cannot read the input after line \(lineNumber): \(reason); reading stopped here")
        }
        return LogReadError(
            .lineTooLong, line: lineNumber, column: maxLineLength + 1,
            "the line is longer than \(maxLineLength) bytes, the most a log's line may be; reading stopped here (is this a log?)")
    }

    private enum Fill {
        case filled, end
        case failed(Int32)
    }

    /// Whether the next line can be had without waiting: a whole line is read already, the input
    /// is in memory or has ended, or its descriptor has bytes (or its end) ready now. A pipe whose
    /// writer has written nothing more is not ready; a regular file always is.
    func hasLineReady() -> Bool {
        guard !ended, !reachedEnd, case .file(let descriptor, _) = source else { return true }
        if chunkStart < chunkEnd, chunk[chunkStart..<chunkEnd].contains(UInt8(ascii: "\n")) { return true }
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, 0) != 0
    }

    /// Reads the next chunk.
    private mutating func fill() -> Fill {
        guard !reachedEnd, case .file(let descriptor, _) = source else { return .end }
        chunkStart = 0
        chunkEnd = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, Self.chunkSize) }
            if count > 0 {
                chunkEnd = count
                return .filled
            }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                // A descriptor set non-blocking by someone else, with nothing yet: the end for now
                // (for good, once the input is no longer followed: a follow that ended).
                if code == EAGAIN {
                    if !follows { reachedEnd = true }
                    return .end
                }
                reachedEnd = true
                return .failed(code)
            }
            if !follows { reachedEnd = true }
            return .end
        }
    }
}
