import DequeModule
import ResponderBusPlatform

/// One thread for all of a replay's background work: reading the log ahead of the replay and
/// writing its output behind it. A replay then keeps two threads busy, its loop and this one, where
/// a thread for each would keep three; on a machine with two cores, the third would take turns on
/// the loop's core (the benchmark documentation has what that cost).
///
/// Part of the reader's audited layer. Two lanes share one lock:
///
/// - **Reading ahead.** While a replay reads ahead (``startReadingAhead(capacity:_:)`` to
///   ``stopReadingAhead()``), the thread calls the replay's `read` closure for batch after batch
///   while fewer than its capacity wait, and the replay takes them in order (``takeReadAhead()``).
/// - **Writing behind.** The replay hands over work (``writeBehind(_:)``: encoding and writing a
///   batch of lines), which the thread runs in order. At most ``writeCapacity`` pieces wait;
///   ``waitForWritesBehind()`` returns once all have run.
///
/// The thread reads first while fewer than half the read-ahead batches wait, unless the replay
/// waits to hand over a write; otherwise it writes first. The replay does not wait for the thread
/// when it can do the work itself: with no batch read ahead and none being read, it reads the
/// next one; with the writes full and none being written, it runs the oldest. (On a machine whose
/// cores are not all as fast, or as free, the two then share the work as they can.) A side that
/// waits is woken only when it has a run of work (as in `BatchChannel`): the thread once half the
/// read-ahead batches are taken or ``writeWakeUp`` writes wait, the writing side once half the
/// writes have run.
///
/// ## Invariant
///
/// Every field below `guarded` is read and changed with its lock held, and only through this class.
/// The `read` closure and each write run with it released, one at a time each — whoever sets
/// `reading` (or `writing`) runs the one read (or write) there is: the thread, or the replay's own
/// thread instead of waiting — so batches are read, and writes run, in order and never two at once.
/// While a read runs, ``stopReadingAhead()`` waits for it to return, so the reader it reads from is
/// the caller's again when that returns. A pthread mutex and condition variable
/// (``ConditionLock``), which ThreadSanitizer understands.
package final class HelperThread: @unchecked Sendable {
    /// How many pieces of write-behind work may wait.
    package let writeCapacity: Int
    /// How many must wait before the thread, waiting, is woken for them.
    package let writeWakeUp: Int

    private let guarded = ConditionLock()
    private var thread: SystemThread?

    // Reading ahead (guarded by `guarded`).
    private var read: (() -> ReadAhead.Batch?)?
    private var readCapacity = 0
    private var batches = Deque<ReadAhead.Batch>()
    private var readEnded = false
    private var reading = false
    // Writing behind (guarded by `guarded`).
    private var writes = Deque<@Sendable () -> Void>()
    private var writing = false
    // Who waits (guarded by `guarded`): each is woken only when what it waits for may have come.
    private var threadWaits = false
    private var takerWaits = false
    private var writerWaits = false
    private var flusherWaits = false
    private var stopperWaits = false
    private var stopping = false

    /// Starts the thread; `nil` when no thread can be had.
    ///
    /// - Parameters:
    ///   - writeCapacity: how many pieces of write-behind work may wait.
    ///   - writeWakeUp: how many must wait before the thread is woken for them (1: at once).
    package init?(writeCapacity: Int = 32, writeWakeUp: Int = 16) {
        precondition(writeCapacity > 0 && writeWakeUp > 0 && writeWakeUp <= writeCapacity)
        self.writeCapacity = writeCapacity
        self.writeWakeUp = writeWakeUp
        // The thread holds the helper until it ends (``shutDown()`` ends it).
        guard let thread = SystemThread.start({ [self] in run() }) else { return nil }
        self.thread = thread
    }

    // MARK: The thread

    private func run() {
        guarded.lock()
        while true {
            // Reading comes first while fewer than half the batches wait (or the replay waits for
            // one), unless the replay waits to hand over a write.
            if !writerWaits, let read = readable, takerWaits || batches.count < readCapacity / 2 {
                readBatch(read)
            } else if !writing, let write = writes.popFirst() {
                writing = true
                if writerWaits && writes.count <= writeCapacity / 2 { guarded.wake() }
                guarded.unlock()
                write()
                guarded.lock()
                writing = false
                if (flusherWaits && writes.isEmpty) || writerWaits { guarded.wake() }
            } else if let read = readable {
                readBatch(read)
            } else if stopping {
                break
            } else {
                threadWaits = true
                guarded.wait()
                threadWaits = false
            }
        }
        guarded.unlock()
    }

    /// The `read` closure, when a batch should be read now and none is being read. Call with the
    /// lock held.
    private var readable: (() -> ReadAhead.Batch?)? {
        guard let read, !readEnded, !reading, batches.count < readCapacity else { return nil }
        return read
    }

    /// Reads a batch with the lock released and queues it. Call with the lock held.
    private func readBatch(_ read: () -> ReadAhead.Batch?) {
        guard let batch = readOne(read) else { return }
        batches.append(batch)
        if takerWaits { guarded.wake() }
    }

    /// Reads one batch with the lock released, on the calling thread; `nil` at the end of the
    /// input (which it notes) or when reading stopped meanwhile (the batch is dropped). Call with
    /// the lock held and no read running.
    private func readOne(_ read: () -> ReadAhead.Batch?) -> ReadAhead.Batch? {
        reading = true
        guarded.unlock()
        let batch = read()
        guarded.lock()
        reading = false
        if self.read == nil {
            // Stopped meanwhile: the stopper waits for this.
            if stopperWaits { guarded.wake() }
            return nil
        }
        if batch == nil {
            readEnded = true
            if takerWaits { guarded.wake() }
        }
        return batch
    }

    // MARK: Reading ahead

    /// Starts reading ahead: the thread calls `read` for batch after batch while fewer than
    /// `capacity` wait, until it returns `nil` (the end of the input) or ``stopReadingAhead()``.
    /// One replay reads ahead at a time.
    func startReadingAhead(capacity: Int, _ read: @escaping @Sendable () -> ReadAhead.Batch?) {
        precondition(capacity > 0)
        guarded.lock()
        precondition(self.read == nil, "a replay is reading ahead on this thread already")
        self.read = read
        readCapacity = capacity
        readEnded = false
        batches.removeAll()
        if threadWaits { guarded.wake() }
        guarded.unlock()
    }

    /// The next batch read ahead, waiting for the thread if need be; `nil` at the end of the input
    /// or once stopped.
    func takeReadAhead() -> ReadAhead.Batch? {
        guarded.lock()
        defer { guarded.unlock() }
        while batches.isEmpty && !readEnded && read != nil {
            // Nothing read ahead and nothing being read: the next batch is read here rather than
            // waited for.
            if let read = readable { return readOne(read) }
            takerWaits = true
            guarded.wait()
        }
        takerWaits = false
        guard let batch = batches.popFirst() else { return nil }
        if threadWaits && !readEnded && batches.count <= readCapacity / 2 { guarded.wake() }
        return batch
    }

    /// Stops reading ahead: batches not taken are dropped, and once this returns the thread no
    /// longer runs (nor will run) `read`. Idempotent.
    func stopReadingAhead() {
        guarded.lock()
        read = nil
        batches.removeAll()
        while reading {
            stopperWaits = true
            guarded.wait()
        }
        stopperWaits = false
        guarded.unlock()
    }

    // MARK: Writing behind

    /// Hands `work` to the thread, which runs it after the work handed over before; waits while
    /// ``writeCapacity`` pieces wait already.
    package func writeBehind(_ work: @escaping @Sendable () -> Void) {
        guarded.lock()
        while writes.count >= writeCapacity {
            if !writing, let write = writes.popFirst() {
                // The writes are full and none is running: the oldest runs here, not waited for.
                writing = true
                guarded.unlock()
                write()
                guarded.lock()
                writing = false
                if flusherWaits && writes.isEmpty { guarded.wake() }
                continue
            }
            writerWaits = true
            guarded.wait()
        }
        writerWaits = false
        writes.append(work)
        if threadWaits && writes.count >= writeWakeUp { guarded.wake() }
        guarded.unlock()
    }

    /// Waits until all the work handed over has run.
    package func waitForWritesBehind() {
        guarded.lock()
        while !writes.isEmpty || writing {
            flusherWaits = true
            if threadWaits { guarded.wake() }
            guarded.wait()
        }
        flusherWaits = false
        guarded.unlock()
    }

    // MARK: Ending

    /// Runs the work handed over, ends the thread and waits for it. Call it once, from a thread of
    /// the caller's (not from work run on this one), after the replay that read ahead on it stopped
    /// (``stopReadingAhead()``): shutting down under a replay would end its input early, so that
    /// stops the program instead.
    package func shutDown() {
        guarded.lock()
        precondition(read == nil, "HelperThread shut down while a replay reads ahead on it; stop the replay first")
        stopping = true
        guarded.wake()
        guarded.unlock()
        if let thread {
            thread.join()
            self.thread = nil
        }
    }
}
