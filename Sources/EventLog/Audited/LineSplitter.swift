import ResponderBusPlatform

/// Splits a ``LogReader``'s input into lines: reads it in chunks, finds each newline with
/// `memchr`, gathers a line that spans chunks, skips blank lines, and counts lines and bytes.
///
/// A line longer than the limit is dropped as soon as the limit is passed (never holding more than
/// the limit) and returned as ``Line/tooLong``; the rest of it is skipped without being held, and
/// reading goes on after its newline. A line with no newline in ``skipLimit`` bytes past the limit
/// (an endless stream, a binary file) ends the input, as a failed read does: each is returned once,
/// then the end.
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
    /// Set when an endless line or a failed read ended the input: ``nextLine()`` returns `nil`.
    private var ended = false
    /// While the rest of a line too long is skipped: how many of its bytes past the limit were.
    private var skipped: Int?

    /// How many bytes past the limit a line too long is skipped, looking for its newline, before
    /// the input is taken to be no log: 1 GiB.
    static let skipLimit = 1 << 30

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
        /// A line longer than ``maxLineLength``: dropped, and reading goes on after it.
        case tooLong
        /// A line with no newline within ``skipLimit`` bytes past the limit: the input ends here.
        case endless
        /// A read failed (`errno`): the input ends here.
        case failed(Int32)
    }

    /// Finds the next non-blank line; `nil` at the end of the input.
    mutating func nextLine() -> Line? {
        guard !ended else { return nil }
        while true {
            if skipped != nil {
                switch skipRest() {
                case .skipped: continue
                case .endOfInput: return nil
                case .line(let line): return line
                }
            }
            // Look for a newline in the current chunk.
            if let newline = newlineInChunk() {
                let lineStart = chunkStart
                guard pending.count + (newline - lineStart) <= maxLineLength else {
                    // The whole line is here: dropped, and reading goes on after it.
                    chunkStart = newline + 1
                    bytesConsumed += newline + 1 - lineStart
                    return dropTooLong(skipping: false)
                }
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
                guard pending.count + rest <= maxLineLength else {
                    bytesConsumed += rest
                    chunkStart = chunkEnd
                    return dropTooLong(skipping: true)
                }
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

    /// What skipping the rest of a line too long came to.
    private enum Skip {
        /// Its newline was found: the next line follows.
        case skipped
        /// The input has nothing more for now (followed) or at all.
        case endOfInput
        /// The line is endless, or a read failed: the input ends with this.
        case line(Line)
    }

    /// Skips the rest of a line too long, held nowhere, up to its newline (or as far as the input
    /// goes now).
    private mutating func skipRest() -> Skip {
        while let skippedSoFar = skipped {
            if let newline = newlineInChunk() {
                bytesConsumed += newline + 1 - chunkStart
                chunkStart = newline + 1
                skipped = nil
                return .skipped
            }
            let rest = chunkEnd - chunkStart
            bytesConsumed += rest
            chunkStart = chunkEnd
            guard skippedSoFar + rest <= Self.skipLimit else {
                ended = true
                skipped = nil
                return .line(.endless)
            }
            skipped = skippedSoFar + rest
            switch fill() {
            case .filled: continue
            case .failed(let code):
                ended = true
                return .line(.failed(code))
            case .end:
                // Followed, its newline may come; otherwise the line was the last.
                if !follows { skipped = nil }
                return .endOfInput
            }
        }
        return .skipped
    }

    /// Drops a line longer than the limit, and what was gathered of it; with `skipping`, its
    /// newline is still to come, and the bytes up to it are skipped.
    private mutating func dropTooLong(skipping: Bool) -> Line {
        lineNumber += 1
        pending.removeAll(keepingCapacity: false)
        if skipping { skipped = 0 }
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
        case .tooLong, .endless, .failed:
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
        if case .endless = line {
            return LogReadError(
                .endlessLine, line: lineNumber, column: maxLineLength + 1,
                "the line is longer than \(maxLineLength) bytes, and no newline came in the \(Self.skipLimit >> 30) GiB after; reading stopped here (is this a log?)"
            )
        }
        return LogReadError(
            .lineTooLong, line: lineNumber, column: maxLineLength + 1,
            "the line is longer than \(maxLineLength) bytes, the most a log's line may be; skipped (is this a log?)")
    }

    private enum Fill {
        case filled, end
        case failed(Int32)
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
