import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The inbox behind `Bus.postFromAnyThread`: typed, allocation-free in steady state.
//
// ## Layout
//
// One *channel* per payload type holds the posted events as plain values in raw buffers: a small
// `CrossThreadHeader` (name id, sender, origin) and the payload, at the same index of two buffers.
// No closure and no box per event. Each channel has two sets of buffers: producers append to the
// `pending` set under the inbox's lock; the loop delivers from the `draining` set. A drain swaps the
// two under the lock, so both keep their capacity and neither side calls malloc once they are big
// enough.
//
// ## Order
//
// All channels share the inbox's one lock. Next to the channels, the inbox records *runs*: each
// post either extends the current run (same channel as the previous post) or starts a new one. The
// drain replays the runs in order, so events are delivered in exactly the order the lock admitted
// them — across payload types too — and so each thread's posts in the order it made them. A burst
// of one payload type is a single run: one call of the channel's delivery loop for the whole
// batch, and no per-event sequence number to store or merge on.
//
// ## Delivery
//
// A channel's delivery loop is a closure made by `@inlinable` code when the channel is created, so
// it is compiled — specialised for the payload type — in the module that posts (as `Bus.post` is),
// and moves each event out of the buffers into `bus.post` without value witnesses.
//
// ## Wake-up
//
// The first post of a batch wakes the loop; later posts of the batch only append. On a loop that
// offers wake-ups (`BusLoopWakingTargets`: `UVEventLoop`), the inbox registers itself once, from
// its first drain, and then wakes the loop by storing a ticket and sending its own `uv_async_t`:
// nothing is queued, and the ticket keeps the batch in its place among the work the loop was given
// with `execute`. On other loops, and until then, the inbox submits its one preallocated drain
// closure (`BusLoop.submit(_:)`). Either is done under the lock, which orders it with the drain and
// with shutdown. While a drain is pending, `pendingBus` keeps the bus alive, as the per-batch
// closure of the first implementation did. If the loop refuses (it is shutting down), the inbox
// closes: that post and every later one are dropped.

/// Events posted from other threads, waiting for the loop. See the comment at the top of this file.
///
/// Everything under "guarded by the lock" is touched only between ``lock()`` and ``unlock()``;
/// everything under "loop-confined" only by ``drain()``, on the loop.
@usableFromInline
final class CrossThreadInbox: BusLoopWakeUpTarget, @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    // Guarded by the lock.
    /// Every channel, in order of creation; only ever appended to.
    @exclusivity(unchecked) @usableFromInline var channels: ContiguousArray<CrossThreadChannel> = []
    /// The same channels, unretained, for posts (no reference counting on the hot path).
    @exclusivity(unchecked) @usableFromInline var channelRefs: ContiguousArray<Borrowed<CrossThreadChannel>> = []
    /// The channel index of each event name id, or -1 before its first post.
    @exclusivity(unchecked) @usableFromInline var channelOfName: ContiguousArray<Int> = []
    /// The order of the pending events, as runs over the channels, except the current run.
    @exclusivity(unchecked) @usableFromInline var pendingRuns: ContiguousArray<CrossThreadRun> = []
    /// The channel of the current run (the last post's), or -1; and how many events it has.
    @exclusivity(unchecked) @usableFromInline var runChannel = -1
    @exclusivity(unchecked) @usableFromInline var runCount = 0
    /// The first channel that got pending events in this batch, or -1; the others, if any.
    @exclusivity(unchecked) @usableFromInline var firstPendingChannel = -1
    @exclusivity(unchecked) @usableFromInline var pendingChannels: ContiguousArray<Int> = []
    /// Whether the loop was woken for the pending events (a drain submitted, or a wake-up
    /// signalled) and has not taken them yet.
    @exclusivity(unchecked) @usableFromInline var wakeScheduled = false
    /// The bus the pending drain delivers to; keeps it alive until then.
    @exclusivity(unchecked) var pendingBus: Bus?
    /// Set when the loop refused a drain (it is shutting down): posts are dropped from then on.
    @exclusivity(unchecked) @usableFromInline var isClosed = false
    /// The loop's wake-up for this inbox, once registered; `nil` again once the loop ended them.
    @exclusivity(unchecked) var wakeUp: (any BusLoopWakeUp)?
    /// The ticket of the signal sent with `wakeUp` for the pending batch, or 0. Written under the
    /// lock, read by the loop without it.
    let wakeUpTicket = Atomic<UInt64>(0)

    // Loop-confined.
    @exclusivity(unchecked) private var drainRuns: ContiguousArray<CrossThreadRun> = []
    @exclusivity(unchecked) private var drainChannelIndices: ContiguousArray<Int> = []
    @exclusivity(unchecked) private var isDraining = false
    /// Whether a drain already asked the loop for a wake-up.
    @exclusivity(unchecked) private var askedForWakeUp = false
    @exclusivity(unchecked) private var redrainRequested = false

    /// The work submitted to the loop for each batch, made once.
    @exclusivity(unchecked) private var drainWork: @Sendable () -> Void = {}

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let rc = pthread_mutex_init(mutex, nil)
        precondition(rc == 0, "pthread_mutex_init failed: \(rc)")
        // Unowned: a submitted drain always finds the inbox alive, as `pendingBus` holds its bus.
        drainWork = { [unowned self] in self.drain() }
    }

    deinit {
        wakeUp?.cancel()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inlinable
    func lock() {
        pthread_mutex_lock(mutex)
    }

    @inlinable
    func unlock() {
        pthread_mutex_unlock(mutex)
    }

    // MARK: Producers (any thread)

    /// Queues an event for `bus`'s loop and wakes the loop if this starts a batch. Thread-safe.
    @inlinable
    func post<Payload>(
        _ name: EventName<Payload>, _ payload: Payload, sender: (any AnyObject & Sendable)?, origin: EventOrigin,
        on bus: Bus
    ) {
        lock()
        defer { unlock() }
        // After a refused drain nothing would ever be delivered: drop the event.
        guard !isClosed else { return }
        let id = name.id
        var index = id < channelOfName.count ? channelOfName[id] : -1
        if index < 0 {
            index = channel(for: name)
        }
        // Unretained: `channels` owns every channel for the inbox's lifetime.
        channelRefs[index].with { base in
            let channel = assumingType(base, TypedCrossThreadChannel<Payload>.self)
            if channel.pendingCount == 0 {
                if firstPendingChannel < 0 {
                    firstPendingChannel = index
                } else {
                    pendingChannels.append(index)
                }
            }
            channel.append(nameID: id, payload, sender: sender, origin: origin)
        }
        if index == runChannel {
            runCount &+= 1
        } else {
            startRun(on: index)
        }
        if !wakeScheduled {
            scheduleDrain(for: bus)
        }
    }

    /// Ends the current run and starts one on `channel`. Under the lock.
    @usableFromInline
    func startRun(on channel: Int) {
        if runCount > 0 {
            pendingRuns.append(CrossThreadRun(channel: runChannel, count: runCount))
        }
        runChannel = channel
        runCount = 1
    }

    /// The index of the channel for `name`'s payload type, made on first use. Under the lock.
    ///
    /// `@inlinable` so that the channel's delivery loop is specialised in the posting module.
    @inlinable
    @inline(never)
    func channel<Payload>(for name: EventName<Payload>) -> Int {
        if let index = existingChannel(for: ObjectIdentifier(Payload.self), nameID: name.id) {
            return index
        }
        let channel = TypedCrossThreadChannel<Payload>(deliver: { channel, bus, count in
            assumingType(channel, TypedCrossThreadChannel<Payload>.self).deliverNext(count, to: bus)
        })
        return add(channel, nameID: name.id)
    }

    /// The index of the channel already made for `payloadType`, recorded for `nameID`; `nil` when
    /// there is none. Under the lock.
    @usableFromInline
    func existingChannel(for payloadType: ObjectIdentifier, nameID: Int) -> Int? {
        guard let index = channels.firstIndex(where: { $0.payloadType == payloadType }) else { return nil }
        record(index, for: nameID)
        return index
    }

    /// Adds `channel` and records it for `nameID`. Under the lock.
    @usableFromInline
    func add(_ channel: CrossThreadChannel, nameID: Int) -> Int {
        channels.append(channel)
        channelRefs.append(Borrowed(channel))
        record(channels.count - 1, for: nameID)
        return channels.count - 1
    }

    private func record(_ index: Int, for nameID: Int) {
        if nameID >= channelOfName.count {
            channelOfName.append(contentsOf: repeatElement(-1, count: nameID - channelOfName.count + 1))
        }
        channelOfName[nameID] = index
    }

    /// Wakes the loop for the batch the caller just started. Under the lock.
    ///
    /// Under the lock, so that it is ordered with the drain and with shutdown: if the loop refuses,
    /// its stop was requested before this post (and before any later one) was queued.
    @usableFromInline
    func scheduleDrain(for bus: Bus) {
        wakeScheduled = true
        pendingBus = bus
        if let wakeUp {
            wakeUpTicket.store(wakeUp.takeTicket(), ordering: .releasing)
            wakeUp.signal()
            return
        }
        guard bus.loop.submit(drainWork) else {
            // The loop is shutting down. What is pending stays until the bus goes (releasing it
            // here, under the lock, could run a deinit that posts again); no later post is queued.
            isClosed = true
            wakeScheduled = false
            pendingBus = nil
            return
        }
    }

    // MARK: Wake-ups (BusLoopWakeUpTarget)

    var pendingWakeUpTicket: UInt64 {
        wakeUpTicket.load(ordering: .acquiring)
    }

    func loopDidWake() {
        drain()
    }

    func loopEndedWakeUps() {
        lock()
        wakeUp = nil
        var stranded: Bus?
        if wakeScheduled && wakeUpTicket.load(ordering: .relaxed) != 0 {
            // Signalled after the loop's last look: posted while it shut down, never delivered.
            // Close like a refused drain, and let go of the bus (outside the lock).
            isClosed = true
            wakeScheduled = false
            wakeUpTicket.store(0, ordering: .relaxed)
            stranded = pendingBus
            pendingBus = nil
        }
        unlock()
        _ = stranded
    }

    // MARK: The loop

    /// Delivers every pending event, in order. Runs on the loop (the submitted drain work).
    func drain() {
        guard !isDraining else {
            // A post delivered by this drain ran the loop, which ran the drain again: the outer
            // drain takes the new batch once its own is delivered, keeping the order.
            redrainRequested = true
            return
        }
        isDraining = true
        defer { isDraining = false }
        repeat {
            redrainRequested = false
            lock()
            guard let bus = pendingBus else {
                unlock()
                return
            }
            pendingBus = nil
            wakeScheduled = false
            wakeUpTicket.store(0, ordering: .relaxed)
            // The common batch is one run on one channel: then no list is touched.
            let lastRun = CrossThreadRun(channel: runChannel, count: runCount)
            runChannel = -1
            runCount = 0
            let firstChannel = firstPendingChannel
            firstPendingChannel = -1
            if !pendingRuns.isEmpty { swap(&pendingRuns, &drainRuns) }
            if !pendingChannels.isEmpty { swap(&pendingChannels, &drainChannelIndices) }
            let channels = channels
            if firstChannel >= 0 { channels[firstChannel].swapBuffers() }
            for index in drainChannelIndices {
                channels[index].swapBuffers()
            }
            unlock()

            for run in drainRuns {
                let channel = channels[run.channel]
                channel.deliver(channel, bus, run.count)
            }
            if lastRun.count > 0 {
                let channel = channels[lastRun.channel]
                channel.deliver(channel, bus, lastRun.count)
            }
            if firstChannel >= 0 { channels[firstChannel].finishBatch() }
            for index in drainChannelIndices {
                channels[index].finishBatch()
            }
            if !drainRuns.isEmpty { Self.reset(&drainRuns) }
            if !drainChannelIndices.isEmpty { Self.reset(&drainChannelIndices) }
            if !askedForWakeUp {
                askedForWakeUp = true
                registerWakeUp(on: bus.loop)
            }
        } while redrainRequested
    }

    /// Registers for wake-ups if `loop` offers them, so that later batches need not queue the drain.
    /// On the loop.
    private func registerWakeUp(on loop: any BusLoop) {
        guard let loop = loop as? any BusLoopWakingTargets, let wakeUp = loop.makeWakeUp(for: self) else { return }
        lock()
        self.wakeUp = wakeUp
        unlock()
    }

    /// The capacity, in events, of each channel's two sets of buffers, in order of creation. Takes
    /// the lock; loop-confined (the draining buffers belong to the loop). For tests.
    var bufferCapacities: [(pending: Int, draining: Int)] {
        lock()
        defer { unlock() }
        return channels.map { ($0.pendingCapacity, $0.drainingCapacity) }
    }

    /// Empties a loop-side list, keeping its capacity unless a burst made it large.
    private static func reset<Element>(_ list: inout ContiguousArray<Element>) {
        if list.capacity > 4096 && list.count < list.capacity / 8 {
            list = []
        } else {
            list.removeAll(keepingCapacity: true)
        }
    }
}
