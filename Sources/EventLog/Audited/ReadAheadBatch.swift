import ResponderBus

extension ReadAhead {
    /// Items read together, with the reader's byte count after the last of them (for progress).
    ///
    /// Each item's kind and time are kept beside it, so that the replay can look at the next
    /// record's `t` without taking the record out (and copying it) before its turn.
    ///
    /// Part of the reader's audited layer: the items live in five buffers of its own, allocated once;
    /// one array of item structs cost measurably more on both the reader's and the replay's thread
    /// (the benchmark documentation has the counts).
    ///
    /// ## Invariant
    ///
    /// Filled by ``read(_:capacity:)`` on the reader's thread before the channel hands it over (or
    /// by ``make(_:bytesConsumed:)`` on the replay's), then used by one thread only, the replay's. The first ``count`` entries of `kinds`, `times` and
    /// `views` are initialized; of `records` and `locations`, those whose kind is not a problem. An
    /// item's record and view are moved out exactly once (``take()`` or ``takeRecord()``, which
    /// advance ``taken``), and `deinit` deinitializes only the records and views not taken, so none
    /// is destroyed twice or leaked (and a batch the replay went through, the usual case, has
    /// nothing left to destroy).
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
        /// Moves the next item out; call only when ``hasItem``.
        func take() -> LogReader.Item {
            (views + taken).deinitialize(count: 1)
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

        /// Moves the view the next item names out; call only when ``hasItem``, once, right before
        /// ``takeRecord()``.
        @inline(__always)
        func takeView() -> ViewID? {
            (views + taken).move()
        }

        /// Moves the next record out, with where it came from; call only when ``hasItem``, the next
        /// kind is not a problem and its view was taken (``takeView()``). (A record moved straight
        /// out of its own buffer: the replay's path for every external record, with no
        /// ``LogReader/Item`` made and taken apart.)
        @inline(__always)
        func takeRecord() -> (record: LogRecord, location: RecordLocation) {
            defer { taken += 1 }
            return ((records + taken).move(), locations[taken])
        }

        /// Reads up to `capacity` items from `reader`; `nil` when it has none left.
        static func read(_ reader: LogReader, capacity: Int) -> Batch? {
            let batch = Batch(capacity: capacity)
            _ = reader.next(upTo: capacity) { item in batch.append(item) }
            guard batch.count > 0 else { return nil }
            batch.bytesConsumed = reader.bytesConsumed
            return batch
        }

        /// A batch of `items`, handed over in order (a live replay's: the items its watermark let
        /// through); `nil` when there are none.
        static func make(_ items: consuming [LogReader.Item], bytesConsumed: Int) -> Batch? {
            guard !items.isEmpty else { return nil }
            let batch = Batch(capacity: items.count)
            for item in items { batch.append(item) }
            batch.bytesConsumed = bytesConsumed
            return batch
        }

        /// Puts `item` after the last one; only while filling, within the capacity.
        @inline(__always)
        private func append(_ item: consuming LogReader.Item) {
            switch consume item {
            case .problem(let error):
                kinds[count] = .problem
                times[count] = 0
                (views + count).initialize(to: nil)
                problems.append(error)
            case .record(let record, let location):
                kinds[count] = record.origin == .external ? .external : .derived
                times[count] = record.t
                (views + count).initialize(to: location.viewColumn == nil ? nil : record.event.viewID)
                (records + count).initialize(to: record)
                (locations + count).initialize(to: location)
            }
            count += 1
        }

        deinit {
            for index in taken..<count where kinds[index] != .problem {
                (records + index).deinitialize(count: 1)
            }
            if taken < count { (views + taken).deinitialize(count: count - taken) }
            records.deallocate()
            locations.deallocate()
            kinds.deallocate()
            times.deallocate()
            views.deallocate()
        }
    }
}
