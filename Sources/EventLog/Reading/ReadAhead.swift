import ResponderBus

/// Reads and parses a log on a thread of its own, a few batches ahead of the replay that consumes
/// it, so that parsing overlaps with delivery on a second core.
///
/// A virtual-time replay spends about a fifth of its time reading and parsing lines; the rest is
/// the bus, the plugins and the output, which must stay on the loop. The reader thread hands over
/// batches of items — records, and the rejected lines among them — in line order, through a
/// bounded `BatchChannel` (sixteen batches of ``batchSize`` items by default; a reader waiting for
/// room is woken once eight are taken), so memory stays flat in the log's size. The channel is
/// deep enough that the replay does not run dry while a sleeping reader wakes (the README's
/// benchmark section has the measurements). The consumer takes each
/// record out of its batch's buffer by moving it: nothing is copied or retained twice, and no
/// ``LogReader/Item`` is made for a record the replay posts.
///
/// A thread only for inputs that end (a regular file or bytes in memory): a batch is handed over
/// when it is full, so a slow pipe or a followed file would see its records late. Those are read on
/// the caller's thread, one record a batch.
final class ReadAhead: @unchecked Sendable {
    /// Items read together, with the reader's byte count after the last of them (for progress).
    ///
    /// Each item's kind and time are kept beside it, so that the replay can look at the next
    /// record's `t` without taking the record out (and copying it) before its turn.
    final class Batch {
        /// What an item is.
        enum Kind: UInt8 {
            case problem, derived, external
        }

        /// The records, where the kind is not a problem (moved out when taken).
        let records: UnsafeMutablePointer<LogRecord>
        /// Where each record came from, beside it.
        let locations: UnsafeMutablePointer<RecordLocation>
        /// The rejected lines, in order: an item whose kind is a problem is the next of these.
        private var problems: [LogReadError] = []
        private var problemsTaken = 0
        let kinds: UnsafeMutablePointer<Kind>
        /// The `t` of each record (0 for a problem).
        let times: UnsafeMutablePointer<Double>
        /// The view each record names, if any (found here, on the reader's thread, so that the
        /// replay checks it against the screen without looking into the record).
        let views: UnsafeMutablePointer<ViewID?>
        private(set) var count = 0
        private(set) var bytesConsumed = 0
        /// Items before this index have been moved out.
        private(set) var taken = 0

        private init(capacity: Int) {
            records = .allocate(capacity: capacity)
            locations = .allocate(capacity: capacity)
            kinds = .allocate(capacity: capacity)
            times = .allocate(capacity: capacity)
            views = .allocate(capacity: capacity)
        }

        /// Whether an item is left.
        @inline(__always) var hasItem: Bool { taken < count }
        /// The next item's kind; call only when ``hasItem``.
        @inline(__always) var nextKind: Kind { kinds[taken] }
        /// The next item's `t`; call only when ``hasItem``.
        @inline(__always) var nextTime: Double { times[taken] }
        /// The view the next item names; call only when ``hasItem``.
        @inline(__always) var nextView: ViewID? { views[taken] }

        /// Moves the next item out; call only when ``hasItem``.
        func take() -> LogReader.Item {
            if kinds[taken] == .problem {
                defer {
                    problemsTaken += 1
                    taken += 1
                }
                return .problem(problems[problemsTaken])
            }
            defer { taken += 1 }
            return .record((records + taken).move(), locations[taken])
        }

        /// Moves the next record out, with where it came from; call only when ``hasItem`` and the
        /// next kind is not a problem. (A record moved straight out of its own buffer: the replay's
        /// path for every external record, with no ``LogReader/Item`` made and taken apart.)
        @inline(__always)
        func takeRecord() -> (record: LogRecord, location: RecordLocation) {
            defer { taken += 1 }
            return ((records + taken).move(), locations[taken])
        }

        /// Reads up to `capacity` items from `reader`; `nil` when it has none left.
        static func read(_ reader: LogReader, capacity: Int) -> Batch? {
            let batch = Batch(capacity: capacity)
            var problems: [LogReadError] = []
            var count = 0
            while count < capacity, let item = reader.next() {
                switch item {
                case .problem(let error):
                    batch.kinds[count] = .problem
                    batch.times[count] = 0
                    (batch.views + count).initialize(to: nil)
                    problems.append(error)
                case .record(let record, let location):
                    batch.kinds[count] = record.origin == .external ? .external : .derived
                    batch.times[count] = record.t
                    (batch.views + count).initialize(to: location.viewColumn == nil ? nil : record.event.viewID)
                    (batch.records + count).initialize(to: record)
                    (batch.locations + count).initialize(to: location)
                }
                count += 1
            }
            guard count > 0 else { return nil }
            batch.count = count
            batch.problems = problems
            batch.bytesConsumed = reader.bytesConsumed
            return batch
        }

        deinit {
            for index in taken..<count where kinds[index] != .problem {
                (records + index).deinitialize(count: 1)
            }
            views.deinitialize(count: count)
            records.deallocate()
            locations.deallocate()
            kinds.deallocate()
            times.deallocate()
            views.deallocate()
        }
    }

    /// How many items a batch holds at most.
    let batchSize: Int
    private let channel: BatchChannel<Batch>
    /// Touched only by the reader thread between `init` and ``finish()`` (or by the caller's
    /// thread, when no thread could be made).
    let reader: LogReader
    private var threaded = false

    /// Starts reading `reader` on a new thread, or (with `threaded` false) on the caller's thread
    /// as batches are asked for. Call ``finish()`` before touching `reader` again.
    init(_ reader: LogReader, threaded: Bool = true, batchSize: Int = 256, capacity: Int = 16) {
        precondition(batchSize > 0)
        self.reader = reader
        self.batchSize = batchSize
        channel = BatchChannel(capacity: capacity)
        guard threaded else { return }
        // No thread to be had: `next()` reads on the caller's thread instead, as if none were asked.
        self.threaded = channel.spawn { [self] in
            while let batch = readBatch() {
                guard channel.put(batch) else { return }
            }
            channel.close()
        }
    }

    /// The next batch, waiting for the reader thread if need be; `nil` at the end of the input.
    func next() -> Batch? {
        threaded ? channel.take() : readBatch()
    }

    /// Stops the reader thread (it may be ahead of the consumer) and waits for it. Idempotent; the
    /// reader may be used again afterwards.
    func finish() {
        guard threaded else { return }
        channel.cancel()
        channel.join()
        threaded = false
    }

    /// Reads up to ``batchSize`` items; `nil` at the end of the input.
    private func readBatch() -> Batch? {
        Batch.read(reader, capacity: batchSize)
    }
}
